// SPDX-License-Identifier: MIT
/*
 * SHA-512 block function with the x86 SHA512 instructions (VSHA512RNDS2,
 * VSHA512MSG1, VSHA512MSG2; CPUID.(EAX=7,ECX=1):EAX[0], Arrow Lake and
 * Lunar Lake and later): the sha512-ni driver (glue
 * sha512-x86-glue.c). Built only where the compiler has
 * their intrinsics (GCC 14, clang 18: -msha512; crypto/arch/x86/meson.build)
 * and used only where the CPU reports them. The machine this was written
 * on has neither (GCC 12, AMD Zen 5), so tests/crypto/test_sha512_ni_emul
 * runs this very file with the three instructions emulated in C from
 * Intel's pseudo-code (CLOAKFS_SHA512_NI_EMULATE) against the generic C.
 *
 * Technique, the qword analogue of SHA-NI's SHA-256: the state in two
 * ymm registers, (F, E, B, A) and (H, G, D, C) from qword 0 up;
 * VSHA512RNDS2 does two rounds from the low two qwords of W + K and
 * returns the new (F, E, B, A), the old one being the new (H, G, D, C), so
 * the two registers swap roles every two rounds. The schedule takes four
 * words a step: MSG1 adds sigma0(W[t+1..t+4]) to W[t..t+3], then
 * W[t+9..t+12] (a blend and a qword permute of two registers), and MSG2
 * adds sigma1 of the newest words in order.
 *
 * Constant time: the instructions take the same time whatever the data.
 */
#include <immintrin.h>

#include "crypto/arch/x86/sha512-x86.h"
#include "crypto/sha512/sha512.h"

#ifndef CLOAKFS_SHA512_NI_EMULATE
#define sha512_rnds2 _mm256_sha512rnds2_epi64
#define sha512_msg1 _mm256_sha512msg1_epi64
#define sha512_msg2 _mm256_sha512msg2_epi64
#define SHA512_NI_FN sha512_blocks_ni
#endif

/* W[t+16..t+19] from the four registers of W[t..t+15], x0 first */
static inline __m256i schedule4(__m256i x0, __m256i x1, __m256i x2, __m256i x3)
{
	/* (W[t+9], W[t+10], W[t+11], W[t+12]) */
	__m256i w9 = _mm256_permute4x64_epi64(_mm256_blend_epi32(x2, x3, 0x03), 0x39);

	x0 = sha512_msg1(x0, _mm256_castsi256_si128(x1));
	return sha512_msg2(_mm256_add_epi64(x0, w9), x3);
}

/* four rounds from W[t..t+3] in x: s0 = (F, E, B, A), s1 = (H, G, D, C) */
#define ROUNDS4(x, t)                                                         \
	do {                                                                  \
		__m256i wk = _mm256_add_epi64((x),                           \
			_mm256_loadu_si256((const __m256i *)(sha512_k + (t)))); \
		s1 = sha512_rnds2(s1, s0, _mm256_castsi256_si128(wk));       \
		s0 = sha512_rnds2(s0, s1, _mm256_extracti128_si256(wk, 1));  \
	} while (0)

void SHA512_NI_FN(uint64_t h[8], const uint8_t *data, size_t nblocks)
{
	const __m256i bswap = _mm256_setr_epi8(
		7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
		7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
	/* (a, b, c, d), (e, f, g, h) -> (f, e, b, a), (h, g, d, c) */
	__m256i t0 = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)h), 0x1b);
	__m256i t1 = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(h + 4)), 0x1b);
	__m256i s0 = _mm256_permute2x128_si256(t1, t0, 0x31);
	__m256i s1 = _mm256_permute2x128_si256(t1, t0, 0x20);

	while (nblocks--) {
		__m256i x0, x1, x2, x3, save0 = s0, save1 = s1;

		x0 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)data), bswap);
		x1 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(data + 32)), bswap);
		x2 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(data + 64)), bswap);
		x3 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(data + 96)), bswap);
		for (int t = 0; t < 64; t += 16) {
			ROUNDS4(x0, t);
			x0 = schedule4(x0, x1, x2, x3);
			ROUNDS4(x1, t + 4);
			x1 = schedule4(x1, x2, x3, x0);
			ROUNDS4(x2, t + 8);
			x2 = schedule4(x2, x3, x0, x1);
			ROUNDS4(x3, t + 12);
			x3 = schedule4(x3, x0, x1, x2);
		}
		ROUNDS4(x0, 64);
		ROUNDS4(x1, 68);
		ROUNDS4(x2, 72);
		ROUNDS4(x3, 76);
		s0 = _mm256_add_epi64(s0, save0);
		s1 = _mm256_add_epi64(s1, save1);
		data += 128;
	}
	/* back to (a, b, c, d), (e, f, g, h) */
	t0 = _mm256_permute2x128_si256(s0, s1, 0x31); /* (b, a, d, c) */
	t1 = _mm256_permute2x128_si256(s0, s1, 0x20); /* (f, e, h, g) */
	_mm256_storeu_si256((__m256i *)h, _mm256_permute4x64_epi64(t0, 0xb1));
	_mm256_storeu_si256((__m256i *)(h + 4), _mm256_permute4x64_epi64(t1, 0xb1));
}
