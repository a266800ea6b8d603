// SPDX-License-Identifier: MIT
/*
 * Poly1305 block functions (struct poly1305_core_ops) over the x86-64
 * SIMD cores in poly1305-*.c. See poly1305-x86-glue.h.
 *
 * The cores only pay off on long inputs: each call moves h into the
 * vector lanes and sums them back, and the powers of r must exist. So
 * short runs (the AAD, the padding, the lengths block, short messages)
 * use the scalar radix-2^44 code here, on the same h, and the powers are
 * computed on the first long run only (a one-time key on a short message
 * never needs them). The final reduction is scalar too. The IFMA powers
 * come from three vector products in the core's file (~130 cycles on
 * Zen 4, against ~320 for seven scalar ones, as the AVX2 table still
 * does): the AEAD pays them once per message.
 */
#include "crypto/arch/x86/poly1305-x86-glue.h"

#if defined(__x86_64__) && defined(CLOAKFS_CHACHA_X86_CORES)

#include <string.h>

#include "crypto/arch/x86/poly1305-x86.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/ct.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"

#define M26 0x3ffffffull
#define M44 ((1ull << 44) - 1)
#define M42 ((1ull << 42) - 1)

/* r clamp (RFC 8439, section 2.5): 0x0ffffffc0ffffffc0ffffffc0fffffff */
#define CLAMP_LO 0x0ffffffc0fffffffull
#define CLAMP_HI 0x0ffffffc0ffffffcull

/*
 * Shortest runs (in blocks) worth a core call, measured on Zen 5: below
 * them the lane set-up and final sum cost more than the scalar blocks.
 * IFMA: 8 (the core's minimum) since its powers are vector products:
 * with a fresh key, 8 to 15 blocks take ~80-100 cycles less than with 16
 * on Zen 4 (128 bytes: ~390 -> ~305 cycles, key set-up to tag).
 */
#define AVX2_MIN_BLOCKS 16
#define IFMA_MIN_BLOCKS 8

typedef unsigned __int128 u128;

#define H POLY1305_X86_H
#define R POLY1305_X86_R

/*
 * h = h * r mod 2^130 - 5, radix 2^44 (2^132 = 20 mod p for the wrapped
 * products); h limbs below 2^45, r limbs below 2^44. Leaves h0 below
 * 2^44, h1 below 2^44 + 2^11, h2 below 2^42. Inlined so that h and r stay
 * in registers in the block loop.
 */
static inline __attribute__((always_inline)) void mul44(uint64_t h[3],
							 const uint64_t r[3])
{
	const uint64_t s1 = r[1] * 20, s2 = r[2] * 20;
	u128 d0 = (u128)h[0] * r[0] + (u128)h[1] * s2 + (u128)h[2] * s1;
	u128 d1 = (u128)h[0] * r[1] + (u128)h[1] * r[0] + (u128)h[2] * s2;
	u128 d2 = (u128)h[0] * r[2] + (u128)h[1] * r[1] + (u128)h[2] * r[0];
	uint64_t c;

	c = (uint64_t)(d0 >> 44);
	h[0] = (uint64_t)d0 & M44;
	d1 += c;
	c = (uint64_t)(d1 >> 44);
	h[1] = (uint64_t)d1 & M44;
	d2 += c;
	c = (uint64_t)(d2 >> 42);
	h[2] = (uint64_t)d2 & M42;
	h[0] += c * 5;
	c = h[0] >> 44;
	h[0] &= M44;
	h[1] += c;
}

/* carry h1 into h2: h0, h1 below 2^44, h2 below 2^42 + 1 (the cores' form) */
static void carry44(uint64_t h[3])
{
	h[2] += h[1] >> 44;
	h[1] &= M44;
}

static void scalar_blocks(uint64_t *st, const uint8_t *src, size_t nblocks,
			  uint32_t padbit)
{
	const uint64_t hibit = (uint64_t)padbit << 40; /* 2^128 = 2^88 * 2^40 */
	const uint64_t r[3] = { st[R], st[R + 1], st[R + 2] };
	uint64_t h[3] = { st[H], st[H + 1], st[H + 2] };

	while (nblocks--) {
		uint64_t t0 = load_le64(src), t1 = load_le64(src + 8);

		h[0] += t0 & M44;
		h[1] += ((t0 >> 44) | (t1 << 20)) & M44;
		h[2] += (t1 >> 24) | hibit;
		mul44(h, r);
		src += POLY1305_BLOCK_SIZE;
	}
	carry44(h);
	st[H] = h[0];
	st[H + 1] = h[1];
	st[H + 2] = h[2];
}

static void x86_setkey(union poly1305_core_state *core, const uint8_t r[16])
{
	uint64_t *st = core->simd;
	uint64_t t0 = load_le64(r) & CLAMP_LO, t1 = load_le64(r + 8) & CLAMP_HI;

	st[R] = t0 & M44;
	st[R + 1] = ((t0 >> 44) | (t1 << 20)) & M44;
	st[R + 2] = t1 >> 24;
	st[H] = st[H + 1] = st[H + 2] = 0;
	st[POLY1305_X86_POWERS_READY] = 0;
}

/* pw[c] = pw[a] * pw[b] (indexes of powers: pw[i] = r^(i + 1)) */
static void power_product(uint64_t pw[][3], int c, int a, int b)
{
	memcpy(pw[c], pw[a], sizeof(pw[c]));
	mul44(pw[c], pw[b]);
	carry44(pw[c]);
}

/*
 * r^1 .. r^n (n = 4 or 8) in radix 2^44, as a tree of products so that
 * the independent multiplications overlap: depth 3 for n = 8, not 7.
 */
static void powers44(const uint64_t *st, uint64_t pw[][3], int n)
{
	memcpy(pw[0], st + R, sizeof(pw[0]));
	power_product(pw, 1, 0, 0);             /* r^2 = r * r */
	power_product(pw, 2, 1, 0);             /* r^3 = r^2 * r */
	power_product(pw, 3, 1, 1);             /* r^4 = r^2 * r^2 */
	for (int i = 4; i < n; i++)
		power_product(pw, i, 3, i - 4); /* r^(i+1) = r^4 * r^(i-3) */
}

/* the AVX2 table (poly1305-x86.h): lanes hold r^4, r^2, r^3, r^1, radix 2^26 */
static void powers_avx2(uint64_t *st)
{
	static const int lane_power[4] = { 4, 2, 3, 1 };
	uint32_t tab[20];
	uint64_t pw[4][3];

	powers44(st, pw, 4);
	for (int k = 0; k < 4; k++) {
		const uint64_t *p = pw[lane_power[k] - 1];

		tab[0 * 4 + k] = (uint32_t)(p[0] & M26);
		tab[1 * 4 + k] = (uint32_t)(((p[0] >> 26) | (p[1] << 18)) & M26);
		tab[2 * 4 + k] = (uint32_t)((p[1] >> 8) & M26);
		tab[3 * 4 + k] = (uint32_t)(((p[1] >> 34) | (p[2] << 10)) & M26);
		tab[4 * 4 + k] = (uint32_t)(p[2] >> 16);
	}
	memcpy(st + POLY1305_X86_POWERS, tab, sizeof(tab));
	st[POLY1305_X86_POWERS_READY] = 1;
	explicit_bzero(tab, sizeof(tab));
	explicit_bzero(pw, sizeof(pw));
}

static void avx2_blocks(union poly1305_core_state *core, const uint8_t *src,
			size_t nblocks, uint32_t padbit)
{
	uint64_t *st = core->simd;

	if (nblocks >= AVX2_MIN_BLOCKS) {
		size_t n = nblocks & ~(size_t)3;

		if (!st[POLY1305_X86_POWERS_READY])
			powers_avx2(st);
		poly1305_blocks_avx2(st, src, n, padbit);
		src += n * POLY1305_BLOCK_SIZE;
		nblocks -= n;
	}
	scalar_blocks(st, src, nblocks, padbit);
}

static void ifma_blocks(union poly1305_core_state *core, const uint8_t *src,
			size_t nblocks, uint32_t padbit)
{
	uint64_t *st = core->simd;

	if (nblocks >= IFMA_MIN_BLOCKS) {
		size_t n = nblocks & ~(size_t)7;

		if (!st[POLY1305_X86_POWERS_READY])
			poly1305_powers_avx512ifma(st);
		poly1305_blocks_avx512ifma(st, src, n, padbit);
		src += n * POLY1305_BLOCK_SIZE;
		nblocks -= n;
	}
	scalar_blocks(st, src, nblocks, padbit);
}

/* h fully reduced mod p, low 128 bits */
static void x86_emit(const union poly1305_core_state *core, uint8_t out[16])
{
	const uint64_t *st = core->simd;
	uint64_t h0 = st[H], h1 = st[H + 1], h2 = st[H + 2];
	uint64_t g0, g1, g2, c, mask;

	/* h < 2^130 + 2^88 here: fold bits from 2^130 up, then carry */
	c = h2 >> 42;
	h2 &= M42;
	h0 += c * 5;
	c = h0 >> 44;
	h0 &= M44;
	h1 += c;
	c = h1 >> 44;
	h1 &= M44;
	h2 += c;

	/* now h < 2 p: g = h + 5 - 2^130, kept when it did not borrow */
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

const struct poly1305_core_ops poly1305_avx2_core = {
	.setkey = x86_setkey,
	.blocks = avx2_blocks,
	.emit = x86_emit,
};

const struct poly1305_core_ops poly1305_avx512ifma_core = {
	.setkey = x86_setkey,
	.blocks = ifma_blocks,
	.emit = x86_emit,
};

static int poly1305_avx2_setkey(void *state, const uint8_t *key, size_t keylen)
{
	return poly1305_hash_setkey(state, key, keylen, &poly1305_avx2_core);
}

static int poly1305_ifma_setkey(void *state, const uint8_t *key, size_t keylen)
{
	return poly1305_hash_setkey(state, key, keylen, &poly1305_avx512ifma_core);
}

static const struct hash_alg poly1305_avx2_alg =
	POLY1305_HASH_ALG(poly1305_avx2_setkey);
static const struct hash_alg poly1305_ifma_alg =
	POLY1305_HASH_ALG(poly1305_ifma_setkey);

static const struct crypto_driver poly1305_x86_drivers[] = {
	{ .alg_name = "poly1305", .driver_name = "poly1305-avx2",
	  .priority = 600, .features = CPU_FEAT_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &poly1305_avx2_alg },
	/* the core is built with -mavx2 -mavx512f -mavx512ifma */
	{ .alg_name = "poly1305", .driver_name = "poly1305-avx512ifma",
	  .priority = 800,
	  .features = CPU_FEAT_AVX512F | CPU_FEAT_AVX512IFMA | CPU_FEAT_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &poly1305_ifma_alg },
};

int poly1305_x86_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, poly1305_x86_drivers,
				       ARRAY_SIZE(poly1305_x86_drivers));
}

#else /* not x86-64, or built without the cores: nothing to register */

int poly1305_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif /* __x86_64__ && CLOAKFS_CHACHA_X86_CORES */
