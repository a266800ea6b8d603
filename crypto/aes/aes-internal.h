/* SPDX-License-Identifier: MIT */
/* Shared by the files of crypto/aes/ only. */
#ifndef CLOAKFS_CRYPTO_AES_AES_INTERNAL_H
#define CLOAKFS_CRYPTO_AES_AES_INTERNAL_H

#include "crypto/internal/registry.h"

#define AES_BLOCK_SIZE 16

/* aes-table.c: the variable-time T-table driver */
extern const struct crypto_driver aes_table_driver;

/* aes-testvec.c: register the vector sets of aes and its modes */
int aes_register_testvecs(struct crypto_registry *reg);

#endif
