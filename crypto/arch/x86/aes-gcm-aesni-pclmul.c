// SPDX-License-Identifier: MIT
/*
 * Fused AES-GCM with AES-NI and PCLMULQDQ on xmm registers, one block a
 * vector (the body: aes-gcm-x86-core.h; contract: aes-gcm-x86.h), for
 * x86-64 CPUs without VAES (Intel Westmere to the Skylake family, AMD
 * Zen 1 and 2). The step is the core's 16 blocks, more than 16 xmm
 * registers hold: the round keys and powers of H stay on the stack and
 * enter AESENC and PCLMULQDQ as memory operands, and the AES rounds take
 * 8 blocks at a time. SSE has no byte masks: a partial vector
 * of the tail goes through a zeroed 16-byte buffer on the stack, wiped
 * after (aes-gcm-x86-part.h).
 *
 * Built with -maes -mpclmul -msse4.1 (crypto/arch/x86/meson.build).
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/arch/x86/polyval-x86-xmm.h"

#define NVEC 16
/* 16 xmm registers: half a step's blocks through the rounds at a time */
#define GCM_AES_GROUP 8
#define GCM_ISA aesni_pclmul
#define GCM_TAIL_CASES(X)                                                     \
	X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
	X(14) X(15) X(16)
#define V_INLINE static inline __attribute__((always_inline))

#define v_storeu(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define v_aesenc _mm_aesenc_si128
#define v_aesenclast _mm_aesenclast_si128
#define v_add32 _mm_add_epi32
#define v_lane_dw0(n) _mm_setr_epi32(n, 0, 0, 0)
#define v_lane_index() _mm_setzero_si128()
/* one block a vector: the powers of a run are whole vectors */
#define v_load_powers(p, m) ((void)(m), v_loadu(p))

#include "crypto/arch/x86/aes-gcm-x86-part.h"

/* bytes i >= n zeroed: a signed compare of i with n (n <= 16 fits) */
V_INLINE __m128i v_keep_bytes(__m128i v, size_t n)
{
	const __m128i idx = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
					  12, 13, 14, 15);
	char m = (char)(n < 16 ? n : 16);

	return _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8(m), idx));
}

/*
 * Round keys, powers of H and data may be left in any xmm register; no
 * VZEROALL without AVX, so each is zeroed (the compiler keeps nothing
 * live across this: all are listed as clobbered).
 */
V_INLINE void v_clear_all(void)
{
	__asm__ volatile("xorps %%xmm0, %%xmm0\n\txorps %%xmm1, %%xmm1\n\t"
			 "xorps %%xmm2, %%xmm2\n\txorps %%xmm3, %%xmm3\n\t"
			 "xorps %%xmm4, %%xmm4\n\txorps %%xmm5, %%xmm5\n\t"
			 "xorps %%xmm6, %%xmm6\n\txorps %%xmm7, %%xmm7\n\t"
			 "xorps %%xmm8, %%xmm8\n\txorps %%xmm9, %%xmm9\n\t"
			 "xorps %%xmm10, %%xmm10\n\txorps %%xmm11, %%xmm11\n\t"
			 "xorps %%xmm12, %%xmm12\n\txorps %%xmm13, %%xmm13\n\t"
			 "xorps %%xmm14, %%xmm14\n\txorps %%xmm15, %%xmm15"
			 ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
			 "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
			 "xmm12", "xmm13", "xmm14", "xmm15");
}

#include "crypto/arch/x86/aes-gcm-x86-core.h"
