// SPDX-License-Identifier: MIT
/*
 * POLYVAL with VPCLMULQDQ on ymm registers (2 blocks each), 16 blocks a
 * step: the polyval-vpclmul-avx2 and ghash-vpclmul-avx2 drivers. The body
 * is polyval-x86-core.h; compiled with -mpclmul -mavx2 -mvpclmulqdq.
 */
#include <immintrin.h>

#define POLYVAL_ISA vpclmul_avx2
#define VEC_BLOCKS 2
#define NVEC 8
typedef __m256i vec_t;
#define v_loadu(p) _mm256_loadu_si256((const __m256i *)(p))
#define v_swap64(x) _mm256_shuffle_epi32(x, 0x4e)
#define v_xor _mm256_xor_si256
#define v_clmul _mm256_clmulepi64_epi128
#define v_shuffle_bytes _mm256_shuffle_epi8
#define v_bcast128 _mm256_broadcastsi128_si256
#define v_zext128 _mm256_zextsi128_si256
#define v_fold(x) _mm_xor_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1))

#include "crypto/arch/x86/polyval-x86-core.h"
