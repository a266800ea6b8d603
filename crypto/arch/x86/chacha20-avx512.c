/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 with AVX-512F and VL (built with -mavx512f -mavx512vl):
 *  - 32 blocks as two interleaved 16-block groups: the assembly core
 *    chacha_32blocks_avx512 (chacha20-avx512-x86_64.S), which keeps all
 *    32 state vectors in registers;
 *  - 16 blocks in the vertical layout (chacha20-x86-core.h) for a rest of
 *    up to 1 KiB: VPROLD rotates in one instruction;
 *  - 4 blocks row-wise (one zmm per matrix row, one block per 128-bit
 *    lane) for up to 256 bytes;
 *  - 2 blocks row-wise in ymm for up to 128 bytes, with the rotations
 *    taken off the dependency chain (RX_QR below): ~300 cycles on Zen 4,
 *    where the 4-block zmm pass takes ~420 and a scalar block ~370. The
 *    same trick did not speed up the 4-block pass (it adds operations,
 *    and zmm ones are double-pumped on Zen 4).
 * For the AEAD: block 0 inside the first 16-block pass
 * (chacha20_xor_block0_avx512).
 * See chacha20-x86.h.
 */
#include <immintrin.h>

#include "crypto/arch/x86/chacha20-x86.h"
#include "crypto/arch/x86/chacha20-x86-core.h"
#include "crypto/chacha20poly1305/chacha20.h"

typedef __m512i Zvec;

#define Z_ADD(a, b) _mm512_add_epi32((a), (b))
#define Z_XOR(a, b) _mm512_xor_si512((a), (b))
#define Z_ROL16(v) _mm512_rol_epi32((v), 16)
#define Z_ROL12(v) _mm512_rol_epi32((v), 12)
#define Z_ROL8(v) _mm512_rol_epi32((v), 8)
#define Z_ROL7(v) _mm512_rol_epi32((v), 7)
#define Z_SHUF(v, imm) _mm512_shuffle_epi32((v), (_MM_PERM_ENUM)(imm))
#define Z_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define Z_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define Z_BCAST(w) _mm512_set1_epi32((int)(w))
#define Z_XOR_STORE(off, v) Z_STORE(dst + (off), Z_XOR(Z_LOAD(src + (off)), (v)))
#define Z_BCAST_ROW(p) _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(p)))
/* block counter offsets of the lanes */
#define Z_LANES0 \
	_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

/* in-lane 4x4 word transpose, as Y_TRANSPOSE4 but on four lanes */
#define Z_TRANSPOSE4(a, b, c, d, o0, o1, o2, o3)                             \
	do {                                                                 \
		Zvec t0 = _mm512_unpacklo_epi32(a, b), t1 = _mm512_unpackhi_epi32(a, b); \
		Zvec t2 = _mm512_unpacklo_epi32(c, d), t3 = _mm512_unpackhi_epi32(c, d); \
		o0 = _mm512_unpacklo_epi64(t0, t2);                          \
		o1 = _mm512_unpackhi_epi64(t0, t2);                          \
		o2 = _mm512_unpacklo_epi64(t1, t3);                          \
		o3 = _mm512_unpackhi_epi64(t1, t3);                          \
	} while (0)

/*
 * 4x4 transpose of 128-bit lanes: a..d hold 16-byte pieces 0..3 of four
 * blocks (block k in lane k); the output for block k is lane k of a, b, c
 * and d, 64 contiguous bytes, XORed into dst/src at off + k * step.
 */
#define Z_LANES_STORE(a, b, c, d, off, step)                                 \
	do {                                                                 \
		Zvec u0 = _mm512_shuffle_i32x4(a, b, 0x44);                  \
		Zvec u1 = _mm512_shuffle_i32x4(a, b, 0xee);                  \
		Zvec u2 = _mm512_shuffle_i32x4(c, d, 0x44);                  \
		Zvec u3 = _mm512_shuffle_i32x4(c, d, 0xee);                  \
		Z_XOR_STORE((off) + 0 * (step), _mm512_shuffle_i32x4(u0, u2, 0x88)); \
		Z_XOR_STORE((off) + 1 * (step), _mm512_shuffle_i32x4(u0, u2, 0xdd)); \
		Z_XOR_STORE((off) + 2 * (step), _mm512_shuffle_i32x4(u1, u3, 0x88)); \
		Z_XOR_STORE((off) + 3 * (step), _mm512_shuffle_i32x4(u1, u3, 0xdd)); \
	} while (0)

/*
 * Feed-forward, transpose and XOR of the 16 blocks in x at dst/src + off.
 * 128-bit lane k of x holds blocks 4k..4k+3; after the word transposes
 * p<g><j> holds words 4g..4g+3 of blocks j, 4+j, 8+j, 12+j.
 */
#define Z_FINISH16(x, st, lanes, off)                                        \
	do {                                                                 \
		Zvec p00, p01, p02, p03, p10, p11, p12, p13;                 \
		Zvec p20, p21, p22, p23, p30, p31, p32, p33;                 \
		CHACHA_VERTICAL_ADD(Z, x, st, lanes);                        \
		Z_TRANSPOSE4(x##0, x##1, x##2, x##3, p00, p01, p02, p03);    \
		Z_TRANSPOSE4(x##4, x##5, x##6, x##7, p10, p11, p12, p13);    \
		Z_TRANSPOSE4(x##8, x##9, x##10, x##11, p20, p21, p22, p23);  \
		Z_TRANSPOSE4(x##12, x##13, x##14, x##15, p30, p31, p32, p33); \
		Z_LANES_STORE(p00, p10, p20, p30, (off) + 0 * 64, 4 * 64);   \
		Z_LANES_STORE(p01, p11, p21, p31, (off) + 1 * 64, 4 * 64);   \
		Z_LANES_STORE(p02, p12, p22, p32, (off) + 2 * 64, 4 * 64);   \
		Z_LANES_STORE(p03, p13, p23, p33, (off) + 3 * 64, 4 * 64);   \
	} while (0)

/* 16 blocks (1024 bytes), vertical */
static void chacha_16blocks_zmm(const uint32_t st[16], uint8_t *dst,
				const uint8_t *src, unsigned int nrounds)
{
	CHACHA_VERTICAL_INIT(Z, x, st, Z_LANES0);

	for (unsigned int i = 0; i < nrounds; i += 2)
		CHACHA_DOUBLEROUND_VERTICAL(Z, x);
	Z_FINISH16(x, st, Z_LANES0, 0);
}

/*
 * Row-wise rounds, for the short passes, which are bound by the latency
 * of the quarter round's chain. VPROLD takes 2 cycles on Zen 4 (VPADDD
 * and VPSHUFD 1; measured on this EPYC with dependent chains), so a
 * step d = rol(d ^ a, n) costs 3. But rol(d ^ a, n) = rol(d, n) ^ (a << n)
 * ^ (a >> (32 - n)), and d is ready well before the new a: rol(d, n)
 * goes off the chain and the step is two shifts and a three-way XOR
 * (VPTERNLOGD 0x96), 2 cycles. A quarter round: 12 cycles, not 16.
 */
#define RX_QR(P, a, b, c, d)                                                 \
	do {                                                                 \
		P##vec r_ = P##_ROL(d, 16);                                  \
		a = P##_ADD(a, b);                                           \
		d = P##_XOR3(r_, P##_SLL(a, 16), P##_SRL(a, 16));            \
		r_ = P##_ROL(b, 12);                                         \
		c = P##_ADD(c, d);                                           \
		b = P##_XOR3(r_, P##_SLL(c, 12), P##_SRL(c, 20));            \
		r_ = P##_ROL(d, 8);                                          \
		a = P##_ADD(a, b);                                           \
		d = P##_XOR3(r_, P##_SLL(a, 8), P##_SRL(a, 24));             \
		r_ = P##_ROL(b, 7);                                          \
		c = P##_ADD(c, d);                                           \
		b = P##_XOR3(r_, P##_SLL(c, 7), P##_SRL(c, 25));             \
	} while (0)

/* the shuffles of CHACHA_DOUBLEROUND_ROWS, b left in place (why: there) */
#define RX_DOUBLEROUND(P, a, b, c, d)                                        \
	do {                                                                 \
		RX_QR(P, a, b, c, d);                                        \
		a = P##_SHUF(a, 0x93);                                       \
		c = P##_SHUF(c, 0x39);                                       \
		d = P##_SHUF(d, 0x4e);                                       \
		RX_QR(P, a, b, c, d);                                        \
		a = P##_SHUF(a, 0x39);                                       \
		c = P##_SHUF(c, 0x93);                                       \
		d = P##_SHUF(d, 0x4e);                                       \
	} while (0)

typedef __m256i Rvec;
#define R_ADD(a, b) _mm256_add_epi32((a), (b))
#define R_ROL(v, n) _mm256_rol_epi32((v), (n))
#define R_SLL(v, n) _mm256_slli_epi32((v), (n))
#define R_SRL(v, n) _mm256_srli_epi32((v), (n))
#define R_XOR3(a, b, c) _mm256_ternarylogic_epi32((a), (b), (c), 0x96)
#define R_SHUF(v, imm) _mm256_shuffle_epi32((v), (imm))
#define R_BCAST_ROW(p) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define R_XOR_STORE(off, v)                                                  \
	_mm256_storeu_si256((__m256i *)(void *)(dst + (off)),                \
			    _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(src + (off))), (v)))

/* 2 blocks (128 bytes), rows: block k in 128-bit lane k of a ymm */
static void chacha_2blocks_ymm(const uint32_t st[16], uint8_t *dst,
			       const uint8_t *src, unsigned int nrounds)
{
	const Rvec r0 = R_BCAST_ROW(st), r1 = R_BCAST_ROW(st + 4);
	const Rvec r2 = R_BCAST_ROW(st + 8);
	const Rvec r3 = R_ADD(R_BCAST_ROW(st + 12),
			      _mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
	Rvec a = r0, b = r1, c = r2, d = r3;

	for (unsigned int i = 0; i < nrounds; i += 2)
		RX_DOUBLEROUND(R, a, b, c, d);

	a = R_ADD(a, r0);
	b = R_ADD(b, r1);
	c = R_ADD(c, r2);
	d = R_ADD(d, r3);
	R_XOR_STORE(0, _mm256_permute2x128_si256(a, b, 0x20));
	R_XOR_STORE(32, _mm256_permute2x128_si256(c, d, 0x20));
	R_XOR_STORE(64, _mm256_permute2x128_si256(a, b, 0x31));
	R_XOR_STORE(96, _mm256_permute2x128_si256(c, d, 0x31));
}

typedef __m128i Xvec;
#define X_ADD(a, b) _mm_add_epi32((a), (b))
#define X_XOR(a, b) _mm_xor_si128((a), (b))
#define X_ROL16(v) _mm_rol_epi32((v), 16)
#define X_ROL12(v) _mm_rol_epi32((v), 12)
#define X_ROL8(v) _mm_rol_epi32((v), 8)
#define X_ROL7(v) _mm_rol_epi32((v), 7)
#define X_SHUF(v, imm) _mm_shuffle_epi32((v), (imm))
#define X_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define X_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define X_ROL(v, n) _mm_rol_epi32((v), (n))
#define X_SLL(v, n) _mm_slli_epi32((v), (n))
#define X_SRL(v, n) _mm_srli_epi32((v), (n))
#define X_XOR3(a, b, c) _mm_ternarylogic_epi32((a), (b), (c), 0x96)

/* HChaCha, rows in xmm with RX_QR's short chain: see chacha20-x86.h */
void hchacha_avx512(uint8_t out[32], const struct chacha20_key *key,
		    const uint8_t nonce[16], unsigned int nrounds)
{
	CHACHA_HCHACHA_ROWS(X, RX_DOUBLEROUND, out, key, nonce, nrounds);
}

/*
 * 16 blocks from state[12] (vertical) and, in the same round loop, block
 * state[12] - 1 in scalar words (the S width) into prev: alone that
 * block is a latency-bound chain (~300 cycles on Zen 4 for any row-wise
 * pass); next to the 16 blocks, which are bound by the vector pipes, it
 * runs on the integer ALUs. Zen 4, 4 KiB: the pass with the block costs
 * ~40 cycles more than without, ~115 with the block row-wise in xmm
 * registers (docs/performance.md). The compiler may keep a few of its
 * words on the stack, as the AVX2 core does its vectors.
 */
static void chacha_16blocks_prev_zmm(const uint32_t st[16], uint8_t *dst,
				     const uint8_t *src, uint8_t prev[64])
{
	CHACHA_VERTICAL_INIT(S, s, st, (uint32_t)-1);
	CHACHA_VERTICAL_INIT(Z, x, st, Z_LANES0);

	for (int i = 0; i < CHACHA20_ROUNDS; i += 2) {
		CHACHA_DOUBLEROUND_VERTICAL(Z, x);
		CHACHA_DOUBLEROUND_VERTICAL(S, s);
	}
	CHACHA_VERTICAL_ADD(S, s, st, (uint32_t)-1);
	CHACHA_STORE_WORDS(prev, s);
	Z_FINISH16(x, st, Z_LANES0, 0);
}

static const uint8_t pair_zero[128];

void chacha20_xor_block0_avx512(uint32_t state[16], uint8_t block0[64],
				uint8_t *dst, const uint8_t *src, size_t len)
{
	if (len < 1024) {
		_Alignas(32) uint8_t pair[128];

		chacha_2blocks_ymm(state, pair, pair_zero, CHACHA20_ROUNDS);
		memcpy(block0, pair, 64);
		explicit_bzero(pair, sizeof(pair));
		state[12] += 1;
		chacha20_xor_avx512(state, dst, src, len);
		return;
	}
	state[12] += 1;
	chacha_16blocks_prev_zmm(state, dst, src, block0);
	state[12] += 16;
	chacha20_xor_avx512(state, dst + 1024, src + 1024, len - 1024);
}

/* 4 blocks (256 bytes), rows: block k in 128-bit lane k */
static void chacha_4blocks_zmm(const uint32_t st[16], uint8_t *dst,
			       const uint8_t *src, unsigned int nrounds)
{
	const Zvec r0 = Z_BCAST_ROW(st), r1 = Z_BCAST_ROW(st + 4);
	const Zvec r2 = Z_BCAST_ROW(st + 8);
	const Zvec r3 = Z_ADD(Z_BCAST_ROW(st + 12),
			      _mm512_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
						3, 0, 0, 0));
	Zvec a = r0, b = r1, c = r2, d = r3;

	for (unsigned int i = 0; i < nrounds; i += 2)
		CHACHA_DOUBLEROUND_ROWS(Z, a, b, c, d);

	a = Z_ADD(a, r0);
	b = Z_ADD(b, r1);
	c = Z_ADD(c, r2);
	d = Z_ADD(d, r3);
	Z_LANES_STORE(a, b, c, d, 0, 64);
}

/*
 * Whole 32-block groups, then the rest through the narrowest core that
 * takes it in one pass (on a stack copy when it is not a whole group):
 * each pass costs about the same, the rounds being latency bound. A rest
 * of 5 to 8 blocks takes the AVX2 8-block pass: the 16-block zmm pass
 * costs more there on Zen 4 (512 bytes: 1.24 against 0.82 c/B with 12
 * rounds, 2,180 against 2,880 MB/s with 20; zmm instructions are
 * double-pumped).
 */
void chacha_xor_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		       size_t len, unsigned int nrounds)
{
	for (; len >= 2048; len -= 2048, dst += 2048, src += 2048) {
		chacha_32blocks_avx512(state, dst, src, nrounds);
		state[12] += 32;
	}
	if (len > 1024) {
		chacha_partial_group(chacha_32blocks_avx512, 2048, state, dst, src,
				     len, nrounds);
	} else if (len == 1024) {
		chacha_16blocks_zmm(state, dst, src, nrounds);
		state[12] += 16;
	} else if (len > 512) {
		chacha_partial_group(chacha_16blocks_zmm, 1024, state, dst, src, len,
				     nrounds);
	} else if (len > 256) {
		chacha_xor_avx2(state, dst, src, len, nrounds);
	} else if (len == 256) {
		chacha_4blocks_zmm(state, dst, src, nrounds);
		state[12] += 4;
	} else if (len > 128) {
		chacha_partial_group(chacha_4blocks_zmm, 256, state, dst, src, len,
				     nrounds);
	} else if (len == 128) {
		chacha_2blocks_ymm(state, dst, src, nrounds);
		state[12] += 2;
	} else if (len) {
		chacha_partial_group(chacha_2blocks_ymm, 128, state, dst, src, len,
				     nrounds);
	}
}

void chacha20_xor_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			 size_t len)
{
	chacha_xor_avx512(state, dst, src, len, CHACHA20_ROUNDS);
}
