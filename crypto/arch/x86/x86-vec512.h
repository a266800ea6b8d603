/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 (F, BW) vector primitives the byte-sliced block-cipher
 * cores share (sm4-gfni-avx512.c, camellia-gfni-avx512.c):
 * 512-bit vectors of four 16-byte blocks, one per 128-bit lane;
 * three-input XORs are VPTERNLOGD. Include only from a core file built
 * with its ISA flags (-mavx512f -mavx512bw and more, from the
 * algorithm's meson.build).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_X86_VEC512_H
#define CLOAKFS_CRYPTO_ARCH_X86_X86_VEC512_H

#include <immintrin.h>
#include <stdint.h>

#include "crypto/arch/x86/x86-zmm-clear.h"

typedef __m512i vec;
#define VEC_INLINE static inline __attribute__((always_inline))

/* a 16-byte pattern in every 128-bit lane (VPSHUFB masks) */
#define VEC_LANE_MASK(...) _mm512_broadcast_i32x4(_mm_setr_epi8(__VA_ARGS__))
#define VEC_BYTES_BSWAP128 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
#define VEC_XOR3 0x96 /* VPTERNLOGD truth table of a ^ b ^ c */

VEC_INLINE vec v_loadu(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}

VEC_INLINE void v_storeu(uint8_t *p, vec v)
{
	_mm512_storeu_si512((void *)p, v);
}

VEC_INLINE void v_store_lane0(uint8_t *p, vec v)
{
	_mm_storeu_si128((__m128i *)(void *)p, _mm512_castsi512_si128(v));
}

VEC_INLINE vec v_xor(vec a, vec b)
{
	return _mm512_xor_si512(a, b);
}

VEC_INLINE vec v_xor3(vec a, vec b, vec c)
{
	return _mm512_ternarylogic_epi32(a, b, c, VEC_XOR3);
}

VEC_INLINE vec v_bcast32(const uint32_t *p)
{
	return _mm512_set1_epi32((int)*p);
}

/* each 128-bit lane (an XTS tweak) times x^n in GF(2^128), 1 <= n <= 56 */
VEC_INLINE vec v_mul_xn(vec v, const int n)
{
	vec hi = _mm512_slli_epi64(v, n);
	/* the n bits out of each qword, moved to the other qword */
	vec c = _mm512_shuffle_epi32(_mm512_srli_epi64(v, 64 - n), _MM_PERM_BADC);
	/* low qword: c * (x^7 + x^2 + x + 1); high qword: c (shift >= 64 is 0) */
	vec c1 = _mm512_sllv_epi64(c, _mm512_setr_epi64(1, 64, 1, 64, 1, 64, 1, 64));
	vec c2 = _mm512_sllv_epi64(c, _mm512_setr_epi64(2, 64, 2, 64, 2, 64, 2, 64));
	vec c7 = _mm512_sllv_epi64(c, _mm512_setr_epi64(7, 64, 7, 64, 7, 64, 7, 64));

	return v_xor3(v_xor3(hi, c, c1), c2, c7);
}

/* counter blocks hi:lo + 4k + i in lane i, big-endian (lo must not wrap) */
VEC_INLINE vec v_ctr(uint64_t lo, uint64_t hi, int k)
{
	vec base = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)hi, (long long)lo));
	vec inc = _mm512_setr_epi64(4 * k, 0, 4 * k + 1, 0, 4 * k + 2, 0, 4 * k + 3, 0);

	return _mm512_shuffle_epi8(_mm512_add_epi64(base, inc),
				   VEC_LANE_MASK(VEC_BYTES_BSWAP128));
}

/* [iv, src block 0, 1, 2]: VALIGNQ shifts iv's top lane in below src */
VEC_INLINE vec v_prev_first(__m128i iv, const uint8_t *src)
{
	return _mm512_alignr_epi64(v_loadu(src), _mm512_broadcast_i32x4(iv), 6);
}

VEC_INLINE void v_end(void)
{
	x86_zmm_clear_all();
}

#endif
