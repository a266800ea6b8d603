/* SPDX-License-Identifier: MIT */
/*
 * The POLYVAL step the x86 cores share: polyval-x86-core.h (the polyval
 * and ghash drivers) and the fused GCM cores (aes-gcm-x86-core.h). The
 * including file defines vec_t, VEC_BLOCKS, NVEC and the v_* operations
 * listed in polyval-x86-core.h; the technique is described there.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_STEP_H
#define CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_STEP_H

#include <immintrin.h>

/* acc' = reduce(lo, mid, hi): the 256-bit product hi:lo ^ mid << 64 */
static inline __m128i pv_reduce(__m128i lo, __m128i mid, __m128i hi)
{
	const __m128i c = _mm_set_epi64x(0, (long long)0xc200000000000000ull);
	__m128i l = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
	__m128i h = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
	__m128i t;

	/* [W1 : W0] -> [W0 ^ (W0 c).hi : W1 ^ (W0 c).lo] */
	t = _mm_clmulepi64_si128(l, c, 0x00);
	l = _mm_xor_si128(_mm_shuffle_epi32(l, 0x4e), t);
	/* the same for the new W1 */
	t = _mm_clmulepi64_si128(l, c, 0x00);
	l = _mm_xor_si128(_mm_shuffle_epi32(l, 0x4e), t);
	return _mm_xor_si128(h, l);
}

static inline __m128i pv_mul1(__m128i x, __m128i h)
{
	__m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(x, h, 0x01),
				    _mm_clmulepi64_si128(x, h, 0x10));

	return pv_reduce(_mm_clmulepi64_si128(x, h, 0x00), mid,
			 _mm_clmulepi64_si128(x, h, 0x11));
}

/*
 * One step over the VEC_BLOCKS * nv blocks of vectors blk[0 .. nv-1] (nv
 * at most NVEC, a constant once inlined; as loaded, byte-reversed here
 * with vmask): acc' = (a ^ X_1) H^m + ... + X_m H, hp[i] the powers of
 * vector i, hk[i] their Karatsuba halves (pv_karatsuba_key). Blocks of
 * zeros add nothing, so a run shorter than its vectors uses the step too.
 */
static inline __attribute__((always_inline)) __m128i
pv_step(const vec_t *hp, const vec_t *hk, __m128i a, const vec_t *blk,
	vec_t vmask, int nv)
{
	vec_t lo, mid, hi, x;

	x = v_xor(v_shuffle_bytes(blk[0], vmask), v_zext128(a));
	lo = v_clmul(x, hp[0], 0x00);
	hi = v_clmul(x, hp[0], 0x11);
	mid = v_clmul(v_xor(x, v_swap64(x)), hk[0], 0x00);
	for (int i = 1; i < nv; i++) {
		x = v_shuffle_bytes(blk[i], vmask);
		lo = v_xor(lo, v_clmul(x, hp[i], 0x00));
		hi = v_xor(hi, v_clmul(x, hp[i], 0x11));
		mid = v_xor(mid, v_clmul(v_xor(x, v_swap64(x)), hk[i], 0x00));
	}
	/* (x.lo ^ x.hi)(h.lo ^ h.hi) = mid + lo + hi */
	mid = v_xor(mid, v_xor(lo, hi));
	return pv_reduce(v_fold(lo), v_fold(mid), v_fold(hi));
}

/* Karatsuba: h.lo ^ h.hi in both halves of each lane */
static inline __attribute__((always_inline)) vec_t pv_karatsuba_key(vec_t h)
{
	return v_xor(h, v_swap64(h));
}

#endif
