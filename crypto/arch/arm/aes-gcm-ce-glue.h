/* SPDX-License-Identifier: MIT */
/*
 * The fused gcm(aes) driver for the ARMv8 Crypto Extensions (AES +
 * PMULL), AArch64 and AArch32: gcm-aes-ce-pmull (aes-gcm-ce-glue.c).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_GCM_CE_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_GCM_CE_GLUE_H

struct crypto_registry;

/* 0 when the build has no fused core, else as crypto_register_driver */
int aes_gcm_ce_register(struct crypto_registry *reg);

#endif
