/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SIMD cores for Speck128 and Speck64, XTS and ECB (internal; the
 * glue is crypto/speck/speck-xts-x86-glue.c).
 *
 * Variants and the CPUs they are for:
 *   *_avx2    AVX2 (Haswell and later, Zen 1 and later), 256-bit vectors
 *   *_avx512  AVX-512F (Skylake-SP, Ice Lake, Zen 4, Zen 5), 512-bit vectors
 *
 * Contract of every entry point:
 *  - round_keys/nrounds are those of struct speck128_tfm_ctx or
 *    struct speck64_tfm_ctx (crypto/speck/speck.h), encryption order;
 *  - nbytes is a nonzero multiple of 128;
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - XTS: tweak is the running tweak already encrypted with K2 (16 bytes
 *    for Speck128, 8 for Speck64), used for the first block and updated to
 *    the tweak of the block after the last one, so C can continue.
 * All run in constant time: add, rotate, xor and fixed shuffles only.
 */
#ifndef CLOAKFS_ASM_X86_SPECK_XTS_X86_H
#define CLOAKFS_ASM_X86_SPECK_XTS_X86_H

#include <stddef.h>
#include <stdint.h>

/* avx2 (speck-xts-avx2.c) */
void speck128_xts_encrypt_avx2(const uint64_t *round_keys, int nrounds,
			       uint8_t *dst, const uint8_t *src, size_t nbytes,
			       uint8_t *tweak);
void speck128_xts_decrypt_avx2(const uint64_t *round_keys, int nrounds,
			       uint8_t *dst, const uint8_t *src, size_t nbytes,
			       uint8_t *tweak);
void speck128_ecb_encrypt_avx2(const uint64_t *round_keys, int nrounds,
			       uint8_t *dst, const uint8_t *src, size_t nbytes);
void speck128_ecb_decrypt_avx2(const uint64_t *round_keys, int nrounds,
			       uint8_t *dst, const uint8_t *src, size_t nbytes);
void speck64_xts_encrypt_avx2(const uint32_t *round_keys, int nrounds,
			      uint8_t *dst, const uint8_t *src, size_t nbytes,
			      uint8_t *tweak);
void speck64_xts_decrypt_avx2(const uint32_t *round_keys, int nrounds,
			      uint8_t *dst, const uint8_t *src, size_t nbytes,
			      uint8_t *tweak);
void speck64_ecb_encrypt_avx2(const uint32_t *round_keys, int nrounds,
			      uint8_t *dst, const uint8_t *src, size_t nbytes);
void speck64_ecb_decrypt_avx2(const uint32_t *round_keys, int nrounds,
			      uint8_t *dst, const uint8_t *src, size_t nbytes);

/* avx512 (speck-xts-avx512.c) */
void speck128_xts_encrypt_avx512(const uint64_t *round_keys, int nrounds,
				 uint8_t *dst, const uint8_t *src,
				 size_t nbytes, uint8_t *tweak);
void speck128_xts_decrypt_avx512(const uint64_t *round_keys, int nrounds,
				 uint8_t *dst, const uint8_t *src,
				 size_t nbytes, uint8_t *tweak);
void speck128_ecb_encrypt_avx512(const uint64_t *round_keys, int nrounds,
				 uint8_t *dst, const uint8_t *src,
				 size_t nbytes);
void speck128_ecb_decrypt_avx512(const uint64_t *round_keys, int nrounds,
				 uint8_t *dst, const uint8_t *src,
				 size_t nbytes);
void speck64_xts_encrypt_avx512(const uint32_t *round_keys, int nrounds,
				uint8_t *dst, const uint8_t *src, size_t nbytes,
				uint8_t *tweak);
void speck64_xts_decrypt_avx512(const uint32_t *round_keys, int nrounds,
				uint8_t *dst, const uint8_t *src, size_t nbytes,
				uint8_t *tweak);
void speck64_ecb_encrypt_avx512(const uint32_t *round_keys, int nrounds,
				uint8_t *dst, const uint8_t *src,
				size_t nbytes);
void speck64_ecb_decrypt_avx512(const uint32_t *round_keys, int nrounds,
				uint8_t *dst, const uint8_t *src,
				size_t nbytes);

#endif
