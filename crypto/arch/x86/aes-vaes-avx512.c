/* SPDX-License-Identifier: MIT */
/*
 * AES modes with VAES on 512-bit vectors (four blocks per zmm register,
 * 32 in flight, 512 bytes per main pass): the zmm instance of
 * aes-x86-modes.h, for Ice Lake-SP, Sapphire Rapids, Zen 4 and Zen 5 (see
 * aes-x86.h).
 *
 * With 32 vector registers the 15 round keys, 8 data vectors and 8 tweak
 * vectors all fit. VPTERNLOGQ XORs data, tweak and first round key in
 * one instruction. XTS tweaks advance by x^32 per pass: a 4-byte shift of
 * each lane plus VPCLMULQDQ of the 32 bits shifted out by 0x87 (the
 * reduction x^128 = x^7 + x^2 + x + 1; see aes-vaes-avx2.c). The first
 * tweaks of a call come from the encrypted tweak broadcast to all lanes
 * and shifted per lane (VPSLLVQ/VPSRLVQ), so they are ready a few cycles
 * after it.
 *
 * Built with -mvaes -mvpclmulqdq -mavx512f -mavx512vl -mavx512bw -mavx2
 * -maes -mpclmul (crypto/arch/x86/meson.build).
 */
#if defined(__x86_64__)

#include <immintrin.h>
#include <stdint.h>

#define AES_ISA vaes_avx512
#define VEC_BLOCKS 4
typedef __m512i vec_t;
/* a main pass is 512 bytes: tails of 128, 256 or 384 bytes remain */
#define AES_TAIL_CASES(X) X(2) X(4) X(6)

#define V_INLINE static inline __attribute__((always_inline))

V_INLINE vec_t v_loadu(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}

V_INLINE void v_storeu(uint8_t *p, vec_t v)
{
	_mm512_storeu_si512((void *)p, v);
}

V_INLINE vec_t v_xor(vec_t a, vec_t b)
{
	return _mm512_xor_si512(a, b);
}

V_INLINE vec_t v_xor3(vec_t a, vec_t b, vec_t c)
{
	return _mm512_ternarylogic_epi64(a, b, c, 0x96);
}

V_INLINE vec_t v_key(const uint8_t *rk)
{
	return _mm512_broadcast_i32x4(_mm_load_si128((const void *)rk));
}

V_INLINE vec_t v_enc(vec_t x, vec_t k)
{
	return _mm512_aesenc_epi128(x, k);
}

V_INLINE vec_t v_enclast(vec_t x, vec_t k)
{
	return _mm512_aesenclast_epi128(x, k);
}

V_INLINE vec_t v_dec(vec_t x, vec_t k)
{
	return _mm512_aesdec_epi128(x, k);
}

V_INLINE vec_t v_declast(vec_t x, vec_t k)
{
	return _mm512_aesdeclast_epi128(x, k);
}

V_INLINE vec_t v_bswap(vec_t v)
{
	const __m512i rev = _mm512_broadcast_i32x4(_mm_set_epi8(
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));

	return _mm512_shuffle_epi8(v, rev);
}

V_INLINE vec_t v_add_lo(vec_t v, uint64_t n)
{
	return _mm512_add_epi64(v, _mm512_maskz_set1_epi64(0x55, (long long)n));
}

V_INLINE vec_t v_ctr_first(uint64_t lo, uint64_t hi)
{
	return _mm512_set_epi64((long long)hi, (long long)(lo + 3),
				(long long)hi, (long long)(lo + 2),
				(long long)hi, (long long)(lo + 1),
				(long long)hi, (long long)lo);
}

/* lanes: iv, blocks 0..2 of c0 (VALIGNQ shifts c0 up by one lane) */
V_INLINE vec_t v_prev_first(__m128i iv, vec_t c0)
{
	return _mm512_alignr_epi64(c0, _mm512_broadcast_i32x4(iv), 6);
}

/*
 * times x^32, plus c: a four-byte shift of each lane, XOR the 32 bits
 * shifted out times 0x87 (one carry-less multiply), XOR c. Computing that
 * product with four shifts instead measured 3% slower on Zen 5.
 */
V_INLINE vec_t gf128_mul_x32_add(vec_t t, vec_t c)
{
	const __m512i poly = _mm512_set1_epi64(0x87);

	return _mm512_ternarylogic_epi64(
		_mm512_bslli_epi128(t, 4),
		_mm512_clmulepi64_epi128(_mm512_bsrli_epi128(t, 12), poly, 0x00),
		c, 0x96);
}

V_INLINE vec_t tw_const(vec_t k)
{
	return gf128_mul_x32_add(k, k);
}

/*
 * u[j] lane i = tweak * x^(4j + i) ^ k: the tweak broadcast to every lane,
 * then shifted per lane (VPSLLVQ/VPSRLVQ) so all eight are independent
 * and the first pass can start a few cycles after the tweak is known.
 */
V_INLINE void tw_init(vec_t *u, const uint8_t *tweak, vec_t k)
{
	const __m512i poly = _mm512_set1_epi64(0x87);
	const __m512i lane = _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0);
	__m512i t = _mm512_broadcast_i32x4(_mm_loadu_si128((const void *)tweak));

	_Pragma("GCC unroll 8")
	for (int j = 0; j < 8; j++) {
		__m512i n = _mm512_add_epi64(lane, _mm512_set1_epi64(4 * j));
		__m512i out = _mm512_srlv_epi64(t, _mm512_sub_epi64(
							 _mm512_set1_epi64(64), n));
		__m512i r = _mm512_ternarylogic_epi64(_mm512_sllv_epi64(t, n),
						      _mm512_bslli_epi128(out, 8),
						      k, 0x96);

		u[j] = _mm512_xor_si512(r, _mm512_clmulepi64_epi128(
						   _mm512_bsrli_epi128(out, 8),
						   poly, 0x00));
	}
}

V_INLINE void tw_next(vec_t *u, vec_t c)
{
	_Pragma("GCC unroll 8")
	for (int j = 0; j < 8; j++)
		u[j] = gf128_mul_x32_add(u[j], c);
}

V_INLINE void tw_store(uint8_t *tweak, vec_t u, vec_t k)
{
	_mm_storeu_si128((void *)tweak,
			 _mm512_castsi512_si128(_mm512_xor_si512(u, k)));
}

#include "crypto/arch/x86/aes-x86-modes.h"

#endif /* __x86_64__ */
