/* SPDX-License-Identifier: MIT */
/*
 * x86-64 POLYVAL cores (carry-less multiplication), glue
 * crypto/polyval/polyval-x86-glue.c:
 *   polyval_blocks_pclmul        asm/x86/polyval-pclmul.c          PCLMULQDQ, SSSE3; 8 blocks a step
 *   polyval_blocks_vpclmul_avx2  asm/x86/polyval-vpclmul-avx2.c    VPCLMULQDQ, AVX2; 16 blocks
 *   polyval_blocks_vpclmul_avx512 asm/x86/polyval-vpclmul-avx512.c VPCLMULQDQ, AVX-512F; 16 blocks
 *
 * acc = POLYVAL's accumulator (128-bit little-endian halves), updated by
 * nblocks (>= 0) blocks of src, each byte-reversed first when bswap (GHASH,
 * see crypto/polyval/polyval.h). powers[16 - k] = H^k in POLYVAL's sense
 * (H^1 = H, H^(k+1) = dot(H^k, H)), 16 bytes little-endian each: a step
 * of n blocks multiplies block j by H^(n - j), so the powers it needs are
 * contiguous. Single blocks use powers[15] (H) only, which is how the
 * glue computes the other powers.
 */
#ifndef CLOAKFS_ASM_X86_POLYVAL_X86_H
#define CLOAKFS_ASM_X86_POLYVAL_X86_H

#include <stddef.h>
#include <stdint.h>

#define POLYVAL_X86_CORE(isa)                                                \
	void polyval_blocks_##isa(uint64_t acc[2], const uint8_t powers[16][16], \
				  const uint8_t *src, size_t nblocks, int bswap)

POLYVAL_X86_CORE(pclmul);
POLYVAL_X86_CORE(vpclmul_avx2);
POLYVAL_X86_CORE(vpclmul_avx512);

#endif
