/* SPDX-License-Identifier: MIT */
/*
 * The NEON Poly1305 driver (AArch64 and ARMv7 AArch32, constant time):
 *   alg "poly1305": poly1305-neon (300, above poly1305-generic's 100),
 * a block function over the core of poly1305-neon.h for runs of
 * POLY1305_NEON_MIN_BLOCKS blocks and more, and over the generic block
 * function (same state) for the rest, so any split gives the generic
 * result. It registers on ARM builds with the core (meson option simd)
 * and needs NEON: the registry hides it on AArch32 CPUs without
 * HWCAP_NEON. The vectors are the generic driver's (poly1305.h).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_POLY1305_NEON_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_POLY1305_NEON_GLUE_H

#include <stddef.h>
#include <stdint.h>

struct crypto_registry;
union poly1305_core_state;

/* 0 or -errno (crypto/internal/registry.h); nothing without the core */
int poly1305_neon_register(struct crypto_registry *reg);

/*
 * For other glue on ARM builds with the core (nhpoly1305-neon): the
 * core's table of powers of the r a generic-keyed state holds (pw:
 * POLY1305_NEON_POWER_WORDS words), and nblocks (a nonzero multiple of
 * 4) through the core on a generic state with that table.
 */
void poly1305_neon_powers(const union poly1305_core_state *keyed, uint32_t *pw);
void poly1305_neon_run(union poly1305_core_state *core, const void *pw,
		       const uint8_t *src, size_t nblocks, uint32_t padbit);

#endif
