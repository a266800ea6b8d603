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
#include <arm_neon.h>

#include "crypto/arch/arm/polyval-arm.h"

#define STEP 8

static inline uint64x2_t clmul(uint64_t a, uint64_t b)
{
	return vreinterpretq_u64_p128(vmull_p64((poly64_t)a, (poly64_t)b));
}

static inline uint64x2_t clmul_hi(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a),
						     vreinterpretq_p64_u64(b)));
}

static inline uint64x2_t swap64(uint64x2_t x)
{
	return vextq_u64(x, x, 1);
}

/*
 * Karatsuba, three multiplications: lo += x0 h0, hi += x1 h1, mid +=
 * (x0 ^ x1)(h0 ^ h1) with hk = h ^ swap(h) (lane 0 used); the caller's
 * reduce adds lo and hi to mid once after the sums (making it x0 h1 +
 * x1 h0). The XORs stay in vector registers (on AArch32 a move to core
 * registers and back costs more than the multiplication saved).
 */
static inline void mul_acc(uint64x2_t x, uint64x2_t h, uint64x2_t hk,
			   uint64x2_t *lo, uint64x2_t *mid, uint64x2_t *hi)
{
	uint64x2_t xk = veorq_u64(x, swap64(x));

	*lo = veorq_u64(*lo, clmul(vgetq_lane_u64(x, 0), vgetq_lane_u64(h, 0)));
	*hi = veorq_u64(*hi, clmul_hi(x, h));
	*mid = veorq_u64(*mid, clmul(vgetq_lane_u64(xk, 0), vgetq_lane_u64(hk, 0)));
}

static inline uint64x2_t karatsuba_key(uint64x2_t h)
{
	return veorq_u64(h, swap64(h));
}

/* the 256-bit hi:lo ^ mid << 64 (mid still without the Karatsuba
 * correction lo ^ hi), times x^-128 mod p */
static inline uint64x2_t reduce(uint64x2_t lo, uint64x2_t mid, uint64x2_t hi)
{
	const uint64_t c = 0xc200000000000000ull;
	const uint64x2_t zero = vdupq_n_u64(0);
	uint64x2_t l, h;

	mid = veorq_u64(mid, veorq_u64(lo, hi));
	l = veorq_u64(lo, vextq_u64(zero, mid, 1));
	h = veorq_u64(hi, vextq_u64(mid, zero, 1));

	l = veorq_u64(swap64(l), clmul(vgetq_lane_u64(l, 0), c));
	l = veorq_u64(swap64(l), clmul(vgetq_lane_u64(l, 0), c));
	return veorq_u64(h, l);
}

static inline uint64x2_t load_block(const uint8_t *p, int bswap)
{
	uint8x16_t x = vld1q_u8(p);

	if (bswap) { /* public: GHASH or POLYVAL */
		x = vrev64q_u8(x);
		x = vextq_u8(x, x, 8);
	}
	return vreinterpretq_u64_u8(x);
}

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
