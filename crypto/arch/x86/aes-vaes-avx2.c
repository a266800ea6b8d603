/* SPDX-License-Identifier: MIT */
/*
 * AES modes with VAES on 256-bit vectors (two blocks per ymm register, 16
 * in flight): the ymm instance of aes-x86-modes.h, for Ice Lake, Alder
 * Lake and Zen 3 and later (see aes-x86.h).
 *
 * XTS tweaks stay in vector registers. Multiplying a tweak by x^k in
 * GF(2^128) mod x^128 + x^7 + x^2 + x + 1 is a 128-bit shift left by k
 * plus the k bits shifted out times x^7 + x^2 + x + 1 (0x87): for k < 57
 * that product fits in 64 bits and is one carry-less multiply
 * (VPCLMULQDQ, Intel SDM vol. 2B). When k is a multiple of 8 the shift is
 * a byte shift of each lane, so advancing the 8 tweak vectors by x^16
 * after each 16 blocks costs five instructions per vector (the fifth adds
 * the constant of the T ^ K form, see aes-x86-modes.h). Computing the
 * product with shifts instead measured 7% slower on Zen 5.
 *
 * Built with -mvaes -mvpclmulqdq -mavx2 -maes -mpclmul (crypto/arch/x86/meson.build).
 */
#if defined(__x86_64__)

#include <immintrin.h>
#include <stdint.h>

#define AES_ISA vaes_avx2
#define VEC_BLOCKS 2
typedef __m256i vec_t;
/* a main pass is 256 bytes: one 128-byte tail of 4 vectors can remain */
#define AES_TAIL_CASES(X) X(4)

#define V_INLINE static inline __attribute__((always_inline))

V_INLINE vec_t v_loadu(const uint8_t *p)
{
	return _mm256_loadu_si256((const void *)p);
}

V_INLINE void v_storeu(uint8_t *p, vec_t v)
{
	_mm256_storeu_si256((void *)p, v);
}

V_INLINE vec_t v_xor(vec_t a, vec_t b)
{
	return _mm256_xor_si256(a, b);
}

V_INLINE vec_t v_xor3(vec_t a, vec_t b, vec_t c)
{
	return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
}

V_INLINE vec_t v_key(const uint8_t *rk)
{
	return _mm256_broadcastsi128_si256(_mm_load_si128((const void *)rk));
}

V_INLINE vec_t v_enc(vec_t x, vec_t k)
{
	return _mm256_aesenc_epi128(x, k);
}

V_INLINE vec_t v_enclast(vec_t x, vec_t k)
{
	return _mm256_aesenclast_epi128(x, k);
}

V_INLINE vec_t v_dec(vec_t x, vec_t k)
{
	return _mm256_aesdec_epi128(x, k);
}

V_INLINE vec_t v_declast(vec_t x, vec_t k)
{
	return _mm256_aesdeclast_epi128(x, k);
}

V_INLINE vec_t v_bswap(vec_t v)
{
	const __m256i rev = _mm256_set_epi8(
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

	return _mm256_shuffle_epi8(v, rev);
}

V_INLINE vec_t v_add_lo(vec_t v, uint64_t n)
{
	return _mm256_add_epi64(v, _mm256_set_epi64x(0, (long long)n, 0,
						     (long long)n));
}

V_INLINE vec_t v_ctr_first(uint64_t lo, uint64_t hi)
{
	return _mm256_set_epi64x((long long)hi, (long long)(lo + 1),
				 (long long)hi, (long long)lo);
}

/* lanes: iv, block 0 of c0 */
V_INLINE vec_t v_prev_first(__m128i iv, vec_t c0)
{
	return _mm256_permute2x128_si256(_mm256_castsi128_si256(iv), c0, 0x20);
}

/* times x^16: a two-byte shift of each lane plus the folded-back bits */
V_INLINE vec_t gf128_mul_x16(vec_t t)
{
	const __m256i poly = _mm256_set1_epi64x(0x87);

	return _mm256_xor_si256(_mm256_bslli_epi128(t, 2),
				_mm256_clmulepi64_epi128(_mm256_bsrli_epi128(t, 14),
							 poly, 0x00));
}

V_INLINE vec_t tw_const(vec_t k)
{
	return _mm256_xor_si256(gf128_mul_x16(k), k);
}

/*
 * u[j] lane i = tweak * x^(2j + i) ^ k: the tweak in both lanes, shifted
 * per lane by n = 2j + i bits (VPSLLVQ/VPSRLVQ; a count of 64 gives 0),
 * the n bits leaving the low half carried into the high half, those
 * leaving the top folded back times 0x87. All eight are independent.
 */
V_INLINE void tw_init(vec_t *u, const uint8_t *tweak, vec_t k)
{
	const __m256i poly = _mm256_set1_epi64x(0x87);
	const __m256i lane = _mm256_set_epi64x(1, 1, 0, 0);
	__m256i t = _mm256_broadcastsi128_si256(_mm_loadu_si128((const void *)tweak));

	_Pragma("GCC unroll 8")
	for (int j = 0; j < 8; j++) {
		__m256i n = _mm256_add_epi64(lane, _mm256_set1_epi64x(2 * j));
		__m256i out = _mm256_srlv_epi64(t, _mm256_sub_epi64(
							 _mm256_set1_epi64x(64), n));
		__m256i r = _mm256_xor_si256(_mm256_sllv_epi64(t, n),
					     _mm256_bslli_epi128(out, 8));

		r = _mm256_xor_si256(r, k);
		u[j] = _mm256_xor_si256(r, _mm256_clmulepi64_epi128(
						   _mm256_bsrli_epi128(out, 8),
						   poly, 0x00));
	}
}

V_INLINE void tw_next(vec_t *u, vec_t c)
{
	_Pragma("GCC unroll 8")
	for (int j = 0; j < 8; j++)
		u[j] = _mm256_xor_si256(gf128_mul_x16(u[j]), c);
}

V_INLINE void tw_store(uint8_t *tweak, vec_t u, vec_t k)
{
	_mm_storeu_si128((void *)tweak,
			 _mm256_castsi256_si128(_mm256_xor_si256(u, k)));
}

#include "crypto/arch/x86/aes-x86-modes.h"

#endif /* __x86_64__ */
