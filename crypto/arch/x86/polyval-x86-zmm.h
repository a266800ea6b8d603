/* SPDX-License-Identifier: MIT */
/*
 * The zmm operations of the POLYVAL step (polyval-x86-step.h): four
 * blocks per vector, four vectors a step. Included by
 * polyval-vpclmul-avx512.c and aes-gcm-vaes-avx512.c, built with
 * -mpclmul -mavx512f -mavx512bw -mvpclmulqdq.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_ZMM_H
#define CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_ZMM_H

#include <immintrin.h>

#define VEC_BLOCKS 4
#define NVEC 4
typedef __m512i vec_t;
#define v_loadu(p) _mm512_loadu_si512((const void *)(p))
#define v_swap64(x) _mm512_shuffle_epi32(x, 0x4e)
#define v_xor _mm512_xor_si512
#define v_clmul _mm512_clmulepi64_epi128
#define v_shuffle_bytes _mm512_shuffle_epi8
#define v_bcast128 _mm512_broadcast_i32x4
#define v_zext128 _mm512_zextsi128_si512

static inline __m128i v_fold(__m512i x)
{
	__m256i y = _mm256_xor_si256(_mm512_castsi512_si256(x),
				     _mm512_extracti64x4_epi64(x, 1));

	return _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
}

#endif
