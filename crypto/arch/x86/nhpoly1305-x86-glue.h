/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 "nhpoly1305" drivers over the NH cores of nh-x86.h (the rest
 * of NHPoly1305 is nhpoly1305-generic.c's):
 *   nhpoly1305-sse2 (300; SSE2, every x86-64 CPU)
 *   nhpoly1305-avx2 (600; AVX2)
 * They register on x86-64 builds with the cores (meson option simd), else
 * not at all; the vectors are the generic driver's (nhpoly1305.h).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_NHPOLY1305_X86_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_X86_NHPOLY1305_X86_GLUE_H

struct crypto_registry;

/* 0 or -errno (crypto/internal/registry.h); after nhpoly1305-generic */
int nhpoly1305_x86_register(struct crypto_registry *reg);

#endif
