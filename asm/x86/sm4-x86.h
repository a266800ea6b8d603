/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SIMD cores for SM4 (internal; the glue is
 * crypto/sm4/sm4-x86-glue.c). One body, asm/x86/sm4-x86-core.h,
 * instantiated per ISA:
 *   *_aesni_avx2    AES-NI + AVX2 (Haswell and later, Zen 1 and later):
 *                   S-box through AESENCLAST, 32 blocks per step
 *   *_gfni_avx2     GFNI + AVX2 (Alder Lake and later client cores):
 *                   S-box through GF2P8AFFINE(INV)QB, 32 blocks per step
 *   *_gfni_avx512   GFNI + AVX-512F/BW (Ice Lake, Sapphire Rapids, Zen 4,
 *                   Zen 5): 512-bit vectors, 64 blocks per step
 *
 * Contract of every entry point:
 *  - rk is 32 round keys (struct sm4_x86_ctx, crypto/sm4/sm4-x86-glue.c) in the
 *    order they are applied: rk_enc to encrypt, rk_dec (reversed) to
 *    decrypt; XTS and ECB take either, CFB and CTR always encrypt;
 *  - nbytes is a nonzero multiple of SM4_X86_CHUNK (sm4_crypt_blocks_*
 *    takes any nblocks >= 1);
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - chaining state is updated so C continues where the core stopped:
 *    XTS tweak (already encrypted, little-endian GF(2^128) element) to the
 *    tweak of the next block, CBC/CFB iv to the last ciphertext block,
 *    CTR to the next big-endian 128-bit counter value.
 * All run in constant time: fixed shuffles, xor, shifts, rotates,
 * AESENCLAST and GF2P8AFFINE(INV)QB; no secret-dependent branch or
 * address.
 */
#ifndef CLOAKFS_ASM_X86_SM4_X86_H
#define CLOAKFS_ASM_X86_SM4_X86_H

#include <stddef.h>
#include <stdint.h>

/*
 * The bulk hooks' granularity, 16 blocks: two AVX2 sets, one AVX-512 set
 * (a main step is 4 sets; what is left of a request runs as 1 to 3).
 */
#define SM4_X86_CHUNK 256

/*
 * Per core: tau is the S-box on each byte of w (for the key schedule);
 * sm4_crypt_blocks is ECB on any nblocks >= 1 (the single-block driver
 * pads a partial step on the stack); the mode functions take nbytes, a
 * nonzero multiple of SM4_X86_CHUNK.
 */
/* AES-NI + AVX2 (sm4-aesni-avx2.c) */
uint32_t sm4_tau_aesni_avx2(uint32_t w);
void sm4_crypt_blocks_aesni_avx2(const uint32_t *rk, uint8_t *dst,
				 const uint8_t *src, size_t nblocks);
void sm4_xts_crypt_aesni_avx2(const uint32_t *rk, uint8_t *dst,
			      const uint8_t *src, size_t nbytes, uint8_t *tweak);
void sm4_cbc_decrypt_aesni_avx2(const uint32_t *rk_dec, uint8_t *dst,
				const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_cfb_decrypt_aesni_avx2(const uint32_t *rk_enc, uint8_t *dst,
				const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_ctr_crypt_aesni_avx2(const uint32_t *rk_enc, uint8_t *dst,
			      const uint8_t *src, size_t nbytes, uint8_t *ctr);

/* GFNI + AVX2 (sm4-gfni-avx2.c) */
uint32_t sm4_tau_gfni_avx2(uint32_t w);
void sm4_crypt_blocks_gfni_avx2(const uint32_t *rk, uint8_t *dst,
				const uint8_t *src, size_t nblocks);
void sm4_xts_crypt_gfni_avx2(const uint32_t *rk, uint8_t *dst,
			     const uint8_t *src, size_t nbytes, uint8_t *tweak);
void sm4_cbc_decrypt_gfni_avx2(const uint32_t *rk_dec, uint8_t *dst,
			       const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_cfb_decrypt_gfni_avx2(const uint32_t *rk_enc, uint8_t *dst,
			       const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_ctr_crypt_gfni_avx2(const uint32_t *rk_enc, uint8_t *dst,
			     const uint8_t *src, size_t nbytes, uint8_t *ctr);

/* GFNI + AVX-512 (sm4-gfni-avx512.c) */
uint32_t sm4_tau_gfni_avx512(uint32_t w);
void sm4_crypt_blocks_gfni_avx512(const uint32_t *rk, uint8_t *dst,
				  const uint8_t *src, size_t nblocks);
void sm4_xts_crypt_gfni_avx512(const uint32_t *rk, uint8_t *dst,
			       const uint8_t *src, size_t nbytes, uint8_t *tweak);
void sm4_cbc_decrypt_gfni_avx512(const uint32_t *rk_dec, uint8_t *dst,
				 const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_cfb_decrypt_gfni_avx512(const uint32_t *rk_enc, uint8_t *dst,
				 const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_ctr_crypt_gfni_avx512(const uint32_t *rk_enc, uint8_t *dst,
			       const uint8_t *src, size_t nbytes, uint8_t *ctr);

#endif
