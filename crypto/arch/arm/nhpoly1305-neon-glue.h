/* SPDX-License-Identifier: MIT */
/*
 * The NEON NHPoly1305 driver (AArch64 and ARMv7 AArch32, constant time):
 *   alg "nhpoly1305": nhpoly1305-neon (300, above nhpoly1305-generic's
 *   100), nhpoly1305.h's hash over the NH core of nh-neon.h.
 * It registers on ARM builds with the core (meson option simd) and needs
 * NEON: the registry hides it on AArch32 CPUs without HWCAP_NEON. The
 * vectors are the generic driver's (the Adiantum reference's NHPoly1305).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_NHPOLY1305_NEON_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_NHPOLY1305_NEON_GLUE_H

struct crypto_registry;

/* 0 or -errno (crypto/internal/registry.h); nothing without the core */
int nhpoly1305_neon_register(struct crypto_registry *reg);

#endif
