// SPDX-License-Identifier: MIT
/*
 * Fused AES-GCM with VAES and VPCLMULQDQ on ymm registers, two blocks a
 * vector (the body: aes-gcm-x86-core.h; contract: aes-gcm-x86.h), for
 * CPUs with VAES but no AVX-512 (Alder Lake, Zen 3). AVX2 has no byte
 * masks: a partial vector of the tail goes through a zeroed 32-byte
 * buffer on the stack, wiped after (aes-gcm-x86-part.h); the powers of
 * H through VPMASKMOVQ.
 *
 * Built with -mvaes -mvpclmulqdq -mavx2 -maes -mpclmul
 * (crypto/arch/x86/meson.build).
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/arch/x86/polyval-x86-ymm.h"

#define GCM_ISA vaes_avx2
#define GCM_TAIL_CASES(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8)
#define V_INLINE static inline __attribute__((always_inline))

#define v_storeu(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define v_aesenc _mm256_aesenc_epi128
#define v_aesenclast _mm256_aesenclast_epi128
#define v_add32 _mm256_add_epi32
#define v_lane_dw0(n) _mm256_setr_epi32(n, 0, 0, 0, n, 0, 0, 0)
#define v_lane_index() _mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0)
#define v_clear_all _mm256_zeroall

#include "crypto/arch/x86/aes-gcm-x86-part.h"

/* bytes i >= n zeroed: a signed compare of i with n (n <= 32 fits) */
V_INLINE __m256i v_keep_bytes(__m256i v, size_t n)
{
	const __m256i idx = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
					     12, 13, 14, 15, 16, 17, 18, 19, 20,
					     21, 22, 23, 24, 25, 26, 27, 28, 29,
					     30, 31);
	char m = (char)(n < 32 ? n : 32);

	return _mm256_and_si256(v, _mm256_cmpgt_epi8(_mm256_set1_epi8(m), idx));
}

/* the first m (>= 1) blocks of two: VPMASKMOVQ reads no masked qword */
V_INLINE __m256i v_load_powers(const uint8_t *p, size_t m)
{
	return m >= 2 ? v_loadu(p) :
			_mm256_maskload_epi64((const long long *)(const void *)p,
					      _mm256_setr_epi64x(-1, -1, 0, 0));
}

#include "crypto/arch/x86/aes-gcm-x86-core.h"
