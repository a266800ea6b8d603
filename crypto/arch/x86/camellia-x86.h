/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SIMD cores for Camellia (internal; the glue is
 * camellia-x86-glue.c). One body, camellia-x86-core.h,
 * instantiated per ISA:
 *   *_aesni_avx2    AES-NI + AVX2: S-box through AESENCLAST, 32 blocks a step
 *   *_gfni_avx2     GFNI + AVX2: S-box through GF2P8AFFINE(INV)QB, 32 blocks
 *   *_gfni_avx512   GFNI + AVX-512F/BW: 512-bit vectors, 64 blocks a step
 *
 * The entry points take the cipher context itself (struct camellia_x86_ctx,
 * filled by the glue's setkey) with the signatures of struct cipher_alg
 * and struct crypto_bulk_ops (crypto/internal/alg.h), so the glue lists
 * them in its tables as they are. Contract:
 *  - the bulk functions take nbytes, a nonzero multiple of
 *    CAMELLIA_X86_STEP_AVX2 bytes (the AVX-512 core hands a last 512
 *    bytes to the GFNI-AVX2 core); the cipher functions any number of
 *    blocks, a partial step padded on the stack;
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - chaining state is updated so C continues where the core stopped:
 *    XTS tweak (already encrypted, little-endian GF(2^128) element) to the
 *    tweak of the next block, CBC/CFB iv to the last ciphertext block,
 *    CTR to the next big-endian 128-bit counter value.
 * All run in constant time: fixed shuffles, xor/and/or, adds on bytes,
 * AESENCLAST and GF2P8AFFINE(INV)QB; no secret-dependent branch or
 * address.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_CAMELLIA_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_CAMELLIA_X86_H

#include <stddef.h>
#include <stdint.h>

/* bytes per step: 16 vectors of 16-byte blocks (2 per ymm, 4 per zmm) */
#define CAMELLIA_X86_STEP_AVX2 512
#define CAMELLIA_X86_STEP_AVX512 1024

/* subkeys of one direction, at most 2 + 24 + 6 + 2 (camellia_key_order) */
#define CAMELLIA_X86_MAX_KEYS 34

/*
 * The key schedule as the cores take it: each subkey (in the order one
 * direction applies it) as 8 words, word p holding byte p of the subkey
 * (most significant first) four times, so one 32-bit broadcast puts it
 * in every byte of a vector.
 */
struct camellia_x86_ctx {
	uint32_t enc[CAMELLIA_X86_MAX_KEYS][8];
	uint32_t dec[CAMELLIA_X86_MAX_KEYS][8];
	unsigned int rounds; /* 18 or 24 */
};

#define CAMELLIA_X86_ENTRY_POINTS(isa)                                         \
	void camellia_encrypt_##isa(const void *ctx, uint8_t *dst,             \
				    const uint8_t *src);                       \
	void camellia_decrypt_##isa(const void *ctx, uint8_t *dst,             \
				    const uint8_t *src);                       \
	void camellia_encrypt_blocks_##isa(const void *ctx, uint8_t *dst,      \
					   const uint8_t *src, size_t n);      \
	void camellia_decrypt_blocks_##isa(const void *ctx, uint8_t *dst,      \
					   const uint8_t *src, size_t n);      \
	void camellia_ecb_encrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes);    \
	void camellia_ecb_decrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes);    \
	void camellia_xts_encrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes,     \
					uint8_t *tweak);                       \
	void camellia_xts_decrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes,     \
					uint8_t *tweak);                       \
	void camellia_cbc_decrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes,     \
					uint8_t *iv);                          \
	void camellia_cfb_decrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes,     \
					uint8_t *iv);                          \
	void camellia_ctr_crypt_##isa(const void *ctx, uint8_t *dst,           \
				      const uint8_t *src, size_t nbytes,       \
				      uint8_t *ctr);                           \
	/* s_kind (kind 1..4) on each of the 4 bytes of w, for the S-box test */ \
	uint32_t camellia_sbox_##isa(int kind, uint32_t w)

CAMELLIA_X86_ENTRY_POINTS(aesni_avx2);
CAMELLIA_X86_ENTRY_POINTS(gfni_avx2);
CAMELLIA_X86_ENTRY_POINTS(gfni_avx512);

#endif
