/* SPDX-License-Identifier: MIT */
/*
 * Camellia with AES-NI + AVX2: the S-boxes through AESENCLAST, which
 * applies AES SubBytes (inversion in the AES field, then the AES affine
 * map) to each byte after ShiftRows. Around it (constants in
 * crypto/camellia/camellia-affine.h):
 *  1. the input map into the AES field (s4's input rotation folded in),
 *     two VPSHUFB nibble lookups;
 *  2. a byte shuffle by ShiftRows^-1, which the instruction's ShiftRows
 *     undoes (SubBytes works bytewise, so the two commute);
 *  3. AESENCLAST with a zero round key, once per 128-bit lane (AES-NI has
 *     no 256-bit form without VAES);
 *  4. the output map with the inverse of the AES affine map folded in
 *     (and s2's or s3's output rotation), two more nibble lookups.
 * The rest is camellia-x86-avx2.h and the body camellia-x86-core.h; entry
 * points: camellia-x86.h (suffix _aesni_avx2).
 */
#if defined(__x86_64__)
#if !defined(__AVX2__) || !defined(__AES__)
#error "build with -mavx2 -maes (crypto/arch/x86/meson.build)"
#endif

#include "crypto/arch/x86/camellia-x86-avx2.h"
#include "crypto/camellia/camellia-affine.h"

#define CAM_ISA aesni_avx2

/* AES state byte r + 4c <- byte r + 4((c - r) mod 4) (FIPS-197 5.3.1) */
#define CAM_BYTES_INV_SHIFT_ROWS 0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3

CAM_INLINE vec v_sbox(vec x, const int kind)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i lo, hi;

	if (kind == 4)
		x = v_nibble_map(x, VEC_LANE_MASK(CAMELLIA_AES_PRE4_LO),
				   VEC_LANE_MASK(CAMELLIA_AES_PRE4_HI));
	else
		x = v_nibble_map(x, VEC_LANE_MASK(CAMELLIA_AES_PRE1_LO),
				   VEC_LANE_MASK(CAMELLIA_AES_PRE1_HI));
	x = _mm256_shuffle_epi8(x, VEC_LANE_MASK(CAM_BYTES_INV_SHIFT_ROWS));
	lo = _mm_aesenclast_si128(_mm256_castsi256_si128(x), zero);
	hi = _mm_aesenclast_si128(_mm256_extracti128_si256(x, 1), zero);
	x = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
	if (kind == 2)
		return v_nibble_map(x, VEC_LANE_MASK(CAMELLIA_AES_POST2_LO),
				      VEC_LANE_MASK(CAMELLIA_AES_POST2_HI));
	if (kind == 3)
		return v_nibble_map(x, VEC_LANE_MASK(CAMELLIA_AES_POST3_LO),
				      VEC_LANE_MASK(CAMELLIA_AES_POST3_HI));
	return v_nibble_map(x, VEC_LANE_MASK(CAMELLIA_AES_POST1_LO),
			      VEC_LANE_MASK(CAMELLIA_AES_POST1_HI));
}

#include "crypto/arch/x86/camellia-x86-core.h"
#endif
