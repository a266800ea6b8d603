/* SPDX-License-Identifier: MIT */
/*
 * Leaving an AVX-512 core: clear every vector register it may have left
 * key or data in. VZEROALL clears zmm0-15 (all of them); zmm16-31 are
 * cleared by hand. Include only from a file built with -mavx512f.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_X86_ZMM_CLEAR_H
#define CLOAKFS_CRYPTO_ARCH_X86_X86_ZMM_CLEAR_H

#include <immintrin.h>

static inline __attribute__((always_inline))
void x86_zmm_clear_all(void)
{
	_mm256_zeroall();
	__asm__ volatile("vpxord %%zmm16, %%zmm16, %%zmm16\n\t"
			 "vmovdqa64 %%zmm16, %%zmm17\n\tvmovdqa64 %%zmm16, %%zmm18\n\t"
			 "vmovdqa64 %%zmm16, %%zmm19\n\tvmovdqa64 %%zmm16, %%zmm20\n\t"
			 "vmovdqa64 %%zmm16, %%zmm21\n\tvmovdqa64 %%zmm16, %%zmm22\n\t"
			 "vmovdqa64 %%zmm16, %%zmm23\n\tvmovdqa64 %%zmm16, %%zmm24\n\t"
			 "vmovdqa64 %%zmm16, %%zmm25\n\tvmovdqa64 %%zmm16, %%zmm26\n\t"
			 "vmovdqa64 %%zmm16, %%zmm27\n\tvmovdqa64 %%zmm16, %%zmm28\n\t"
			 "vmovdqa64 %%zmm16, %%zmm29\n\tvmovdqa64 %%zmm16, %%zmm30\n\t"
			 "vmovdqa64 %%zmm16, %%zmm31"
			 ::: "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21",
			 "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
			 "xmm28", "xmm29", "xmm30", "xmm31");
}

#endif
