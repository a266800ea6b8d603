// SPDX-License-Identifier: MIT
/*
 * POLYVAL with PCLMULQDQ on xmm registers, 8 blocks a step: the
 * polyval-pclmul and ghash-pclmul drivers. The body is polyval-x86-core.h;
 * compiled with -mpclmul -mssse3 (crypto/arch/x86/meson.build).
 */
#include <immintrin.h>

#define POLYVAL_ISA pclmul
#define VEC_BLOCKS 1
#define NVEC 8
typedef __m128i vec_t;
#define v_loadu(p) _mm_loadu_si128((const __m128i *)(p))
#define v_swap64(x) _mm_shuffle_epi32(x, 0x4e)
#define v_xor _mm_xor_si128
#define v_clmul _mm_clmulepi64_si128
#define v_shuffle_bytes _mm_shuffle_epi8
#define v_bcast128(x) (x)
#define v_zext128(x) (x)
#define v_fold(x) (x)

#include "crypto/arch/x86/polyval-x86-core.h"
