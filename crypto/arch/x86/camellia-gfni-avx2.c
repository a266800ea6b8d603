/* SPDX-License-Identifier: MIT */
/*
 * Camellia with GFNI + AVX2: each S-box is two instructions per vector,
 * GF2P8AFFINEQB (the input map into the AES field, s4's rotation folded
 * in) and GF2P8AFFINEINVQB (inversion there, then the output map back,
 * s2's or s3's rotation folded in), the maps of
 * crypto/camellia/camellia-affine.h; the rest is camellia-x86-avx2.h and
 * the body camellia-x86-core.h. Entry points: camellia-x86.h (suffix
 * _gfni_avx2).
 */
#if defined(__x86_64__)
#if !defined(__AVX2__) || !defined(__GFNI__)
#error "build with -mavx2 -mgfni (crypto/arch/x86/meson.build)"
#endif

#include "crypto/arch/x86/camellia-x86-avx2.h"
#include "crypto/camellia/camellia-affine.h"

#define CAM_ISA gfni_avx2

#define CAM_M(m) _mm256_set1_epi64x((long long)(m))

CAM_INLINE vec v_sbox(vec x, const int kind)
{
	if (kind == 4)
		x = _mm256_gf2p8affine_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_PRE4_MATRIX),
						  CAMELLIA_GFNI_PRE4_CONST);
	else
		x = _mm256_gf2p8affine_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_PRE1_MATRIX),
						  CAMELLIA_GFNI_PRE1_CONST);
	if (kind == 2)
		return _mm256_gf2p8affineinv_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_POST2_MATRIX),
							CAMELLIA_GFNI_POST2_CONST);
	if (kind == 3)
		return _mm256_gf2p8affineinv_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_POST3_MATRIX),
							CAMELLIA_GFNI_POST3_CONST);
	return _mm256_gf2p8affineinv_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_POST1_MATRIX),
						CAMELLIA_GFNI_POST1_CONST);
}

#include "crypto/arch/x86/camellia-x86-core.h"
#endif
