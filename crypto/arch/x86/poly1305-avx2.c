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
 *
 * The products are summed one at a time into the column (MAC), in the
 * order written: with the sums as expression trees GCC reordered an
 * 8-block step to compute all 50 products first and spilled most of
 * them; the chained form keeps the step in registers (0.44 -> 0.37 c/B
 * at 64 KiB, 0.52 -> 0.45 at 4 KiB, one call per size, Zen 3).
 */
#include <immintrin.h>

#include "crypto/arch/x86/poly1305-x86.h"

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
 * The 4 blocks at src (block 0, 2, 1, 3 in lanes 0..3) as new vectors
 * t0..t4: each 128-bit block split into five 26-bit limbs, padbit at
 * 2^128 = 2^24 of limb 4.
 */
#define SPLIT_BLOCKS(t, src)                                                 \
	vec t##0, t##1, t##2, t##3, t##4;                                    \
	do {                                                                 \
		vec x_ = _mm256_loadu_si256((const __m256i *)(const void *)(src)); \
		vec y_ = _mm256_loadu_si256((const __m256i *)(const void *)((src) + 32)); \
		vec lo_ = _mm256_unpacklo_epi64(x_, y_);                     \
		vec hi_ = _mm256_unpackhi_epi64(x_, y_);                     \
		t##0 = AND(lo_, mask);                                       \
		t##1 = AND(SHR(lo_, 26), mask);                              \
		t##2 = AND(_mm256_or_si256(SHR(lo_, 52), SHL(hi_, 12)), mask); \
		t##3 = AND(SHR(hi_, 14), mask);                              \
		t##4 = _mm256_or_si256(SHR(hi_, 40), hibit);                 \
	} while (0)

/* a0..a4 += the 4 blocks at src */
#define ADD_BLOCKS(a0, a1, a2, a3, a4, src)                                  \
	do {                                                                 \
		SPLIT_BLOCKS(b_, src);                                       \
		a0 = ADD(a0, b_0);                                           \
		a1 = ADD(a1, b_1);                                           \
		a2 = ADD(a2, b_2);                                           \
		a3 = ADD(a3, b_3);                                           \
		a4 = ADD(a4, b_4);                                           \
	} while (0)

/*
 * d += a * b, as a chain that the compiler keeps in this order: left to
 * itself, GCC reassociates the sums of an 8-block step, computes all 50
 * products first and spills most of them to the stack.
 */
#define MAC(d, a, b)                                                         \
	do {                                                                 \
		d = ADD(d, MUL((a), (b)));                                   \
		__asm__("" : "+x"(d));                                       \
	} while (0)

/*
 * d0..d4 = the column sums of a * R with FIRST = MUL_SET, or += them with
 * FIRST = MAC (s_i = 5 r_i for the wrapped terms); a is a prefix that
 * 0..4 complete: MUL_COLS(h, ...) reads h0..h4, MUL_COLS(r.r, ...) r.r0..
 */
#define MUL_COLS(a, R, FIRST)                                                \
	do {                                                                 \
		FIRST(d0, a##0, (R).r0); MAC(d0, a##1, (R).s4); MAC(d0, a##2, (R).s3); \
		MAC(d0, a##3, (R).s2); MAC(d0, a##4, (R).s1);                \
		FIRST(d1, a##0, (R).r1); MAC(d1, a##1, (R).r0); MAC(d1, a##2, (R).s4); \
		MAC(d1, a##3, (R).s3); MAC(d1, a##4, (R).s2);                \
		FIRST(d2, a##0, (R).r2); MAC(d2, a##1, (R).r1); MAC(d2, a##2, (R).r0); \
		MAC(d2, a##3, (R).s4); MAC(d2, a##4, (R).s3);                \
		FIRST(d3, a##0, (R).r3); MAC(d3, a##1, (R).r2); MAC(d3, a##2, (R).r1); \
		MAC(d3, a##3, (R).r0); MAC(d3, a##4, (R).s4);                \
		FIRST(d4, a##0, (R).r4); MAC(d4, a##1, (R).r3); MAC(d4, a##2, (R).r2); \
		MAC(d4, a##3, (R).r1); MAC(d4, a##4, (R).r0);                \
	} while (0)
#define MUL_SET(d, a, b) (d = MUL((a), (b)))

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

/* h = (h + 4 blocks at src) * R */
#define STEP4(src, R)                                                        \
	do {                                                                 \
		ADD_BLOCKS(h0, h1, h2, h3, h4, src);                         \
		MUL_COLS(h, R, MUL_SET);                                     \
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

		MUL_COLS(r.r, r, MUL_SET);
		REDUCE(q.r0, q.r1, q.r2, q.r3, q.r4);
		q.s1 = ADD(q.r1, SHL(q.r1, 2));
		q.s2 = ADD(q.r2, SHL(q.r2, 2));
		q.s3 = ADD(q.r3, SHL(q.r3, 2));
		q.s4 = ADD(q.r4, SHL(q.r4, 2));
		for (; nblocks >= 12; nblocks -= 8, src += 128) {
			/*
			 * The second half's products first, then h's: only
			 * h's wait for the last step's carries. No zeroed
			 * accumulators, fewer live vectors (and spills).
			 */
			SPLIT_BLOCKS(m, src + 64);
			MUL_COLS(m, r, MUL_SET);
			ADD_BLOCKS(h0, h1, h2, h3, h4, src);
			MUL_COLS(h, q, MAC);
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
