// SPDX-License-Identifier: MIT
/*
 * POLYVAL with VPCLMULQDQ on zmm registers (4 blocks each), 16 blocks a
 * step: the polyval-vpclmul-avx512 and ghash-vpclmul-avx512 drivers. The
 * body is polyval-x86-core.h; compiled with -mpclmul -mavx512f
 * -mavx512bw -mvpclmulqdq.
 */
#include <immintrin.h>

#define POLYVAL_ISA vpclmul_avx512
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

#include "crypto/arch/x86/polyval-x86-core.h"
