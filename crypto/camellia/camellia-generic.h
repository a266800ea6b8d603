/* SPDX-License-Identifier: MIT */
/*
 * Camellia: the portable drivers ("camellia-generic", constant-time
 * bitsliced; "camellia-table", S-box table, variable-time) and the
 * known-answer vectors of "camellia" and its modes.
 */
#ifndef CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_GENERIC_H
#define CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_GENERIC_H

struct crypto_registry;

/* register both drivers and every Camellia vector set; 0 or -errno */
int camellia_generic_register(struct crypto_registry *reg);

#endif
