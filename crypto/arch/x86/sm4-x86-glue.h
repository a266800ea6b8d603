/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 SIMD SM4 drivers: single-block ciphers sm4-aesni-avx2 (400),
 * sm4-gfni-avx2 (600), sm4-gfni-avx512 (800) and, over each, the bulk
 * instances ecb-, cbc-, cfb-, ctr- and xts-sm4-<isa> at the same
 * priority (cts-sm4-<isa> is the registry's plain instance). Registers
 * nothing when built without the cores (other architectures, -Dsimd=false);
 * the registry hides the drivers whose CPU features are missing.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_SM4_X86_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_X86_SM4_X86_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int sm4_x86_register(struct crypto_registry *reg);

#endif
