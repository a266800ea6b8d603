/* SPDX-License-Identifier: MIT */
/*
 * NH with AVX2 (built with -mavx2): two 16-byte units per step, one per
 * 128-bit lane (the key words 4p.. on of unit i and of unit i + 1 are 8
 * contiguous words, so one unaligned load gives both lanes their key),
 * and a last odd unit in the low lane alone (nh-x86-core.h). See
 * nh-x86.h.
 */
#include <immintrin.h>

#include "crypto/arch/x86/nh-x86.h"
#include "crypto/arch/x86/nh-x86-core.h"

typedef __m256i Yvec;

#define Y_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define Y_ADD32(a, b) _mm256_add_epi32((a), (b))
#define Y_ADD64(a, b) _mm256_add_epi64((a), (b))
#define Y_MUL(a, b) _mm256_mul_epu32((a), (b))
#define Y_SRL64(v, n) _mm256_srli_epi64((v), (n))
#define Y_UNPACKLO64(a, b) _mm256_unpacklo_epi64((a), (b))
#define Y_UNPACKHI64(a, b) _mm256_unpackhi_epi64((a), (b))

void nh_avx2(const uint32_t *key, const uint8_t *msg, size_t len,
	     uint8_t hash[32])
{
	Yvec y01 = _mm256_setzero_si256(), y23 = _mm256_setzero_si256();
	Xvec acc01, acc23;

	for (; len >= 32; len -= 32, msg += 32, key += 8) {
		Yvec m = Y_LOAD(msg);

		NH_STEP(Y, y01, y23, m, key);
	}
	/* the lanes' sums added */
	acc01 = X_ADD64(_mm256_castsi256_si128(y01),
			_mm256_extracti128_si256(y01, 1));
	acc23 = X_ADD64(_mm256_castsi256_si128(y23),
			_mm256_extracti128_si256(y23, 1));
	if (len) {
		Xvec m = X_LOAD(msg);

		NH_STEP(X, acc01, acc23, m, key);
	}
	nh_store(hash, acc01, acc23);
}
