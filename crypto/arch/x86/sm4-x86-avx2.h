/* SPDX-License-Identifier: MIT */
/*
 * The AVX2 vector primitives of the SM4 cores (see sm4-x86-core.h for
 * what each must do), shared by sm4-aesni-avx2.c and sm4-gfni-avx2.c,
 * which add their S-box (v_sbox) and then include sm4-x86-core.h.
 * 256-bit vectors: 2 blocks per vector, one per 128-bit lane; a main step
 * is 4 sets = 32 blocks. Their 16 state vectors fill the 16 ymm registers,
 * so the compiler spills some, yet 4 sets measured 1.4-1.7x faster than 2
 * on Zen 5 (the S-box latency, not the loads, bounds 2 sets).
 *
 * AVX2 has no vector rotate: rotations of a dword by 8, 16, 24 bits are
 * byte shuffles (VPSHUFB), by 2 two shifts.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_SM4_X86_AVX2_H
#define CLOAKFS_CRYPTO_ARCH_X86_SM4_X86_AVX2_H

#include "crypto/arch/x86/x86-vec256.h"

#define SM4_VEC_BLOCKS 2
#define SM4_MAIN_SETS 4
#define SM4_INLINE VEC_INLINE
#define SM4_LANE_MASK VEC_LANE_MASK
#define SM4_BYTES_BSWAP32 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
#define SM4_BYTES_ROL8 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
#define SM4_BYTES_ROL16 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
#define SM4_BYTES_ROL24 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12

SM4_INLINE vec v_bswap32(vec v)
{
	return _mm256_shuffle_epi8(v, SM4_LANE_MASK(SM4_BYTES_BSWAP32));
}

SM4_INLINE void v_transpose(vec *a, vec *b, vec *c, vec *d)
{
	vec t0 = _mm256_unpacklo_epi32(*a, *b), t1 = _mm256_unpackhi_epi32(*a, *b);
	vec t2 = _mm256_unpacklo_epi32(*c, *d), t3 = _mm256_unpackhi_epi32(*c, *d);

	*a = _mm256_unpacklo_epi64(t0, t2);
	*b = _mm256_unpackhi_epi64(t0, t2);
	*c = _mm256_unpacklo_epi64(t1, t3);
	*d = _mm256_unpackhi_epi64(t1, t3);
}

/* L(b) = b ^ (b <<< 24) ^ ((b ^ (b <<< 8) ^ (b <<< 16)) <<< 2) */
SM4_INLINE vec v_l(vec b)
{
	vec r8 = _mm256_shuffle_epi8(b, SM4_LANE_MASK(SM4_BYTES_ROL8));
	vec r16 = _mm256_shuffle_epi8(b, SM4_LANE_MASK(SM4_BYTES_ROL16));
	vec r24 = _mm256_shuffle_epi8(b, SM4_LANE_MASK(SM4_BYTES_ROL24));
	vec t = v_xor3(b, r8, r16);

	return v_xor3(v_xor(b, r24), _mm256_slli_epi32(t, 2), _mm256_srli_epi32(t, 30));
}

SM4_INLINE vec v_l_xor(vec x, vec b)
{
	return v_xor(x, v_l(b));
}

SM4_INLINE void v_l_xor2(vec *x, vec *t, vec p, vec b)
{
	vec l = v_l(b);

	*x = v_xor(*x, l);
	*t = v_xor(p, l);
}

#endif
