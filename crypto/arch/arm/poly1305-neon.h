/* SPDX-License-Identifier: MIT */
/*
 * The NEON Poly1305 core (poly1305-neon-core.c), AArch64 and ARMv7
 * AArch32, internal; the glue, which owns the key, the powers of r,
 * short runs and the final reduction, is poly1305-neon-glue.c.
 *
 * Radix 2^26, four blocks a step in two 64-bit lanes: VMULL/VMLAL (UMULL,
 * UMLAL2) multiply two 32-bit lanes into two 64-bit ones, so the four
 * blocks of a step are loaded de-interleaved by words (VLD4: block k in
 * 32-bit lane k), the low half (blocks 0, 1) is multiplied by the low
 * half of the table and the high half (blocks 2, 3) by its high half.
 * Lane A takes blocks 0, 2, lane B blocks 1, 3:
 *   h_A = (h_A + m0) r^4 + m2 r^2,  h_B = (h_B + m1) r^4 + m3 r^2,
 * and the last step multiplies by r^4, r^3, r^2, r^1 instead (by the
 * blocks' distance from the end), so that h_A + h_B is the Poly1305
 * accumulator. One carry a step serves both products.
 *
 * Contract:
 *  - h: the accumulator, radix 2^26, limbs below 2^26 but h[1] at most
 *    2^26 (poly1305_generic_get26()); on return the sum of the lanes,
 *    limbs below 2^28 (for poly1305_generic_set26());
 *  - pw: the table of powers, 36 host-order 32-bit words, read as bytes
 *    (so it may sit in any object, unaligned): word 4 k + j is, for the
 *    power r^(4 - j), limb k (k = 0..4, radix 2^26, below 2^26 but limb 1
 *    at most 2^26) or 5 times limb k - 4 (k = 5..8);
 *  - nblocks a nonzero multiple of 4, 16-byte blocks, unaligned; padbit
 *    (0 or 1) is added at 2^128 of each block (struct poly1305_core_ops).
 * Bounds: limbs a product takes are below 2^27 and 2^28.4, ten products
 * a lane sum below 2^59. Constant time: multiplications, additions,
 * shifts and masks only.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_POLY1305_NEON_H
#define CLOAKFS_CRYPTO_ARCH_ARM_POLY1305_NEON_H

#include <stddef.h>
#include <stdint.h>

#define POLY1305_NEON_POWER_WORDS 36

void poly1305_blocks_neon(uint32_t h[5], const void *pw, const uint8_t *src,
			  size_t nblocks, uint32_t padbit);

#endif
