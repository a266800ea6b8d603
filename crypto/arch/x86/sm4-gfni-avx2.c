/* SPDX-License-Identifier: MIT */
/*
 * SM4 with GFNI + AVX2: the S-box is two instructions per vector,
 * GF2P8AFFINEQB (the input map into the AES field) and GF2P8AFFINEINVQB
 * (inversion there, then the output map back), the maps of
 * sm4-x86-affine.h; the rest is sm4-x86-avx2.h and the body
 * sm4-x86-core.h. Entry points: sm4-x86.h (suffix _gfni_avx2).
 */
#if defined(__x86_64__)
#if !defined(__AVX2__) || !defined(__GFNI__)
#error "build with -mavx2 -mgfni (crypto/arch/x86/meson.build)"
#endif

#include "crypto/arch/x86/sm4-x86-affine.h"
#include "crypto/arch/x86/sm4-x86-avx2.h"

#define SM4_ISA gfni_avx2

SM4_INLINE vec v_sbox(vec x)
{
	x = _mm256_gf2p8affine_epi64_epi8(x, _mm256_set1_epi64x((long long)SM4_GFNI_IN_MATRIX),
					  SM4_GFNI_IN_CONST);
	return _mm256_gf2p8affineinv_epi64_epi8(x, _mm256_set1_epi64x((long long)SM4_GFNI_OUT_MATRIX),
						SM4_GFNI_OUT_CONST);
}

#include "crypto/arch/x86/sm4-x86-core.h"
#endif
