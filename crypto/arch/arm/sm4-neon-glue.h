/* SPDX-License-Identifier: MIT */
/*
 * The AArch64 NEON SM4 drivers (no SM4 extension needed): the
 * single-block cipher sm4-neon (300) and, over it, the bulk instances
 * ecb-, cbc-, cfb-, ctr- and xts-sm4-neon at the same priority
 * (cts-sm4-neon is the registry's plain instance). Registers nothing when
 * built without the core (other architectures, -Dsimd=false).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_SM4_NEON_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_SM4_NEON_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int sm4_neon_register(struct crypto_registry *reg);

#endif
