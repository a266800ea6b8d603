/* SPDX-License-Identifier: MIT */
/*
 * ChaCha on NEON (RFC 8439's block function, any even round count): one
 * file of intrinsics for AArch64 and ARMv7 AArch32 (arm_neon.h is the
 * same API on both; meson builds this file alone with -mfpu=neon on
 * AArch32). See chacha-neon.h.
 *
 * Two layouts (the one the x86 cores use, chacha20-x86-core.h):
 *  - vertical, 4 blocks: vector k holds state word k of four consecutive
 *    blocks, one block per 32-bit lane, so a quarter round is 12 vector
 *    operations on 4 blocks with no shuffles between rounds; at the end
 *    a 4x4 word transpose (vtrn + vcombine) turns words-by-block into
 *    16-byte rows of each block for the XOR with the input;
 *  - rows, 1 block: one vector per row of the matrix; the diagonal round
 *    is the column round after turning rows 1..3 left by 1..3 words
 *    (vext). It serves the last block of a message.
 * Rotations: by 16 one vrev32.16; by 8 one tbl on AArch64; otherwise a
 * shift right and a shift-left-and-insert (vsri's mirror, vsli).
 */
#include <arm_neon.h>
#include <string.h>

#include "crypto/arch/arm/chacha-neon.h"

#if defined(__ARM_BIG_ENDIAN)
#error "the NEON ChaCha core loads little-endian words as vectors"
#endif

#define ROTL(v, n) vsliq_n_u32(vshrq_n_u32((v), 32 - (n)), (v), (n))
#define ROTL16(v) vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)))

#if defined(__aarch64__)
/* byte i of the result is byte rot8_idx[i] of v: each word turned left by 8 */
static const uint8_t rot8_idx[16] = { 3, 0, 1, 2, 7, 4, 5, 6,
				      11, 8, 9, 10, 15, 12, 13, 14 };
#define ROT8_DECL const uint8x16_t rot8 = vld1q_u8(rot8_idx)
#define ROTL8(v) vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(v), rot8))
#else
#define ROT8_DECL do { } while (0)
#define ROTL8(v) ROTL((v), 8)
#endif

#define QR(a, b, c, d)                                   \
	do {                                             \
		a = vaddq_u32(a, b);                     \
		d = ROTL16(veorq_u32(d, a));             \
		c = vaddq_u32(c, d);                     \
		b = ROTL(veorq_u32(b, c), 12);           \
		a = vaddq_u32(a, b);                     \
		d = ROTL8(veorq_u32(d, a));              \
		c = vaddq_u32(c, d);                     \
		b = ROTL(veorq_u32(b, c), 7);            \
	} while (0)

static inline uint32x4_t load_words(const uint8_t *p)
{
	return vreinterpretq_u32_u8(vld1q_u8(p));
}

/* dst[0..15] = src[0..15] ^ v (as little-endian words) */
static inline void xor_store(uint8_t *dst, const uint8_t *src, uint32x4_t v)
{
	vst1q_u8(dst, veorq_u8(vld1q_u8(src), vreinterpretq_u8_u32(v)));
}

/*
 * The low (high) 64 bits of x then of y: one zip of doublewords on
 * AArch64; on AArch32 the halves are registers of their own.
 */
#if defined(__aarch64__)
#define COMBINE_LO(x, y) vreinterpretq_u32_u64(vzip1q_u64(vreinterpretq_u64_u32(x), \
							  vreinterpretq_u64_u32(y)))
#define COMBINE_HI(x, y) vreinterpretq_u32_u64(vzip2q_u64(vreinterpretq_u64_u32(x), \
							  vreinterpretq_u64_u32(y)))
#else
#define COMBINE_LO(x, y) vcombine_u32(vget_low_u32(x), vget_low_u32(y))
#define COMBINE_HI(x, y) vcombine_u32(vget_high_u32(x), vget_high_u32(y))
#endif

/*
 * Words 4g..4g+3 of blocks 0..3 (a..d, block k in lane k) to rows:
 * block k's words 4g..4g+3 are XORed in at off + 64 k.
 */
static inline void transpose_xor(uint8_t *dst, const uint8_t *src, size_t off,
				 uint32x4_t a, uint32x4_t b, uint32x4_t c,
				 uint32x4_t d)
{
	/* ab.val[0] = a0 b0 a2 b2, ab.val[1] = a1 b1 a3 b3; cd likewise */
	uint32x4x2_t ab = vtrnq_u32(a, b), cd = vtrnq_u32(c, d);

	xor_store(dst + off, src + off, COMBINE_LO(ab.val[0], cd.val[0]));
	xor_store(dst + off + 64, src + off + 64, COMBINE_LO(ab.val[1], cd.val[1]));
	xor_store(dst + off + 128, src + off + 128, COMBINE_HI(ab.val[0], cd.val[0]));
	xor_store(dst + off + 192, src + off + 192, COMBINE_HI(ab.val[1], cd.val[1]));
}

#if defined(__aarch64__)
/* 4 blocks (256 bytes) from st's counter on, vertical; st unchanged */
static void chacha_4blocks(const uint32_t st[16], uint8_t *dst,
			   const uint8_t *src, unsigned int nrounds)
{
	static const uint32_t lanes_w[4] = { 0, 1, 2, 3 };
	const uint32x4_t lanes = vld1q_u32(lanes_w);
	uint32x4_t x0 = vdupq_n_u32(st[0]), x1 = vdupq_n_u32(st[1]);
	uint32x4_t x2 = vdupq_n_u32(st[2]), x3 = vdupq_n_u32(st[3]);
	uint32x4_t x4 = vdupq_n_u32(st[4]), x5 = vdupq_n_u32(st[5]);
	uint32x4_t x6 = vdupq_n_u32(st[6]), x7 = vdupq_n_u32(st[7]);
	uint32x4_t x8 = vdupq_n_u32(st[8]), x9 = vdupq_n_u32(st[9]);
	uint32x4_t x10 = vdupq_n_u32(st[10]), x11 = vdupq_n_u32(st[11]);
	uint32x4_t x12 = vaddq_u32(vdupq_n_u32(st[12]), lanes);
	uint32x4_t x13 = vdupq_n_u32(st[13]);
	uint32x4_t x14 = vdupq_n_u32(st[14]), x15 = vdupq_n_u32(st[15]);
	ROT8_DECL;

	for (unsigned int i = 0; i < nrounds; i += 2) {
		/* column round */
		QR(x0, x4, x8, x12);
		QR(x1, x5, x9, x13);
		QR(x2, x6, x10, x14);
		QR(x3, x7, x11, x15);
		/* diagonal round */
		QR(x0, x5, x10, x15);
		QR(x1, x6, x11, x12);
		QR(x2, x7, x8, x13);
		QR(x3, x4, x9, x14);
	}
	/* the feed-forward, reloaded from st rather than kept across the rounds */
	x0 = vaddq_u32(x0, vdupq_n_u32(st[0]));
	x1 = vaddq_u32(x1, vdupq_n_u32(st[1]));
	x2 = vaddq_u32(x2, vdupq_n_u32(st[2]));
	x3 = vaddq_u32(x3, vdupq_n_u32(st[3]));
	transpose_xor(dst, src, 0, x0, x1, x2, x3);
	x4 = vaddq_u32(x4, vdupq_n_u32(st[4]));
	x5 = vaddq_u32(x5, vdupq_n_u32(st[5]));
	x6 = vaddq_u32(x6, vdupq_n_u32(st[6]));
	x7 = vaddq_u32(x7, vdupq_n_u32(st[7]));
	transpose_xor(dst, src, 16, x4, x5, x6, x7);
	x8 = vaddq_u32(x8, vdupq_n_u32(st[8]));
	x9 = vaddq_u32(x9, vdupq_n_u32(st[9]));
	x10 = vaddq_u32(x10, vdupq_n_u32(st[10]));
	x11 = vaddq_u32(x11, vdupq_n_u32(st[11]));
	transpose_xor(dst, src, 32, x8, x9, x10, x11);
	x12 = vaddq_u32(x12, vaddq_u32(vdupq_n_u32(st[12]), lanes));
	x13 = vaddq_u32(x13, vdupq_n_u32(st[13]));
	x14 = vaddq_u32(x14, vdupq_n_u32(st[14]));
	x15 = vaddq_u32(x15, vdupq_n_u32(st[15]));
	transpose_xor(dst, src, 48, x12, x13, x14, x15);
}
#else
/*
 * AArch32: the same pass in assembly (chacha-neon-core-arm32.S), where
 * the intrinsics' 16 state vectors spilled
 */
void chacha_neon_4blocks_arm32(const uint32_t st[16], uint8_t *dst,
			       const uint8_t *src, unsigned int nrounds);
#define chacha_4blocks chacha_neon_4blocks_arm32
#endif

/* 1 block (64 bytes) from st's counter, rows; st unchanged */
static void chacha_1block(const uint32_t st[16], uint8_t *dst,
			  const uint8_t *src, unsigned int nrounds)
{
	const uint32x4_t r0 = vld1q_u32(st), r1 = vld1q_u32(st + 4);
	const uint32x4_t r2 = vld1q_u32(st + 8), r3 = vld1q_u32(st + 12);
	uint32x4_t a = r0, b = r1, c = r2, d = r3;
	ROT8_DECL;

	for (unsigned int i = 0; i < nrounds; i += 2) {
		QR(a, b, c, d);
		/* diagonals to columns: rows 1..3 turn left by 1..3 words */
		b = vextq_u32(b, b, 1);
		c = vextq_u32(c, c, 2);
		d = vextq_u32(d, d, 3);
		QR(a, b, c, d);
		b = vextq_u32(b, b, 3);
		c = vextq_u32(c, c, 2);
		d = vextq_u32(d, d, 1);
	}
	xor_store(dst, src, vaddq_u32(a, r0));
	xor_store(dst + 16, src + 16, vaddq_u32(b, r1));
	xor_store(dst + 32, src + 32, vaddq_u32(c, r2));
	xor_store(dst + 48, src + 48, vaddq_u32(d, r3));
}

/* clearing that the compiler may not drop: the copy held key stream */
static void wipe_stack_copy(uint8_t *p, size_t n)
{
	memset(p, 0, n);
	__asm__ volatile("" : : "r"(p) : "memory");
}

void chacha_neon_xor(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		     size_t len, unsigned int nrounds)
{
	uint8_t buf[CHACHA_NEON_GROUP_BYTES];

	for (; len >= CHACHA_NEON_GROUP_BYTES; len -= CHACHA_NEON_GROUP_BYTES,
	     dst += CHACHA_NEON_GROUP_BYTES, src += CHACHA_NEON_GROUP_BYTES) {
		chacha_4blocks(state, dst, src, nrounds);
		state[12] += 4;
	}
	if (len > 64) {
		/* 2 to 4 blocks started: one 4-block pass on a stack copy */
		memcpy(buf, src, len);
		memset(buf + len, 0, sizeof(buf) - len);
		chacha_4blocks(state, buf, buf, nrounds);
		memcpy(dst, buf, len);
		wipe_stack_copy(buf, sizeof(buf));
		state[12] += (uint32_t)((len + 63) / 64);
	} else if (len == 64) {
		chacha_1block(state, dst, src, nrounds);
		state[12] += 1;
	} else if (len) {
		memcpy(buf, src, len);
		memset(buf + len, 0, 64 - len);
		chacha_1block(state, buf, buf, nrounds);
		memcpy(dst, buf, len);
		wipe_stack_copy(buf, 64);
		state[12] += 1;
	}
}
