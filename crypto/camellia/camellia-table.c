/* SPDX-License-Identifier: MIT */
/*
 * camellia-table: Camellia with the s1 table (RFC 3713 2.4.4), one
 * lookup per S-box, s2/s3/s4 by rotations. VARIABLE TIME: the table
 * index is secret, so cache timing can leak the key. Registered without
 * CRYPTO_F_CONST_TIME; the policy decides. (The key schedule is the
 * shared constant-time one.)
 */
#include <errno.h>
#include <string.h>

#include "crypto/camellia/camellia-internal.h"
#include "crypto/internal/alg.h"

struct camellia_table_ctx {
	uint64_t enc[CAMELLIA_MAX_SUBKEYS], dec[CAMELLIA_MAX_SUBKEYS];
	unsigned int rounds;
};

static inline uint8_t rol8(uint8_t x, unsigned int n)
{
	return (uint8_t)(x << n | x >> (8 - n));
}

/* F(x) without the key: s1, s2, s3, s4, s2, s3, s4, s1 on t1..t8, then P */
static uint64_t f_table(uint64_t x)
{
	const uint8_t *s = camellia_sbox1;
	uint64_t t = (uint64_t)s[x >> 56] << 56 |
		     (uint64_t)rol8(s[(x >> 48) & 0xff], 1) << 48 |
		     (uint64_t)rol8(s[(x >> 40) & 0xff], 7) << 40 |
		     (uint64_t)s[rol8((x >> 32) & 0xff, 1)] << 32 |
		     (uint64_t)rol8(s[(x >> 24) & 0xff], 1) << 24 |
		     (uint64_t)rol8(s[(x >> 16) & 0xff], 7) << 16 |
		     (uint64_t)s[rol8((x >> 8) & 0xff, 1)] << 8 |
		     s[x & 0xff];

	return camellia_p(t);
}

static int camellia_table_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct camellia_table_ctx *c = ctx;
	unsigned int n;

	return camellia_expand_key_ordered(key, keylen, c->enc, c->dec, &n,
					   &c->rounds);
}

/* the network over the subkeys in their order (camellia_key_order) */
static void table_crypt(const uint64_t *k, unsigned int rounds, uint8_t *dst,
			const uint8_t *src)
{
	uint64_t d1 = load_be64(src) ^ k[0], d2 = load_be64(src + 8) ^ k[1];

	k += 2;
	for (unsigned int r = 0; r < rounds; r += 2) {
		if (r && r % 6 == 0) {
			d1 = camellia_fl(d1, k[0]);
			d2 = camellia_fl_inv(d2, k[1]);
			k += 2;
		}
		d2 ^= f_table(d1 ^ k[0]);
		d1 ^= f_table(d2 ^ k[1]);
		k += 2;
	}
	store_be64(dst, d2 ^ k[0]);
	store_be64(dst + 8, d1 ^ k[1]);
}

static void camellia_table_encrypt(const void *ctx, uint8_t *dst,
				   const uint8_t *src)
{
	const struct camellia_table_ctx *c = ctx;

	table_crypt(c->enc, c->rounds, dst, src);
}

static void camellia_table_decrypt(const void *ctx, uint8_t *dst,
				   const uint8_t *src)
{
	const struct camellia_table_ctx *c = ctx;

	table_crypt(c->dec, c->rounds, dst, src);
}

const struct cipher_alg camellia_table_cipher = {
	.blocksize = CAMELLIA_BLOCK_SIZE,
	.keysizes = { 16, 24, 32 },
	.ctxsize = sizeof(struct camellia_table_ctx),
	.setkey = camellia_table_setkey,
	.encrypt = camellia_table_encrypt,
	.decrypt = camellia_table_decrypt,
};
