/* SPDX-License-Identifier: MIT */
/*
 * ChaCha round structure shared by chacha20-{ssse3,avx2,avx512}.c
 * (internal to those files; entry points in chacha20-x86.h). The cores
 * take the round count (even) and loop over double rounds, so ChaCha12
 * runs the code ChaCha20 does: the loop counter costs nothing next to a
 * double round (ChaCha20 measured unchanged, docs/performance.md).
 *
 * Technique (M. Willi's kernel design, arch/x86/crypto/chacha-avx2-x86_64.S
 * and chacha-avx512vl-x86_64.S, 2018; read for ideas only):
 *  - "vertical": vector k holds state word k of N consecutive blocks, one
 *    block per 32-bit lane, so a quarter round is 12 vector ops on N blocks
 *    and no shuffles are needed between rounds; the block counter word
 *    gets +0..N-1 per lane. At the end a 4x4 transpose of 32-bit words
 *    inside each 128-bit lane, then of 128-bit lanes, turns words-by-block
 *    into blocks of 64 contiguous bytes for the XOR with the input;
 *  - "rows": one block per 128-bit lane, one vector per row of the matrix;
 *    the diagonal round is the column round after rotating rows 1..3 by
 *    1..3 words (PSHUFD). Latency bound, so it is used only for tails.
 *
 * The including file defines, for each vector width P in {X, Y, Z} it
 * uses: the type P##vec, P##_ADD (32-bit lanes), P##_XOR, P##_ROL16,
 * P##_ROL12, P##_ROL8, P##_ROL7, P##_BCAST (a word in every lane) and
 * P##_SHUF (PSHUFD with an immediate). Defining CHACHA_WANT_YMM (and
 * CHACHA_WANT_YMM_ROWS) before the include adds the 256-bit cores below,
 * which need only Y_ROL* and CHACHA_YMM_MASKS.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_CHACHA20_X86_CORE_H
#define CLOAKFS_CRYPTO_ARCH_X86_CHACHA20_X86_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>


#define CHACHA_QR(P, a, b, c, d)                     \
	do {                                         \
		a = P##_ADD(a, b);                   \
		d = P##_ROL16(P##_XOR(d, a));        \
		c = P##_ADD(c, d);                   \
		b = P##_ROL12(P##_XOR(b, c));        \
		a = P##_ADD(a, b);                   \
		d = P##_ROL8(P##_XOR(d, a));         \
		c = P##_ADD(c, d);                   \
		b = P##_ROL7(P##_XOR(b, c));         \
	} while (0)

/* one column round and one diagonal round on x0..x15 (vertical layout) */
#define CHACHA_DOUBLEROUND_VERTICAL(P, x)                         \
	do {                                                      \
		CHACHA_QR(P, x##0, x##4, x##8, x##12);            \
		CHACHA_QR(P, x##1, x##5, x##9, x##13);            \
		CHACHA_QR(P, x##2, x##6, x##10, x##14);           \
		CHACHA_QR(P, x##3, x##7, x##11, x##15);           \
		CHACHA_QR(P, x##0, x##5, x##10, x##15);           \
		CHACHA_QR(P, x##1, x##6, x##11, x##12);           \
		CHACHA_QR(P, x##2, x##7, x##8, x##13);            \
		CHACHA_QR(P, x##3, x##4, x##9, x##14);            \
	} while (0)

/* x0..x15 = the state words broadcast, the counter + lanes (offsets) */
#define CHACHA_VERTICAL_INIT(P, x, st, lanes)                                \
	P##vec x##0 = P##_BCAST((st)[0]), x##1 = P##_BCAST((st)[1]);          \
	P##vec x##2 = P##_BCAST((st)[2]), x##3 = P##_BCAST((st)[3]);          \
	P##vec x##4 = P##_BCAST((st)[4]), x##5 = P##_BCAST((st)[5]);          \
	P##vec x##6 = P##_BCAST((st)[6]), x##7 = P##_BCAST((st)[7]);          \
	P##vec x##8 = P##_BCAST((st)[8]), x##9 = P##_BCAST((st)[9]);          \
	P##vec x##10 = P##_BCAST((st)[10]), x##11 = P##_BCAST((st)[11]);      \
	P##vec x##12 = P##_ADD(P##_BCAST((st)[12]), (lanes));                 \
	P##vec x##13 = P##_BCAST((st)[13]);                                   \
	P##vec x##14 = P##_BCAST((st)[14]), x##15 = P##_BCAST((st)[15])

/*
 * A pointer the compiler cannot see through: the feed-forward reloads the
 * input words from memory instead of keeping 16 broadcasts live across
 * the rounds, which would push round state out to the stack.
 */
static inline const uint32_t *chacha_launder(const uint32_t *p)
{
	__asm__("" : "+r"(p));
	return p;
}

/* the feed-forward: x += input state (x12 += its counter, + lane offsets) */
#define CHACHA_VERTICAL_ADD(P, x, st, lanes)                                 \
	do {                                                                 \
		const uint32_t *in_ = chacha_launder(st);                    \
		x##0 = P##_ADD(x##0, P##_BCAST(in_[0]));                   \
		x##1 = P##_ADD(x##1, P##_BCAST(in_[1]));                   \
		x##2 = P##_ADD(x##2, P##_BCAST(in_[2]));                   \
		x##3 = P##_ADD(x##3, P##_BCAST(in_[3]));                   \
		x##4 = P##_ADD(x##4, P##_BCAST(in_[4]));                   \
		x##5 = P##_ADD(x##5, P##_BCAST(in_[5]));                   \
		x##6 = P##_ADD(x##6, P##_BCAST(in_[6]));                   \
		x##7 = P##_ADD(x##7, P##_BCAST(in_[7]));                   \
		x##8 = P##_ADD(x##8, P##_BCAST(in_[8]));                   \
		x##9 = P##_ADD(x##9, P##_BCAST(in_[9]));                   \
		x##10 = P##_ADD(x##10, P##_BCAST(in_[10]));                \
		x##11 = P##_ADD(x##11, P##_BCAST(in_[11]));                \
		x##12 = P##_ADD(x##12, P##_ADD(P##_BCAST(in_[12]), (lanes))); \
		x##13 = P##_ADD(x##13, P##_BCAST(in_[13]));                \
		x##14 = P##_ADD(x##14, P##_BCAST(in_[14]));                \
		x##15 = P##_ADD(x##15, P##_BCAST(in_[15]));                \
	} while (0)

/*
 * One more width, S, defined here: one block as 16 scalar words (general-purpose
 * registers), in the vertical layout with a single lane, for a block
 * beside a vector pass: its rounds go to the integer ALUs, which the
 * vector rounds leave idle, where a row-wise block in vector registers
 * takes slots of the pipes the pass is bound by.
 */
typedef uint32_t Svec;
#define S_ADD(a, b) ((uint32_t)((a) + (b)))
#define S_XOR(a, b) ((a) ^ (b))
#define S_ROLN(v, n) ((uint32_t)(((v) << (n)) | ((v) >> (32 - (n)))))
#define S_ROL16(v) S_ROLN((v), 16)
#define S_ROL12(v) S_ROLN((v), 12)
#define S_ROL8(v) S_ROLN((v), 8)
#define S_ROL7(v) S_ROLN((v), 7)
#define S_BCAST(w) ((uint32_t)(w))

/* the 16 words x0..x15 of an S block at p (64 bytes; x86 is little-endian) */
#define CHACHA_STORE_WORDS(p, x)                                             \
	do {                                                                 \
		const uint32_t w_[16] = { x##0, x##1, x##2,  x##3,           \
					  x##4, x##5, x##6,  x##7,           \
					  x##8, x##9, x##10, x##11,          \
					  x##12, x##13, x##14, x##15 };      \
		memcpy((p), w_, sizeof(w_));                                 \
	} while (0)

/*
 * Row layout: a..d are rows 0..3. Before the diagonal round row 0 turns
 * right by one word (0x93), row 2 left by one (0x39), row 3 by two
 * (0x4e), so that the diagonals line up as columns; afterwards they turn
 * back. Row 1 stays: it is the last row a quarter round computes and the
 * first the next one reads, so a shuffle of it would wait on the chain,
 * while rows 0, 2 and 3 are ready a step or more earlier.
 */
#define CHACHA_DOUBLEROUND_ROWS(P, a, b, c, d)            \
	do {                                              \
		CHACHA_QR(P, a, b, c, d);                 \
		a = P##_SHUF(a, 0x93);                    \
		c = P##_SHUF(c, 0x39);                    \
		d = P##_SHUF(d, 0x4e);                    \
		CHACHA_QR(P, a, b, c, d);                 \
		a = P##_SHUF(a, 0x39);                    \
		c = P##_SHUF(c, 0x93);                    \
		d = P##_SHUF(d, 0x4e);                    \
	} while (0)

/*
 * HChaCha (chacha.h's hchacha_fn) on one block held as rows, with the
 * including file's double round (DR: CHACHA_DOUBLEROUND_ROWS or a faster
 * one of the same shape): no feed-forward; rows 0 and 3 are the subkey
 * (x86 is little-endian: the words store as the key's bytes). The key's
 * words are struct chacha20_key's k[8], loaded as two rows.
 */
#define CHACHA_HCHACHA_ROWS(P, DR, out, key, nonce, nrounds)                 \
	do {                                                                 \
		P##vec a_ = _mm_setr_epi32(0x61707865, 0x3320646e,           \
					   0x79622d32, 0x6b206574);          \
		P##vec b_ = P##_LOAD((key)->k), c_ = P##_LOAD((key)->k + 4); \
		P##vec d_ = P##_LOAD(nonce);                                 \
									     \
		for (unsigned int i_ = 0; i_ < (nrounds); i_ += 2)           \
			DR(P, a_, b_, c_, d_);                               \
		P##_STORE(out, a_);                                          \
		P##_STORE((out) + 16, d_);                                   \
	} while (0)

/*
 * A core: group_bytes of keystream of nrounds rounds (even) from st's
 * counter XORed in; st unchanged.
 */
typedef void chacha_group_fn(const uint32_t st[16], uint8_t *dst,
			     const uint8_t *src, unsigned int nrounds);

#define CHACHA_MAX_GROUP_BYTES 2048

/*
 * The last, partial group (0 < len < group_bytes) through a stack copy:
 * the core always writes whole groups. The copy holds message bytes and
 * keystream, so it is wiped.
 */
static inline void chacha_partial_group(chacha_group_fn *fn, size_t group_bytes,
					uint32_t st[16], uint8_t *dst,
					const uint8_t *src, size_t len,
					unsigned int nrounds)
{
	_Alignas(64) uint8_t buf[CHACHA_MAX_GROUP_BYTES];

	memcpy(buf, src, len);
	memset(buf + len, 0, group_bytes - len);
	fn(st, buf, buf, nrounds);
	memcpy(dst, buf, len);
	explicit_bzero(buf, group_bytes);
	st[12] += (uint32_t)((len + 63) / 64);
}

#ifdef CHACHA_WANT_YMM
/*
 * 256-bit cores, shared by the AVX2 file and any other that wants them.
 * Needs <immintrin.h> and Y_ROL16/12/8/7, which may use the locals that
 * CHACHA_YMM_MASKS declares (PSHUFB masks).
 */
typedef __m256i Yvec;

#define Y_ADD(a, b) _mm256_add_epi32((a), (b))
#define Y_XOR(a, b) _mm256_xor_si256((a), (b))
#define Y_SHUF(v, imm) _mm256_shuffle_epi32((v), (imm))
#define Y_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define Y_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define Y_BCAST(w) _mm256_set1_epi32((int)(w))
#define Y_XOR_STORE(off, v) Y_STORE(dst + (off), Y_XOR(Y_LOAD(src + (off)), (v)))

#define Y_ROT16_MASK                                                       \
	_mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, \
			 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
#define Y_ROT8_MASK                                                        \
	_mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, \
			 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14)

/*
 * In-lane 4x4 transpose of words 4g..4g+3 (a..d) of blocks 0..3 (low
 * lane) and 4..7 (high lane): o0..o3 hold blocks (0|4), (1|5), (2|6), (3|7).
 */
#define Y_TRANSPOSE4(a, b, c, d, o0, o1, o2, o3)                             \
	do {                                                                 \
		Yvec t0 = _mm256_unpacklo_epi32(a, b), t1 = _mm256_unpackhi_epi32(a, b); \
		Yvec t2 = _mm256_unpacklo_epi32(c, d), t3 = _mm256_unpackhi_epi32(c, d); \
		o0 = _mm256_unpacklo_epi64(t0, t2);                          \
		o1 = _mm256_unpackhi_epi64(t0, t2);                          \
		o2 = _mm256_unpacklo_epi64(t1, t3);                          \
		o3 = _mm256_unpackhi_epi64(t1, t3);                          \
	} while (0)

/*
 * lo holds words 4g.. of blocks (b | b+4), hi words 4g+4..: their low
 * lanes are 32 contiguous bytes of block b, their high lanes of block b+4.
 */
#define Y_STORE_HALVES(lo, hi, off)                                          \
	do {                                                                 \
		Y_XOR_STORE((off), _mm256_permute2x128_si256(lo, hi, 0x20)); \
		Y_XOR_STORE((off) + 4 * 64, _mm256_permute2x128_si256(lo, hi, 0x31)); \
	} while (0)

/* feed-forward, transpose and XOR of the 8 blocks in x, at dst/src + off */
#define Y_FINISH8(x, st, lanes, off)                                         \
	do {                                                                 \
		Yvec a0, a1, a2, a3, b0, b1, b2, b3;                         \
		CHACHA_VERTICAL_ADD(Y, x, st, lanes);                        \
		Y_TRANSPOSE4(x##0, x##1, x##2, x##3, a0, a1, a2, a3);        \
		Y_TRANSPOSE4(x##4, x##5, x##6, x##7, b0, b1, b2, b3);        \
		Y_STORE_HALVES(a0, b0, (off) + 0 * 64);                      \
		Y_STORE_HALVES(a1, b1, (off) + 1 * 64);                      \
		Y_STORE_HALVES(a2, b2, (off) + 2 * 64);                      \
		Y_STORE_HALVES(a3, b3, (off) + 3 * 64);                      \
		Y_TRANSPOSE4(x##8, x##9, x##10, x##11, a0, a1, a2, a3);      \
		Y_TRANSPOSE4(x##12, x##13, x##14, x##15, b0, b1, b2, b3);    \
		Y_STORE_HALVES(a0, b0, (off) + 0 * 64 + 32);                 \
		Y_STORE_HALVES(a1, b1, (off) + 1 * 64 + 32);                 \
		Y_STORE_HALVES(a2, b2, (off) + 2 * 64 + 32);                 \
		Y_STORE_HALVES(a3, b3, (off) + 3 * 64 + 32);                 \
	} while (0)

/* block counter offsets of the lanes, first and second 8-block group */
#define Y_LANES0 _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define Y_LANES1 _mm256_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15)

/* 8 blocks (512 bytes), vertical */
static void chacha_8blocks_ymm(const uint32_t st[16], uint8_t *dst,
			       const uint8_t *src, unsigned int nrounds)
{
	CHACHA_YMM_MASKS
	CHACHA_VERTICAL_INIT(Y, x, st, Y_LANES0);

	for (unsigned int i = 0; i < nrounds; i += 2)
		CHACHA_DOUBLEROUND_VERTICAL(Y, x);
	Y_FINISH8(x, st, Y_LANES0, 0);
}

/*
 * 16 blocks (1024 bytes): two independent 8-block groups, so that the
 * rounds of one fill the latency of the other's dependency chains.
 */
static void chacha_16blocks_ymm(const uint32_t st[16], uint8_t *dst,
				const uint8_t *src, unsigned int nrounds)
{
	CHACHA_YMM_MASKS
	CHACHA_VERTICAL_INIT(Y, x, st, Y_LANES0);
	CHACHA_VERTICAL_INIT(Y, y, st, Y_LANES1);

	for (unsigned int i = 0; i < nrounds; i += 2) {
		CHACHA_DOUBLEROUND_VERTICAL(Y, x);
		CHACHA_DOUBLEROUND_VERTICAL(Y, y);
	}
	Y_FINISH8(x, st, Y_LANES0, 0);
	Y_FINISH8(y, st, Y_LANES1, 512);
}

#ifdef CHACHA_WANT_YMM_ROWS
/* 2 blocks (128 bytes), rows: block 0 in the low lanes, block 1 high */
static void chacha_2blocks_ymm(const uint32_t st[16], uint8_t *dst,
			       const uint8_t *src, unsigned int nrounds)
{
	CHACHA_YMM_MASKS
	const Yvec r0 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)st));
	const Yvec r1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(st + 4)));
	const Yvec r2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(st + 8)));
	const Yvec r3 = Y_ADD(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(st + 12))),
			      _mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
	Yvec a = r0, b = r1, c = r2, d = r3;

	for (unsigned int i = 0; i < nrounds; i += 2)
		CHACHA_DOUBLEROUND_ROWS(Y, a, b, c, d);

	a = Y_ADD(a, r0);
	b = Y_ADD(b, r1);
	c = Y_ADD(c, r2);
	d = Y_ADD(d, r3);
	Y_XOR_STORE(0, _mm256_permute2x128_si256(a, b, 0x20));
	Y_XOR_STORE(32, _mm256_permute2x128_si256(c, d, 0x20));
	Y_XOR_STORE(64, _mm256_permute2x128_si256(a, b, 0x31));
	Y_XOR_STORE(96, _mm256_permute2x128_si256(c, d, 0x31));
}
#endif /* CHACHA_WANT_YMM_ROWS */
#endif /* CHACHA_WANT_YMM */

#endif
