/* SPDX-License-Identifier: MIT */
/*
 * POLYVAL (RFC 8452, section 3) and GHASH (the GCM specification,
 * McGrew & Viega; NIST SP 800-38D) as keyed hashes: setkey with the
 * 16-byte key H, update with any number of bytes, final gives 16 bytes.
 * A message whose length is not a multiple of 16 is zero-padded to one
 * (so GHASH over A, C and the length block is GCM's when A and C are fed
 * padded, as the vectors do). These are the primitives HCTR2 (POLYVAL)
 * builds on; no volume uses them yet.
 *
 * One engine computes both: RFC 8452 appendix A gives
 *   GHASH(H, X_1..X_n) =
 *     ByteReverse(POLYVAL(mulX_POLYVAL(ByteReverse(H)), ByteReverse(X_i)))
 * so a GHASH driver keys the POLYVAL engine with mulX_POLYVAL(ByteReverse(H))
 * and reverses the bytes of every block and of the result. Every driver
 * (generic C, SIMD glue) shares the buffering here and brings a block
 * function and, for its precomputation, a key function.
 */
#ifndef CLOAKFS_CRYPTO_POLYVAL_H
#define CLOAKFS_CRYPTO_POLYVAL_H

#include <stddef.h>
#include <stdint.h>

#define POLYVAL_BLOCK_SIZE 16
#define POLYVAL_KEY_SIZE 16
#define POLYVAL_DIGEST_SIZE 16
/* H^1 .. H^16: the widest core (AVX-512, 16 blocks per step) */
#define POLYVAL_MAX_POWERS 16

struct crypto_registry;
struct polyval_state;

/* nblocks (> 0) whole blocks into st->acc; GHASH drivers reverse bytes */
typedef void polyval_blocks_fn(struct polyval_state *st, const uint8_t *src,
			       size_t nblocks);
/* the driver's precomputation from st->h (after polyval_setkey_state) */
typedef void polyval_key_fn(struct polyval_state *st);

struct polyval_state {
	/* the accumulator and H as 128-bit little-endian halves (lo, hi) */
	uint64_t acc[2];
	uint64_t h[2];
	union {
		/* generic C: h0, h1, h0 ^ h1 and their bit reversals */
		uint64_t words[6];
		/* SIMD cores: H^(i+1) in powers[i], the core's layout */
		_Alignas(64) uint8_t powers[POLYVAL_MAX_POWERS][16];
	} key;
	polyval_blocks_fn *blocks;
	unsigned int used; /* bytes in buf */
	int ghash;         /* byte-reverse blocks and result (GHASH) */
	uint8_t buf[POLYVAL_BLOCK_SIZE];
};

/*
 * For a driver's hash_alg: key the state (POLYVAL form of H, then keyfn
 * for the driver's precomputation) and start a message. 0, or -EINVAL
 * for a key of the wrong length.
 */
int polyval_setkey_state(struct polyval_state *st, const uint8_t *key,
			 size_t keylen, int ghash, polyval_blocks_fn *blocks,
			 polyval_key_fn *keyfn);
/*
 * The SIMD cores' keyfn: key.powers[16 - k] = H^k for k = 1..16, each
 * from the one before through st->blocks (one all-zero block; byte
 * reversal leaves it zero, so GHASH states work alike).
 */
void polyval_key_powers(struct polyval_state *st);
/* the hash_alg init/update/final every ghash and polyval driver uses */
void polyval_hash_init(void *state);
void polyval_hash_update(void *state, const uint8_t *data, size_t len);
/* writes 16 bytes; wipes the accumulator and buffer (the key stays) */
void polyval_hash_final(void *state, uint8_t *out);

/*
 * Registers "polyval-generic" and "ghash-generic" (constant time: 64x64
 * carry-less products by integer multiplication of masked operands, no
 * table) with RFC 8452's and the GCM specification's vectors.
 */
int polyval_generic_register(struct crypto_registry *reg);
/* the hash_alg of a ghash/polyval driver with this setkey */
#define POLYVAL_HASH_ALG(setkeyfn)                                           \
	{                                                                    \
		.digestsize = POLYVAL_DIGEST_SIZE,                           \
		.blocksize = POLYVAL_BLOCK_SIZE,                             \
		.statesize = sizeof(struct polyval_state),                   \
		.keysizes = { POLYVAL_KEY_SIZE },                            \
		.setkey = setkeyfn,                                          \
		.init = polyval_hash_init,                                   \
		.update = polyval_hash_update,                               \
		.final = polyval_hash_final,                                 \
	}

/*
 * The SIMD drivers (polyval-x86-glue.c, polyval-arm-glue.c): 0 when the
 * build has no cores for this machine, else as crypto_register_driver.
 */
int polyval_x86_register(struct crypto_registry *reg);
int polyval_arm_register(struct crypto_registry *reg);

/* polyval-testvecs.c */
int polyval_register_testvecs(struct crypto_registry *reg);

#endif
