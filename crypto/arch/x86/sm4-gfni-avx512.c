/* SPDX-License-Identifier: MIT */
/*
 * SM4 with GFNI + AVX-512 (F, BW): 512-bit vectors, 4 blocks per vector,
 * a main step is 4 sets = 64 blocks (1 KiB; 16 state vectors of the 32
 * zmm registers). The S-box is GF2P8AFFINEQB then GF2P8AFFINEINVQB with
 * the maps of sm4-x86-affine.h; L is four VPROLD and XORs merged by
 * VPTERNLOGD; the previous ciphertext block of CBC/CFB comes from VALIGNQ
 * over the iv. Body: sm4-x86-core.h; entry points: sm4-x86.h (suffix
 * _gfni_avx512).
 *
 * Measured on Zen 5 (min of many calls, 4 KiB): ECB 0.65 cycles/byte
 * (XTS 0.93 before its tweaks moved to scalar code, not remeasured).
 * On Zen 4 (cloakfs-bench -c, medians, cycles/byte): ECB 1.04 at 4 KiB;
 * XTS 1.08-1.12 at 64 KiB, 1.26-1.29 at 4 KiB, where the one-block
 * encryption of the tweak (latency-bound, ~600 cycles) is most of the
 * difference. 2 sets per step were bound by the round latency (about
 * 14 cycles: 2 GFNI ops of 3 cycles, then rotate and two VPTERNLOGD of 2
 * each); 5 or more sets run out of registers.
 */
#if defined(__x86_64__)
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__GFNI__)
#error "build with -mavx512f -mavx512bw -mgfni (crypto/arch/x86/meson.build)"
#endif

#include "crypto/arch/x86/x86-vec512.h"

#include "crypto/arch/x86/sm4-x86-affine.h"

#define SM4_VEC_BLOCKS 4
#define SM4_MAIN_SETS 4
#define SM4_INLINE VEC_INLINE
#define SM4_ISA gfni_avx512
#define SM4_LANE_MASK VEC_LANE_MASK
#define SM4_BYTES_BSWAP32 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12

SM4_INLINE vec v_bswap32(vec v)
{
	return _mm512_shuffle_epi8(v, SM4_LANE_MASK(SM4_BYTES_BSWAP32));
}

SM4_INLINE void v_transpose(vec *a, vec *b, vec *c, vec *d)
{
	vec t0 = _mm512_unpacklo_epi32(*a, *b), t1 = _mm512_unpackhi_epi32(*a, *b);
	vec t2 = _mm512_unpacklo_epi32(*c, *d), t3 = _mm512_unpackhi_epi32(*c, *d);

	*a = _mm512_unpacklo_epi64(t0, t2);
	*b = _mm512_unpackhi_epi64(t0, t2);
	*c = _mm512_unpacklo_epi64(t1, t3);
	*d = _mm512_unpackhi_epi64(t1, t3);
}

SM4_INLINE vec v_sbox(vec x)
{
	x = _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)SM4_GFNI_IN_MATRIX),
					  SM4_GFNI_IN_CONST);
	return _mm512_gf2p8affineinv_epi64_epi8(x, _mm512_set1_epi64((long long)SM4_GFNI_OUT_MATRIX),
						SM4_GFNI_OUT_CONST);
}

/* x ^ L(b): two levels of VPTERNLOGD over the four rotations */
SM4_INLINE vec v_l_xor(vec x, vec b)
{
	vec u = v_xor3(x, b, _mm512_rol_epi32(b, 2));
	vec w = v_xor3(_mm512_rol_epi32(b, 10), _mm512_rol_epi32(b, 18),
		       _mm512_rol_epi32(b, 24));

	return v_xor(u, w);
}

/* *x ^= L(s) and *t = p ^ L(s): the rotations are shared */
SM4_INLINE void v_l_xor2(vec *x, vec *t, vec p, vec s)
{
	vec a = v_xor3(s, _mm512_rol_epi32(s, 2), _mm512_rol_epi32(s, 10));
	vec b = v_xor(_mm512_rol_epi32(s, 18), _mm512_rol_epi32(s, 24));

	*x = v_xor3(*x, a, b);
	*t = v_xor3(p, a, b);
}

#include "crypto/arch/x86/sm4-x86-core.h"
#endif
