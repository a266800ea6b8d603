// SPDX-License-Identifier: MIT
/*
 * POLYVAL with the ARMv8 64x64 carry-less multiply, for AArch64 (PMULL,
 * PMULL2) and AArch32 (VMULL.P64): the polyval-pmull and ghash-pmull
 * drivers (glue polyval-arm-glue.c). One file of
 * intrinsics for both; on AArch32 it alone is compiled with
 * -mfpu=crypto-neon-fp-armv8, on AArch64 with -march=armv8-a+crypto
 * (crypto/arch/arm/meson.build), and runs only where HWCAP(2)_PMULL is set.
 *
 * Entry points and contract as the x86 cores' (crypto/arch/x86/polyval-x86.h):
 * st->acc updated by nblocks blocks, each byte-reversed first when
 * st->ghash; st->key.powers[16 - k] = H^k. Technique as ../x86/polyval-x86-core.h: 8 blocks
 * a step, block j times H^(8 - j), the lo / mid / hi products (Karatsuba:
 * three multiplications a block) summed unreduced, one reduction by
 * x^-128 per step (two multiplications by c = 0xc2 << 56, each folding 64
 * bits up); single blocks after.
 */
#include "crypto/arch/arm/polyval-arm.h"
#include "crypto/arch/arm/polyval-pmull-step.h"

#define STEP 8

void polyval_blocks_pmull(struct polyval_state *st, const uint8_t *src,
			  size_t nblocks)
{
	uint64_t *acc = st->acc;
	const uint8_t(*powers)[16] = st->key.powers;
	const int bswap = st->ghash; /* public: GHASH or POLYVAL */
	uint64x2_t a = vld1q_u64(acc), h1;

	if (nblocks >= STEP) {
		uint64x2_t hp[STEP];
		uint64x2_t hk[STEP];

		for (int i = 0; i < STEP; i++) {
			hp[i] = vreinterpretq_u64_u8(vld1q_u8(powers[16 - STEP + i]));
			hk[i] = karatsuba_key(hp[i]);
		}
		do {
			uint64x2_t lo = vdupq_n_u64(0), mid = lo, hi = lo;

			mul_acc(veorq_u64(load_block(src, bswap), a), hp[0], hk[0],
				&lo, &mid, &hi);
			for (int i = 1; i < STEP; i++)
				mul_acc(load_block(src + 16 * i, bswap), hp[i], hk[i],
					&lo, &mid, &hi);
			a = reduce(lo, mid, hi);
			src += 16 * STEP;
			nblocks -= STEP;
		} while (nblocks >= STEP);
	}
	h1 = vreinterpretq_u64_u8(vld1q_u8(powers[15]));
	for (; nblocks; nblocks--, src += 16) {
		uint64x2_t lo = vdupq_n_u64(0), mid = lo, hi = lo;

		mul_acc(veorq_u64(load_block(src, bswap), a), h1, karatsuba_key(h1),
			&lo, &mid, &hi);
		a = reduce(lo, mid, hi);
	}
	vst1q_u64(acc, a);
}

int polyval_setkey_pmull(void *state, const uint8_t *key, size_t keylen)
{
	return polyval_setkey_state(state, key, keylen, 0, polyval_blocks_pmull,
				    polyval_key_powers);
}

int ghash_setkey_pmull(void *state, const uint8_t *key, size_t keylen)
{
	return polyval_setkey_state(state, key, keylen, 1, polyval_blocks_pmull,
				    polyval_key_powers);
}
