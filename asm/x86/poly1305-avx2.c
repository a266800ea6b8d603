/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 block function with AVX2 (built with -mavx2): 4 blocks per
 * step in radix 2^26, one block per 64-bit lane (Goll and Gueron,
 * "Vectorization of Poly1305 message authentication code", 2015; the
 * same scheme as the kernel's poly1305-x86_64-cryptogams AVX2 path, read
 * for ideas only). See poly1305-x86.h for the contract and the layout.
 *
 * h = sum h_i 2^(26 i), limbs of 26 bits (a few bits over after the
 * lazy carry, 27 with a block added); multiplier limbs below 2^26 + 2^9,
 * s_i = 5 r_i because 2^130 = 5 mod p. A column sums at most ten products
 * below 2^56: below 2^60.
 */
#include <immintrin.h>

#include "asm/x86/poly1305-x86.h"

typedef __m256i vec;

#define M26 0x3ffffffull
#define M44 ((1ull << 44) - 1)

#define ADD(a, b) _mm256_add_epi64((a), (b))
#define MUL(a, b) _mm256_mul_epu32((a), (b))
#define AND(a, b) _mm256_and_si256((a), (b))
#define SHR(a, n) _mm256_srli_epi64((a), (n))
#define SHL(a, n) _mm256_slli_epi64((a), (n))

struct poly_r {
	vec r0, r1, r2, r3, r4, s1, s2, s3, s4;
};

/* the power of r in each lane, limb i at p[4 * i + lane] (32-bit words) */
static void load_powers(struct poly_r *r, const uint32_t *p, int broadcast_lane0)
{
	vec l[5];

	for (int i = 0; i < 5; i++)
		l[i] = broadcast_lane0 ? _mm256_set1_epi64x(p[4 * i])
				       : _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(p + 4 * i)));
	r->r0 = l[0];
	r->r1 = l[1];
	r->r2 = l[2];
	r->r3 = l[3];
	r->r4 = l[4];
	r->s1 = ADD(l[1], SHL(l[1], 2));
	r->s2 = ADD(l[2], SHL(l[2], 2));
	r->s3 = ADD(l[3], SHL(l[3], 2));
	r->s4 = ADD(l[4], SHL(l[4], 2));
}

/*
 * The 4 blocks at src (block 0, 2, 1, 3 in lanes 0..3) added to a0..a4:
 * each 128-bit block split into five 26-bit limbs, padbit at 2^128 =
 * 2^24 of limb 4.
 */
#define ADD_BLOCKS(a0, a1, a2, a3, a4, src)                                  \
	do {                                                                 \
		vec x_ = _mm256_loadu_si256((const __m256i *)(const void *)(src)); \
		vec y_ = _mm256_loadu_si256((const __m256i *)(const void *)((src) + 32)); \
		vec lo_ = _mm256_unpacklo_epi64(x_, y_);                     \
		vec hi_ = _mm256_unpackhi_epi64(x_, y_);                     \
		a0 = ADD(a0, AND(lo_, mask));                                \
		a1 = ADD(a1, AND(SHR(lo_, 26), mask));                       \
		a2 = ADD(a2, AND(_mm256_or_si256(SHR(lo_, 52), SHL(hi_, 12)), mask)); \
		a3 = ADD(a3, AND(SHR(hi_, 14), mask));                       \
		a4 = ADD(a4, _mm256_or_si256(SHR(hi_, 40), hibit));          \
	} while (0)

/* d0..d4 += the column sums of a * R (s_i = 5 r_i for the wrapped terms) */
#define MUL_ACC(a0, a1, a2, a3, a4, R)                                       \
	do {                                                                 \
		d0 = ADD(d0, ADD(ADD(MUL(a0, (R).r0), MUL(a1, (R).s4)),      \
				 ADD(ADD(MUL(a2, (R).s3), MUL(a3, (R).s2)), MUL(a4, (R).s1)))); \
		d1 = ADD(d1, ADD(ADD(MUL(a0, (R).r1), MUL(a1, (R).r0)),      \
				 ADD(ADD(MUL(a2, (R).s4), MUL(a3, (R).s3)), MUL(a4, (R).s2)))); \
		d2 = ADD(d2, ADD(ADD(MUL(a0, (R).r2), MUL(a1, (R).r1)),      \
				 ADD(ADD(MUL(a2, (R).r0), MUL(a3, (R).s4)), MUL(a4, (R).s3)))); \
		d3 = ADD(d3, ADD(ADD(MUL(a0, (R).r3), MUL(a1, (R).r2)),      \
				 ADD(ADD(MUL(a2, (R).r1), MUL(a3, (R).r0)), MUL(a4, (R).s4)))); \
		d4 = ADD(d4, ADD(ADD(MUL(a0, (R).r4), MUL(a1, (R).r3)),      \
				 ADD(ADD(MUL(a2, (R).r2), MUL(a3, (R).r1)), MUL(a4, (R).r0)))); \
	} while (0)

/*
 * o = d mod 2^130 - 5, lazily carried (Goll-Gueron's order: two carry
 * chains interleaved, each limb ends at most a bit over 26).
 */
#define REDUCE(o0, o1, o2, o3, o4)                                           \
	do {                                                                 \
		vec c_;                                                      \
		c_ = SHR(d3, 26); d3 = AND(d3, mask); d4 = ADD(d4, c_);      \
		c_ = SHR(d0, 26); d0 = AND(d0, mask); d1 = ADD(d1, c_);      \
		c_ = SHR(d4, 26); d4 = AND(d4, mask);                        \
		d0 = ADD(d0, ADD(c_, SHL(c_, 2)));                           \
		c_ = SHR(d1, 26); d1 = AND(d1, mask); d2 = ADD(d2, c_);      \
		c_ = SHR(d2, 26); d2 = AND(d2, mask); d3 = ADD(d3, c_);      \
		c_ = SHR(d0, 26); d0 = AND(d0, mask); d1 = ADD(d1, c_);      \
		c_ = SHR(d3, 26); d3 = AND(d3, mask); d4 = ADD(d4, c_);      \
		o0 = d0; o1 = d1; o2 = d2; o3 = d3; o4 = d4;                 \
	} while (0)

#define CLEAR_ACC() (d0 = d1 = d2 = d3 = d4 = _mm256_setzero_si256())

/* h = (h + 4 blocks at src) * R */
#define STEP4(src, R)                                                        \
	do {                                                                 \
		ADD_BLOCKS(h0, h1, h2, h3, h4, src);                         \
		CLEAR_ACC();                                                 \
		MUL_ACC(h0, h1, h2, h3, h4, R);                              \
		REDUCE(h0, h1, h2, h3, h4);                                  \
	} while (0)

/* sum of the four 64-bit lanes */
static uint64_t hsum(vec v)
{
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));

	return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(s, _mm_unpackhi_epi64(s, s)));
}

void poly1305_blocks_avx2(uint64_t st[32], const uint8_t *src, size_t nblocks,
			  uint32_t padbit)
{
	const uint32_t *pw = (const uint32_t *)(const void *)(st + POLY1305_X86_POWERS);
	const vec mask = _mm256_set1_epi64x(M26);
	const vec hibit = _mm256_set1_epi64x((long long)padbit << 24);
	const uint64_t a0 = st[POLY1305_X86_H], a1 = st[POLY1305_X86_H + 1];
	const uint64_t a2 = st[POLY1305_X86_H + 2];
	struct poly_r r;
	vec h0, h1, h2, h3, h4, d0, d1, d2, d3, d4;
	unsigned __int128 v;
	uint64_t l0, l1, l2, l3, l4, c;

	/* the caller's h, radix 2^44 -> 2^26, in lane 0 */
	h0 = _mm256_set_epi64x(0, 0, 0, (long long)(a0 & M26));
	h1 = _mm256_set_epi64x(0, 0, 0, (long long)(((a0 >> 26) | (a1 << 18)) & M26));
	h2 = _mm256_set_epi64x(0, 0, 0, (long long)((a1 >> 8) & M26));
	h3 = _mm256_set_epi64x(0, 0, 0, (long long)(((a1 >> 34) | (a2 << 10)) & M26));
	h4 = _mm256_set_epi64x(0, 0, 0, (long long)(a2 >> 16));

	load_powers(&r, pw, 1);
	if (nblocks >= 12) {
		/*
		 * 8 blocks a step: h = (h + m0) r^8 + m1 r^4, both products
		 * summed before one carry chain (the chain of dependent
		 * instructions that bounds a step). q = r^8 = (r^4)^2 in
		 * every lane, lazily carried: limbs at most 2^26 + 2^9.
		 */
		struct poly_r q;

		CLEAR_ACC();
		MUL_ACC(r.r0, r.r1, r.r2, r.r3, r.r4, r);
		REDUCE(q.r0, q.r1, q.r2, q.r3, q.r4);
		q.s1 = ADD(q.r1, SHL(q.r1, 2));
		q.s2 = ADD(q.r2, SHL(q.r2, 2));
		q.s3 = ADD(q.r3, SHL(q.r3, 2));
		q.s4 = ADD(q.r4, SHL(q.r4, 2));
		for (; nblocks >= 12; nblocks -= 8, src += 128) {
			vec m0 = _mm256_setzero_si256(), m1 = m0, m2 = m0, m3 = m0, m4 = m0;

			ADD_BLOCKS(h0, h1, h2, h3, h4, src);
			ADD_BLOCKS(m0, m1, m2, m3, m4, src + 64);
			CLEAR_ACC();
			MUL_ACC(h0, h1, h2, h3, h4, q);
			MUL_ACC(m0, m1, m2, m3, m4, r);
			REDUCE(h0, h1, h2, h3, h4);
		}
	}
	for (; nblocks > 4; nblocks -= 4, src += 64)
		STEP4(src, r);
	/* the last 4 blocks: lane k times r^4, r^2, r^3, r^1 */
	load_powers(&r, pw, 0);
	STEP4(src, r);

	/* sum the lanes, carry fully, back to radix 2^44 */
	l0 = hsum(h0);
	l1 = hsum(h1);
	l2 = hsum(h2);
	l3 = hsum(h3);
	l4 = hsum(h4);
	c = l0 >> 26; l0 &= M26; l1 += c;
	c = l1 >> 26; l1 &= M26; l2 += c;
	c = l2 >> 26; l2 &= M26; l3 += c;
	c = l3 >> 26; l3 &= M26; l4 += c;
	c = l4 >> 26; l4 &= M26; l0 += c * 5;
	c = l0 >> 26; l0 &= M26; l1 += c;
	/* bits 0..104 in 128 bits (l1 may be one bit over 26: add, not OR) */
	v = ((unsigned __int128)l3 << 78) + ((unsigned __int128)l2 << 52) +
	    ((unsigned __int128)l1 << 26) + l0;
	st[POLY1305_X86_H] = (uint64_t)v & M44;
	st[POLY1305_X86_H + 1] = (uint64_t)(v >> 44) & M44;
	st[POLY1305_X86_H + 2] = (uint64_t)(v >> 88) + (l4 << 16);
}
