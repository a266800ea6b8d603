/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 with SSSE3 (built with -mssse3), 128-bit vectors: 8 blocks as
 * two interleaved 4-block groups (vertical layout, chacha20-x86-core.h),
 * 4 blocks for a rest of up to 256 bytes, 1 block row-wise for up to 64.
 * Rotations by 16 and 8 are one byte shuffle (PSHUFB), by 12 and 7 two
 * shifts and an OR. See chacha20-x86.h.
 */
#include <tmmintrin.h>

#include "crypto/arch/x86/chacha20-x86.h"
#include "crypto/arch/x86/chacha20-x86-core.h"
#include "crypto/chacha20poly1305/chacha20.h"

typedef __m128i Xvec;

#define X_ADD(a, b) _mm_add_epi32((a), (b))
#define X_XOR(a, b) _mm_xor_si128((a), (b))
#define X_ROLN(v, n) _mm_or_si128(_mm_slli_epi32((v), (n)), _mm_srli_epi32((v), 32 - (n)))
#define X_ROL16(v) _mm_shuffle_epi8((v), rot16)
#define X_ROL12(v) X_ROLN((v), 12)
#define X_ROL8(v) _mm_shuffle_epi8((v), rot8)
#define X_ROL7(v) X_ROLN((v), 7)
#define X_SHUF(v, imm) _mm_shuffle_epi32((v), (imm))
#define X_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define X_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define X_BCAST(w) _mm_set1_epi32((int)(w))
/* block counter offsets of the lanes, first and second 4-block group */
#define X_LANES0 _mm_setr_epi32(0, 1, 2, 3)
#define X_LANES1 _mm_setr_epi32(4, 5, 6, 7)
#define X_XOR_STORE(off, v) X_STORE(dst + (off), X_XOR(X_LOAD(src + (off)), (v)))

/* PSHUFB masks: byte i of each word takes byte mask[i] (rotate left 16, 8) */
#define X_MASKS                                                              \
	const Xvec rot16 = _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, \
					 14, 15, 12, 13);                     \
	const Xvec rot8 = _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,  \
					15, 12, 13, 14)

/*
 * Words 4g..4g+3 of blocks 0..3 (a..d, one block per lane) to rows of
 * blocks: after the transpose, vector j holds block j's words 4g..4g+3.
 */
#define X_TRANSPOSE_STORE(a, b, c, d, off)                                   \
	do {                                                                 \
		Xvec t0 = _mm_unpacklo_epi32(a, b), t1 = _mm_unpackhi_epi32(a, b); \
		Xvec t2 = _mm_unpacklo_epi32(c, d), t3 = _mm_unpackhi_epi32(c, d); \
		X_XOR_STORE((off) + 0 * 64, _mm_unpacklo_epi64(t0, t2));    \
		X_XOR_STORE((off) + 1 * 64, _mm_unpackhi_epi64(t0, t2));    \
		X_XOR_STORE((off) + 2 * 64, _mm_unpacklo_epi64(t1, t3));    \
		X_XOR_STORE((off) + 3 * 64, _mm_unpackhi_epi64(t1, t3));    \
	} while (0)

/* feed-forward, transpose and XOR of the 4 blocks in x at dst/src + off */
#define X_FINISH4(x, st, lanes, off)                                         \
	do {                                                                 \
		CHACHA_VERTICAL_ADD(X, x, st, lanes);                        \
		X_TRANSPOSE_STORE(x##0, x##1, x##2, x##3, (off) + 0);        \
		X_TRANSPOSE_STORE(x##4, x##5, x##6, x##7, (off) + 16);       \
		X_TRANSPOSE_STORE(x##8, x##9, x##10, x##11, (off) + 32);     \
		X_TRANSPOSE_STORE(x##12, x##13, x##14, x##15, (off) + 48);   \
	} while (0)

/* 4 blocks (256 bytes), vertical */
static void chacha_4blocks(const uint32_t st[16], uint8_t *dst,
			   const uint8_t *src, unsigned int nrounds)
{
	X_MASKS;
	CHACHA_VERTICAL_INIT(X, x, st, X_LANES0);

	for (unsigned int i = 0; i < nrounds; i += 2)
		CHACHA_DOUBLEROUND_VERTICAL(X, x);
	X_FINISH4(x, st, X_LANES0, 0);
}

/* 8 blocks (512 bytes): two 4-block groups interleaved */
static void chacha_8blocks(const uint32_t st[16], uint8_t *dst,
			   const uint8_t *src, unsigned int nrounds)
{
	X_MASKS;
	CHACHA_VERTICAL_INIT(X, x, st, X_LANES0);
	CHACHA_VERTICAL_INIT(X, y, st, X_LANES1);

	for (unsigned int i = 0; i < nrounds; i += 2) {
		CHACHA_DOUBLEROUND_VERTICAL(X, x);
		CHACHA_DOUBLEROUND_VERTICAL(X, y);
	}
	X_FINISH4(x, st, X_LANES0, 0);
	X_FINISH4(y, st, X_LANES1, 256);
}

/* 1 block (64 bytes), rows */
static void chacha_1block(const uint32_t st[16], uint8_t *dst,
			  const uint8_t *src, unsigned int nrounds)
{
	X_MASKS;
	const Xvec r0 = X_LOAD(st), r1 = X_LOAD(st + 4);
	const Xvec r2 = X_LOAD(st + 8), r3 = X_LOAD(st + 12);
	Xvec a = r0, b = r1, c = r2, d = r3;

	for (unsigned int i = 0; i < nrounds; i += 2)
		CHACHA_DOUBLEROUND_ROWS(X, a, b, c, d);

	X_XOR_STORE(0, X_ADD(a, r0));
	X_XOR_STORE(16, X_ADD(b, r1));
	X_XOR_STORE(32, X_ADD(c, r2));
	X_XOR_STORE(48, X_ADD(d, r3));
}

/* HChaCha, rows (chacha20-x86-core.h): see chacha20-x86.h */
void hchacha_ssse3(uint8_t out[32], const struct chacha20_key *key,
		   const uint8_t nonce[16], unsigned int nrounds)
{
	X_MASKS;
	CHACHA_HCHACHA_ROWS(X, CHACHA_DOUBLEROUND_ROWS, out, key, nonce, nrounds);
}

/*
 * Whole 8-block groups, then the rest through the narrowest core that
 * takes it in one pass (on a stack copy when it is not a whole group).
 */
void chacha_xor_ssse3(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		      size_t len, unsigned int nrounds)
{
	for (; len >= 512; len -= 512, dst += 512, src += 512) {
		chacha_8blocks(state, dst, src, nrounds);
		state[12] += 8;
	}
	if (len > 256) {
		chacha_partial_group(chacha_8blocks, 512, state, dst, src, len,
				     nrounds);
	} else if (len == 256) {
		chacha_4blocks(state, dst, src, nrounds);
		state[12] += 4;
	} else if (len > 64) {
		chacha_partial_group(chacha_4blocks, 256, state, dst, src, len,
				     nrounds);
	} else if (len == 64) {
		chacha_1block(state, dst, src, nrounds);
		state[12] += 1;
	} else if (len) {
		chacha_partial_group(chacha_1block, 64, state, dst, src, len,
				     nrounds);
	}
}

void chacha20_xor_ssse3(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t len)
{
	chacha_xor_ssse3(state, dst, src, len, CHACHA20_ROUNDS);
}
