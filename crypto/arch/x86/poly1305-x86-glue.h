/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 block functions for x86-64 (internal to this folder): pass
 * them to poly1305_hash_setkey() (poly1305.h). Each keeps h and r in radix
 * 2^44, runs of 16 blocks or more through its SIMD core (the powers of r
 * are computed on the first such run) and shorter ones in scalar C, so
 * any split of the input gives the generic result. Callers must check
 * the CPU features first: AVX2, or AVX-512F + AVX-512 IFMA.
 */
#ifndef CLOAKFS_CRYPTO_POLY1305_X86_GLUE_H
#define CLOAKFS_CRYPTO_POLY1305_X86_GLUE_H

#include "crypto/chacha20poly1305/poly1305.h"

struct crypto_registry;

/*
 * The "poly1305" drivers over them: poly1305-avx2 (600) and
 * poly1305-avx512ifma (800); 0 or -errno, nothing registered on builds
 * without the cores.
 */
int poly1305_x86_register(struct crypto_registry *reg);

#if defined(__x86_64__) && defined(CLOAKFS_CHACHA_X86_CORES)
extern const struct poly1305_core_ops poly1305_avx2_core;
extern const struct poly1305_core_ops poly1305_avx512ifma_core;
#endif

#endif
