/* SPDX-License-Identifier: MIT */
/*
 * Camellia's F on byte planes (camellia-generic.c explains the layout):
 * the cipher's passes of up to 8 blocks and the key schedule's single
 * block (camellia-keysched.c) both run it, so it sits below both, inline
 * so the cipher's pass loses no call.
 */
#ifndef CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_PLANES_H
#define CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_PLANES_H

#include <stdint.h>
#include <string.h>

#include "crypto/camellia/camellia-internal.h"
#include "crypto/camellia/camellia-sbox-bs.h"

/* byte lanes of a plane (lane 7 = t1 ... lane 0 = t8) by S-box */
#define CAMELLIA_LANES_S2 0x00ff0000ff000000ull /* t2, t5 */
#define CAMELLIA_LANES_S3 0x0000ff0000ff0000ull /* t3, t6 */
#define CAMELLIA_LANES_S4 0x000000ff0000ff00ull /* t4, t7 */
#define CAMELLIA_LANE_LSB 0x0101010101010101ull

/*
 * The circuit computes s1(v ^ E); s4(x) = s1(x <<< 1) = s1((x ^ (E >>> 1))
 * <<< 1 ^ E), so the F subkeys carry E in the s1/s2/s3 bytes and E >>> 1
 * in the s4 bytes.
 */
#define CAMELLIA_E_S4 ((CAMELLIA_SBOX_IN_XOR >> 1 | CAMELLIA_SBOX_IN_XOR << 7) & 0xffu)
#define CAMELLIA_KEY_FOLD (CAMELLIA_SBOX_IN_XOR * CAMELLIA_LANE_LSB ^ \
		  (CAMELLIA_SBOX_IN_XOR ^ CAMELLIA_E_S4) * (1ull << 32 | 1ull << 8))

/* bit i of each byte of v, as 0x00 or 0xff in that byte's lane */
static inline void camellia_to_planes(uint64_t p[8], uint64_t v)
{
	for (unsigned int i = 0; i < 8; i++)
		p[i] = ((v >> i) & CAMELLIA_LANE_LSB) * 0xff;
}

/* out ^= F(in ^ k) on byte planes (k with the circuit constant folded) */
static inline void camellia_f_planes(uint64_t out[8], const uint64_t in[8], const uint64_t k[8])
{
	uint64_t x[8], r[8], y[8];

	for (unsigned int i = 0; i < 8; i++)
		x[i] = in[i] ^ k[i];
	/* s4 bytes: input rotated left by one bit */
	for (unsigned int i = 0; i < 8; i++)
		r[i] = x[i] ^ ((x[i] ^ x[(i + 7) & 7]) & CAMELLIA_LANES_S4);
	camellia_sbox_bs(y, r);
	/* s2 bytes: output rotated left by one bit; s3 bytes: right by one */
	for (unsigned int i = 0; i < 8; i++)
		out[i] ^= camellia_p(y[i] ^ ((y[i] ^ y[(i + 7) & 7]) & CAMELLIA_LANES_S2) ^
				     ((y[i] ^ y[(i + 1) & 7]) & CAMELLIA_LANES_S3));
	explicit_bzero(x, sizeof(x));
	explicit_bzero(r, sizeof(r));
	explicit_bzero(y, sizeof(y));
}

#endif
