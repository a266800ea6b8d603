/* SPDX-License-Identifier: MIT */
/*
 * SM4: the portable drivers ("sm4-generic", constant-time bitsliced;
 * "sm4-table", T-table, variable-time) and the known-answer vectors of
 * "sm4" and its modes.
 */
#ifndef CLOAKFS_CRYPTO_SM4_SM4_GENERIC_H
#define CLOAKFS_CRYPTO_SM4_SM4_GENERIC_H

struct crypto_registry;

/* register both drivers and every SM4 vector set; 0 or -errno */
int sm4_generic_register(struct crypto_registry *reg);

#endif
