/* SPDX-License-Identifier: MIT */
/*
 * SHA-512 (FIPS 180-4): registration of the "sha512-generic" driver, and
 * the buffering and padding every sha512 driver shares: a SIMD driver
 * only brings its block function (sha512_blocks_fn), which its init
 * stores in the state. HMAC is the template in crypto/templates/hmac.c.
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

/*
 * nblocks (> 0) 128-byte blocks into the chaining value h. Every driver
 * has one; the SIMD cores are in crypto/arch/ and are called only on CPUs
 * that have their features (the registry sees to it).
 */
typedef void sha512_blocks_fn(uint64_t h[8], const uint8_t *data, size_t nblocks);

/*
 * The SIMD drivers (sha512-x86-glue.c, sha512-arm-glue.c): 0 when the
 * build has no cores for this machine, else as crypto_register_driver.
 */
int sha512_x86_register(struct crypto_registry *reg);
int sha512_arm_register(struct crypto_registry *reg);

struct sha512_state {
	uint64_t h[8];
	uint64_t bytes_lo, bytes_hi; /* message length in bytes, 128-bit */
	sha512_blocks_fn *blocks;
	uint8_t buf[SHA512_BLOCK_SIZE];
};

/* FIPS 180-4 4.2.3, for the cores (K[t] of round t) */
extern const uint64_t sha512_k[80];

sha512_blocks_fn sha512_blocks_generic;

/* a fresh state hashing with blocks (a driver's init) */
void sha512_init_with(struct sha512_state *st, sha512_blocks_fn *blocks);
/* sha512_init_with(st, sha512_blocks_generic) */
void sha512_init(struct sha512_state *st);
void sha512_update(struct sha512_state *st, const uint8_t *data, size_t len);
/* writes the 64-byte digest and wipes st */
void sha512_final(struct sha512_state *st, uint8_t out[SHA512_DIGEST_SIZE]);

/* the hash_alg update/final every sha512 driver uses (state: sha512_state) */
void sha512_hash_update(void *state, const uint8_t *data, size_t len);
void sha512_hash_final(void *state, uint8_t *out);

/*
 * The hash_alg of a sha512 driver whose init is initfn (which calls
 * sha512_init_with with the driver's block function); the rest is shared.
 */
#define SHA512_HASH_ALG(initfn)                                              \
	{                                                                    \
		.digestsize = SHA512_DIGEST_SIZE,                            \
		.blocksize = SHA512_BLOCK_SIZE,                              \
		.statesize = sizeof(struct sha512_state),                    \
		.init = initfn,                                              \
		.update = sha512_hash_update,                                \
		.final = sha512_hash_final,                                  \
	}

/* sha512-testvecs.c: the "sha512" and "hmac(sha512)" vector sets */
int sha512_register_testvecs(struct crypto_registry *reg);

#endif
