/* SPDX-License-Identifier: MIT */
/*
 * The bitsliced NEON AES drivers (AArch64 and ARMv7 AArch32, constant
 * time): the single-block cipher "aes-neonbs" and its template instances
 * "xts-aes-neonbs", "ecb-aes-neonbs", "ctr-aes-neonbs", "cbc-aes-neonbs"
 * (decryption through the core; encryption is serial and goes one block
 * at a time through the cipher), "cfb-aes-neonbs" (likewise) and
 * "cts-aes-neonbs", priority 250: above aes-generic (100) and the
 * variable-time aes-table (120), below AES Crypto Extension drivers
 * (400). Registers nothing on other architectures or in builds without
 * SIMD; on ARM the registry hides them on CPUs without NEON.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_NEONBS_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_NEONBS_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int aes_neonbs_register(struct crypto_registry *reg);

#endif
