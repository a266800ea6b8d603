/* SPDX-License-Identifier: MIT */
/*
 * The single-block NEON AES cipher "aes-neon" (AArch64 and ARMv7
 * AArch32 without the Crypto Extensions, constant time), priority 300:
 * above aes-neonbs (250), whose core pays for eight blocks whatever it
 * is given, below the AES Crypto Extension drivers (400). The mode
 * drivers stay on aes-neonbs (they name it as their child). Registers
 * nothing on other architectures or in builds without SIMD; on ARM the
 * registry hides it on CPUs without NEON.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_NEON_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_NEON_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int aes_neon_register(struct crypto_registry *reg);

#endif
