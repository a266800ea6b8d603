/* SPDX-License-Identifier: MIT */
/*
 * The AArch64 SM4 Crypto Extension drivers: the single-block cipher
 * sm4-ce (400) and, over it, the bulk instances ecb-, cbc-, cfb-, ctr-
 * and xts-sm4-ce at the same priority (cts-sm4-ce is the registry's
 * plain instance). Registers nothing when built without the core (other
 * architectures, -Dsimd=false); the registry hides the drivers on CPUs
 * without CPU_FEAT_ARM_SM4.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_SM4_CE_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_SM4_CE_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int sm4_ce_register(struct crypto_registry *reg);

#endif
