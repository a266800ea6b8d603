/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 on NEON, radix 2^26, four blocks a step: one file of
 * intrinsics for AArch64 and ARMv7 AArch32 (meson builds it alone with
 * -mfpu=neon on AArch32). See poly1305-neon.h.
 */
#include <arm_neon.h>

#include "crypto/arch/arm/poly1305-neon.h"

#if defined(__ARM_BIG_ENDIAN)
#error "the NEON Poly1305 core loads little-endian words as vectors"
#endif

#define M26 0x3ffffffu

/* acc + high half of m times high half of q: one UMLAL2 on AArch64 */
#if defined(__aarch64__)
#define MLAL_HIGH(acc, m, q) vmlal_high_u32((acc), (m), (q))
#else
#define MLAL_HIGH(acc, m, q) \
	vmlal_u32((acc), vget_high_u32(m), vget_high_u32(q))
#endif

/*
 * The table word of product term m_j of limb i: r_(i-j) when j <= i,
 * else the wrapped 5 r_(5+i-j) (2^130 = 5 mod p), at 9 + i - j.
 */
#define TERM(i, j) ((j) <= (i) ? (i) - (j) : 9 + (i) - (j))

/*
 * One step: h (lanes A, B) and the four blocks at src times the table q
 * (lanes: multipliers of blocks 0..3), carried back into h.
 */
static inline __attribute__((always_inline)) void
step(uint32x2_t h[5], const uint8_t *src, const uint32x4_t q[9],
     uint32x4_t hibit)
{
	/* w.val[k]: word k of blocks 0..3, block b in lane b */
	const uint32x4x4_t w = vld4q_u32((const uint32_t *)(const void *)src);
	const uint32x4_t mask = vdupq_n_u32(M26);
	const uint64x2_t mask64 = vdupq_n_u64(M26);
	uint32x4_t m[5];
	uint32x2_t ml[5];
	uint64x2_t d[5], c;

	m[0] = vandq_u32(w.val[0], mask);
	m[1] = vandq_u32(vsliq_n_u32(vshrq_n_u32(w.val[0], 26), w.val[1], 6), mask);
	m[2] = vandq_u32(vsliq_n_u32(vshrq_n_u32(w.val[1], 20), w.val[2], 12), mask);
	m[3] = vandq_u32(vsliq_n_u32(vshrq_n_u32(w.val[2], 14), w.val[3], 18), mask);
	m[4] = vorrq_u32(vshrq_n_u32(w.val[3], 8), hibit);
	/* the accumulator enters with blocks 0 and 1, the low half */
#pragma GCC unroll 5
	for (int j = 0; j < 5; j++)
		ml[j] = vadd_u32(vget_low_u32(m[j]), h[j]);

#pragma GCC unroll 5
	for (int i = 0; i < 5; i++) {
		d[i] = vmull_u32(ml[0], vget_low_u32(q[TERM(i, 0)]));
#pragma GCC unroll 4
		for (int j = 1; j < 5; j++)
			d[i] = vmlal_u32(d[i], ml[j], vget_low_u32(q[TERM(i, j)]));
#pragma GCC unroll 5
		for (int j = 0; j < 5; j++)
			d[i] = MLAL_HIGH(d[i], m[j], q[TERM(i, j)]);
	}

	/* carry d0 -> d4 (shift-right-accumulate), fold d4's into d0, then d0's */
	d[1] = vsraq_n_u64(d[1], d[0], 26);
	d[2] = vsraq_n_u64(d[2], d[1], 26);
	d[3] = vsraq_n_u64(d[3], d[2], 26);
	d[4] = vsraq_n_u64(d[4], d[3], 26);
	c = vshrq_n_u64(d[4], 26);
	d[0] = vaddq_u64(vandq_u64(d[0], mask64), c);
	d[0] = vaddq_u64(d[0], vshlq_n_u64(c, 2));
	h[0] = vand_u32(vmovn_u64(d[0]), vget_low_u32(mask));
	h[1] = vadd_u32(vand_u32(vmovn_u64(d[1]), vget_low_u32(mask)),
			vshrn_n_u64(d[0], 26));
#pragma GCC unroll 3
	for (int i = 2; i < 5; i++)
		h[i] = vand_u32(vmovn_u64(d[i]), vget_low_u32(mask));
}

void poly1305_blocks_neon(uint32_t h[5], const void *pw, const uint8_t *src,
			  size_t nblocks, uint32_t padbit)
{
	const uint8_t *pwb = pw;
	const uint32x4_t hibit = vdupq_n_u32(padbit << 24); /* 2^128 = 2^104 2^24 */
	uint32x4_t last[9], loop[9];
	uint32x2_t hv[5];

#pragma GCC unroll 9
	for (int k = 0; k < 9; k++) {
		/* r^4 r^3 r^2 r^1 */
		last[k] = vreinterpretq_u32_u8(vld1q_u8(pwb + 16 * k));
		loop[k] = vtrnq_u32(last[k], last[k]).val[0]; /* r^4 r^4 r^2 r^2 */
	}
#pragma GCC unroll 5
	for (int i = 0; i < 5; i++)
		hv[i] = vset_lane_u32(h[i], vdup_n_u32(0), 0);

	for (; nblocks > 4; nblocks -= 4, src += 64)
		step(hv, src, loop, hibit);
	step(hv, src, last, hibit);

#pragma GCC unroll 5
	for (int i = 0; i < 5; i++)
		h[i] = vget_lane_u32(vpadd_u32(hv[i], hv[i]), 0);
}
