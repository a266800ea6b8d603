/* SPDX-License-Identifier: MIT */
/*
 * The xmm operations of the POLYVAL step (polyval-x86-step.h): one block
 * per vector. Included by polyval-pclmul.c (NVEC 8) and
 * aes-gcm-aesni-pclmul.c (NVEC 16, the fused core's 16-block step), built
 * with -mpclmul and -mssse3 or more; the includer defines NVEC, since
 * the two differ (16 xmm registers hold eight blocks and their powers,
 * the fused core spills).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_XMM_H
#define CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_XMM_H

#include <immintrin.h>

#define VEC_BLOCKS 1
typedef __m128i vec_t;
#define v_loadu(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define v_swap64(x) _mm_shuffle_epi32(x, 0x4e)
#define v_xor _mm_xor_si128
#define v_clmul _mm_clmulepi64_si128
#define v_shuffle_bytes _mm_shuffle_epi8
#define v_bcast128(x) (x)
#define v_zext128(x) (x)
#define v_fold(x) (x)

#endif
