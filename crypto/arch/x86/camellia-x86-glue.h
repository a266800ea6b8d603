/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 SIMD Camellia drivers: single-block ciphers
 * camellia-aesni-avx2 (400), camellia-gfni-avx2 (600),
 * camellia-gfni-avx512 (800) and, over each, the bulk instances ecb-,
 * cbc-, cfb-, ctr- and xts-camellia-<isa> at the same priority
 * (cts-camellia-<isa> is the registry's plain instance). Registers nothing
 * when built without the cores (other architectures, -Dsimd=false); the
 * registry hides the drivers whose CPU features are missing.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_CAMELLIA_X86_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_X86_CAMELLIA_X86_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int camellia_x86_register(struct crypto_registry *reg);

#endif
