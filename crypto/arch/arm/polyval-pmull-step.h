/* SPDX-License-Identifier: MIT */
/*
 * The PMULL GHASH/POLYVAL step (internal), shared by polyval-pmull.c and
 * the fused gcm(aes) core aes-gcm-ce-core.c; both are compiled with the
 * crypto extension enabled (crypto/arch/arm/meson.build). A block and
 * the accumulator are 128-bit values in two 64-bit lanes (lo, hi);
 * GHASH blocks are byte-reversed on loading (load_block). Block j of a
 * step of n is multiplied by H^(n - j) and the products summed unreduced
 * (lo / mid / hi, Karatsuba: three multiplications a block), then one
 * reduction by x^-128 (two multiplications by c = 0xc2 << 56, each
 * folding 64 bits up).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_POLYVAL_PMULL_STEP_H
#define CLOAKFS_CRYPTO_ARCH_ARM_POLYVAL_PMULL_STEP_H

#include <arm_neon.h>
#include <stdint.h>

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

/* a GHASH block as the arithmetic takes it: its 16 bytes reversed */
static inline uint64x2_t ghash_order(uint8x16_t x)
{
	x = vrev64q_u8(x);
	return vreinterpretq_u64_u8(vextq_u8(x, x, 8));
}

static inline uint64x2_t load_block(const uint8_t *p, int bswap)
{
	uint8x16_t x = vld1q_u8(p);

	/* public: GHASH or POLYVAL */
	return bswap ? ghash_order(x) : vreinterpretq_u64_u8(x);
}

#endif
