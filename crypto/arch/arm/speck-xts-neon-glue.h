/* SPDX-License-Identifier: MIT */
/*
 * The NEON Speck drivers (AArch64 and ARMv7 AArch32): xts-speck128-neon,
 * xts-speck64-neon, ecb-speck128-neon and ecb-speck64-neon, priority 300,
 * template instances over speck128-generic / speck64-generic whose bulk
 * ops are the cores speck-xts-neon-core-arm64.S and -arm32.S.
 * Registers nothing on other architectures or in builds without SIMD; on
 * ARM the registry hides them on CPUs without NEON.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_SPECK_XTS_NEON_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_SPECK_XTS_NEON_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int speck_neon_register(struct crypto_registry *reg);

#endif
