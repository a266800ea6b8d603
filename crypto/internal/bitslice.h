/* SPDX-License-Identifier: MIT */
/*
 * Bit-matrix transposes on 64-bit words, shared by the bitsliced C
 * ciphers (sm4-generic, camellia-generic) to move blocks into and out of
 * their bit-per-word layouts. No data-dependent branch or index.
 */
#ifndef CLOAKFS_CRYPTO_INTERNAL_BITSLICE_H
#define CLOAKFS_CRYPTO_INTERNAL_BITSLICE_H

#include <stdint.h>

/* swap the bits of *b selected by m with those of *a n places up */
static inline void bs_swapmove(uint64_t *a, uint64_t *b, unsigned int n,
			       uint64_t m)
{
	uint64_t t = ((*a >> n) ^ *b) & m;

	*b ^= t;
	*a ^= t << n;
}

/*
 * Within each byte lane L, bit j of word i <-> bit i of word j: 8 words
 * of bytes become their 8 bit planes (word i holds bit i of all 64
 * bytes). Its own inverse.
 */
static inline void bs_transpose_bytes8(uint64_t w[8])
{
	static const unsigned char lo2[4] = { 0, 1, 4, 5 };

	for (unsigned int i = 0; i < 8; i += 2)
		bs_swapmove(&w[i], &w[i + 1], 1, 0x5555555555555555ull);
	for (unsigned int i = 0; i < 4; i++)
		bs_swapmove(&w[lo2[i]], &w[lo2[i] + 2], 2, 0x3333333333333333ull);
	for (unsigned int i = 0; i < 4; i++)
		bs_swapmove(&w[i], &w[i + 4], 4, 0x0f0f0f0f0f0f0f0full);
}

/* a[q] bit j <-> a[j] bit q (64x64 bit matrix transpose, in place) */
static inline void bs_transpose64(uint64_t a[64])
{
	uint64_t m = 0x00000000ffffffffull;

	for (unsigned int j = 32; j; j >>= 1, m ^= m << j)
		for (unsigned int k = 0; k < 64; k = ((k | j) + 1) & ~j)
			bs_swapmove(&a[k], &a[k | j], j, m);
}

#endif
