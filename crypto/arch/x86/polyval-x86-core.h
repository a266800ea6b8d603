/* SPDX-License-Identifier: MIT */
/*
 * The POLYVAL core body (contract: polyval-x86.h), written once and
 * instantiated per vector width by polyval-pclmul.c (xmm, 1 block per
 * vector), polyval-vpclmul-avx2.c (ymm, 2) and polyval-vpclmul-avx512.c
 * (zmm, 4).
 *
 * Technique: a step of n = VEC_BLOCKS * NVEC blocks computes
 *   acc' = (acc ^ X_1) H^n + X_2 H^(n-1) + ... + X_n H   (times x^-128)
 * as the sum of n unreduced 256-bit carry-less products (Karatsuba: lo,
 * hi and (x.lo ^ x.hi)(h.lo ^ h.hi) per block, three PCLMULQDQ instead
 * of four, accumulated apart and the middle corrected once), the
 * vector lanes folded together, then one reduction: so the n products
 * are independent and only the reduction is serial. Reduction by x^-128
 * (p(x) = x^128 + x^64 c(x) + 1 with c = 0xc2 << 56): the low word W0
 * times c folds it up by 64 bits (one PCLMULQDQ, a swap of the halves,
 * an XOR), then the same for W1; what is left above x^128 is the result.
 *
 * The including file defines POLYVAL_ISA, vec_t, VEC_BLOCKS, NVEC and
 * v_loadu, v_xor, v_clmul(a, b, imm), v_shuffle_bytes, v_bcast128,
 * v_swap64 (swap the qwords of each lane),
 * v_zext128 (an xmm in lane 0, zeros elsewhere) and v_fold (XOR of all
 * 128-bit lanes into an xmm).
 */
#include <immintrin.h>

#include "crypto/arch/x86/polyval-x86.h"

#define PV_STEP (VEC_BLOCKS * NVEC)
/* NAME_<POLYVAL_ISA>, POLYVAL_ISA expanded first */
#define PV_PASTE2(a, b) a##b
#define PV_PASTE(a, b) PV_PASTE2(a, b)
#define PV_BLOCKS PV_PASTE(polyval_blocks_, POLYVAL_ISA)

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

void PV_BLOCKS(struct polyval_state *st, const uint8_t *src, size_t nblocks)
{
	uint64_t *acc = st->acc;
	const uint8_t(*powers)[16] = st->key.powers;
	const int bswap = st->ghash; /* public: GHASH or POLYVAL */
	const __m128i mask = bswap ?
		_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0) :
		_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	__m128i a = _mm_loadu_si128((const __m128i *)acc), h1;

	if (nblocks >= PV_STEP) {
		const vec_t vmask = v_bcast128(mask);
		vec_t hp[NVEC], hk[NVEC];

		/* Karatsuba: hk = h.lo ^ h.hi in both halves of each lane */
		for (int i = 0; i < NVEC; i++) {
			hp[i] = v_loadu(powers[16 - PV_STEP + VEC_BLOCKS * i]);
			hk[i] = v_xor(hp[i], v_swap64(hp[i]));
		}
		do {
			vec_t lo, mid, hi, x;

			x = v_xor(v_shuffle_bytes(v_loadu(src), vmask), v_zext128(a));
			lo = v_clmul(x, hp[0], 0x00);
			hi = v_clmul(x, hp[0], 0x11);
			mid = v_clmul(v_xor(x, v_swap64(x)), hk[0], 0x00);
			for (int i = 1; i < NVEC; i++) {
				x = v_shuffle_bytes(v_loadu(src + 16 * VEC_BLOCKS * i), vmask);
				lo = v_xor(lo, v_clmul(x, hp[i], 0x00));
				hi = v_xor(hi, v_clmul(x, hp[i], 0x11));
				mid = v_xor(mid, v_clmul(v_xor(x, v_swap64(x)), hk[i], 0x00));
			}
			/* (x.lo ^ x.hi)(h.lo ^ h.hi) = mid + lo + hi */
			mid = v_xor(mid, v_xor(lo, hi));
			a = pv_reduce(v_fold(lo), v_fold(mid), v_fold(hi));
			src += 16 * PV_STEP;
			nblocks -= PV_STEP;
		} while (nblocks >= PV_STEP);
	}
	h1 = _mm_loadu_si128((const __m128i *)powers[15]);
	for (; nblocks; nblocks--, src += 16) {
		__m128i x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)src), mask);

		a = pv_mul1(_mm_xor_si128(a, x), h1);
	}
	_mm_storeu_si128((__m128i *)acc, a);
}

int PV_PASTE(polyval_setkey_, POLYVAL_ISA)(void *state, const uint8_t *key,
					   size_t keylen)
{
	return polyval_setkey_state(state, key, keylen, 0, PV_BLOCKS,
				    polyval_key_powers);
}

int PV_PASTE(ghash_setkey_, POLYVAL_ISA)(void *state, const uint8_t *key,
					 size_t keylen)
{
	return polyval_setkey_state(state, key, keylen, 1, PV_BLOCKS,
				    polyval_key_powers);
}
