/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 SIMD Speck drivers (AVX2, AVX-512): xts-speck128-avx2,
 * xts-speck128-avx512, xts-speck64-avx2, xts-speck64-avx512 and the same
 * four for ecb. Registers nothing on other architectures or when built
 * without SIMD; on x86-64 the registry hides them on CPUs without the
 * features.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_SPECK_X86_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_X86_SPECK_X86_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int speck_x86_register(struct crypto_registry *reg);

#endif
