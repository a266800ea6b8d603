/* SPDX-License-Identifier: MIT */
#ifndef CLOAKFS_CRYPTO_CHACHA20POLY1305_H
#define CLOAKFS_CRYPTO_CHACHA20POLY1305_H

struct crypto_registry;

/*
 * Registers "chacha20-generic" (alg "chacha20"), "poly1305-generic" (alg
 * "poly1305") and the rfc7539 template's instance over them,
 * "rfc7539-chacha20-poly1305-generic" (alg "rfc7539(chacha20,poly1305)"),
 * with their RFC 8439 vectors. Returns 0 or -errno.
 */
int chacha20poly1305_generic_register(struct crypto_registry *reg);

#endif
