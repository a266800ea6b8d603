/* SPDX-License-Identifier: MIT */
/*
 * Speck128 and Speck64 (internal): key schedule, contexts and the portable
 * C block functions, shared by the generic drivers and by the SIMD glue
 * (AVX2 / AVX-512 / NEON cores take the same round keys and leave tails to
 * these functions).
 *
 * Reference: R. Beaulieu, D. Shors, J. Smith, S. Treatman-Clark, B. Weeks,
 * L. Wingers, "The SIMON and SPECK Families of Lightweight Block Ciphers",
 * 2013, https://eprint.iacr.org/2013/404.pdf
 *
 * Byte order is that of the Linux kernel's former crypto/speck.c (v4.17 to
 * v4.19), so xts(speck128) / xts(speck64) data are interchangeable with it:
 *  - a block is two little-endian words, y (first) then x;
 *  - a key is little-endian words, k0 first (the first round key), then
 *    l0, l1, l2: the reverse of the paper's word order.
 * Encryption round i: x = (ror(x, 8) + y) ^ rk[i]; y = rol(y, 3) ^ x.
 *
 * All functions run in constant time (add, rotate, xor only; the round
 * count depends on the key length, which is public). Blocks may be
 * unaligned; dst == src is allowed.
 */
#ifndef CLOAKFS_CRYPTO_SPECK_SPECK_H
#define CLOAKFS_CRYPTO_SPECK_SPECK_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/internal/alg.h"

#define SPECK128_BLOCK_SIZE 16
#define SPECK128_128_KEY_SIZE 16
#define SPECK128_192_KEY_SIZE 24
#define SPECK128_256_KEY_SIZE 32
#define SPECK128_128_NROUNDS 32
#define SPECK128_192_NROUNDS 33
#define SPECK128_256_NROUNDS 34

#define SPECK64_BLOCK_SIZE 8
#define SPECK64_96_KEY_SIZE 12
#define SPECK64_128_KEY_SIZE 16
#define SPECK64_96_NROUNDS 26
#define SPECK64_128_NROUNDS 27

/* Same layout as the kernel's: round_keys[i] is the key of round i. */
struct speck128_tfm_ctx {
	uint64_t round_keys[SPECK128_256_NROUNDS];
	int nrounds;
};

struct speck64_tfm_ctx {
	uint32_t round_keys[SPECK64_128_NROUNDS];
	int nrounds;
};

/* 0, or -EINVAL for a key length other than 16, 24 or 32 bytes */
int speck128_setkey(struct speck128_tfm_ctx *ctx, const uint8_t *key,
		    size_t keylen);
void speck128_encrypt(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
		      const uint8_t *src);
void speck128_decrypt(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
		      const uint8_t *src);
/* nblocks independent blocks (ECB), four at a time interleaved */
void speck128_encrypt_blocks(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nblocks);
void speck128_decrypt_blocks(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nblocks);

/* 0, or -EINVAL for a key length other than 12 or 16 bytes */
int speck64_setkey(struct speck64_tfm_ctx *ctx, const uint8_t *key,
		   size_t keylen);
void speck64_encrypt(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
		     const uint8_t *src);
void speck64_decrypt(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
		     const uint8_t *src);
void speck64_encrypt_blocks(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
			    const uint8_t *src, size_t nblocks);
void speck64_decrypt_blocks(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
			    const uint8_t *src, size_t nblocks);

/* The op tables of the "speck128-generic" and "speck64-generic" drivers. */
extern const struct cipher_alg speck128_generic_cipher;
extern const struct cipher_alg speck64_generic_cipher;

#endif
