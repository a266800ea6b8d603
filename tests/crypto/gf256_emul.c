/* SPDX-License-Identifier: MIT */
/* Models of GF2P8AFFINE(INV)QB and AES SubBytes. See gf256_emul.h. */
#include "gf256_emul.h"

uint8_t emul_gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1b : 0));
		b >>= 1;
	}
	return r;
}

/* x^254 = x^-1 */
uint8_t emul_gf_inv(uint8_t x)
{
	uint8_t r = 1;

	for (int i = 0; i < 254; i++)
		r = emul_gf_mul(r, x);
	return r;
}

uint8_t emul_gf2p8affine(uint64_t matrix, uint8_t imm, uint8_t x)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++) {
		uint8_t row = (uint8_t)(matrix >> (8 * (7 - i)));

		r |= (uint8_t)((__builtin_popcount(row & x) & 1) << i);
	}
	return r ^ imm;
}

uint8_t emul_gf2p8affineinv(uint64_t matrix, uint8_t imm, uint8_t x)
{
	return emul_gf2p8affine(matrix, imm, emul_gf_inv(x));
}

uint8_t emul_aes_sbox(uint8_t x)
{
	uint8_t b = emul_gf_inv(x), r = 0x63;

	for (int i = 0; i < 8; i++) {
		unsigned int bit = (b >> i ^ b >> ((i + 4) & 7) ^ b >> ((i + 5) & 7) ^
				    b >> ((i + 6) & 7) ^ b >> ((i + 7) & 7)) & 1;

		r ^= (uint8_t)(bit << i);
	}
	return r;
}
