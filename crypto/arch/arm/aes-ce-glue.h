/* SPDX-License-Identifier: MIT */
/*
 * The ARMv8 Crypto Extensions AES drivers (AArch64 and AArch32): the
 * single-block cipher "aes-ce" (the child of the C templates: CBC and
 * CFB encryption, CTS and every remainder) and the fused drivers
 * "xts-aes-ce", "ecb-aes-ce", "cbc-aes-ce" and "cfb-aes-ce" (decryption
 * in the core) and "ctr-aes-ce", priority 400, cores aes-ce-core-arm64.S
 * and aes-ce-core-arm32.S. Registers nothing on other architectures or in builds
 * without SIMD; on ARM the registry hides them on CPUs without AES.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_CE_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_CE_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int aes_ce_register(struct crypto_registry *reg);

#endif
