/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SIMD cores for the Poly1305 block function (internal; the glue,
 * which owns the key, the powers of r, short inputs and the final
 * reduction, is poly1305-x86-glue.c).
 *
 * Variants and the CPUs they are for:
 *   *_avx2        AVX2: 4 blocks per step, radix 2^26, VPMULUDQ
 *                 (Goll and Gueron, "Vectorization of Poly1305 message
 *                 authentication code", ITNG 2015)
 *   *_avx512ifma  AVX-512F + AVX-512 IFMA (Ice Lake, Zen 4 and later): 8
 *                 blocks per step, radix 2^44, VPMADD52LUQ/VPMADD52HUQ
 *
 * The technique: with W lanes, lane j accumulates blocks j, j+W, j+2W...
 * as h_j = (h_j + m) * r^W; the last W blocks are multiplied by r^W ..
 * r^1 instead (by their distance from the end), and the lanes are summed.
 * The caller's accumulator enters in lane 0 (block 0's lane). On long
 * runs a step takes 2W blocks, h = (h + m0) r^2W + m1 r^W with one carry
 * for both products (r^2W is squared from r^W at each call), since the
 * carry, not the multiplier, bounds a step: its latency with AVX2, its
 * share of the vector pipes with IFMA on Zen 4.
 *
 * Contract of every entry point:
 *  - st is union poly1305_core_state.simd laid out as below; the powers
 *    of r for the variant are already in place;
 *  - nblocks is a nonzero multiple of 4 (avx2) or 8 (avx512ifma); the
 *    blocks are 16 bytes each, unaligned; padbit (0 or 1) is added at
 *    2^128 of every block, as in struct poly1305_core_ops;
 *  - h enters and leaves in radix 2^44 with h0, h1 < 2^44 and h2 < 2^43.
 * Constant time: multiplications, additions, shifts and masks only.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_POLY1305_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_POLY1305_X86_H

#include <stddef.h>
#include <stdint.h>

/*
 * Layout of the 32 64-bit words:
 *  [0..2]   h in radix 2^44 (h0 + h1 * 2^44 + h2 * 2^88)
 *  [3..5]   r in radix 2^44, clamped
 *  [6]      1 once the powers below are computed (they are computed on
 *           first use: a one-time key on a short message never needs them)
 *  [7..]    the powers of r, in the variant's layout:
 *   avx2:       20 32-bit words: limb i (radix 2^26) of the power for
 *               lane k at word 4 * i + k; lanes hold r^4, r^2, r^3, r^1
 *   avx512ifma: 24 64-bit words: limb i (radix 2^44) of the power for
 *               lane k at word 8 * i + k; lanes hold r^8, r^4, r^7, r^3,
 *               r^6, r^2, r^5, r^1
 * The lane orders follow from the loads: VPUNPCKLQDQ of two vectors of
 * blocks puts block 0, 2, 1, 3 (ymm) or 0, 4, 1, 5, 2, 6, 3, 7 (zmm) in
 * lanes 0, 1, 2..., and the lane of block b gets r^(W - b). Lane 0 always
 * holds r^W, the multiplier of all steps but the last.
 */
#define POLY1305_X86_H 0
#define POLY1305_X86_R 3
#define POLY1305_X86_POWERS_READY 6
#define POLY1305_X86_POWERS 7

void poly1305_blocks_avx2(uint64_t st[32], const uint8_t *src, size_t nblocks,
			  uint32_t padbit);
void poly1305_blocks_avx512ifma(uint64_t st[32], const uint8_t *src,
				size_t nblocks, uint32_t padbit);
/*
 * Fills the avx512ifma powers (r^1 .. r^8, carried: limbs 0 and 1 below
 * 2^44, limb 2 below 2^42 + 2^13) from st[POLY1305_X86_R] and sets
 * st[POLY1305_X86_POWERS_READY]: three vector products instead of seven
 * scalar ones.
 */
void poly1305_powers_avx512ifma(uint64_t st[32]);

#endif
