/* SPDX-License-Identifier: MIT */
/*
 * Speck128/Speck64 XTS and ECB with AVX-512F (512-bit vectors): the body
 * is speck-xts-x86-core.h, the entry points are in speck-xts-x86.h.
 *
 * AVX-512F rotates in one instruction (VPROLQ/VPRORQ/VPROLD/VPRORD) and
 * XORs three inputs with VPTERNLOGQ, so a round is 5 instructions per
 * vector pair. A main step is 8 vector pairs, 1 KiB (64 Speck128 or 128
 * Speck64 blocks): the 16 data vectors stay in the 32 zmm registers, the
 * tweaks wait on the stack, round keys are broadcast from memory.
 */
#include <immintrin.h>

#define SPECK_ISA avx512
#if !defined(__AVX512F__)
#error "build with -mavx512f (crypto/arch/x86/meson.build)"
#endif

typedef __m512i vec;
#define VEC_BYTES 64
#define MAX_PAIRS128 8
#define MAX_PAIRS64 8

#define V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define V_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define V_ZERO() _mm512_setzero_si512()
#define V_XOR(a, b) _mm512_xor_si512((a), (b))
/* truth table 0x96 = a ^ b ^ c */
#define V_XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define V_ADD64(a, b) _mm512_add_epi64((a), (b))
#define V_SUB64(a, b) _mm512_sub_epi64((a), (b))
#define V_ADD32(a, b) _mm512_add_epi32((a), (b))
#define V_SUB32(a, b) _mm512_sub_epi32((a), (b))
#define V_BCAST64(p) _mm512_set1_epi64((long long)*(p))
#define V_BCAST32(p) _mm512_set1_epi32((int)*(p))
#define V_SLLI64(v, n) _mm512_slli_epi64((v), (n))
#define V_SRLI64(v, n) _mm512_srli_epi64((v), (n))
#define V_SLLV64(v, c) _mm512_sllv_epi64((v), (c))
#define V_SRLV64(v, c) _mm512_srlv_epi64((v), (c))
#define V_STORE_LANE0(p, v)                                                    \
	_mm_storel_epi64((__m128i *)(void *)(p), _mm512_castsi512_si128(v))
#define V_SPLIT32(v) _mm512_shuffle_epi32((v), (_MM_PERM_ENUM)0xd8)
#define V_UNPACKLO64(a, b) _mm512_unpacklo_epi64((a), (b))
#define V_UNPACKHI64(a, b) _mm512_unpackhi_epi64((a), (b))
#define V_UNPACKLO32(a, b) _mm512_unpacklo_epi32((a), (b))
#define V_UNPACKHI32(a, b) _mm512_unpackhi_epi32((a), (b))
#define V_ROR64_8(v) _mm512_ror_epi64((v), 8)
#define V_ROL64_8(v) _mm512_rol_epi64((v), 8)
#define V_ROL64_3(v) _mm512_rol_epi64((v), 3)
#define V_ROR64_3(v) _mm512_ror_epi64((v), 3)
#define V_ROR32_8(v) _mm512_ror_epi32((v), 8)
#define V_ROL32_8(v) _mm512_rol_epi32((v), 8)
#define V_ROL32_3(v) _mm512_rol_epi32((v), 3)
#define V_ROR32_3(v) _mm512_ror_epi32((v), 3)

/*
 * No key or data left in vector registers: VZEROALL clears zmm0-15, the
 * XORs zmm16-31 (which only EVEX code such as this uses).
 */
#define V_END()                                                                \
	__asm__ volatile("vzeroall\n\t"                                        \
			 "vpxord %%zmm16, %%zmm16, %%zmm16\n\t"                \
			 "vpxord %%zmm17, %%zmm17, %%zmm17\n\t"                \
			 "vpxord %%zmm18, %%zmm18, %%zmm18\n\t"                \
			 "vpxord %%zmm19, %%zmm19, %%zmm19\n\t"                \
			 "vpxord %%zmm20, %%zmm20, %%zmm20\n\t"                \
			 "vpxord %%zmm21, %%zmm21, %%zmm21\n\t"                \
			 "vpxord %%zmm22, %%zmm22, %%zmm22\n\t"                \
			 "vpxord %%zmm23, %%zmm23, %%zmm23\n\t"                \
			 "vpxord %%zmm24, %%zmm24, %%zmm24\n\t"                \
			 "vpxord %%zmm25, %%zmm25, %%zmm25\n\t"                \
			 "vpxord %%zmm26, %%zmm26, %%zmm26\n\t"                \
			 "vpxord %%zmm27, %%zmm27, %%zmm27\n\t"                \
			 "vpxord %%zmm28, %%zmm28, %%zmm28\n\t"                \
			 "vpxord %%zmm29, %%zmm29, %%zmm29\n\t"                \
			 "vpxord %%zmm30, %%zmm30, %%zmm30\n\t"                \
			 "vpxord %%zmm31, %%zmm31, %%zmm31"                    \
			 ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",    \
			 "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",      \
			 "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17",  \
			 "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",  \
			 "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29",  \
			 "xmm30", "xmm31")

#include "crypto/arch/x86/speck-xts-x86-core.h"
