/* SPDX-License-Identifier: MIT */
/*
 * The NH step shared by nh-sse2.c and nh-avx2.c (internal to them; entry
 * points in nh-x86.h). Each 128-bit lane holds one 16-byte unit, words
 * m0..m3; pass p adds the key words 4p.. on from the unit's, t = m + k,
 * and sums t0 * t2 + t1 * t3 (32x32->64) mod 2^64.
 *
 * Two passes p, q at a time: with tp and tq the sums of the unit and
 * their keys, lo = (tp0, tp1, tq0, tq1) and hi = (tp2, tp3, tq2, tq3)
 * (64-bit unpacks), PMULUDQ of lo and hi (the even words) gives tp0 *
 * tp2 and tq0 * tq2, of lo and hi shifted right by 32 tp1 * tp3 and tq1
 * * tq3: the accumulator holds pass p in its low 64 bits and pass q in
 * its high 64 bits, per lane. Five operations per pass and unit, none of
 * them crossing lanes; the lanes are added at the end.
 *
 * The macros take a vector width P: X (128-bit, SSE2, defined here for
 * both files) or one the including file defines with the same names: the
 * type P##vec, P##_LOAD (unaligned), P##_ADD32, P##_ADD64, P##_MUL
 * (PMULUDQ), P##_SRL64 (64-bit shift right by an immediate),
 * P##_UNPACKLO64 and P##_UNPACKHI64.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_NH_X86_CORE_H
#define CLOAKFS_CRYPTO_ARCH_X86_NH_X86_CORE_H

#include <emmintrin.h>
#include <stdint.h>

typedef __m128i Xvec;

#define X_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define X_ADD32(a, b) _mm_add_epi32((a), (b))
#define X_ADD64(a, b) _mm_add_epi64((a), (b))
#define X_MUL(a, b) _mm_mul_epu32((a), (b))
#define X_SRL64(v, n) _mm_srli_epi64((v), (n))
#define X_UNPACKLO64(a, b) _mm_unpacklo_epi64((a), (b))
#define X_UNPACKHI64(a, b) _mm_unpackhi_epi64((a), (b))

/* acc += passes (p, q) of the units in m, kp and kq their keys */
#define NH_TWO_PASSES(P, acc, m, kp, kq)                                     \
	do {                                                                 \
		P##vec tp_ = P##_ADD32((m), P##_LOAD(kp));                   \
		P##vec tq_ = P##_ADD32((m), P##_LOAD(kq));                   \
		P##vec lo_ = P##_UNPACKLO64(tp_, tq_);                       \
		P##vec hi_ = P##_UNPACKHI64(tp_, tq_);                       \
		acc = P##_ADD64(acc, P##_MUL(lo_, hi_));                     \
		acc = P##_ADD64(acc, P##_MUL(P##_SRL64(lo_, 32),            \
					     P##_SRL64(hi_, 32)));           \
	} while (0)

/* all four passes of the units in m, key the first unit's key words */
#define NH_STEP(P, acc01, acc23, m, key)                                     \
	do {                                                                 \
		NH_TWO_PASSES(P, acc01, m, (key), (key) + 4);                \
		NH_TWO_PASSES(P, acc23, m, (key) + 8, (key) + 12);           \
	} while (0)

/* acc01 is passes 0 | 1 and acc23 2 | 3 (64 bits each): the hash as le64 */
static inline void nh_store(uint8_t hash[32], Xvec acc01, Xvec acc23)
{
	_mm_storeu_si128((__m128i *)(void *)hash, acc01);
	_mm_storeu_si128((__m128i *)(void *)(hash + 16), acc23);
}

#endif
