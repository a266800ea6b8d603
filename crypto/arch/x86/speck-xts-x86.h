/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SIMD cores for Speck128 and Speck64, XTS and ECB (internal; the
 * glue is speck-xts-x86-glue.c).
 *
 * Variants and the CPUs they are for:
 *   *_avx2    AVX2 (Haswell and later, Zen 1 and later), 256-bit vectors
 *   *_avx512  AVX-512F (Skylake-SP, Ice Lake, Zen 4, Zen 5), 512-bit vectors
 *
 * The entry points take the child context itself (struct
 * speck128_tfm_ctx or struct speck64_tfm_ctx, crypto/speck/speck.h, as
 * the generic setkey fills it) with the crypto_bulk_ops signatures, so
 * the glue lists them in its tables as they are. Contract:
 *  - nbytes is a nonzero multiple of 128;
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - XTS: tweak is the running tweak already encrypted with K2 (16 bytes
 *    for Speck128, 8 for Speck64), used for the first block and updated to
 *    the tweak of the block after the last one, so C can continue.
 * All run in constant time: add, rotate, xor and fixed shuffles only.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_SPECK_XTS_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_SPECK_XTS_X86_H

#include <stddef.h>
#include <stdint.h>

/* the bulk entry points of one core (SPECK_X86_ENTRY_POINTS(avx2), ...) */
#define SPECK_X86_ENTRY_POINTS(isa)                                            \
	void speck128_xts_encrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes,     \
					uint8_t *tweak);                       \
	void speck128_xts_decrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes,     \
					uint8_t *tweak);                       \
	void speck128_ecb_encrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes);    \
	void speck128_ecb_decrypt_##isa(const void *ctx, uint8_t *dst,         \
					const uint8_t *src, size_t nbytes);    \
	void speck64_xts_encrypt_##isa(const void *ctx, uint8_t *dst,          \
				       const uint8_t *src, size_t nbytes,      \
				       uint8_t *tweak);                        \
	void speck64_xts_decrypt_##isa(const void *ctx, uint8_t *dst,          \
				       const uint8_t *src, size_t nbytes,      \
				       uint8_t *tweak);                        \
	void speck64_ecb_encrypt_##isa(const void *ctx, uint8_t *dst,          \
				       const uint8_t *src, size_t nbytes);     \
	void speck64_ecb_decrypt_##isa(const void *ctx, uint8_t *dst,          \
				       const uint8_t *src, size_t nbytes)

SPECK_X86_ENTRY_POINTS(avx2);   /* speck-xts-avx2.c */
SPECK_X86_ENTRY_POINTS(avx512); /* speck-xts-avx512.c */

#endif
