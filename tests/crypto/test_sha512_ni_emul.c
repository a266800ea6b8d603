/* SPDX-License-Identifier: MIT */
/*
 * The SHA512-instruction core (crypto/arch/x86/sha512-ni.c) where neither the
 * compiler nor the CPU has those instructions: this file defines
 * VSHA512RNDS2, VSHA512MSG1 and VSHA512MSG2 in C from the Operation
 * sections of Intel's instruction set reference (as quoted by the
 * x86 references of VSHA512MSG1/MSG2 and, for RNDS2, the qword analogue
 * of SHA256RNDS2: A = SRC2.qword[3], B = [2], E = [1], F = [0];
 * C = SRCDEST.qword[3], D = [2], G = [1], H = [0]; WK[i] = SRC3.qword[i];
 * result (A2, B2, E2, F2) in qwords 3..0), compiles the core against them
 * and compares it with sha512_blocks_generic on every block count to 9
 * and random data. It checks the core's data flow (state layout,
 * schedule, round order); only a CPU with the instructions checks the
 * emulation itself, and the driver's self-test does that there.
 * x86-64 with AVX2 only (exit 77 elsewhere).
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/crypto.h"
#include "crypto/sha512/sha512.h"
#include "testutil.h"

#if defined(__x86_64__)

#include <immintrin.h>

static inline uint64_t ror(uint64_t x, unsigned int n)
{
	return (x >> n) | (x << (64 - n));
}

#define S0(x) (ror(x, 28) ^ ror(x, 34) ^ ror(x, 39))
#define S1(x) (ror(x, 14) ^ ror(x, 18) ^ ror(x, 41))
#define s0(x) (ror(x, 1) ^ ror(x, 8) ^ ((x) >> 7))
#define s1(x) (ror(x, 19) ^ ror(x, 61) ^ ((x) >> 6))

__attribute__((target("avx2"))) static __m256i
emu_rnds2(__m256i srcdest, __m256i src2, __m128i src3)
{
	uint64_t d[4], s[4], k[2], a, b, c, dd, e, f, g, h;

	_mm256_storeu_si256((__m256i *)d, srcdest);
	_mm256_storeu_si256((__m256i *)s, src2);
	_mm_storeu_si128((__m128i *)k, src3);
	a = s[3], b = s[2], e = s[1], f = s[0];
	c = d[3], dd = d[2], g = d[1], h = d[0];
	for (int i = 0; i < 2; i++) {
		uint64_t t1 = ((e & f) ^ (~e & g)) + S1(e) + k[i] + h;
		uint64_t na = t1 + ((a & b) ^ (a & c) ^ (b & c)) + S0(a);

		h = g, g = f, f = e, e = t1 + dd;
		dd = c, c = b, b = a, a = na;
	}
	return _mm256_setr_epi64x((long long)f, (long long)e, (long long)b,
				  (long long)a);
}

__attribute__((target("avx2"))) static __m256i emu_msg1(__m256i srcdest, __m128i src1)
{
	uint64_t w[5];

	_mm256_storeu_si256((__m256i *)w, srcdest);
	w[4] = (uint64_t)_mm_cvtsi128_si64(src1);
	return _mm256_setr_epi64x((long long)(w[0] + s0(w[1])), (long long)(w[1] + s0(w[2])),
				  (long long)(w[2] + s0(w[3])), (long long)(w[3] + s0(w[4])));
}

__attribute__((target("avx2"))) static __m256i emu_msg2(__m256i srcdest, __m256i src1)
{
	uint64_t d[4], s[4], w16, w17, w18, w19;

	_mm256_storeu_si256((__m256i *)d, srcdest);
	_mm256_storeu_si256((__m256i *)s, src1);
	w16 = d[0] + s1(s[2]);
	w17 = d[1] + s1(s[3]);
	w18 = d[2] + s1(w16);
	w19 = d[3] + s1(w17);
	return _mm256_setr_epi64x((long long)w16, (long long)w17, (long long)w18,
				  (long long)w19);
}

#define CLOAKFS_SHA512_NI_EMULATE
#define sha512_rnds2 emu_rnds2
#define sha512_msg1 emu_msg1
#define sha512_msg2 emu_msg2
#define SHA512_NI_FN sha512_blocks_ni_emulated
#pragma GCC push_options
#pragma GCC target("avx2")
#include "crypto/arch/x86/sha512-ni.c"
#pragma GCC pop_options

int main(void)
{
	static uint8_t data[9 * 128];

	cpu_init(0);
	if (!cpu_has(CPU_FEAT_AVX2)) {
		printf("test_sha512_ni_emul: no AVX2, skipped\n");
		return TEST_SKIP;
	}
	test_seed();
	for (int r = 0; r < 200; r++) {
		size_t n = (size_t)(r % 9) + 1;
		uint64_t h1[8], h2[8];

		test_random_bytes(data, sizeof(data));
		test_random_bytes(h1, sizeof(h1));
		memcpy(h2, h1, sizeof(h1));
		sha512_blocks_ni_emulated(h1, data, n);
		sha512_blocks_generic(h2, data, n);
		CHECK(!memcmp(h1, h2, sizeof(h1)),
		      "emulated SHA512-instruction core differs on %zu blocks", n);
	}
	return test_finish("test_sha512_ni_emul");
}

#else

int main(void)
{
	printf("test_sha512_ni_emul: x86-64 only, skipped\n");
	return TEST_SKIP;
}

#endif
