/* SPDX-License-Identifier: MIT */
/*
 * The AVX2 vector primitives of the Camellia cores (see
 * camellia-x86-core.h for what each must do), shared by
 * camellia-aesni-avx2.c and camellia-gfni-avx2.c, which add their S-box
 * (v_sbox) and then include camellia-x86-core.h.
 * 256-bit vectors: 2 blocks per vector, one per 128-bit lane; a step is
 * 16 vectors = 32 blocks, which fill the 16 ymm registers, so the compiler
 * keeps part of the state on the stack.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_CAMELLIA_X86_AVX2_H
#define CLOAKFS_CRYPTO_ARCH_X86_CAMELLIA_X86_AVX2_H

#include "crypto/arch/x86/x86-vec256.h"

#define CAM_VB 2
#define CAM_INLINE VEC_INLINE

CAM_INLINE vec v_and(vec a, vec b)
{
	return _mm256_and_si256(a, b);
}

CAM_INLINE vec v_or(vec a, vec b)
{
	return _mm256_or_si256(a, b);
}

CAM_INLINE vec v_unpacklo8(vec a, vec b)
{
	return _mm256_unpacklo_epi8(a, b);
}

CAM_INLINE vec v_unpackhi8(vec a, vec b)
{
	return _mm256_unpackhi_epi8(a, b);
}

CAM_INLINE vec v_shl1_bytes(vec v)
{
	return _mm256_add_epi8(v, v);
}

/* bit 7 of each byte to bit 0: 16-bit shifts carry it in from the byte */
CAM_INLINE vec v_msb_bytes(vec v)
{
	return _mm256_and_si256(_mm256_srli_epi16(v, 7), _mm256_set1_epi8(1));
}

#endif
