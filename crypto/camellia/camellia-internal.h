/* SPDX-License-Identifier: MIT */
/*
 * Camellia internals shared by the drivers, the vectors and the tests.
 * Camellia is RFC 3713 (also ISO/IEC 18033-3, NESSIE, CRYPTREC): 128-bit
 * blocks, 128/192/256-bit keys, a Feistel network of 18 rounds (128-bit
 * keys) or 24 on two 64-bit halves, an FL/FL^-1 layer after every sixth
 * round but the last, and whitening with kw1..kw4:
 *
 *     D1 || D2 = M ^ (kw1 || kw2)
 *     D2 ^= F(D1, k1); D1 ^= F(D2, k2); ... (rounds in pairs)
 *     D1 = FL(D1, ke1); D2 = FL^-1(D2, ke2)      (after rounds 6, 12, 18)
 *     C = (D2 ^ kw3) || (D1 ^ kw4)
 *
 * F(X, k) = P(S(X ^ k)): S applies s1, s2, s3, s4, s2, s3, s4, s1 to the
 * bytes t1..t8 (t1 the most significant), P mixes the bytes with XORs.
 * Decryption is the same network with the subkeys in reverse order
 * (camellia_key_order). Words are big-endian: byte 0 of a block is the
 * top byte of D1.
 */
#ifndef CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_INTERNAL_H
#define CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/internal/util.h"

#define CAMELLIA_BLOCK_SIZE 16
#define CAMELLIA_ROUNDS_SHORT 18 /* 128-bit keys */
#define CAMELLIA_ROUNDS_LONG 24  /* 192- and 256-bit keys */
#define CAMELLIA_MAX_SUBKEYS (2 + CAMELLIA_ROUNDS_LONG + 6 + 2)

struct crypto_registry;

/* RFC 3713 section 2.4.4 (camellia-sbox.c): variable-time users only */
extern const uint8_t camellia_sbox1[256];

/* the RFC 3713 subkeys of one key */
struct camellia_subkeys {
	uint64_t kw[4];
	uint64_t k[CAMELLIA_ROUNDS_LONG];
	uint64_t ke[6];
	unsigned int rounds; /* 18 or 24 */
};

/*
 * RFC 3713 section 2.2: the subkeys of a 16-, 24- or 32-byte key;
 * 0 or -EINVAL. Constant time (F through camellia_f_ct).
 */
int camellia_expand_key(struct camellia_subkeys *sk, const uint8_t *key,
			size_t keylen);

/*
 * The subkeys in the order one direction uses them: kw (into D1), kw
 * (into D2), then per group of six rounds its six k and, except after
 * the last group, the FL key and the FL^-1 key; then kw (into D2) and kw
 * (into D1). 26 values for 18 rounds, 34 for 24; returns the count.
 */
unsigned int camellia_key_order(const struct camellia_subkeys *sk, int dec,
				uint64_t *out);

/*
 * camellia_expand_key, then camellia_key_order for both directions into
 * enc and dec (CAMELLIA_MAX_SUBKEYS each); *n gets their count and
 * *rounds the rounds. 0 or -EINVAL; nothing of the key is left elsewhere.
 */
int camellia_expand_key_ordered(const uint8_t *key, size_t keylen,
				uint64_t *enc, uint64_t *dec, unsigned int *n,
				unsigned int *rounds);

/*
 * The setkey of a SIMD core's driver: camellia_expand_key_ordered, then
 * convert(enc_out, ...) and convert(dec_out, ...) put the two directions'
 * subkeys into the core's layout. 0 or -EINVAL; wipes what it used.
 */
int camellia_setkey_core(const uint8_t *key, size_t keylen,
			 unsigned int *rounds,
			 void (*convert)(void *out, const uint64_t *k,
					 unsigned int n),
			 void *enc_out, void *dec_out);

/* F without the key, S then P, in constant time (camellia-keysched.c,
 * the one block of camellia-planes.h) */
uint64_t camellia_f_ct(uint64_t x);

/* the cipher tables of the portable drivers */
extern const struct cipher_alg camellia_generic_cipher;
extern const struct cipher_alg camellia_table_cipher;

/* known-answer vectors of camellia and its modes (camellia-testvecs.c) */
int camellia_register_testvecs(struct crypto_registry *reg);

/*
 * P (RFC 3713 2.4.3) on the eight bytes of z, in four steps on its 32-bit
 * halves U = z1..z4, V = z5..z8 (byte rotations of big-endian words):
 *     U ^= V <<< 8;  V ^= U <<< 16;  U ^= V >>> 8;  V ^= U >>> 8
 * gives V = z'1..z'4 and U = z'5..z'8. Linear in the bytes, so it also
 * runs on bit planes whose bytes are lanes (camellia-generic.c).
 */
static inline uint64_t camellia_p(uint64_t z)
{
	uint32_t u = (uint32_t)(z >> 32), v = (uint32_t)z;

	u ^= rol32(v, 8);
	v ^= rol32(u, 16);
	u ^= ror32(v, 8);
	v ^= ror32(u, 8);
	return (uint64_t)v << 32 | u;
}

/* FL and FL^-1 (RFC 3713 2.4.2) on a 64-bit half */
static inline uint64_t camellia_fl(uint64_t x, uint64_t ke)
{
	uint32_t x1 = (uint32_t)(x >> 32), x2 = (uint32_t)x;

	x2 ^= rol32(x1 & (uint32_t)(ke >> 32), 1);
	x1 ^= x2 | (uint32_t)ke;
	return (uint64_t)x1 << 32 | x2;
}

static inline uint64_t camellia_fl_inv(uint64_t y, uint64_t ke)
{
	uint32_t y1 = (uint32_t)(y >> 32), y2 = (uint32_t)y;

	y1 ^= y2 | (uint32_t)ke;
	y2 ^= rol32(y1 & (uint32_t)(ke >> 32), 1);
	return (uint64_t)y1 << 32 | y2;
}

#endif
