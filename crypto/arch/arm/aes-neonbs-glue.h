/* SPDX-License-Identifier: MIT */
/*
 * The bitsliced NEON AES drivers (AArch64 and ARMv7 AArch32, constant
 * time): the single-block cipher "aes-neonbs" and its template instances
 * "xts-aes-neonbs", "ecb-aes-neonbs", "ctr-aes-neonbs", "cbc-aes-neonbs"
 * (decryption through the core; encryption is serial and goes one block
 * at a time through the cipher), "cfb-aes-neonbs" (likewise) and
 * "cts-aes-neonbs", priority 250 (the cipher; 310 the modes, above the
 * single-block aes-neon's 300 and its generic mode instances): above
 * aes-generic (100) and the variable-time aes-table (120), below AES
 * Crypto Extension drivers (400). Registers nothing on other architectures or in builds without
 * SIMD; on ARM the registry hides them on CPUs without NEON.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_NEONBS_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_NEONBS_GLUE_H

#include <stddef.h>
#include <stdint.h>

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int aes_neonbs_register(struct crypto_registry *reg);

/*
 * The cipher's setkey and batch entry points on its context (a struct
 * aes_neonbs_key), for aes-neon's batches; only in builds with the cores
 */
int aes_neonbs_setkey(void *ctx, const uint8_t *key, size_t keylen);
void aes_neonbs_encrypt_blocks(const void *ctx, uint8_t *dst,
			       const uint8_t *src, size_t nblocks);
void aes_neonbs_decrypt_blocks(const void *ctx, uint8_t *dst,
			       const uint8_t *src, size_t nblocks);

#endif
