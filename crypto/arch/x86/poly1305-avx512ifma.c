/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 block function with AVX-512 IFMA (built with -mavx512f
 * -mavx512ifma): 8 blocks per step, one per 64-bit lane of a zmm, radix
 * 2^44 (the lane scheme of Goll and Gueron, 2015, with the 52-bit
 * multiply-accumulate of Ice Lake/Zen 4 as in OpenSSL's base 2^44 IFMA
 * Poly1305, read for ideas only). See poly1305-x86.h for the contract.
 *
 * VPMADD52LUQ/HUQ add the low/high 52 bits of the 104-bit product of two
 * 52-bit lanes. A product term of limb k, a * b = lo + hi * 2^52, sits at
 * 2^(44 k): its high part lands at 2^(44 (k+1) + 8), i.e. 2^8 times limb
 * k+1; for k = 2 at 2^140 = 2^8 * 2^132, and 2^132 = 20 mod 2^130 - 5, so
 * 5120 times limb 0. Wrapped low parts use s_i = 20 r_i (2^132 = 20).
 *
 * Bounds: h limbs enter a step below 2^45 (44 bits, plus up to 17 from
 * the lazy carry, plus a message limb), multiplier limbs below 2^44 +
 * 2^15 (2^42 + 2^13 for the top one; r^1..r^8 are carried, r^16
 * lazily), s below 2^49: every input is under the 52 bits IFMA reads. A
 * column sums at most six low halves (52 bits) and six high halves
 * (below 2^42, 2^39 for limb 2, before the shifts), so it stays below
 * 2^56 and one parallel carry (44, 44, 42 bits) leaves h below 2^44 +
 * 2^17.
 *
 * Speed on Zen 4 (measured on an EPYC 9004 VM, dependent chains and 8
 * independent ones): VPMADD52LUQ has a latency of 4 cycles for ymm and
 * zmm, and a throughput of 2 ymm or 1 zmm a cycle (the zmm form is
 * double-pumped), so a 16-block step's 36 multiply-adds take 36 cycles at
 * best. The step's other ~40 vector operations (limb split, carries)
 * compete for the same pipes, so each column is one chain of three
 * multiply-adds into its accumulator, with no separate additions: a
 * step takes ~45 cycles (0.18 cycles/byte, 0.25 with the chains summed
 * by additions). The products of the m * r^8 half go first, so that h's
 * own chain (3 multiply-adds and the carry, ~20 cycles) stays well under
 * a step.
 */
#include <immintrin.h>

#include "crypto/arch/x86/poly1305-x86.h"

typedef __m512i vec;

#define M44 ((1ull << 44) - 1)
#define M42 ((1ull << 42) - 1)

#define ADD(a, b) _mm512_add_epi64((a), (b))
#define AND(a, b) _mm512_and_si512((a), (b))
#define SHR(a, n) _mm512_srli_epi64((a), (n))
#define SHL(a, n) _mm512_slli_epi64((a), (n))
#define MADLO(acc, a, b) _mm512_madd52lo_epu64((acc), (a), (b))
#define MADHI(acc, a, b) _mm512_madd52hi_epu64((acc), (a), (b))

/* 20 x: 2^132 = 20 mod 2^130 - 5 */
#define TIMES20(x) ADD(SHL((x), 4), SHL((x), 2))

/*
 * The 8 blocks at src (blocks 0, 4, 1, 5, 2, 6, 3, 7 in lanes 0..7), each
 * split into 44 + 44 + 40 bits (m0..m2), padbit at 2^128 = 2^40 of limb 2.
 * VPTERNLOGQ 0xa8 is (a | b) & c.
 */
#define LOAD_BLOCKS(m0, m1, m2, src)                                         \
	do {                                                                 \
		vec x_ = _mm512_loadu_si512((const void *)(src));            \
		vec y_ = _mm512_loadu_si512((const void *)((src) + 64));     \
		vec lo_ = _mm512_unpacklo_epi64(x_, y_);                     \
		vec hi_ = _mm512_unpackhi_epi64(x_, y_);                     \
		m0 = AND(lo_, m44);                                          \
		m1 = _mm512_ternarylogic_epi64(SHR(lo_, 44), SHL(hi_, 20), m44, 0xa8); \
		m2 = _mm512_or_si512(SHR(hi_, 24), hibit);                   \
	} while (0)

#define ADD_BLOCKS(a0, a1, a2, src)                                          \
	do {                                                                 \
		vec b0_, b1_, b2_;                                           \
		LOAD_BLOCKS(b0_, b1_, b2_, src);                             \
		a0 = ADD(a0, b0_);                                           \
		a1 = ADD(a1, b1_);                                           \
		a2 = ADD(a2, b2_);                                           \
	} while (0)

/*
 * The column sums of a * r (a0..a2 times r0..r2, s1 = 20 r1, s2 = 20 r2),
 * low and high 52-bit halves, accumulated into lo0..hi2 by chains of
 * three multiply-adds: no separate additions (they, not the multiplies,
 * bounded the loop: see the header comment). Products that do not
 * depend on h go first, so that h's own chain is three multiply-adds.
 */
#define MUL_ACC(a0, a1, a2, r0, r1, r2, s1, s2)                              \
	do {                                                                 \
		lo0 = MADLO(MADLO(MADLO(lo0, a0, r0), a1, s2), a2, s1);      \
		hi0 = MADHI(MADHI(MADHI(hi0, a0, r0), a1, s2), a2, s1);      \
		lo1 = MADLO(MADLO(MADLO(lo1, a0, r1), a1, r0), a2, s2);      \
		hi1 = MADHI(MADHI(MADHI(hi1, a0, r1), a1, r0), a2, s2);      \
		lo2 = MADLO(MADLO(MADLO(lo2, a0, r2), a1, r1), a2, r0);      \
		hi2 = MADHI(MADHI(MADHI(hi2, a0, r2), a1, r1), a2, r0);      \
	} while (0)

/*
 * o = the column sums reduced mod 2^130 - 5 by one parallel carry; see
 * the header comment for the 2^8 and 5120 shifts of the high halves.
 */
#define REDUCE(o0, o1, o2)                                                   \
	do {                                                                 \
		vec d0 = ADD(lo0, ADD(SHL(hi2, 12), SHL(hi2, 10)));          \
		vec d1 = ADD(lo1, SHL(hi0, 8));                              \
		vec d2 = ADD(lo2, SHL(hi1, 8));                              \
		vec c0 = SHR(d0, 44), c1 = SHR(d1, 44), c2 = SHR(d2, 42);    \
		o0 = ADD(AND(d0, m44), ADD(c2, SHL(c2, 2)));                 \
		o1 = ADD(AND(d1, m44), c0);                                  \
		o2 = ADD(AND(d2, m42), c1);                                  \
	} while (0)

#define CLEAR_ACC() (lo0 = lo1 = lo2 = hi0 = hi1 = hi2 = z)

void poly1305_blocks_avx512ifma(uint64_t st[32], const uint8_t *src,
				size_t nblocks, uint32_t padbit)
{
	const uint64_t *pw = st + POLY1305_X86_POWERS;
	const vec z = _mm512_setzero_si512();
	const vec m44 = _mm512_set1_epi64((long long)M44);
	const vec m42 = _mm512_set1_epi64((long long)M42);
	const vec hibit = _mm512_set1_epi64((long long)padbit << 40);
	/* r^8 in every lane (the table's lane 0) */
	const vec r0 = _mm512_set1_epi64((long long)pw[0]);
	const vec r1 = _mm512_set1_epi64((long long)pw[8]);
	const vec r2 = _mm512_set1_epi64((long long)pw[16]);
	const vec s1 = TIMES20(r1), s2 = TIMES20(r2);
	vec h0 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)st[POLY1305_X86_H]);
	vec h1 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)st[POLY1305_X86_H + 1]);
	vec h2 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)st[POLY1305_X86_H + 2]);
	vec lo0, lo1, lo2, hi0, hi1, hi2;
	uint64_t l0, l1, l2, c;

	if (nblocks >= 24) {
		/*
		 * 16 blocks a step: h = (h + m0) r^16 + m1 r^8, both products
		 * summed before one carry, so the chain of dependent
		 * instructions that bounds a step is paid once per 16 blocks.
		 * q = r^16 = (r^8)^2 in every lane.
		 */
		vec q0, q1, q2, t1, t2;

		CLEAR_ACC();
		MUL_ACC(r0, r1, r2, r0, r1, r2, s1, s2);
		REDUCE(q0, q1, q2);
		t1 = TIMES20(q1);
		t2 = TIMES20(q2);
		for (; nblocks >= 24; nblocks -= 16, src += 256) {
			vec m0, m1, m2;

			LOAD_BLOCKS(m0, m1, m2, src + 128);
			CLEAR_ACC();
			MUL_ACC(m0, m1, m2, r0, r1, r2, s1, s2);
			ADD_BLOCKS(h0, h1, h2, src);
			MUL_ACC(h0, h1, h2, q0, q1, q2, t1, t2);
			REDUCE(h0, h1, h2);
		}
	}
	/* 8 blocks a step with r^8 */
	for (; nblocks > 8; nblocks -= 8, src += 128) {
		ADD_BLOCKS(h0, h1, h2, src);
		CLEAR_ACC();
		MUL_ACC(h0, h1, h2, r0, r1, r2, s1, s2);
		REDUCE(h0, h1, h2);
	}
	/* the last 8 blocks: each lane times its own power (r^8 .. r^1) */
	ADD_BLOCKS(h0, h1, h2, src);
	{
		const vec p0 = _mm512_loadu_si512((const void *)pw);
		const vec p1 = _mm512_loadu_si512((const void *)(pw + 8));
		const vec p2 = _mm512_loadu_si512((const void *)(pw + 16));

		CLEAR_ACC();
		MUL_ACC(h0, h1, h2, p0, p1, p2, TIMES20(p1), TIMES20(p2));
		REDUCE(h0, h1, h2);
	}

	/* sum the lanes (each limb below 2^45, the sums below 2^48), carry */
	l0 = (uint64_t)_mm512_reduce_add_epi64(h0);
	l1 = (uint64_t)_mm512_reduce_add_epi64(h1);
	l2 = (uint64_t)_mm512_reduce_add_epi64(h2);
	c = l0 >> 44; l0 &= M44; l1 += c;
	c = l1 >> 44; l1 &= M44; l2 += c;
	c = l2 >> 42; l2 &= M42; l0 += c * 5;
	c = l0 >> 44; l0 &= M44; l1 += c;
	c = l1 >> 44; l1 &= M44; l2 += c;
	st[POLY1305_X86_H] = l0;
	st[POLY1305_X86_H + 1] = l1;
	st[POLY1305_X86_H + 2] = l2;
}

/* a = a * b mod 2^130 - 5 lane by lane, then carried (limbs 0, 1 below 2^44) */
#define MUL_CARRY(a0, a1, a2, b0, b1, b2)                                    \
	do {                                                                 \
		vec c_;                                                      \
		CLEAR_ACC();                                                 \
		MUL_ACC(a0, a1, a2, b0, b1, b2, TIMES20(b1), TIMES20(b2));  \
		REDUCE(a0, a1, a2);                                          \
		c_ = SHR(a0, 44); a0 = AND(a0, m44); a1 = ADD(a1, c_);      \
		c_ = SHR(a1, 44); a1 = AND(a1, m44); a2 = ADD(a2, c_);      \
	} while (0)

void poly1305_powers_avx512ifma(uint64_t st[32])
{
	const vec z = _mm512_setzero_si512();
	const vec m44 = _mm512_set1_epi64((long long)M44);
	const vec m42 = _mm512_set1_epi64((long long)M42);
	const vec one = _mm512_set1_epi64(1);
	const vec r0 = _mm512_set1_epi64((long long)st[POLY1305_X86_R]);
	const vec r1 = _mm512_set1_epi64((long long)st[POLY1305_X86_R + 1]);
	const vec r2 = _mm512_set1_epi64((long long)st[POLY1305_X86_R + 2]);
	vec lo0, lo1, lo2, hi0, hi1, hi2;
	vec a0 = r0, a1 = r1, a2 = r2, b0, b1, b2;

	/* r^2 in every lane */
	MUL_CARRY(a0, a1, a2, r0, r1, r2);
	/* lanes 0, 1: r^2 r^2; 2, 3: r^2 r; 4, 5: r r; 6, 7: r 1 */
	b0 = _mm512_mask_blend_epi64(0xc0, _mm512_mask_blend_epi64(0x03, r0, a0), one);
	b1 = _mm512_mask_blend_epi64(0xc0, _mm512_mask_blend_epi64(0x03, r1, a1), z);
	b2 = _mm512_mask_blend_epi64(0xc0, _mm512_mask_blend_epi64(0x03, r2, a2), z);
	a0 = _mm512_mask_blend_epi64(0x0f, r0, a0);
	a1 = _mm512_mask_blend_epi64(0x0f, r1, a1);
	a2 = _mm512_mask_blend_epi64(0x0f, r2, a2);
	MUL_CARRY(a0, a1, a2, b0, b1, b2);
	/* pairs of lanes hold r^4, r^3, r^2, r: the even lanes times r^4 */
	b0 = _mm512_mask_blend_epi64(0x55, one, _mm512_permutexvar_epi64(z, a0));
	b1 = _mm512_mask_blend_epi64(0x55, z, _mm512_permutexvar_epi64(z, a1));
	b2 = _mm512_mask_blend_epi64(0x55, z, _mm512_permutexvar_epi64(z, a2));
	MUL_CARRY(a0, a1, a2, b0, b1, b2);
	_mm512_storeu_si512((void *)(st + POLY1305_X86_POWERS), a0);
	_mm512_storeu_si512((void *)(st + POLY1305_X86_POWERS + 8), a1);
	_mm512_storeu_si512((void *)(st + POLY1305_X86_POWERS + 16), a2);
	st[POLY1305_X86_POWERS_READY] = 1;
}
