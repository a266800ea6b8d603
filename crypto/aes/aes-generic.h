/* SPDX-License-Identifier: MIT */
/*
 * AES: the portable drivers ("aes-generic", constant-time bitsliced;
 * "aes-table", T-tables, variable-time) and the known-answer vectors of
 * "aes" and its modes.
 */
#ifndef CLOAKFS_CRYPTO_AES_AES_GENERIC_H
#define CLOAKFS_CRYPTO_AES_AES_GENERIC_H

struct crypto_registry;

/* register both drivers and every AES vector set; 0 or -errno */
int aes_generic_register(struct crypto_registry *reg);

#endif
