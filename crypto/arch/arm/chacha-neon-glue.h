/* SPDX-License-Identifier: MIT */
/*
 * The NEON ChaCha drivers (AArch64 and ARMv7 AArch32, constant time),
 * over the one core of chacha-neon.h:
 *   alg "chacha20": chacha20-neon (300, above chacha20-generic's 100)
 *   algs "chacha12", "xchacha12", "xchacha20" (chacha.h): chacha12-neon,
 *       xchacha12-neon, xchacha20-neon (300), the same core with 12 or
 *       20 rounds
 *   alg "rfc7539(chacha20,poly1305)": rfc7539-chacha20-poly1305-neon,
 *       the rfc7539 template over chacha20-neon and poly1305-neon
 *       (poly1305-neon-glue.h)
 *   alg "xchacha20poly1305": xchacha20poly1305-neon, over the same pair
 * They register on ARM builds with the core (meson option simd) and need
 * NEON: the registry hides them on AArch32 CPUs without HWCAP_NEON (e.g.
 * Cortex-R5F); AArch64 always has it. The vectors are the generic
 * drivers' (chacha20.h, chacha.h, chacha20poly1305.h).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_CHACHA_NEON_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_CHACHA_NEON_GLUE_H

struct crypto_registry;

/* 0 or -errno (crypto/internal/registry.h); after poly1305-neon */
int chacha_neon_register(struct crypto_registry *reg);

#endif
