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
#include "crypto/arch/x86/polyval-x86-step.h"

#define PV_STEP (VEC_BLOCKS * NVEC)
/* NAME_<POLYVAL_ISA>, POLYVAL_ISA expanded first */
#define PV_PASTE2(a, b) a##b
#define PV_PASTE(a, b) PV_PASTE2(a, b)
#define PV_BLOCKS PV_PASTE(polyval_blocks_, POLYVAL_ISA)

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

		for (int i = 0; i < NVEC; i++) {
			hp[i] = v_loadu(powers[16 - PV_STEP + VEC_BLOCKS * i]);
			hk[i] = pv_karatsuba_key(hp[i]);
		}
		do {
			vec_t blk[NVEC];

			for (int i = 0; i < NVEC; i++)
				blk[i] = v_loadu(src + 16 * VEC_BLOCKS * i);
			a = pv_step(hp, hk, a, blk, vmask, NVEC);
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
