/* SPDX-License-Identifier: MIT */
/*
 * Portable models of the byte instructions the SIMD S-box cores are built
 * on, so tests can check the cores' constants on any machine:
 * GF2P8AFFINEQB / GF2P8AFFINEINVQB (Intel SDM vol. 2: result bit i =
 * parity(matrix byte 7 - i AND x) XOR imm bit i; INV first inverts x in
 * GF(2^8) mod 0x11b) and AES SubBytes (FIPS-197 5.1.1), which AESENCLAST
 * and AESE apply.
 */
#ifndef CLOAKFS_TESTS_CRYPTO_GF256_EMUL_H
#define CLOAKFS_TESTS_CRYPTO_GF256_EMUL_H

#include <stdint.h>

/* a * b and x^-1 (0 -> 0) in GF(2^8) mod x^8 + x^4 + x^3 + x + 1 */
uint8_t emul_gf_mul(uint8_t a, uint8_t b);
uint8_t emul_gf_inv(uint8_t x);

/* GF2P8AFFINEQB on one byte */
uint8_t emul_gf2p8affine(uint64_t matrix, uint8_t imm, uint8_t x);

/* GF2P8AFFINEINVQB on one byte */
uint8_t emul_gf2p8affineinv(uint64_t matrix, uint8_t imm, uint8_t x);

/* AES SubBytes on one byte */
uint8_t emul_aes_sbox(uint8_t x);

#endif
