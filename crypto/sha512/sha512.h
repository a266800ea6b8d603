/* SPDX-License-Identifier: MIT */
/*
 * SHA-512 (FIPS 180-4): registration of the "sha512-generic" driver, and
 * the core for other C code in crypto/ and for SIMD glue later (which
 * replaces the block function only). HMAC is the template in
 * crypto/templates/hmac.c.
 */
#ifndef CLOAKFS_CRYPTO_SHA512_H
#define CLOAKFS_CRYPTO_SHA512_H

#include <stddef.h>
#include <stdint.h>

#define SHA512_DIGEST_SIZE 64
#define SHA512_BLOCK_SIZE 128

struct crypto_registry;

/*
 * Registers "sha512-generic" (alg "sha512") with the FIPS 180-4 vectors,
 * and the RFC 4231 vectors for "hmac(sha512)" (the HMAC template's
 * instances over every sha512 driver). Returns 0 or -errno.
 */
int sha512_generic_register(struct crypto_registry *reg);

struct sha512_state {
	uint64_t h[8];
	uint64_t bytes_lo, bytes_hi; /* message length in bytes, 128-bit */
	uint8_t buf[SHA512_BLOCK_SIZE];
};

/* nblocks 128-byte blocks into the chaining value h (a SIMD core can replace it) */
void sha512_blocks_generic(uint64_t h[8], const uint8_t *data, size_t nblocks);

void sha512_init(struct sha512_state *st);
void sha512_update(struct sha512_state *st, const uint8_t *data, size_t len);
/* writes the 64-byte digest and wipes st */
void sha512_final(struct sha512_state *st, uint8_t out[SHA512_DIGEST_SIZE]);

/* sha512-testvecs.c: the "sha512" and "hmac(sha512)" vector sets */
int sha512_register_testvecs(struct crypto_registry *reg);

#endif
