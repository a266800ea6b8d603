/* SPDX-License-Identifier: MIT */
/* Shared by the files of crypto/aes/ only. */
#ifndef CLOAKFS_CRYPTO_AES_AES_INTERNAL_H
#define CLOAKFS_CRYPTO_AES_AES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/internal/registry.h"

#define AES_BLOCK_SIZE 16
#define AES_MAX_KEY_WORDS 60 /* 4 * (14 + 1): AES-256's round keys */

/*
 * aes-generic.c: the FIPS-197 5.2 key expansion, constant-time (SubWord
 * through the bitsliced S-box). Word i is little-endian: byte 4i + j of
 * the round keys is bits 8j..8j+7 of w[i]. Returns the number of rounds
 * (10, 12, 14), or 0 for a key length other than 16, 24 or 32.
 */
unsigned int aes_expand_key(uint32_t w[AES_MAX_KEY_WORDS], const uint8_t *key,
			    size_t keylen);

/* aes-table.c: the variable-time T-table driver */
extern const struct crypto_driver aes_table_driver;

/* aes-testvec.c: register the vector sets of aes and its modes */
int aes_register_testvecs(struct crypto_registry *reg);
/* aes-gcm-testvec.c: register the vector sets of gcm(aes) */
int aes_gcm_register_testvecs(struct crypto_registry *reg);

#endif
