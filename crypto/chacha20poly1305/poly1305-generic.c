// SPDX-License-Identifier: MIT
/*
 * Poly1305 (RFC 8439, section 2.5): buffering and the generic block
 * function. See poly1305.h.
 *
 * p = 2^130 - 5, so a carry out of bit 130 folds back as "* 5", and a
 * limb product landing at 2^(130 + k) folds back to 5 * 2^k. The
 * accumulator is kept partially reduced between blocks (each limb a few
 * bits over its nominal width) and fully reduced only in emit, by
 * computing h - p and selecting with a mask.
 */
#include <errno.h>
#include <string.h>

#include "crypto/chacha20poly1305/poly1305.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/ct.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"

/* r clamp (RFC 8439, section 2.5): 0x0ffffffc0ffffffc0ffffffc0fffffff */
#define CLAMP_LO 0x0ffffffc0fffffffull
#define CLAMP_HI 0x0ffffffc0ffffffcull

#define M26 0x3ffffffu

/*
 * out = in carried in radix 2^26 (in's limbs below 2^31, in == out
 * allowed): each limb below 2^26 but out[1] at most 2^26. Straight-line
 * (the SIMD glues call it twice per run of blocks), on registers.
 */
static void carry26(const uint32_t in[5], uint32_t out[5])
{
	uint32_t h0 = in[0], h1 = in[1], h2 = in[2], h3 = in[3], h4 = in[4];

	/* full carry, twice: the first fold can carry once more */
#pragma GCC unroll 2
	for (int k = 0; k < 2; k++) {
		h1 += h0 >> 26;
		h0 &= M26;
		h2 += h1 >> 26;
		h1 &= M26;
		h3 += h2 >> 26;
		h2 &= M26;
		h4 += h3 >> 26;
		h3 &= M26;
		h0 += (h4 >> 26) * 5;
		h4 &= M26;
	}
	h1 += h0 >> 26;
	out[0] = h0 & M26;
	out[1] = h1;
	out[2] = h2;
	out[3] = h3;
	out[4] = h4;
}

#if defined(__SIZEOF_INT128__) && !defined(POLY1305_FORCE_26BIT)

/*
 * 44-bit limbs: h = h0 + h1 * 2^44 + h2 * 2^88 (h2 nominally 42 bits).
 * 2^132 = 4 * 2^130 = 20 mod p, so the wrapped terms use s = 20 * r.
 * Products are < 2^50 * 2^44, three of them sum below 2^97.
 */
typedef unsigned __int128 u128;

#define M44 ((1ull << 44) - 1)
#define M42 ((1ull << 42) - 1)

/* layout of core->l44 */
enum { H0, H1, H2, R0, R1, R2, S1, S2 };

static void poly1305_generic_setkey(union poly1305_core_state *core,
				    const uint8_t r[16])
{
	uint64_t *st = core->l44;
	uint64_t t0 = load_le64(r) & CLAMP_LO, t1 = load_le64(r + 8) & CLAMP_HI;

	st[R0] = t0 & M44;
	st[R1] = ((t0 >> 44) | (t1 << 20)) & M44;
	st[R2] = t1 >> 24;
	st[S1] = st[R1] * 20;
	st[S2] = st[R2] * 20;
	st[H0] = st[H1] = st[H2] = 0;
}

static void poly1305_generic_blocks(union poly1305_core_state *core,
				    const uint8_t *src, size_t nblocks,
				    uint32_t padbit)
{
	uint64_t *st = core->l44;
	const uint64_t r0 = st[R0], r1 = st[R1], r2 = st[R2];
	const uint64_t s1 = st[S1], s2 = st[S2];
	const uint64_t hibit = (uint64_t)padbit << 40; /* 2^128 = 2^88 * 2^40 */
	uint64_t h0 = st[H0], h1 = st[H1], h2 = st[H2];

	while (nblocks--) {
		uint64_t t0 = load_le64(src), t1 = load_le64(src + 8), c;
		u128 d0, d1, d2;

		h0 += t0 & M44;
		h1 += ((t0 >> 44) | (t1 << 20)) & M44;
		h2 += (t1 >> 24) | hibit;

		d0 = (u128)h0 * r0 + (u128)h1 * s2 + (u128)h2 * s1;
		d1 = (u128)h0 * r1 + (u128)h1 * r0 + (u128)h2 * s2;
		d2 = (u128)h0 * r2 + (u128)h1 * r1 + (u128)h2 * r0;

		c = (uint64_t)(d0 >> 44);
		h0 = (uint64_t)d0 & M44;
		d1 += c;
		c = (uint64_t)(d1 >> 44);
		h1 = (uint64_t)d1 & M44;
		d2 += c;
		c = (uint64_t)(d2 >> 42);
		h2 = (uint64_t)d2 & M42;
		h0 += c * 5;
		c = h0 >> 44;
		h0 &= M44;
		h1 += c;

		src += POLY1305_BLOCK_SIZE;
	}
	st[H0] = h0;
	st[H1] = h1;
	st[H2] = h2;
}

/* h carried: below 2^130, h0 and h2 within their limbs, h1 below 2^44 + 1 */
static void carry_full(const uint64_t *st, uint64_t h[3])
{
	uint64_t h0 = st[H0], h1 = st[H1], h2 = st[H2], c;

	/* full carry, twice: the first fold can carry once more */
	for (int i = 0; i < 2; i++) {
		c = h0 >> 44;
		h0 &= M44;
		h1 += c;
		c = h1 >> 44;
		h1 &= M44;
		h2 += c;
		c = h2 >> 42;
		h2 &= M42;
		h0 += c * 5;
	}
	c = h0 >> 44;
	h[0] = h0 & M44;
	h[1] = h1 + c;
	h[2] = h2;
}

/* h's 130 bits do not fit an unsigned __int128: limb by limb */
void poly1305_generic_get26(const union poly1305_core_state *core,
			    uint32_t h26[5])
{
	uint64_t h[3];

	carry_full(core->l44, h);
	h[2] += h[1] >> 44; /* h1 may be 2^44 */
	h[1] &= M44;
	h26[0] = (uint32_t)h[0] & M26;
	h26[1] = (uint32_t)((h[0] >> 26) | (h[1] << 18)) & M26;
	h26[2] = (uint32_t)(h[1] >> 8) & M26;
	h26[3] = (uint32_t)((h[1] >> 34) | (h[2] << 10)) & M26;
	h26[4] = (uint32_t)(h[2] >> 16);
	carry26(h26, h26);
	wipe(h, sizeof(h));
}

void poly1305_generic_set26(union poly1305_core_state *core,
			    const uint32_t h26[5])
{
	uint64_t *st = core->l44;
	uint32_t h[5];
	uint64_t t;

	carry26(h26, h);
	t = h[0] + ((uint64_t)h[1] << 26);                    /* bits 0.. */
	st[H0] = t & M44;
	t = (t >> 44) + ((uint64_t)h[2] << 8) + ((uint64_t)h[3] << 34); /* 44.. */
	st[H1] = t & M44;
	st[H2] = (t >> 44) + ((uint64_t)h[4] << 16);          /* 88.. */
	wipe(h, sizeof(h));
}

static void poly1305_generic_emit(const union poly1305_core_state *core,
				  uint8_t out[16])
{
	uint64_t h[3], h0, h1, h2, g0, g1, g2, c, mask;

	carry_full(core->l44, h);
	h0 = h[0];
	h1 = h[1];
	h2 = h[2];

	/* g = h + 5 - 2^130; keep g if it did not borrow (h >= p) */
	g0 = h0 + 5;
	c = g0 >> 44;
	g0 &= M44;
	g1 = h1 + c;
	c = g1 >> 44;
	g1 &= M44;
	g2 = h2 + c - (1ull << 42);
	mask = ct_mask64(1 ^ (g2 >> 63));
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);

	store_le64(out, h0 | (h1 << 44));
	store_le64(out + 8, (h1 >> 20) | (h2 << 24));
}

#else /* no 128-bit integers: 26-bit limbs */

/*
 * h = h0 + h1 * 2^26 + ... + h4 * 2^104; 2^130 = 5 mod p, so wrapped
 * terms use s = 5 * r. Products are < 2^27 * 2^29, five sum below 2^59.
 */
/* layout of core->l26: h[5], then r[5], then s[4] = 5 * r[1..4] */
#define H(st) (st)
#define R(st) ((st) + 5)
#define S(st) ((st) + 10)

/*
 * 32x32 -> 64-bit product: the limbs fit 32 bits, and on 32-bit targets
 * (the ones without __int128) a product of uint64_t operands costs three
 * multiplications where one UMULL does
 */
#define MUL32(a, b) ((uint64_t)(uint32_t)(a) * (uint32_t)(b))

static void poly1305_generic_setkey(union poly1305_core_state *core,
				    const uint8_t r[16])
{
	uint32_t *h = H(core->l26), *rr = R(core->l26), *s = S(core->l26);
	uint64_t lo = load_le64(r) & CLAMP_LO, hi = load_le64(r + 8) & CLAMP_HI;
	uint32_t t0 = (uint32_t)lo, t1 = (uint32_t)(lo >> 32);
	uint32_t t2 = (uint32_t)hi, t3 = (uint32_t)(hi >> 32);

	rr[0] = t0 & M26;
	rr[1] = ((t0 >> 26) | (t1 << 6)) & M26;
	rr[2] = ((t1 >> 20) | (t2 << 12)) & M26;
	rr[3] = ((t2 >> 14) | (t3 << 18)) & M26;
	rr[4] = t3 >> 8;
	for (int i = 0; i < 4; i++)
		s[i] = rr[i + 1] * 5;
	for (int i = 0; i < 5; i++)
		h[i] = 0;
}

static void poly1305_generic_blocks(union poly1305_core_state *core,
				    const uint8_t *src, size_t nblocks,
				    uint32_t padbit)
{
	uint32_t *h = H(core->l26);
	const uint32_t *rr = R(core->l26), *s = S(core->l26);
	const uint32_t r0 = rr[0], r1 = rr[1], r2 = rr[2], r3 = rr[3], r4 = rr[4];
	const uint32_t s1 = s[0], s2 = s[1], s3 = s[2], s4 = s[3];
	const uint32_t hibit = padbit << 24; /* 2^128 = 2^104 * 2^24 */
	uint32_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];

	while (nblocks--) {
		uint32_t t0 = load_le32(src), t1 = load_le32(src + 4);
		uint32_t t2 = load_le32(src + 8), t3 = load_le32(src + 12);
		uint64_t d0, d1, d2, d3, d4;

		h0 += t0 & M26;
		h1 += ((t0 >> 26) | (t1 << 6)) & M26;
		h2 += ((t1 >> 20) | (t2 << 12)) & M26;
		h3 += ((t2 >> 14) | (t3 << 18)) & M26;
		h4 += (t3 >> 8) | hibit;

		d0 = MUL32(h0, r0) + MUL32(h1, s4) + MUL32(h2, s3) +
		     MUL32(h3, s2) + MUL32(h4, s1);
		d1 = MUL32(h0, r1) + MUL32(h1, r0) + MUL32(h2, s4) +
		     MUL32(h3, s3) + MUL32(h4, s2);
		d2 = MUL32(h0, r2) + MUL32(h1, r1) + MUL32(h2, r0) +
		     MUL32(h3, s4) + MUL32(h4, s3);
		d3 = MUL32(h0, r3) + MUL32(h1, r2) + MUL32(h2, r1) +
		     MUL32(h3, r0) + MUL32(h4, s4);
		d4 = MUL32(h0, r4) + MUL32(h1, r3) + MUL32(h2, r2) +
		     MUL32(h3, r1) + MUL32(h4, r0);

		d1 += d0 >> 26;
		d2 += d1 >> 26;
		d3 += d2 >> 26;
		d4 += d3 >> 26;
		/* d4's carry (below 2^33) folds into h0 as * 5, in 64 bits */
		d0 = ((uint32_t)d0 & M26) + (d4 >> 26) * 5;
		h0 = (uint32_t)d0 & M26;
		h1 = ((uint32_t)d1 & M26) + (uint32_t)(d0 >> 26);
		h2 = (uint32_t)d2 & M26;
		h3 = (uint32_t)d3 & M26;
		h4 = (uint32_t)d4 & M26;

		src += POLY1305_BLOCK_SIZE;
	}
	h[0] = h0;
	h[1] = h1;
	h[2] = h2;
	h[3] = h3;
	h[4] = h4;
}

void poly1305_generic_get26(const union poly1305_core_state *core,
			    uint32_t h26[5])
{
	carry26(H(core->l26), h26);
}

void poly1305_generic_set26(union poly1305_core_state *core,
			    const uint32_t h26[5])
{
	carry26(h26, H(core->l26));
}

static void poly1305_generic_emit(const union poly1305_core_state *core,
				  uint8_t out[16])
{
	uint32_t h[5], g[5], c, mask;
	uint64_t lo, hi;

	carry26(H(core->l26), h);

	/* g = h + 5 - 2^130; keep g if it did not borrow (h >= p) */
	c = 5;
	for (int i = 0; i < 4; i++) {
		g[i] = h[i] + c;
		c = g[i] >> 26;
		g[i] &= M26;
	}
	g[4] = h[4] + c - (1u << 26);
	mask = ct_mask32(1 ^ (g[4] >> 31));
	for (int i = 0; i < 5; i++)
		h[i] = (h[i] & ~mask) | (g[i] & mask);

	lo = (uint64_t)h[0] | (uint64_t)h[1] << 26 | (uint64_t)h[2] << 52;
	hi = (uint64_t)h[2] >> 12 | (uint64_t)h[3] << 14 | (uint64_t)h[4] << 40;
	store_le64(out, lo);
	store_le64(out + 8, hi);
	explicit_bzero(h, sizeof(h));
	explicit_bzero(g, sizeof(g));
}

#endif

const struct poly1305_core_ops poly1305_generic_core = {
	.setkey = poly1305_generic_setkey,
	.blocks = poly1305_generic_blocks,
	.emit = poly1305_generic_emit,
};

static void poly1305_init_ops(struct poly1305_ctx *ctx,
			      const uint8_t key[POLY1305_KEY_SIZE],
			      const struct poly1305_core_ops *ops)
{
	ctx->ops = ops;
	ops->setkey(&ctx->core, key);
	memcpy(ctx->s, key + 16, 16);
	ctx->buflen = 0;
}

static void poly1305_update(struct poly1305_ctx *ctx, const uint8_t *data,
			    size_t len)
{
	size_t n;

	if (!len) /* data may be NULL then */
		return;
	if (ctx->buflen) {
		n = POLY1305_BLOCK_SIZE - ctx->buflen;
		if (n > len)
			n = len;
		memcpy(ctx->buf + ctx->buflen, data, n);
		ctx->buflen += n;
		data += n;
		len -= n;
		if (ctx->buflen < POLY1305_BLOCK_SIZE)
			return;
		ctx->ops->blocks(&ctx->core, ctx->buf, 1, 1);
		ctx->buflen = 0;
	}
	n = len / POLY1305_BLOCK_SIZE;
	if (n) {
		ctx->ops->blocks(&ctx->core, data, n, 1);
		data += n * POLY1305_BLOCK_SIZE;
		len -= n * POLY1305_BLOCK_SIZE;
	}
	if (len) {
		memcpy(ctx->buf, data, len);
		ctx->buflen = len;
	}
}

/* the tag of the message so far; ctx is left as it is */
static void poly1305_tag(struct poly1305_ctx *ctx, uint8_t tag[POLY1305_TAG_SIZE])
{
	uint8_t h[16];
	uint64_t lo, hi, s0, s1, sum;

	if (ctx->buflen) {
		/* short last block: 0x01 after the data, then zeros, no 2^128 */
		ctx->buf[ctx->buflen] = 1;
		memset(ctx->buf + ctx->buflen + 1, 0,
		       POLY1305_BLOCK_SIZE - ctx->buflen - 1);
		ctx->ops->blocks(&ctx->core, ctx->buf, 1, 0);
	}
	ctx->ops->emit(&ctx->core, h);

	/* tag = (h + s) mod 2^128, carry computed without a branch */
	lo = load_le64(h);
	hi = load_le64(h + 8);
	s0 = load_le64(ctx->s);
	s1 = load_le64(ctx->s + 8);
	sum = lo + s0;
	hi += s1 + (((lo & s0) | ((lo | s0) & ~sum)) >> 63);
	store_le64(tag, sum);
	store_le64(tag + 8, hi);
	wipe(h, sizeof(h));
}

/* ---- the "poly1305" keyed hash, shared by every driver ------------------ */

int poly1305_hash_setkey(void *state, const uint8_t *key, size_t keylen,
			 const struct poly1305_core_ops *ops)
{
	struct poly1305_hash_state *st = state;

	if (keylen != POLY1305_KEY_SIZE)
		return -EINVAL;
	memcpy(st->key, key, POLY1305_KEY_SIZE);
	st->ops = ops;
	poly1305_init_ops(&st->mac, key, ops);
	return 0;
}

void poly1305_hash_init(void *state)
{
	struct poly1305_hash_state *st = state;

	poly1305_init_ops(&st->mac, st->key, st->ops);
}

void poly1305_hash_update(void *state, const uint8_t *data, size_t len)
{
	poly1305_update(&((struct poly1305_hash_state *)state)->mac, data, len);
}

/*
 * The message's traces go as the accumulator restarts under the kept key
 * (the hash API's final), not by a wipe of the whole state: its owner
 * wipes that once (the AEAD template, crypto_free).
 */
void poly1305_hash_final(void *state, uint8_t *out)
{
	struct poly1305_hash_state *st = state;

	poly1305_tag(&st->mac, out);
	wipe(st->mac.buf, sizeof(st->mac.buf));
	poly1305_init_ops(&st->mac, st->key, st->ops);
}

static int poly1305_generic_hash_setkey(void *state, const uint8_t *key,
					size_t keylen)
{
	return poly1305_hash_setkey(state, key, keylen, &poly1305_generic_core);
}

static const struct hash_alg poly1305_generic_alg =
	POLY1305_HASH_ALG(poly1305_generic_hash_setkey);

static const struct crypto_driver poly1305_generic_driver = {
	.alg_name = "poly1305",
	.driver_name = "poly1305-generic",
	.priority = 100,
	.flags = CRYPTO_F_CONST_TIME,
	.type = CRYPTO_TYPE_HASH,
	.u.hash = &poly1305_generic_alg,
};

int poly1305_generic_register(struct crypto_registry *reg)
{
	int err = crypto_register_driver(reg, &poly1305_generic_driver);

	return err ? err : poly1305_register_testvecs(reg);
}
