/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 AES drivers: the single-block cipher "aes-aesni" (its C
 * template instances "xts-aes-aesni", "ecb-aes-aesni", ... come from the
 * registry) and the SIMD mode drivers "<mode>-aes-aesni-x8",
 * "<mode>-aes-vaes-avx2" and "<mode>-aes-vaes-avx512" for xts, ecb, cbc,
 * cfb, ctr and cts (CBC decryption through the core). Registers nothing
 * on other architectures; on x86-64 the registry hides them on CPUs
 * without the features.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_AES_X86_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_X86_AES_X86_GLUE_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int aes_x86_register(struct crypto_registry *reg);

#endif
