/* SPDX-License-Identifier: MIT */
/*
 * SM4 with AES-NI + AVX2: the S-box through AESENCLAST, which applies the
 * AES S-box (inversion in the AES field, then the AES affine map) to each
 * byte, after ShiftRows. Around it (constants in sm4-x86-affine.h):
 *  1. the input map into the AES field, two VPSHUFB nibble lookups;
 *  2. a byte shuffle by ShiftRows^-1, which the instruction's ShiftRows
 *     undoes (SubBytes works bytewise, so the two commute);
 *  3. AESENCLAST with a zero round key, once per 128-bit lane (AES-NI has
 *     no 256-bit form without VAES);
 *  4. the output map, folded with the inverse of the AES affine map, two
 *     more nibble lookups.
 * The idea is M.-J. O. Saarinen's sm4ni; libgcrypt's sm4-aesni-avx2 core
 * runs it on 16 blocks at a time (here a main step is 32). The rest is
 * sm4-x86-avx2.h and the body sm4-x86-core.h. Entry points: sm4-x86.h
 * (suffix _aesni_avx2).
 */
#if defined(__x86_64__)
#if !defined(__AVX2__) || !defined(__AES__)
#error "build with -mavx2 -maes (crypto/arch/x86/meson.build)"
#endif

#include "crypto/arch/x86/sm4-x86-affine.h"
#include "crypto/arch/x86/sm4-x86-avx2.h"

#define SM4_ISA aesni_avx2

/* AES state byte r + 4c <- byte r + 4((c - r) mod 4) (FIPS-197 5.3.1) */
#define SM4_BYTES_INV_SHIFT_ROWS 0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3

SM4_INLINE vec v_sbox(vec x)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i lo, hi;

	x = v_nibble_map(x, SM4_LANE_MASK(SM4_AESNI_IN_LO),
			   SM4_LANE_MASK(SM4_AESNI_IN_HI));
	x = _mm256_shuffle_epi8(x, SM4_LANE_MASK(SM4_BYTES_INV_SHIFT_ROWS));
	lo = _mm_aesenclast_si128(_mm256_castsi256_si128(x), zero);
	hi = _mm_aesenclast_si128(_mm256_extracti128_si256(x, 1), zero);
	x = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
	return v_nibble_map(x, SM4_LANE_MASK(SM4_AESNI_OUT_LO),
			      SM4_LANE_MASK(SM4_AESNI_OUT_HI));
}

#include "crypto/arch/x86/sm4-x86-core.h"
#endif
