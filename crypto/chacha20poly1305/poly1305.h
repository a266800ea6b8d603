/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 one-time authenticator (RFC 8439, section 2.5).
 *
 * Split as in the kernel's lib/crypto: the buffering and the final "+ s"
 * live here (poly1305-generic.c); the arithmetic on whole 16-byte blocks
 * lives behind struct poly1305_core_ops, so a SIMD core can replace it
 * (a "poly1305" driver's setkey passes its ops to poly1305_hash_setkey). The generic core uses
 * 44-bit limbs with 128-bit products where the compiler has unsigned
 * __int128, else 26-bit limbs with 64-bit products; both are constant
 * time (no branch or index on the key, the message or the accumulator).
 */
#ifndef CLOAKFS_CRYPTO_POLY1305_H
#define CLOAKFS_CRYPTO_POLY1305_H

#include <stddef.h>
#include <stdint.h>

#define POLY1305_KEY_SIZE 32
#define POLY1305_BLOCK_SIZE 16
#define POLY1305_TAG_SIZE 16

/* A block function's accumulator and key, in its own limb layout. */
union poly1305_core_state {
	uint64_t l44[8];  /* generic, 44-bit limbs: h[3], r[3], 20 * r[1..2] */
	uint32_t l26[14]; /* generic, 26-bit limbs: h[5], r[5], 5 * r[1..4] */
	uint64_t simd[32]; /* room for a SIMD core's powers of r */
};

/*
 * A block function, on its own member of the core state union.
 *  setkey: clamp r (16 bytes, little-endian) and zero the accumulator;
 *  blocks: for each of nblocks 16-byte blocks, h = (h + block +
 *          padbit * 2^128) * r mod 2^130 - 5 (padbit 1 for message
 *          blocks; 0 for a final short block already padded with 0x01 and
 *          zeros);
 *  emit:   out = h fully reduced mod 2^130 - 5, low 128 bits, little-endian.
 */
struct poly1305_core_ops {
	void (*setkey)(union poly1305_core_state *core, const uint8_t r[16]);
	void (*blocks)(union poly1305_core_state *core, const uint8_t *src,
		       size_t nblocks, uint32_t padbit);
	void (*emit)(const union poly1305_core_state *core, uint8_t out[16]);
};

extern const struct poly1305_core_ops poly1305_generic_core;

/*
 * The generic core's accumulator in radix 2^26 (h = h[0] + h[1] 2^26 +
 * ... + h[4] 2^104), for a SIMD core that takes the long runs of blocks
 * and leaves the rest, the key and emit to poly1305_generic_core on the
 * same state. get26: h carried, every limb below 2^26 but h[1] at most
 * 2^26. set26: from limbs below 2^31 (any value of h mod
 * p). Constant time.
 */
void poly1305_generic_get26(const union poly1305_core_state *core,
			    uint32_t h[5]);
void poly1305_generic_set26(union poly1305_core_state *core,
			    const uint32_t h[5]);

struct poly1305_ctx {
	_Alignas(16) union poly1305_core_state core;
	const struct poly1305_core_ops *ops;
	uint8_t s[16];
	uint8_t buf[POLY1305_BLOCK_SIZE];
	size_t buflen;
};


/*
 * The "poly1305" drivers: a keyed hash (crypto/internal/alg.h) whose key
 * is the 32-byte one-time key r || s, the one-time-MAC child of the
 * rfc7539 AEAD template. The state keeps the key and the block function
 * so that init, and final, start another message under them (the hash
 * API's reuse after final; a real one-time key is never reused), as
 * polyval's; its owner wipes it.
 */
struct poly1305_hash_state {
	struct poly1305_ctx mac;
	const struct poly1305_core_ops *ops;
	uint8_t key[POLY1305_KEY_SIZE];
};

/* setkey of a driver whose block function is ops: 0, or -EINVAL */
int poly1305_hash_setkey(void *state, const uint8_t *key, size_t keylen,
			 const struct poly1305_core_ops *ops);
void poly1305_hash_init(void *state);
void poly1305_hash_update(void *state, const uint8_t *data, size_t len);
void poly1305_hash_final(void *state, uint8_t *out);

/* the hash_alg of a "poly1305" driver whose setkey is setkeyfn */
#define POLY1305_HASH_ALG(setkeyfn)                                          \
	{                                                                    \
		.digestsize = POLY1305_TAG_SIZE,                             \
		.blocksize = POLY1305_BLOCK_SIZE,                            \
		.statesize = sizeof(struct poly1305_hash_state),             \
		.keysizes = { POLY1305_KEY_SIZE },                           \
		.setkey = setkeyfn,                                          \
		.init = poly1305_hash_init,                                  \
		.update = poly1305_hash_update,                              \
		.final = poly1305_hash_final,                                \
	}

struct crypto_registry;

/* "poly1305-generic" and the RFC 8439 Poly1305 vectors (poly1305-testvecs.c) */
int poly1305_generic_register(struct crypto_registry *reg);
int poly1305_register_testvecs(struct crypto_registry *reg);

#endif
