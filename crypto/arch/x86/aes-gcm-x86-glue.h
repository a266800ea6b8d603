/* SPDX-License-Identifier: MIT */
/* The fused x86-64 gcm(aes) drivers (aes-gcm-x86-glue.c). */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_AES_GCM_X86_GLUE_H
#define CLOAKFS_CRYPTO_ARCH_X86_AES_GCM_X86_GLUE_H

struct crypto_registry;

/* 0 when the build has no fused cores, else as crypto_register_driver */
int aes_gcm_x86_register(struct crypto_registry *reg);

#endif
