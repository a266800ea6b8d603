/* SPDX-License-Identifier: MIT */
/*
 * Speck64/96 and Speck64/128 in portable C (see speck.h for the byte order
 * and the reference).
 *
 * One block alone is latency-bound: each round is a chain of rotate, add,
 * xor, and the next round needs its result. The bulk functions therefore
 * run four independent blocks through each round so that an out-of-order
 * core overlaps them.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/speck/speck.h"

/* blocks interleaved by the bulk functions */
#define SPECK64_LANES 4

static inline void speck64_round(uint32_t *x, uint32_t *y, uint32_t k)
{
	*x = (ror32(*x, 8) + *y) ^ k;
	*y = rol32(*y, 3) ^ *x;
}

static inline void speck64_unround(uint32_t *x, uint32_t *y, uint32_t k)
{
	*y = ror32(*y ^ *x, 3);
	*x = rol32((*x ^ k) - *y, 8);
}

int speck64_setkey(struct speck64_tfm_ctx *ctx, const uint8_t *key,
		   size_t keylen)
{
	/* w[0] = k (the running round key), w[1..m-1] = l0, l1, l2 */
	uint32_t w[4];
	unsigned int m, nrounds;

	switch (keylen) {
	case SPECK64_96_KEY_SIZE:
		nrounds = SPECK64_96_NROUNDS;
		break;
	case SPECK64_128_KEY_SIZE:
		nrounds = SPECK64_128_NROUNDS;
		break;
	default:
		return -EINVAL;
	}
	m = (unsigned int)(keylen / 4);
	for (unsigned int i = 0; i < m; i++)
		w[i] = load_le32(key + 4 * i);

	/* The key schedule is the round function keyed by the round index. */
	for (unsigned int i = 0; i < nrounds; i++) {
		ctx->round_keys[i] = w[0];
		speck64_round(&w[1 + i % (m - 1)], &w[0], i);
	}
	for (unsigned int i = nrounds; i < SPECK64_128_NROUNDS; i++)
		ctx->round_keys[i] = 0;
	ctx->nrounds = (int)nrounds;
	explicit_bzero(w, sizeof(w));
	return 0;
}

void speck64_encrypt(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
		     const uint8_t *src)
{
	uint32_t y = load_le32(src), x = load_le32(src + 4);

	for (int i = 0; i < ctx->nrounds; i++)
		speck64_round(&x, &y, ctx->round_keys[i]);
	store_le32(dst, y);
	store_le32(dst + 4, x);
}

void speck64_decrypt(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
		     const uint8_t *src)
{
	uint32_t y = load_le32(src), x = load_le32(src + 4);

	for (int i = ctx->nrounds - 1; i >= 0; i--)
		speck64_unround(&x, &y, ctx->round_keys[i]);
	store_le32(dst, y);
	store_le32(dst + 4, x);
}

/*
 * All loads happen before any store, so dst == src works. Not inlined:
 * the eight state words, the round key and the loop pointers just fit in
 * the x86-64 registers; inlined into the bulk loop (as GCC does with
 * -fPIC) one state word spills to the stack every round, 20% slower.
 */
static __attribute__((noinline)) void
speck64_encrypt4(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
		 const uint8_t *src)
{
	uint32_t y0 = load_le32(src), x0 = load_le32(src + 4);
	uint32_t y1 = load_le32(src + 8), x1 = load_le32(src + 12);
	uint32_t y2 = load_le32(src + 16), x2 = load_le32(src + 20);
	uint32_t y3 = load_le32(src + 24), x3 = load_le32(src + 28);

	/* unrolled: the loop's own add/compare would take ALU slots */
#pragma GCC unroll 4
	for (int i = 0; i < ctx->nrounds; i++) {
		const uint32_t k = ctx->round_keys[i];

		speck64_round(&x0, &y0, k);
		speck64_round(&x1, &y1, k);
		speck64_round(&x2, &y2, k);
		speck64_round(&x3, &y3, k);
	}
	store_le32(dst, y0);
	store_le32(dst + 4, x0);
	store_le32(dst + 8, y1);
	store_le32(dst + 12, x1);
	store_le32(dst + 16, y2);
	store_le32(dst + 20, x2);
	store_le32(dst + 24, y3);
	store_le32(dst + 28, x3);
}

static __attribute__((noinline)) void
speck64_decrypt4(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
		 const uint8_t *src)
{
	uint32_t y0 = load_le32(src), x0 = load_le32(src + 4);
	uint32_t y1 = load_le32(src + 8), x1 = load_le32(src + 12);
	uint32_t y2 = load_le32(src + 16), x2 = load_le32(src + 20);
	uint32_t y3 = load_le32(src + 24), x3 = load_le32(src + 28);

#pragma GCC unroll 4
	for (int i = ctx->nrounds - 1; i >= 0; i--) {
		const uint32_t k = ctx->round_keys[i];

		speck64_unround(&x0, &y0, k);
		speck64_unround(&x1, &y1, k);
		speck64_unround(&x2, &y2, k);
		speck64_unround(&x3, &y3, k);
	}
	store_le32(dst, y0);
	store_le32(dst + 4, x0);
	store_le32(dst + 8, y1);
	store_le32(dst + 12, x1);
	store_le32(dst + 16, y2);
	store_le32(dst + 20, x2);
	store_le32(dst + 24, y3);
	store_le32(dst + 28, x3);
}

void speck64_encrypt_blocks(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
			    const uint8_t *src, size_t nblocks)
{
	for (; nblocks >= SPECK64_LANES; nblocks -= SPECK64_LANES) {
		speck64_encrypt4(ctx, dst, src);
		dst += SPECK64_LANES * SPECK64_BLOCK_SIZE;
		src += SPECK64_LANES * SPECK64_BLOCK_SIZE;
	}
	for (; nblocks; nblocks--) {
		speck64_encrypt(ctx, dst, src);
		dst += SPECK64_BLOCK_SIZE;
		src += SPECK64_BLOCK_SIZE;
	}
}

void speck64_decrypt_blocks(const struct speck64_tfm_ctx *ctx, uint8_t *dst,
			    const uint8_t *src, size_t nblocks)
{
	for (; nblocks >= SPECK64_LANES; nblocks -= SPECK64_LANES) {
		speck64_decrypt4(ctx, dst, src);
		dst += SPECK64_LANES * SPECK64_BLOCK_SIZE;
		src += SPECK64_LANES * SPECK64_BLOCK_SIZE;
	}
	for (; nblocks; nblocks--) {
		speck64_decrypt(ctx, dst, src);
		dst += SPECK64_BLOCK_SIZE;
		src += SPECK64_BLOCK_SIZE;
	}
}

/* ---- the cipher_alg of "speck64-generic" (untyped contexts) ---- */

static int speck64_alg_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return speck64_setkey(ctx, key, keylen);
}

static void speck64_alg_encrypt(const void *ctx, uint8_t *dst,
				const uint8_t *src)
{
	speck64_encrypt(ctx, dst, src);
}

static void speck64_alg_decrypt(const void *ctx, uint8_t *dst,
				const uint8_t *src)
{
	speck64_decrypt(ctx, dst, src);
}

static void speck64_alg_encrypt_blocks(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nblocks)
{
	speck64_encrypt_blocks(ctx, dst, src, nblocks);
}

static void speck64_alg_decrypt_blocks(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nblocks)
{
	speck64_decrypt_blocks(ctx, dst, src, nblocks);
}

const struct cipher_alg speck64_generic_cipher = {
	.blocksize = SPECK64_BLOCK_SIZE,
	.keysizes = { SPECK64_96_KEY_SIZE, SPECK64_128_KEY_SIZE, 0 },
	.ctxsize = sizeof(struct speck64_tfm_ctx),
	.setkey = speck64_alg_setkey,
	.encrypt = speck64_alg_encrypt,
	.decrypt = speck64_alg_decrypt,
	.encrypt_blocks = speck64_alg_encrypt_blocks,
	.decrypt_blocks = speck64_alg_decrypt_blocks,
};
