/* SPDX-License-Identifier: MIT */
/*
 * NEON cores for Speck128 and Speck64, XTS and ECB (internal; the glue is
 * speck-xts-neon-glue.c): speck-xts-neon-core-arm64.S
 * for AArch64 and speck-xts-neon-core-arm32.S for ARMv7 AArch32, one
 * set of entry points for both.
 *
 * Like the x86 cores (../x86/speck-xts-x86.h) the entry points take the
 * child context itself (struct speck128_tfm_ctx or struct speck64_tfm_ctx,
 * crypto/speck/speck.h, as the generic setkey fills it) with the
 * crypto_bulk_ops signatures, so the glue lists them in its tables as
 * they are. Contract:
 *  - nbytes is a nonzero multiple of SPECK_NEON_CHUNK;
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - XTS: tweak is the running tweak already encrypted with K2 (16 bytes
 *    for Speck128, 8 for Speck64), used for the first block and updated to
 *    the tweak of the block after the last one, so C can continue.
 * All run in constant time: add, rotate, xor and fixed permutations.
 *
 * The cores read the contexts at the *_CTX_* offsets below: this header
 * is included by the .S files too (only the offsets are seen there), and
 * the glue checks them against speck.h's structs with offsetof, so a
 * change of the layout fails the build instead of the cores.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_SPECK_XTS_NEON_H
#define CLOAKFS_CRYPTO_ARCH_ARM_SPECK_XTS_NEON_H

/* bytes per core step: 8 Speck128 or 16 Speck64 blocks */
#define SPECK_NEON_CHUNK 128

/* byte offsets in struct speck128_tfm_ctx / speck64_tfm_ctx */
#define SPECK128_CTX_ROUND_KEYS 0
#define SPECK128_CTX_NROUNDS 272 /* 34 round keys of 8 bytes */
#define SPECK64_CTX_ROUND_KEYS 0
#define SPECK64_CTX_NROUNDS 108 /* 27 round keys of 4 bytes */

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

void speck128_xts_encrypt_neon(const void *ctx, uint8_t *dst,
			       const uint8_t *src, size_t nbytes,
			       uint8_t *tweak);
void speck128_xts_decrypt_neon(const void *ctx, uint8_t *dst,
			       const uint8_t *src, size_t nbytes,
			       uint8_t *tweak);
void speck128_ecb_encrypt_neon(const void *ctx, uint8_t *dst,
			       const uint8_t *src, size_t nbytes);
void speck128_ecb_decrypt_neon(const void *ctx, uint8_t *dst,
			       const uint8_t *src, size_t nbytes);
void speck64_xts_encrypt_neon(const void *ctx, uint8_t *dst,
			      const uint8_t *src, size_t nbytes,
			      uint8_t *tweak);
void speck64_xts_decrypt_neon(const void *ctx, uint8_t *dst,
			      const uint8_t *src, size_t nbytes,
			      uint8_t *tweak);
void speck64_ecb_encrypt_neon(const void *ctx, uint8_t *dst,
			      const uint8_t *src, size_t nbytes);
void speck64_ecb_decrypt_neon(const void *ctx, uint8_t *dst,
			      const uint8_t *src, size_t nbytes);

#endif /* __ASSEMBLER__ */

#endif
