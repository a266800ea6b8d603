/* SPDX-License-Identifier: MIT */
/*
 * ChaCha on NEON (RFC 8439's block function, rounds a multiple of 4),
 * for AArch64 and ARMv7 AArch32 (meson builds this file alone with
 * -mfpu=neon on AArch32). See chacha-neon.h.
 *
 * Two layouts (the one the x86 cores use, chacha20-x86-core.h):
 *  - vertical, 4 blocks: vector k holds state word k of four consecutive
 *    blocks, one block per 32-bit lane, so a quarter round runs on 4
 *    blocks with no shuffles between rounds; at the end a 4x4 word
 *    transpose turns words-by-block into 16-byte rows of each block for
 *    the XOR with the input. In assembly, one file per target
 *    (chacha-neon-core-arm64.S, chacha-neon-core-arm32.S): the compiler's
 *    intrinsics spent 10% (AArch64) and 25% (AArch32, spills) more a
 *    double round;
 *  - rows, 1 block, intrinsics here: one vector per row of the matrix;
 *    the diagonal round is the column round after turning rows 1..3 left
 *    by 1..3 words (vext). It serves the last block of a message.
 * Rotations: by 16 one vrev32.16; by 8 one tbl on AArch64; otherwise a
 * shift right and a shift-left-and-insert (vsri's mirror, vsli).
 */
#include <arm_neon.h>
#include <string.h>

#include "crypto/arch/arm/chacha-neon.h"
#include "crypto/chacha20poly1305/chacha.h"
#include "crypto/chacha20poly1305/chacha20.h"

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
 * 4 blocks (256 bytes) from st's counter on, vertical; st unchanged:
 * assembly for each target (chacha-neon-core-arm64.S, -arm32.S, which
 * say why)
 */
void chacha_neon_4blocks(const uint32_t st[16], uint8_t *dst,
			 const uint8_t *src, unsigned int nrounds);
#define chacha_4blocks chacha_neon_4blocks

/* nrounds rounds of the permutation on the rows x[0..3] of one block */
static inline __attribute__((always_inline)) void
chacha_rows_rounds(uint32x4_t x[4], unsigned int nrounds)
{
	uint32x4_t a = x[0], b = x[1], c = x[2], d = x[3];
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
	x[0] = a;
	x[1] = b;
	x[2] = c;
	x[3] = d;
}

/* 1 block (64 bytes) from st's counter, rows; st unchanged */
static void chacha_1block(const uint32_t st[16], uint8_t *dst,
			  const uint8_t *src, unsigned int nrounds)
{
	const uint32x4_t r0 = vld1q_u32(st), r1 = vld1q_u32(st + 4);
	const uint32x4_t r2 = vld1q_u32(st + 8), r3 = vld1q_u32(st + 12);
	uint32x4_t x[4] = { r0, r1, r2, r3 };

	chacha_rows_rounds(x, nrounds);
	uint32x4_t a = x[0], b = x[1], c = x[2], d = x[3];

	xor_store(dst, src, vaddq_u32(a, r0));
	xor_store(dst + 16, src + 16, vaddq_u32(b, r1));
	xor_store(dst + 32, src + 32, vaddq_u32(c, r2));
	xor_store(dst + 48, src + 48, vaddq_u32(d, r3));
}

void chacha_neon_hchacha(uint8_t out[CHACHA20_KEY_SIZE],
			 const struct chacha20_key *key,
			 const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			 unsigned int nrounds)
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32,
					   0x6b206574 };
	uint32x4_t x[4] = { vld1q_u32(sigma), vld1q_u32(key->k),
			    vld1q_u32(key->k + 4), load_words(nonce) };

	chacha_rows_rounds(x, nrounds);
	/* HChaCha has no feed-forward: rows 0 and 3 are the subkey */
	vst1q_u8(out, vreinterpretq_u8_u32(x[0]));
	vst1q_u8(out + 16, vreinterpretq_u8_u32(x[3]));
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
