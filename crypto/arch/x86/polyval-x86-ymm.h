/* SPDX-License-Identifier: MIT */
/*
 * The ymm operations of the POLYVAL step (polyval-x86-step.h): two
 * blocks per vector, eight vectors a step. Included by
 * polyval-vpclmul-avx2.c and aes-gcm-vaes-avx2.c, built with -mpclmul
 * -mavx2 -mvpclmulqdq.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_YMM_H
#define CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_YMM_H

#include <immintrin.h>

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

#endif
