/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 with AVX2 (built with -mavx2): 16 blocks as two interleaved
 * 8-block groups in ymm registers (vertical layout), 8 blocks for a rest
 * of up to 512 bytes, 2 blocks row-wise for up to 128; all three cores
 * are in chacha20-x86-core.h. AVX2 has no vector rotate: by 16 and 8 it
 * is one VPSHUFB, by 12 and 7 two shifts and an OR. The state vectors
 * exceed the 16 ymm registers, so the compiler keeps some on the stack,
 * as the kernel's chacha-avx2-x86_64.S does. See chacha20-x86.h.
 * chacha20_xor_block0_avx2 (for the AEAD) adds one block in scalar
 * registers to the first 16-block pass.
 */
#include <immintrin.h>

#include "crypto/arch/x86/chacha20-x86.h"

#define Y_ROLN(v, n) _mm256_or_si256(_mm256_slli_epi32((v), (n)), _mm256_srli_epi32((v), 32 - (n)))
#define Y_ROL16(v) _mm256_shuffle_epi8((v), rot16)
#define Y_ROL12(v) Y_ROLN((v), 12)
#define Y_ROL8(v) _mm256_shuffle_epi8((v), rot8)
#define Y_ROL7(v) Y_ROLN((v), 7)
#define CHACHA_YMM_MASKS const Yvec rot16 = Y_ROT16_MASK, rot8 = Y_ROT8_MASK;
#define CHACHA_WANT_YMM
#define CHACHA_WANT_YMM_ROWS
#include "crypto/arch/x86/chacha20-x86-core.h"

/*
 * Whole 16-block groups, then the rest through the narrowest core that
 * takes it in one pass (on a stack copy when it is not a whole group).
 */
void chacha_xor_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		     size_t len, unsigned int nrounds)
{
	for (; len >= 1024; len -= 1024, dst += 1024, src += 1024) {
		chacha_16blocks_ymm(state, dst, src, nrounds);
		state[12] += 16;
	}
	if (len > 512) {
		chacha_partial_group(chacha_16blocks_ymm, 1024, state, dst, src,
				     len, nrounds);
	} else if (len == 512) {
		chacha_8blocks_ymm(state, dst, src, nrounds);
		state[12] += 8;
	} else if (len > 128) {
		chacha_partial_group(chacha_8blocks_ymm, 512, state, dst, src, len,
				     nrounds);
	} else if (len == 128) {
		chacha_2blocks_ymm(state, dst, src, nrounds);
		state[12] += 2;
	} else if (len) {
		chacha_partial_group(chacha_2blocks_ymm, 128, state, dst, src, len,
				     nrounds);
	}
}

void chacha20_xor_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		       size_t len)
{
	chacha_xor_avx2(state, dst, src, len, CHACHA20_ROUNDS);
}

/*
 * 16 blocks from state[12] (vertical) and, in the same round loop, block
 * state[12] - 1 in scalar words (chacha20-x86-core.h's S width) into
 * prev (64 bytes): alone that block is one long dependency chain; beside
 * the 16 blocks it runs on the integer ALUs, which the vector rounds
 * leave idle.
 */
static void chacha_16blocks_prev_ymm(const uint32_t st[16], uint8_t *dst,
				     const uint8_t *src, uint8_t prev[64])
{
	CHACHA_YMM_MASKS
	CHACHA_VERTICAL_INIT(S, s, st, (uint32_t)-1);
	CHACHA_VERTICAL_INIT(Y, x, st, Y_LANES0);
	CHACHA_VERTICAL_INIT(Y, y, st, Y_LANES1);

	for (int i = 0; i < CHACHA20_ROUNDS; i += 2) {
		CHACHA_DOUBLEROUND_VERTICAL(Y, x);
		CHACHA_DOUBLEROUND_VERTICAL(S, s);
		CHACHA_DOUBLEROUND_VERTICAL(Y, y);
	}
	CHACHA_VERTICAL_ADD(S, s, st, (uint32_t)-1);
	CHACHA_STORE_WORDS(prev, s);
	Y_FINISH8(x, st, Y_LANES0, 0);
	Y_FINISH8(y, st, Y_LANES1, 512);
}

/*
 * chacha20_xor_avx2 from block state[12] + 1 on, and block state[12]'s
 * keystream into block0 (see chacha20-x86.h).
 */
void chacha20_xor_block0_avx2(uint32_t state[16], uint8_t block0[64],
			      uint8_t *dst, const uint8_t *src, size_t len)
{
	if (len < 1024) {
		/* one row-wise pass; the second block is not used */
		_Alignas(32) uint8_t pair[128] = { 0 };

		chacha_2blocks_ymm(state, pair, pair, CHACHA20_ROUNDS);
		memcpy(block0, pair, 64);
		explicit_bzero(pair, sizeof(pair));
		state[12] += 1;
		chacha20_xor_avx2(state, dst, src, len);
		return;
	}
	state[12] += 1;
	chacha_16blocks_prev_ymm(state, dst, src, block0);
	state[12] += 16;
	chacha20_xor_avx2(state, dst + 1024, src + 1024, len - 1024);
}
