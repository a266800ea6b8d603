/* SPDX-License-Identifier: MIT */
/*
 * The AArch64 Camellia driver with the ARMv8 Crypto Extensions:
 * single-block cipher camellia-ce (400, as the other CE drivers) and over
 * it ecb-, cbc-, cfb-, ctr- and xts-camellia-ce (cts-camellia-ce is the
 * registry's plain instance), for CPUs with the AES instructions
 * (HWCAP_AES). Registers nothing when built without the core.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_CAMELLIA_CE_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_CAMELLIA_CE_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int camellia_ce_register(struct crypto_registry *reg);

#endif
