/* SPDX-License-Identifier: MIT */
/*
 * Camellia with GFNI + AVX-512 (F, BW): 512-bit vectors, 4 blocks per
 * vector, a step is 16 vectors = 64 blocks (1 KiB), whose state fits in
 * half of the 32 zmm registers. The S-boxes are GF2P8AFFINEQB then
 * GF2P8AFFINEINVQB with the maps of crypto/camellia/camellia-affine.h;
 * three-input XORs are VPTERNLOGD; the previous ciphertext block of
 * CBC/CFB comes from VALIGNQ over the iv. Body: camellia-x86-core.h;
 * entry points: camellia-x86.h (suffix _gfni_avx512).
 */
#if defined(__x86_64__)
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__GFNI__)
#error "build with -mavx512f -mavx512bw -mgfni (crypto/arch/x86/meson.build)"
#endif

#include "crypto/arch/x86/x86-vec512.h"

#include "crypto/camellia/camellia-affine.h"

#define CAM_VB 4
#define CAM_INLINE VEC_INLINE
#define CAM_ISA gfni_avx512
/*
 * A request's last 512 bytes (half a step) go to the GFNI-AVX2 core, one
 * full step there, instead of a half-empty step here: a CPU with GFNI and
 * AVX-512 runs it (VEX-encoded GFNI comes with AVX). Measured on Zen 5:
 * 512-byte CTR requests 0.57x of the AVX2 core before.
 */
#define CAM_TAIL_ISA gfni_avx2
#define CAM_M(m) _mm512_set1_epi64((long long)(m))

CAM_INLINE vec v_and(vec a, vec b)
{
	return _mm512_and_si512(a, b);
}

CAM_INLINE vec v_or(vec a, vec b)
{
	return _mm512_or_si512(a, b);
}

CAM_INLINE vec v_unpacklo8(vec a, vec b)
{
	return _mm512_unpacklo_epi8(a, b);
}

CAM_INLINE vec v_unpackhi8(vec a, vec b)
{
	return _mm512_unpackhi_epi8(a, b);
}

CAM_INLINE vec v_shl1_bytes(vec v)
{
	return _mm512_add_epi8(v, v);
}

CAM_INLINE vec v_msb_bytes(vec v)
{
	return _mm512_and_si512(_mm512_srli_epi16(v, 7), _mm512_set1_epi8(1));
}

CAM_INLINE vec v_sbox(vec x, const int kind)
{
	if (kind == 4)
		x = _mm512_gf2p8affine_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_PRE4_MATRIX),
						  CAMELLIA_GFNI_PRE4_CONST);
	else
		x = _mm512_gf2p8affine_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_PRE1_MATRIX),
						  CAMELLIA_GFNI_PRE1_CONST);
	if (kind == 2)
		return _mm512_gf2p8affineinv_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_POST2_MATRIX),
							CAMELLIA_GFNI_POST2_CONST);
	if (kind == 3)
		return _mm512_gf2p8affineinv_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_POST3_MATRIX),
							CAMELLIA_GFNI_POST3_CONST);
	return _mm512_gf2p8affineinv_epi64_epi8(x, CAM_M(CAMELLIA_GFNI_POST1_MATRIX),
						CAMELLIA_GFNI_POST1_CONST);
}

#include "crypto/arch/x86/camellia-x86-core.h"
#endif
