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
#define SM4_TARGET "avx512f,avx512bw,gfni"

#include <immintrin.h>
#include <stdint.h>

#include "asm/x86/sm4-x86-affine.h"

typedef __m512i vec;
#define SM4_VEC_BLOCKS 4
#define SM4_MAIN_SETS 4
#define SM4_INLINE static inline __attribute__((always_inline, target(SM4_TARGET)))
#define SM4_ISA gfni_avx512

/* a 16-byte pattern in every 128-bit lane (VPSHUFB masks) */
#define SM4_LANE_MASK(...) _mm512_broadcast_i32x4(_mm_setr_epi8(__VA_ARGS__))
#define SM4_BYTES_BSWAP32 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
#define SM4_BYTES_BSWAP128 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
#define SM4_XOR3 0x96 /* VPTERNLOGD truth table of a ^ b ^ c */

SM4_INLINE vec v_loadu(const uint8_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}

SM4_INLINE void v_storeu(uint8_t *p, vec v)
{
	_mm512_storeu_si512((void *)p, v);
}

SM4_INLINE void v_store_lane0(uint8_t *p, vec v)
{
	_mm_storeu_si128((__m128i *)(void *)p, _mm512_castsi512_si128(v));
}

SM4_INLINE vec v_xor(vec a, vec b)
{
	return _mm512_xor_si512(a, b);
}

SM4_INLINE vec v_xor3(vec a, vec b, vec c)
{
	return _mm512_ternarylogic_epi32(a, b, c, SM4_XOR3);
}

SM4_INLINE vec v_bcast32(const uint32_t *p)
{
	return _mm512_set1_epi32((int)*p);
}

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

SM4_INLINE vec v_mul_xn(vec v, const int n)
{
	vec hi = _mm512_slli_epi64(v, n);
	/* the n bits out of each qword, moved to the other qword */
	vec c = _mm512_shuffle_epi32(_mm512_srli_epi64(v, 64 - n), _MM_PERM_BADC);
	/* low qword: c * (x^7 + x^2 + x + 1); high qword: c (shift >= 64 is 0) */
	vec c1 = _mm512_sllv_epi64(c, _mm512_setr_epi64(1, 64, 1, 64, 1, 64, 1, 64));
	vec c2 = _mm512_sllv_epi64(c, _mm512_setr_epi64(2, 64, 2, 64, 2, 64, 2, 64));
	vec c7 = _mm512_sllv_epi64(c, _mm512_setr_epi64(7, 64, 7, 64, 7, 64, 7, 64));

	return v_xor3(v_xor3(hi, c, c1), c2, c7);
}

SM4_INLINE vec v_ctr(uint64_t lo, uint64_t hi, int k)
{
	vec base = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)hi, (long long)lo));
	vec inc = _mm512_setr_epi64(4 * k, 0, 4 * k + 1, 0, 4 * k + 2, 0, 4 * k + 3, 0);

	return _mm512_shuffle_epi8(_mm512_add_epi64(base, inc),
				   SM4_LANE_MASK(SM4_BYTES_BSWAP128));
}

/* [iv, src block 0, 1, 2]: VALIGNQ shifts iv's top lane in below src */
SM4_INLINE vec v_prev_first(__m128i iv, const uint8_t *src)
{
	return _mm512_alignr_epi64(v_loadu(src), _mm512_broadcast_i32x4(iv), 6);
}

/* VZEROALL clears zmm0-15; zmm16-31 are cleared by hand */
SM4_INLINE void v_end(void)
{
	_mm256_zeroall();
	__asm__ volatile("vpxord %%zmm16, %%zmm16, %%zmm16\n\t"
			 "vmovdqa64 %%zmm16, %%zmm17\n\tvmovdqa64 %%zmm16, %%zmm18\n\t"
			 "vmovdqa64 %%zmm16, %%zmm19\n\tvmovdqa64 %%zmm16, %%zmm20\n\t"
			 "vmovdqa64 %%zmm16, %%zmm21\n\tvmovdqa64 %%zmm16, %%zmm22\n\t"
			 "vmovdqa64 %%zmm16, %%zmm23\n\tvmovdqa64 %%zmm16, %%zmm24\n\t"
			 "vmovdqa64 %%zmm16, %%zmm25\n\tvmovdqa64 %%zmm16, %%zmm26\n\t"
			 "vmovdqa64 %%zmm16, %%zmm27\n\tvmovdqa64 %%zmm16, %%zmm28\n\t"
			 "vmovdqa64 %%zmm16, %%zmm29\n\tvmovdqa64 %%zmm16, %%zmm30\n\t"
			 "vmovdqa64 %%zmm16, %%zmm31"
			 ::: "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21",
			 "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
			 "xmm28", "xmm29", "xmm30", "xmm31");
}

#include "asm/x86/sm4-x86-core.h"
#endif
