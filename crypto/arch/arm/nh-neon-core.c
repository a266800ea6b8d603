/* SPDX-License-Identifier: MIT */
/*
 * NH on NEON, AArch64 (intrinsics; AArch32's is nh-neon-core-arm32.S,
 * meson builds this file there too, empty but for the header). See
 * nh-neon.h.
 */
#include <arm_neon.h>

#include "crypto/arch/arm/nh-neon.h"

#if defined(__aarch64__)

#if defined(__ARM_BIG_ENDIAN)
#error "the NEON NH core loads little-endian words as vectors"
#endif

#define UNIT 16 /* bytes of message, 4 key words */

static inline uint32x4_t load_words(const uint8_t *p)
{
	return vreinterpretq_u32_u8(vld1q_u8(p));
}

/* sum += (t0 * t2, t1 * t3) for t = m + k: one pass of one unit */
static inline uint64x2_t pass1(uint64x2_t sum, uint32x4_t m, uint32x4_t k)
{
	const uint32x4_t t = vaddq_u32(m, k);

	return vmlal_u32(sum, vget_low_u32(t), vget_high_u32(t));
}

/*
 * Two units a, b as LD2 of 64-bit halves leaves them: x = a0 a1 b0 b1,
 * y = a2 a3 b2 b3 (the key words likewise, from the key's 32-bit words)
 */
static inline uint32x4x2_t load_pair(const void *p)
{
	const uint64x2x2_t v = vld2q_u64((const uint64_t *)p);
	const uint32x4x2_t r = { { vreinterpretq_u32_u64(v.val[0]),
				   vreinterpretq_u32_u64(v.val[1]) } };

	return r;
}

/* one pass of two units: UMLAL for a, UMLAL2 for b */
static inline uint64x2_t pass2(uint64x2_t sum, uint32x4x2_t m, uint32x4x2_t k)
{
	const uint32x4_t x = vaddq_u32(m.val[0], k.val[0]);
	const uint32x4_t y = vaddq_u32(m.val[1], k.val[1]);

	return vmlal_high_u32(vmlal_u32(sum, vget_low_u32(x), vget_low_u32(y)),
			      x, y);
}

void nh_neon(const uint32_t *key, const uint8_t *msg, size_t len,
	     uint8_t hash[32])
{
	uint64x2_t s0 = vdupq_n_u64(0), s1 = s0, s2 = s0, s3 = s0;

	/*
	 * 4 units a step: unit u's pass p takes key block u + p, so the step
	 * reads blocks 0..6 (each once, the sums' chains interleaved)
	 */
	for (; len >= 4 * UNIT; len -= 4 * UNIT, msg += 4 * UNIT, key += 16) {
		/* kj: key blocks j and j + 1, for the pair of units from j - p */
		const uint32x4x2_t a = load_pair(msg), b = load_pair(msg + 2 * UNIT);
		const uint32x4x2_t k0 = load_pair(key), k1 = load_pair(key + 4);
		const uint32x4x2_t k2 = load_pair(key + 8), k3 = load_pair(key + 12);
		const uint32x4x2_t k4 = load_pair(key + 16), k5 = load_pair(key + 20);

		s0 = pass2(s0, a, k0);
		s1 = pass2(s1, a, k1);
		s2 = pass2(s2, a, k2);
		s3 = pass2(s3, a, k3);
		s0 = pass2(s0, b, k2);
		s1 = pass2(s1, b, k3);
		s2 = pass2(s2, b, k4);
		s3 = pass2(s3, b, k5);
	}
	/* the last 1 to 3 units */
	for (; len; len -= UNIT, msg += UNIT, key += 4) {
		const uint32x4_t m = load_words(msg);

		s0 = pass1(s0, m, vld1q_u32(key));
		s1 = pass1(s1, m, vld1q_u32(key + 4));
		s2 = pass1(s2, m, vld1q_u32(key + 8));
		s3 = pass1(s3, m, vld1q_u32(key + 12));
	}

	/* each pass's two lanes summed, modulo 2^64, le64 (in vectors) */
	vst1q_u8(hash, vreinterpretq_u8_u64(vaddq_u64(
		vcombine_u64(vget_low_u64(s0), vget_low_u64(s1)),
		vcombine_u64(vget_high_u64(s0), vget_high_u64(s1)))));
	vst1q_u8(hash + 16, vreinterpretq_u8_u64(vaddq_u64(
		vcombine_u64(vget_low_u64(s2), vget_low_u64(s3)),
		vcombine_u64(vget_high_u64(s2), vget_high_u64(s3)))));
}
#endif
