/* SPDX-License-Identifier: MIT */
/*
 * Speck128/128, Speck128/192 and Speck128/256 in portable C (see speck.h
 * for the byte order and the reference).
 *
 * One block alone is latency-bound: each round is a chain of rotate, add,
 * xor, and the next round needs its result. The bulk functions therefore
 * run four independent blocks through each round so that an out-of-order
 * core overlaps them (about twice the single-block throughput on x86-64).
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/speck/speck.h"

/* blocks interleaved by the bulk functions */
#define SPECK128_LANES 4

static inline void speck128_round(uint64_t *x, uint64_t *y, uint64_t k)
{
	*x = (ror64(*x, 8) + *y) ^ k;
	*y = rol64(*y, 3) ^ *x;
}

static inline void speck128_unround(uint64_t *x, uint64_t *y, uint64_t k)
{
	*y = ror64(*y ^ *x, 3);
	*x = rol64((*x ^ k) - *y, 8);
}

int speck128_setkey(struct speck128_tfm_ctx *ctx, const uint8_t *key,
		    size_t keylen)
{
	/* w[0] = k (the running round key), w[1..m-1] = l0, l1, l2 */
	uint64_t w[4];
	unsigned int m, nrounds;

	switch (keylen) {
	case SPECK128_128_KEY_SIZE:
		nrounds = SPECK128_128_NROUNDS;
		break;
	case SPECK128_192_KEY_SIZE:
		nrounds = SPECK128_192_NROUNDS;
		break;
	case SPECK128_256_KEY_SIZE:
		nrounds = SPECK128_256_NROUNDS;
		break;
	default:
		return -EINVAL;
	}
	m = (unsigned int)(keylen / 8);
	for (unsigned int i = 0; i < m; i++)
		w[i] = load_le64(key + 8 * i);

	/* The key schedule is the round function keyed by the round index. */
	for (unsigned int i = 0; i < nrounds; i++) {
		ctx->round_keys[i] = w[0];
		speck128_round(&w[1 + i % (m - 1)], &w[0], i);
	}
	for (unsigned int i = nrounds; i < SPECK128_256_NROUNDS; i++)
		ctx->round_keys[i] = 0;
	ctx->nrounds = (int)nrounds;
	explicit_bzero(w, sizeof(w));
	return 0;
}

void speck128_encrypt(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
		      const uint8_t *src)
{
	uint64_t y = load_le64(src), x = load_le64(src + 8);

	for (int i = 0; i < ctx->nrounds; i++)
		speck128_round(&x, &y, ctx->round_keys[i]);
	store_le64(dst, y);
	store_le64(dst + 8, x);
}

void speck128_decrypt(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
		      const uint8_t *src)
{
	uint64_t y = load_le64(src), x = load_le64(src + 8);

	for (int i = ctx->nrounds - 1; i >= 0; i--)
		speck128_unround(&x, &y, ctx->round_keys[i]);
	store_le64(dst, y);
	store_le64(dst + 8, x);
}

/*
 * All loads happen before any store, so dst == src works. Not inlined:
 * the eight state words, the round key and the loop pointers just fit in
 * the x86-64 registers; inlined into the bulk loop (as GCC does with
 * -fPIC) one state word spills to the stack every round, 20% slower.
 */
static __attribute__((noinline)) void
speck128_encrypt4(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
		  const uint8_t *src)
{
	uint64_t y0 = load_le64(src), x0 = load_le64(src + 8);
	uint64_t y1 = load_le64(src + 16), x1 = load_le64(src + 24);
	uint64_t y2 = load_le64(src + 32), x2 = load_le64(src + 40);
	uint64_t y3 = load_le64(src + 48), x3 = load_le64(src + 56);

	/* unrolled: the loop's own add/compare would take ALU slots */
#pragma GCC unroll 4
	for (int i = 0; i < ctx->nrounds; i++) {
		const uint64_t k = ctx->round_keys[i];

		speck128_round(&x0, &y0, k);
		speck128_round(&x1, &y1, k);
		speck128_round(&x2, &y2, k);
		speck128_round(&x3, &y3, k);
	}
	store_le64(dst, y0);
	store_le64(dst + 8, x0);
	store_le64(dst + 16, y1);
	store_le64(dst + 24, x1);
	store_le64(dst + 32, y2);
	store_le64(dst + 40, x2);
	store_le64(dst + 48, y3);
	store_le64(dst + 56, x3);
}

static __attribute__((noinline)) void
speck128_decrypt4(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
		  const uint8_t *src)
{
	uint64_t y0 = load_le64(src), x0 = load_le64(src + 8);
	uint64_t y1 = load_le64(src + 16), x1 = load_le64(src + 24);
	uint64_t y2 = load_le64(src + 32), x2 = load_le64(src + 40);
	uint64_t y3 = load_le64(src + 48), x3 = load_le64(src + 56);

#pragma GCC unroll 4
	for (int i = ctx->nrounds - 1; i >= 0; i--) {
		const uint64_t k = ctx->round_keys[i];

		speck128_unround(&x0, &y0, k);
		speck128_unround(&x1, &y1, k);
		speck128_unround(&x2, &y2, k);
		speck128_unround(&x3, &y3, k);
	}
	store_le64(dst, y0);
	store_le64(dst + 8, x0);
	store_le64(dst + 16, y1);
	store_le64(dst + 24, x1);
	store_le64(dst + 32, y2);
	store_le64(dst + 40, x2);
	store_le64(dst + 48, y3);
	store_le64(dst + 56, x3);
}

void speck128_encrypt_blocks(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nblocks)
{
	for (; nblocks >= SPECK128_LANES; nblocks -= SPECK128_LANES) {
		speck128_encrypt4(ctx, dst, src);
		dst += SPECK128_LANES * SPECK128_BLOCK_SIZE;
		src += SPECK128_LANES * SPECK128_BLOCK_SIZE;
	}
	for (; nblocks; nblocks--) {
		speck128_encrypt(ctx, dst, src);
		dst += SPECK128_BLOCK_SIZE;
		src += SPECK128_BLOCK_SIZE;
	}
}

void speck128_decrypt_blocks(const struct speck128_tfm_ctx *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nblocks)
{
	for (; nblocks >= SPECK128_LANES; nblocks -= SPECK128_LANES) {
		speck128_decrypt4(ctx, dst, src);
		dst += SPECK128_LANES * SPECK128_BLOCK_SIZE;
		src += SPECK128_LANES * SPECK128_BLOCK_SIZE;
	}
	for (; nblocks; nblocks--) {
		speck128_decrypt(ctx, dst, src);
		dst += SPECK128_BLOCK_SIZE;
		src += SPECK128_BLOCK_SIZE;
	}
}

/* ---- the cipher_alg of "speck128-generic" (untyped contexts) ---- */

static int speck128_alg_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return speck128_setkey(ctx, key, keylen);
}

static void speck128_alg_encrypt(const void *ctx, uint8_t *dst,
				 const uint8_t *src)
{
	speck128_encrypt(ctx, dst, src);
}

static void speck128_alg_decrypt(const void *ctx, uint8_t *dst,
				 const uint8_t *src)
{
	speck128_decrypt(ctx, dst, src);
}

static void speck128_alg_encrypt_blocks(const void *ctx, uint8_t *dst,
					const uint8_t *src, size_t nblocks)
{
	speck128_encrypt_blocks(ctx, dst, src, nblocks);
}

static void speck128_alg_decrypt_blocks(const void *ctx, uint8_t *dst,
					const uint8_t *src, size_t nblocks)
{
	speck128_decrypt_blocks(ctx, dst, src, nblocks);
}

const struct cipher_alg speck128_generic_cipher = {
	.blocksize = SPECK128_BLOCK_SIZE,
	.keysizes = { SPECK128_128_KEY_SIZE, SPECK128_192_KEY_SIZE,
		      SPECK128_256_KEY_SIZE, 0 },
	.ctxsize = sizeof(struct speck128_tfm_ctx),
	.setkey = speck128_alg_setkey,
	.encrypt = speck128_alg_encrypt,
	.decrypt = speck128_alg_decrypt,
	.encrypt_blocks = speck128_alg_encrypt_blocks,
	.decrypt_blocks = speck128_alg_decrypt_blocks,
};
