// SPDX-License-Identifier: MIT
/*
 * POLYVAL and GHASH in portable, constant-time C (see polyval.h), the
 * buffering every ghash/polyval driver shares, and the "polyval-generic"
 * and "ghash-generic" drivers.
 *
 * Field: GF(2^128) with p(x) = x^128 + x^127 + x^126 + x^121 + 1, an
 * element a 128-bit little-endian integer (bit i the coefficient of x^i);
 * POLYVAL's product is dot(a, b) = a * b * x^-128 (RFC 8452, section 3).
 *
 * No secret-indexed tables (table-driven GHASH leaks the key through the
 * cache): 64x64-bit carry-less products come from integer multiplications
 * of operands masked to every fourth bit (an idea of T. Pornin's BearSSL,
 * "ctmul64"): in the product of two such operands each result bit sums at
 * most 16 one-bit terms, and the sum at a bit of the wanted residue class
 * never carries into the next bit of that class below bit 64 (15 terms at
 * most there, 16 only from bit 60 up, whose carry leaves the word). So
 * the low 64 bits of x * y come from 16 multiplications and masks, and
 * the high 64 from the same on bit-reversed operands. Integer
 * multiplication runs in constant time on the CPUs cloakfs targets
 * (x86-64, ARMv7-A and ARMv8-A cores; not some Cortex-M).
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/alg.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"
#include "crypto/polyval/polyval.h"

#define M0 0x1111111111111111ull
#define M1 0x2222222222222222ull
#define M2 0x4444444444444444ull
#define M3 0x8888888888888888ull

/* the low 64 bits of the carry-less product x * y (see above) */
static uint64_t clmul64_lo(uint64_t x, uint64_t y)
{
	uint64_t x0 = x & M0, x1 = x & M1, x2 = x & M2, x3 = x & M3;
	uint64_t y0 = y & M0, y1 = y & M1, y2 = y & M2, y3 = y & M3;
	uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
	uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
	uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
	uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);

	return (z0 & M0) | (z1 & M1) | (z2 & M2) | (z3 & M3);
}

static uint64_t rev64(uint64_t x)
{
	x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
	x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
	x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
	return __builtin_bswap64(x);
}

/*
 * The high 64 bits of x * y from its bit reversals xr, yr: reversing
 * both factors reverses the 127-bit product, so the low word of xr * yr,
 * reversed, is bits 63..126 of x * y.
 */
static uint64_t clmul64_hi(uint64_t xr, uint64_t yr)
{
	return rev64(clmul64_lo(xr, yr)) >> 1;
}

/*
 * acc = dot(acc, H): Karatsuba's three 64x64 products (h0, h1, h0 ^ h1
 * and their reversals precomputed in st->key.words), then the reduction
 * by x^-128 in two 64-bit folds. With c(x) = x^63 + x^62 + x^57, p(x) =
 * x^128 + x^64 c(x) + 1, so 1 = x^128 + x^64 c(x) mod p: the word W0 at
 * x^0 moves to W0 at x^128 plus W0 * c at x^64 (clearing bits 0..63),
 * then the new W1 at x^64 moves the same way up by 64; what is left at
 * x^128 and above is the product times x^-128. W * c is three shifts.
 */
static void polyval_mul_generic(uint64_t acc[2], const uint64_t k[6])
{
	uint64_t a0 = acc[0], a1 = acc[1], a2 = a0 ^ a1;
	uint64_t r0 = rev64(a0), r1 = rev64(a1), r2 = r0 ^ r1;
	uint64_t l0 = clmul64_lo(a0, k[0]), l1 = clmul64_hi(r0, k[3]);
	uint64_t h0 = clmul64_lo(a1, k[1]), h1 = clmul64_hi(r1, k[4]);
	uint64_t m0 = clmul64_lo(a2, k[2]) ^ l0 ^ h0;
	uint64_t m1 = clmul64_hi(r2, k[5]) ^ l1 ^ h1;
	uint64_t w0 = l0, w1 = l1 ^ m0, w2 = h0 ^ m1, w3 = h1;

	w1 ^= (w0 << 63) ^ (w0 << 62) ^ (w0 << 57);
	w2 ^= w0 ^ (w0 >> 1) ^ (w0 >> 2) ^ (w0 >> 7);
	w2 ^= (w1 << 63) ^ (w1 << 62) ^ (w1 << 57);
	w3 ^= w1 ^ (w1 >> 1) ^ (w1 >> 2) ^ (w1 >> 7);
	acc[0] = w2;
	acc[1] = w3;
}

static void polyval_blocks_generic(struct polyval_state *st, const uint8_t *src,
				   size_t nblocks)
{
	while (nblocks--) {
		if (st->ghash) { /* ByteReverse(X): big-endian halves, swapped */
			st->acc[0] ^= load_be64(src + 8);
			st->acc[1] ^= load_be64(src);
		} else {
			st->acc[0] ^= load_le64(src);
			st->acc[1] ^= load_le64(src + 8);
		}
		polyval_mul_generic(st->acc, st->key.words);
		src += POLYVAL_BLOCK_SIZE;
	}
}

static void polyval_key_generic(struct polyval_state *st)
{
	uint64_t *k = st->key.words;

	k[0] = st->h[0];
	k[1] = st->h[1];
	k[2] = k[0] ^ k[1];
	k[3] = rev64(k[0]);
	k[4] = rev64(k[1]);
	k[5] = k[3] ^ k[4];
}

/* ---- shared by every driver ------------------------------------------ */

void polyval_key_powers(struct polyval_state *st)
{
	static const uint8_t zero[POLYVAL_BLOCK_SIZE];

	/* H^k = (H^(k-1) ^ 0) . H: one all-zero block through the core */
	st->acc[0] = st->h[0];
	st->acc[1] = st->h[1];
	store_le64(st->key.powers[15], st->h[0]);
	store_le64(st->key.powers[15] + 8, st->h[1]);
	for (int k = 2; k <= POLYVAL_MAX_POWERS; k++) {
		st->blocks(st, zero, 1);
		store_le64(st->key.powers[16 - k], st->acc[0]);
		store_le64(st->key.powers[16 - k] + 8, st->acc[1]);
	}
	st->acc[0] = 0;
	st->acc[1] = 0;
}

int polyval_setkey_state(struct polyval_state *st, const uint8_t *key,
			 size_t keylen, int ghash, polyval_blocks_fn *blocks,
			 polyval_key_fn *keyfn)
{
	if (keylen != POLYVAL_KEY_SIZE)
		return -EINVAL;
	explicit_bzero(st, sizeof(*st));
	st->ghash = ghash;
	st->blocks = blocks;
	if (ghash) {
		/* mulX_POLYVAL(ByteReverse(H)) (RFC 8452, appendix A) */
		uint64_t lo = load_be64(key + 8), hi = load_be64(key);
		uint64_t carry = hi >> 63;

		st->h[1] = (hi << 1 | lo >> 63) ^ ((0 - carry) & 0xc200000000000000ull);
		st->h[0] = (lo << 1) ^ carry;
	} else {
		st->h[0] = load_le64(key);
		st->h[1] = load_le64(key + 8);
	}
	keyfn(st);
	return 0;
}

void polyval_hash_init(void *state)
{
	struct polyval_state *st = state;

	st->acc[0] = 0;
	st->acc[1] = 0;
	st->used = 0;
}

void polyval_hash_update(void *state, const uint8_t *data, size_t len)
{
	struct polyval_state *st = state;
	size_t n;

	if (!len) /* data may be NULL then */
		return;
	if (st->used) {
		n = POLYVAL_BLOCK_SIZE - st->used;
		if (n > len) {
			memcpy(st->buf + st->used, data, len);
			st->used += (unsigned int)len;
			return;
		}
		memcpy(st->buf + st->used, data, n);
		st->blocks(st, st->buf, 1);
		st->used = 0;
		data += n;
		len -= n;
	}
	n = len / POLYVAL_BLOCK_SIZE;
	if (n)
		st->blocks(st, data, n);
	data += n * POLYVAL_BLOCK_SIZE;
	len -= n * POLYVAL_BLOCK_SIZE;
	memcpy(st->buf, data, len);
	st->used = (unsigned int)len;
}

void polyval_hash_final(void *state, uint8_t *out)
{
	struct polyval_state *st = state;

	if (st->used) { /* zero-padded to a block */
		memset(st->buf + st->used, 0, POLYVAL_BLOCK_SIZE - st->used);
		st->blocks(st, st->buf, 1);
	}
	if (st->ghash) {
		store_be64(out, st->acc[1]);
		store_be64(out + 8, st->acc[0]);
	} else {
		store_le64(out, st->acc[0]);
		store_le64(out + 8, st->acc[1]);
	}
	explicit_bzero(st->buf, sizeof(st->buf));
	polyval_hash_init(st);
}

/* ---- the generic drivers ---------------------------------------------- */

static int polyval_generic_setkey(void *state, const uint8_t *key, size_t keylen)
{
	return polyval_setkey_state(state, key, keylen, 0, polyval_blocks_generic,
				    polyval_key_generic);
}

static int ghash_generic_setkey(void *state, const uint8_t *key, size_t keylen)
{
	return polyval_setkey_state(state, key, keylen, 1, polyval_blocks_generic,
				    polyval_key_generic);
}

static const struct hash_alg polyval_generic_alg =
	POLYVAL_HASH_ALG(polyval_generic_setkey);
static const struct hash_alg ghash_generic_alg =
	POLYVAL_HASH_ALG(ghash_generic_setkey);

static const struct crypto_driver polyval_generic_drivers[] = {
	{
		.alg_name = "polyval",
		.driver_name = "polyval-generic",
		.priority = 100,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_HASH,
		.u.hash = &polyval_generic_alg,
	},
	{
		.alg_name = "ghash",
		.driver_name = "ghash-generic",
		.priority = 100,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_HASH,
		.u.hash = &ghash_generic_alg,
	},
};

int polyval_generic_register(struct crypto_registry *reg)
{
	int err = crypto_register_drivers(reg, polyval_generic_drivers,
					  ARRAY_SIZE(polyval_generic_drivers));

	return err ? err : polyval_register_testvecs(reg);
}
