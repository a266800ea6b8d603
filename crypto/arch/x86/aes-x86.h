/* SPDX-License-Identifier: MIT */
/*
 * x86-64 AES cores (internal; the glue is aes-x86-glue.c).
 *
 * Variants and the CPUs they are for:
 *   *_aesni        AES-NI + SSE4.1, 128-bit vectors, 8 blocks in flight
 *                  (Westmere and later, Bulldozer/Jaguar/Zen, Silvermont)
 *   *_vaes_avx2    VAES + VPCLMULQDQ + AVX2, 256-bit vectors, 16 blocks in
 *                  flight (Ice Lake, Alder Lake, Zen 3 and later)
 *   *_vaes_avx512  VAES + VPCLMULQDQ + AVX-512F/VL/BW, 512-bit vectors,
 *                  32 blocks in flight (Ice Lake-SP, Sapphire Rapids,
 *                  Zen 4, Zen 5)
 *
 * The entry points take the cipher context itself (a struct aes_x86_ctx
 * filled by aes_x86_setkey()) with the signatures of struct cipher_alg
 * and struct crypto_bulk_ops (crypto/internal/alg.h), so the glue lists
 * them in its tables as they are. Contract of every mode entry point:
 *  - nbytes is a nonzero multiple of 128 (AES_X86_CHUNK);
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - XTS: tweak is the running tweak, already encrypted with K2, used for
 *    the first block and updated to the tweak of the block after the last;
 *  - CBC/CFB: iv is updated to the last ciphertext block;
 *  - CTR: ctr is a 128-bit big-endian counter, updated to the next unused
 *    value (it wraps modulo 2^128).
 * All run in constant time: AES instructions, carry-less multiplies, XOR
 * and fixed shuffles only; branches depend on lengths and the public
 * counter, never on keys or data.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_AES_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_AES_X86_H

#include <stddef.h>
#include <stdint.h>

#define AES_X86_CHUNK 128
#define AES_X86_MAX_ROUNDS 14

/*
 * Round keys as the AES instructions want them: enc in encryption order,
 * dec for the equivalent inverse cipher (FIPS-197 5.3.5: the keys in
 * reverse order, InvMixColumns applied to all but the first and last).
 */
struct aes_x86_ctx {
	_Alignas(16) uint8_t enc[(AES_X86_MAX_ROUNDS + 1) * 16];
	_Alignas(16) uint8_t dec[(AES_X86_MAX_ROUNDS + 1) * 16];
	unsigned int rounds; /* 10, 12 or 14 */
};

/* aes-aesni.c: key expansion (AESKEYGENASSIST, AESIMC); 0 or -EINVAL */
int aes_x86_setkey(void *ctx, const uint8_t *key, size_t keylen);
/* one block, and nblocks independent blocks with 8 in flight (any count) */
void aes_encrypt_aesni(const void *ctx, uint8_t *dst, const uint8_t *src);
void aes_decrypt_aesni(const void *ctx, uint8_t *dst, const uint8_t *src);
void aes_encrypt_blocks_aesni(const void *ctx, uint8_t *dst,
			      const uint8_t *src, size_t nblocks);
void aes_decrypt_blocks_aesni(const void *ctx, uint8_t *dst,
			      const uint8_t *src, size_t nblocks);

/* the modes, one set per variant: aes-aesni.c, aes-vaes-avx2.c, aes-vaes-avx512.c */
#define AES_X86_DECLARE_MODES(isa)                                             \
	void aes_xts_encrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes,          \
				   uint8_t *tweak);                            \
	void aes_xts_decrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes,          \
				   uint8_t *tweak);                            \
	void aes_ecb_encrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes);         \
	void aes_ecb_decrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes);         \
	void aes_cbc_decrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes,          \
				   uint8_t *iv);                               \
	void aes_cfb_decrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes,          \
				   uint8_t *iv);                               \
	void aes_ctr_crypt_##isa(const void *ctx, uint8_t *dst,                \
				 const uint8_t *src, size_t nbytes,            \
				 uint8_t *ctr);

AES_X86_DECLARE_MODES(aesni)
AES_X86_DECLARE_MODES(vaes_avx2)
AES_X86_DECLARE_MODES(vaes_avx512)

#endif
