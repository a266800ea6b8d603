/* SPDX-License-Identifier: MIT */
/*
 * SHA-512 block function in AArch64 general-purpose registers (FIPS 180-4,
 * section 6.4): the sha512-arm64 driver (glue sha512-arm-glue.c),
 * for the AArch64 cores without the SHA-512 instructions (Cortex-A53/A55/
 * A72/A76, Neoverse N1: most of them).
 *
 * Variants and the CPUs they are for:
 *   sha512_blocks_arm64   any AArch64 CPU
 *
 * C prototype (sha512-arm.h):
 *   void sha512_blocks_arm64(uint64_t h[8], const uint8_t *data,
 *                            size_t nblocks);
 * nblocks > 0 whole 128-byte blocks into h (sha512_blocks_fn). K is
 * sha512_k (FIPS 180-4 section 4.2.3, crypto/sha512/sha512-generic.c),
 * addressed with ADRP + ADD :lo12:, resolved at link time
 * (sha512-arm.h).
 *
 * Technique: all state in registers, none spilled in the rounds: a..h in
 * x3-x10 (renamed by the unrolling, never moved), the last 16 message
 * words in x11-x17 and x19-x27, W[t] computed in its ring register just
 * before round t uses it. AArch64's shifted-register operands fold each
 * rotation into an EOR (Sigma: ROR + 2 EOR), Ch is AND + BIC added (the
 * halves are disjoint), Maj = b ^ ((a ^ b) & (b ^ c)) with b ^ c carried
 * from the round before (x0 and x1 alternate). 19.5 instructions a round
 * and 9 a scheduled word, against about 25 and 12 in the generic C
 * compiled by GCC 12, which keeps the ring in memory. Rounds 16..31 are
 * written out once and run four times (the renaming has period 8, the
 * ring 16).
 *
 * Constant time: additions, logic and fixed rotations only.
 */

	.text

/*
 * registers: x0, x1 b ^ c / a ^ b (alternating); x2 K[t]; x3-x10 a..h at
 * round 0; x11-x17, x19-x27 W ring; x28-x30 temporaries. The state
 * pointer, data pointer, block count and K are kept on the stack.
 */
#define S_STATE	96
#define S_DATA	104
#define S_N	112
#define S_K	120

	.globl	sha512_blocks_arm64
	.type	sha512_blocks_arm64, %function
	.balign	16
sha512_blocks_arm64:
	stp	x29, x30, [sp, #-128]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	x0, x1, [sp, #S_STATE]
	adrp	x3, sha512_k
	add	x3, x3, :lo12:sha512_k
	stp	x2, x3, [sp, #S_N]
	ldp	x3, x4, [x0]
	ldp	x5, x6, [x0, #16]
	ldp	x7, x8, [x0, #32]
	ldp	x9, x10, [x0, #48]
.Lblock:
	ldr	x28, [sp, #S_DATA]
	ldp	x11, x12, [x28]
	ldp	x13, x14, [x28, #16]
	ldp	x15, x16, [x28, #32]
	ldp	x17, x19, [x28, #48]
	ldp	x20, x21, [x28, #64]
	ldp	x22, x23, [x28, #80]
	ldp	x24, x25, [x28, #96]
	ldp	x26, x27, [x28, #112]
	add	x28, x28, #128
	str	x28, [sp, #S_DATA]
	rev	x11, x11
	rev	x12, x12
	rev	x13, x13
	rev	x14, x14
	rev	x15, x15
	rev	x16, x16
	rev	x17, x17
	rev	x19, x19
	rev	x20, x20
	rev	x21, x21
	rev	x22, x22
	rev	x23, x23
	rev	x24, x24
	rev	x25, x25
	rev	x26, x26
	rev	x27, x27
	ldr	x2, [sp, #S_K]
	eor	x0, x4, x5		/* b ^ c */
	/* rounds 0..15: W[t] from the block */
	ldr	x30, [x2], #8		// round 0: h += K[t] + W[t]
	add	x10, x10, x11
	ror	x28, x7, #14
	add	x10, x10, x30
	and	x29, x7, x8
	eor	x28, x28, x7, ror #18
	bic	x30, x9, x7
	eor	x28, x28, x7, ror #41	// Sigma1(e)
	add	x10, x10, x29
	add	x10, x10, x30		// + Ch(e, f, g)
	ror	x29, x3, #28
	add	x10, x10, x28		// T1
	eor	x1, x3, x4
	eor	x29, x29, x3, ror #34
	add	x6, x6, x10		// the new e
	and	x0, x0, x1
	eor	x29, x29, x3, ror #39	// Sigma0(a)
	eor	x0, x0, x4		// Maj(a, b, c)
	add	x10, x10, x29
	add	x10, x10, x0		// the new a
	ldr	x30, [x2], #8		// round 1: h += K[t] + W[t]
	add	x9, x9, x12
	ror	x28, x6, #14
	add	x9, x9, x30
	and	x29, x6, x7
	eor	x28, x28, x6, ror #18
	bic	x30, x8, x6
	eor	x28, x28, x6, ror #41	// Sigma1(e)
	add	x9, x9, x29
	add	x9, x9, x30		// + Ch(e, f, g)
	ror	x29, x10, #28
	add	x9, x9, x28		// T1
	eor	x0, x10, x3
	eor	x29, x29, x10, ror #34
	add	x5, x5, x9		// the new e
	and	x1, x1, x0
	eor	x29, x29, x10, ror #39	// Sigma0(a)
	eor	x1, x1, x3		// Maj(a, b, c)
	add	x9, x9, x29
	add	x9, x9, x1		// the new a
	ldr	x30, [x2], #8		// round 2: h += K[t] + W[t]
	add	x8, x8, x13
	ror	x28, x5, #14
	add	x8, x8, x30
	and	x29, x5, x6
	eor	x28, x28, x5, ror #18
	bic	x30, x7, x5
	eor	x28, x28, x5, ror #41	// Sigma1(e)
	add	x8, x8, x29
	add	x8, x8, x30		// + Ch(e, f, g)
	ror	x29, x9, #28
	add	x8, x8, x28		// T1
	eor	x1, x9, x10
	eor	x29, x29, x9, ror #34
	add	x4, x4, x8		// the new e
	and	x0, x0, x1
	eor	x29, x29, x9, ror #39	// Sigma0(a)
	eor	x0, x0, x10		// Maj(a, b, c)
	add	x8, x8, x29
	add	x8, x8, x0		// the new a
	ldr	x30, [x2], #8		// round 3: h += K[t] + W[t]
	add	x7, x7, x14
	ror	x28, x4, #14
	add	x7, x7, x30
	and	x29, x4, x5
	eor	x28, x28, x4, ror #18
	bic	x30, x6, x4
	eor	x28, x28, x4, ror #41	// Sigma1(e)
	add	x7, x7, x29
	add	x7, x7, x30		// + Ch(e, f, g)
	ror	x29, x8, #28
	add	x7, x7, x28		// T1
	eor	x0, x8, x9
	eor	x29, x29, x8, ror #34
	add	x3, x3, x7		// the new e
	and	x1, x1, x0
	eor	x29, x29, x8, ror #39	// Sigma0(a)
	eor	x1, x1, x9		// Maj(a, b, c)
	add	x7, x7, x29
	add	x7, x7, x1		// the new a
	ldr	x30, [x2], #8		// round 4: h += K[t] + W[t]
	add	x6, x6, x15
	ror	x28, x3, #14
	add	x6, x6, x30
	and	x29, x3, x4
	eor	x28, x28, x3, ror #18
	bic	x30, x5, x3
	eor	x28, x28, x3, ror #41	// Sigma1(e)
	add	x6, x6, x29
	add	x6, x6, x30		// + Ch(e, f, g)
	ror	x29, x7, #28
	add	x6, x6, x28		// T1
	eor	x1, x7, x8
	eor	x29, x29, x7, ror #34
	add	x10, x10, x6		// the new e
	and	x0, x0, x1
	eor	x29, x29, x7, ror #39	// Sigma0(a)
	eor	x0, x0, x8		// Maj(a, b, c)
	add	x6, x6, x29
	add	x6, x6, x0		// the new a
	ldr	x30, [x2], #8		// round 5: h += K[t] + W[t]
	add	x5, x5, x16
	ror	x28, x10, #14
	add	x5, x5, x30
	and	x29, x10, x3
	eor	x28, x28, x10, ror #18
	bic	x30, x4, x10
	eor	x28, x28, x10, ror #41	// Sigma1(e)
	add	x5, x5, x29
	add	x5, x5, x30		// + Ch(e, f, g)
	ror	x29, x6, #28
	add	x5, x5, x28		// T1
	eor	x0, x6, x7
	eor	x29, x29, x6, ror #34
	add	x9, x9, x5		// the new e
	and	x1, x1, x0
	eor	x29, x29, x6, ror #39	// Sigma0(a)
	eor	x1, x1, x7		// Maj(a, b, c)
	add	x5, x5, x29
	add	x5, x5, x1		// the new a
	ldr	x30, [x2], #8		// round 6: h += K[t] + W[t]
	add	x4, x4, x17
	ror	x28, x9, #14
	add	x4, x4, x30
	and	x29, x9, x10
	eor	x28, x28, x9, ror #18
	bic	x30, x3, x9
	eor	x28, x28, x9, ror #41	// Sigma1(e)
	add	x4, x4, x29
	add	x4, x4, x30		// + Ch(e, f, g)
	ror	x29, x5, #28
	add	x4, x4, x28		// T1
	eor	x1, x5, x6
	eor	x29, x29, x5, ror #34
	add	x8, x8, x4		// the new e
	and	x0, x0, x1
	eor	x29, x29, x5, ror #39	// Sigma0(a)
	eor	x0, x0, x6		// Maj(a, b, c)
	add	x4, x4, x29
	add	x4, x4, x0		// the new a
	ldr	x30, [x2], #8		// round 7: h += K[t] + W[t]
	add	x3, x3, x19
	ror	x28, x8, #14
	add	x3, x3, x30
	and	x29, x8, x9
	eor	x28, x28, x8, ror #18
	bic	x30, x10, x8
	eor	x28, x28, x8, ror #41	// Sigma1(e)
	add	x3, x3, x29
	add	x3, x3, x30		// + Ch(e, f, g)
	ror	x29, x4, #28
	add	x3, x3, x28		// T1
	eor	x0, x4, x5
	eor	x29, x29, x4, ror #34
	add	x7, x7, x3		// the new e
	and	x1, x1, x0
	eor	x29, x29, x4, ror #39	// Sigma0(a)
	eor	x1, x1, x5		// Maj(a, b, c)
	add	x3, x3, x29
	add	x3, x3, x1		// the new a
	ldr	x30, [x2], #8		// round 8: h += K[t] + W[t]
	add	x10, x10, x20
	ror	x28, x7, #14
	add	x10, x10, x30
	and	x29, x7, x8
	eor	x28, x28, x7, ror #18
	bic	x30, x9, x7
	eor	x28, x28, x7, ror #41	// Sigma1(e)
	add	x10, x10, x29
	add	x10, x10, x30		// + Ch(e, f, g)
	ror	x29, x3, #28
	add	x10, x10, x28		// T1
	eor	x1, x3, x4
	eor	x29, x29, x3, ror #34
	add	x6, x6, x10		// the new e
	and	x0, x0, x1
	eor	x29, x29, x3, ror #39	// Sigma0(a)
	eor	x0, x0, x4		// Maj(a, b, c)
	add	x10, x10, x29
	add	x10, x10, x0		// the new a
	ldr	x30, [x2], #8		// round 9: h += K[t] + W[t]
	add	x9, x9, x21
	ror	x28, x6, #14
	add	x9, x9, x30
	and	x29, x6, x7
	eor	x28, x28, x6, ror #18
	bic	x30, x8, x6
	eor	x28, x28, x6, ror #41	// Sigma1(e)
	add	x9, x9, x29
	add	x9, x9, x30		// + Ch(e, f, g)
	ror	x29, x10, #28
	add	x9, x9, x28		// T1
	eor	x0, x10, x3
	eor	x29, x29, x10, ror #34
	add	x5, x5, x9		// the new e
	and	x1, x1, x0
	eor	x29, x29, x10, ror #39	// Sigma0(a)
	eor	x1, x1, x3		// Maj(a, b, c)
	add	x9, x9, x29
	add	x9, x9, x1		// the new a
	ldr	x30, [x2], #8		// round 10: h += K[t] + W[t]
	add	x8, x8, x22
	ror	x28, x5, #14
	add	x8, x8, x30
	and	x29, x5, x6
	eor	x28, x28, x5, ror #18
	bic	x30, x7, x5
	eor	x28, x28, x5, ror #41	// Sigma1(e)
	add	x8, x8, x29
	add	x8, x8, x30		// + Ch(e, f, g)
	ror	x29, x9, #28
	add	x8, x8, x28		// T1
	eor	x1, x9, x10
	eor	x29, x29, x9, ror #34
	add	x4, x4, x8		// the new e
	and	x0, x0, x1
	eor	x29, x29, x9, ror #39	// Sigma0(a)
	eor	x0, x0, x10		// Maj(a, b, c)
	add	x8, x8, x29
	add	x8, x8, x0		// the new a
	ldr	x30, [x2], #8		// round 11: h += K[t] + W[t]
	add	x7, x7, x23
	ror	x28, x4, #14
	add	x7, x7, x30
	and	x29, x4, x5
	eor	x28, x28, x4, ror #18
	bic	x30, x6, x4
	eor	x28, x28, x4, ror #41	// Sigma1(e)
	add	x7, x7, x29
	add	x7, x7, x30		// + Ch(e, f, g)
	ror	x29, x8, #28
	add	x7, x7, x28		// T1
	eor	x0, x8, x9
	eor	x29, x29, x8, ror #34
	add	x3, x3, x7		// the new e
	and	x1, x1, x0
	eor	x29, x29, x8, ror #39	// Sigma0(a)
	eor	x1, x1, x9		// Maj(a, b, c)
	add	x7, x7, x29
	add	x7, x7, x1		// the new a
	ldr	x30, [x2], #8		// round 12: h += K[t] + W[t]
	add	x6, x6, x24
	ror	x28, x3, #14
	add	x6, x6, x30
	and	x29, x3, x4
	eor	x28, x28, x3, ror #18
	bic	x30, x5, x3
	eor	x28, x28, x3, ror #41	// Sigma1(e)
	add	x6, x6, x29
	add	x6, x6, x30		// + Ch(e, f, g)
	ror	x29, x7, #28
	add	x6, x6, x28		// T1
	eor	x1, x7, x8
	eor	x29, x29, x7, ror #34
	add	x10, x10, x6		// the new e
	and	x0, x0, x1
	eor	x29, x29, x7, ror #39	// Sigma0(a)
	eor	x0, x0, x8		// Maj(a, b, c)
	add	x6, x6, x29
	add	x6, x6, x0		// the new a
	ldr	x30, [x2], #8		// round 13: h += K[t] + W[t]
	add	x5, x5, x25
	ror	x28, x10, #14
	add	x5, x5, x30
	and	x29, x10, x3
	eor	x28, x28, x10, ror #18
	bic	x30, x4, x10
	eor	x28, x28, x10, ror #41	// Sigma1(e)
	add	x5, x5, x29
	add	x5, x5, x30		// + Ch(e, f, g)
	ror	x29, x6, #28
	add	x5, x5, x28		// T1
	eor	x0, x6, x7
	eor	x29, x29, x6, ror #34
	add	x9, x9, x5		// the new e
	and	x1, x1, x0
	eor	x29, x29, x6, ror #39	// Sigma0(a)
	eor	x1, x1, x7		// Maj(a, b, c)
	add	x5, x5, x29
	add	x5, x5, x1		// the new a
	ldr	x30, [x2], #8		// round 14: h += K[t] + W[t]
	add	x4, x4, x26
	ror	x28, x9, #14
	add	x4, x4, x30
	and	x29, x9, x10
	eor	x28, x28, x9, ror #18
	bic	x30, x3, x9
	eor	x28, x28, x9, ror #41	// Sigma1(e)
	add	x4, x4, x29
	add	x4, x4, x30		// + Ch(e, f, g)
	ror	x29, x5, #28
	add	x4, x4, x28		// T1
	eor	x1, x5, x6
	eor	x29, x29, x5, ror #34
	add	x8, x8, x4		// the new e
	and	x0, x0, x1
	eor	x29, x29, x5, ror #39	// Sigma0(a)
	eor	x0, x0, x6		// Maj(a, b, c)
	add	x4, x4, x29
	add	x4, x4, x0		// the new a
	ldr	x30, [x2], #8		// round 15: h += K[t] + W[t]
	add	x3, x3, x27
	ror	x28, x8, #14
	add	x3, x3, x30
	and	x29, x8, x9
	eor	x28, x28, x8, ror #18
	bic	x30, x10, x8
	eor	x28, x28, x8, ror #41	// Sigma1(e)
	add	x3, x3, x29
	add	x3, x3, x30		// + Ch(e, f, g)
	ror	x29, x4, #28
	add	x3, x3, x28		// T1
	eor	x0, x4, x5
	eor	x29, x29, x4, ror #34
	add	x7, x7, x3		// the new e
	and	x1, x1, x0
	eor	x29, x29, x4, ror #39	// Sigma0(a)
	eor	x1, x1, x5		// Maj(a, b, c)
	add	x3, x3, x29
	add	x3, x3, x1		// the new a

.Lsched:
	/* rounds 16..31, 32..47, 48..63, 64..79 */
	ror	x28, x12, #1			// W[0] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x26, #19
	eor	x28, x28, x12, ror #8
	eor	x29, x29, x26, ror #61
	eor	x28, x28, x12, lsr #7
	eor	x29, x29, x26, lsr #6
	add	x11, x11, x21
	add	x28, x28, x29
	add	x11, x11, x28
	ldr	x30, [x2], #8		// round 16: h += K[t] + W[t]
	add	x10, x10, x11
	ror	x28, x7, #14
	add	x10, x10, x30
	and	x29, x7, x8
	eor	x28, x28, x7, ror #18
	bic	x30, x9, x7
	eor	x28, x28, x7, ror #41	// Sigma1(e)
	add	x10, x10, x29
	add	x10, x10, x30		// + Ch(e, f, g)
	ror	x29, x3, #28
	add	x10, x10, x28		// T1
	eor	x1, x3, x4
	eor	x29, x29, x3, ror #34
	add	x6, x6, x10		// the new e
	and	x0, x0, x1
	eor	x29, x29, x3, ror #39	// Sigma0(a)
	eor	x0, x0, x4		// Maj(a, b, c)
	add	x10, x10, x29
	add	x10, x10, x0		// the new a
	ror	x28, x13, #1			// W[1] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x27, #19
	eor	x28, x28, x13, ror #8
	eor	x29, x29, x27, ror #61
	eor	x28, x28, x13, lsr #7
	eor	x29, x29, x27, lsr #6
	add	x12, x12, x22
	add	x28, x28, x29
	add	x12, x12, x28
	ldr	x30, [x2], #8		// round 17: h += K[t] + W[t]
	add	x9, x9, x12
	ror	x28, x6, #14
	add	x9, x9, x30
	and	x29, x6, x7
	eor	x28, x28, x6, ror #18
	bic	x30, x8, x6
	eor	x28, x28, x6, ror #41	// Sigma1(e)
	add	x9, x9, x29
	add	x9, x9, x30		// + Ch(e, f, g)
	ror	x29, x10, #28
	add	x9, x9, x28		// T1
	eor	x0, x10, x3
	eor	x29, x29, x10, ror #34
	add	x5, x5, x9		// the new e
	and	x1, x1, x0
	eor	x29, x29, x10, ror #39	// Sigma0(a)
	eor	x1, x1, x3		// Maj(a, b, c)
	add	x9, x9, x29
	add	x9, x9, x1		// the new a
	ror	x28, x14, #1			// W[2] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x11, #19
	eor	x28, x28, x14, ror #8
	eor	x29, x29, x11, ror #61
	eor	x28, x28, x14, lsr #7
	eor	x29, x29, x11, lsr #6
	add	x13, x13, x23
	add	x28, x28, x29
	add	x13, x13, x28
	ldr	x30, [x2], #8		// round 18: h += K[t] + W[t]
	add	x8, x8, x13
	ror	x28, x5, #14
	add	x8, x8, x30
	and	x29, x5, x6
	eor	x28, x28, x5, ror #18
	bic	x30, x7, x5
	eor	x28, x28, x5, ror #41	// Sigma1(e)
	add	x8, x8, x29
	add	x8, x8, x30		// + Ch(e, f, g)
	ror	x29, x9, #28
	add	x8, x8, x28		// T1
	eor	x1, x9, x10
	eor	x29, x29, x9, ror #34
	add	x4, x4, x8		// the new e
	and	x0, x0, x1
	eor	x29, x29, x9, ror #39	// Sigma0(a)
	eor	x0, x0, x10		// Maj(a, b, c)
	add	x8, x8, x29
	add	x8, x8, x0		// the new a
	ror	x28, x15, #1			// W[3] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x12, #19
	eor	x28, x28, x15, ror #8
	eor	x29, x29, x12, ror #61
	eor	x28, x28, x15, lsr #7
	eor	x29, x29, x12, lsr #6
	add	x14, x14, x24
	add	x28, x28, x29
	add	x14, x14, x28
	ldr	x30, [x2], #8		// round 19: h += K[t] + W[t]
	add	x7, x7, x14
	ror	x28, x4, #14
	add	x7, x7, x30
	and	x29, x4, x5
	eor	x28, x28, x4, ror #18
	bic	x30, x6, x4
	eor	x28, x28, x4, ror #41	// Sigma1(e)
	add	x7, x7, x29
	add	x7, x7, x30		// + Ch(e, f, g)
	ror	x29, x8, #28
	add	x7, x7, x28		// T1
	eor	x0, x8, x9
	eor	x29, x29, x8, ror #34
	add	x3, x3, x7		// the new e
	and	x1, x1, x0
	eor	x29, x29, x8, ror #39	// Sigma0(a)
	eor	x1, x1, x9		// Maj(a, b, c)
	add	x7, x7, x29
	add	x7, x7, x1		// the new a
	ror	x28, x16, #1			// W[4] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x13, #19
	eor	x28, x28, x16, ror #8
	eor	x29, x29, x13, ror #61
	eor	x28, x28, x16, lsr #7
	eor	x29, x29, x13, lsr #6
	add	x15, x15, x25
	add	x28, x28, x29
	add	x15, x15, x28
	ldr	x30, [x2], #8		// round 20: h += K[t] + W[t]
	add	x6, x6, x15
	ror	x28, x3, #14
	add	x6, x6, x30
	and	x29, x3, x4
	eor	x28, x28, x3, ror #18
	bic	x30, x5, x3
	eor	x28, x28, x3, ror #41	// Sigma1(e)
	add	x6, x6, x29
	add	x6, x6, x30		// + Ch(e, f, g)
	ror	x29, x7, #28
	add	x6, x6, x28		// T1
	eor	x1, x7, x8
	eor	x29, x29, x7, ror #34
	add	x10, x10, x6		// the new e
	and	x0, x0, x1
	eor	x29, x29, x7, ror #39	// Sigma0(a)
	eor	x0, x0, x8		// Maj(a, b, c)
	add	x6, x6, x29
	add	x6, x6, x0		// the new a
	ror	x28, x17, #1			// W[5] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x14, #19
	eor	x28, x28, x17, ror #8
	eor	x29, x29, x14, ror #61
	eor	x28, x28, x17, lsr #7
	eor	x29, x29, x14, lsr #6
	add	x16, x16, x26
	add	x28, x28, x29
	add	x16, x16, x28
	ldr	x30, [x2], #8		// round 21: h += K[t] + W[t]
	add	x5, x5, x16
	ror	x28, x10, #14
	add	x5, x5, x30
	and	x29, x10, x3
	eor	x28, x28, x10, ror #18
	bic	x30, x4, x10
	eor	x28, x28, x10, ror #41	// Sigma1(e)
	add	x5, x5, x29
	add	x5, x5, x30		// + Ch(e, f, g)
	ror	x29, x6, #28
	add	x5, x5, x28		// T1
	eor	x0, x6, x7
	eor	x29, x29, x6, ror #34
	add	x9, x9, x5		// the new e
	and	x1, x1, x0
	eor	x29, x29, x6, ror #39	// Sigma0(a)
	eor	x1, x1, x7		// Maj(a, b, c)
	add	x5, x5, x29
	add	x5, x5, x1		// the new a
	ror	x28, x19, #1			// W[6] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x15, #19
	eor	x28, x28, x19, ror #8
	eor	x29, x29, x15, ror #61
	eor	x28, x28, x19, lsr #7
	eor	x29, x29, x15, lsr #6
	add	x17, x17, x27
	add	x28, x28, x29
	add	x17, x17, x28
	ldr	x30, [x2], #8		// round 22: h += K[t] + W[t]
	add	x4, x4, x17
	ror	x28, x9, #14
	add	x4, x4, x30
	and	x29, x9, x10
	eor	x28, x28, x9, ror #18
	bic	x30, x3, x9
	eor	x28, x28, x9, ror #41	// Sigma1(e)
	add	x4, x4, x29
	add	x4, x4, x30		// + Ch(e, f, g)
	ror	x29, x5, #28
	add	x4, x4, x28		// T1
	eor	x1, x5, x6
	eor	x29, x29, x5, ror #34
	add	x8, x8, x4		// the new e
	and	x0, x0, x1
	eor	x29, x29, x5, ror #39	// Sigma0(a)
	eor	x0, x0, x6		// Maj(a, b, c)
	add	x4, x4, x29
	add	x4, x4, x0		// the new a
	ror	x28, x20, #1			// W[7] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x16, #19
	eor	x28, x28, x20, ror #8
	eor	x29, x29, x16, ror #61
	eor	x28, x28, x20, lsr #7
	eor	x29, x29, x16, lsr #6
	add	x19, x19, x11
	add	x28, x28, x29
	add	x19, x19, x28
	ldr	x30, [x2], #8		// round 23: h += K[t] + W[t]
	add	x3, x3, x19
	ror	x28, x8, #14
	add	x3, x3, x30
	and	x29, x8, x9
	eor	x28, x28, x8, ror #18
	bic	x30, x10, x8
	eor	x28, x28, x8, ror #41	// Sigma1(e)
	add	x3, x3, x29
	add	x3, x3, x30		// + Ch(e, f, g)
	ror	x29, x4, #28
	add	x3, x3, x28		// T1
	eor	x0, x4, x5
	eor	x29, x29, x4, ror #34
	add	x7, x7, x3		// the new e
	and	x1, x1, x0
	eor	x29, x29, x4, ror #39	// Sigma0(a)
	eor	x1, x1, x5		// Maj(a, b, c)
	add	x3, x3, x29
	add	x3, x3, x1		// the new a
	ror	x28, x21, #1			// W[8] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x17, #19
	eor	x28, x28, x21, ror #8
	eor	x29, x29, x17, ror #61
	eor	x28, x28, x21, lsr #7
	eor	x29, x29, x17, lsr #6
	add	x20, x20, x12
	add	x28, x28, x29
	add	x20, x20, x28
	ldr	x30, [x2], #8		// round 24: h += K[t] + W[t]
	add	x10, x10, x20
	ror	x28, x7, #14
	add	x10, x10, x30
	and	x29, x7, x8
	eor	x28, x28, x7, ror #18
	bic	x30, x9, x7
	eor	x28, x28, x7, ror #41	// Sigma1(e)
	add	x10, x10, x29
	add	x10, x10, x30		// + Ch(e, f, g)
	ror	x29, x3, #28
	add	x10, x10, x28		// T1
	eor	x1, x3, x4
	eor	x29, x29, x3, ror #34
	add	x6, x6, x10		// the new e
	and	x0, x0, x1
	eor	x29, x29, x3, ror #39	// Sigma0(a)
	eor	x0, x0, x4		// Maj(a, b, c)
	add	x10, x10, x29
	add	x10, x10, x0		// the new a
	ror	x28, x22, #1			// W[9] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x19, #19
	eor	x28, x28, x22, ror #8
	eor	x29, x29, x19, ror #61
	eor	x28, x28, x22, lsr #7
	eor	x29, x29, x19, lsr #6
	add	x21, x21, x13
	add	x28, x28, x29
	add	x21, x21, x28
	ldr	x30, [x2], #8		// round 25: h += K[t] + W[t]
	add	x9, x9, x21
	ror	x28, x6, #14
	add	x9, x9, x30
	and	x29, x6, x7
	eor	x28, x28, x6, ror #18
	bic	x30, x8, x6
	eor	x28, x28, x6, ror #41	// Sigma1(e)
	add	x9, x9, x29
	add	x9, x9, x30		// + Ch(e, f, g)
	ror	x29, x10, #28
	add	x9, x9, x28		// T1
	eor	x0, x10, x3
	eor	x29, x29, x10, ror #34
	add	x5, x5, x9		// the new e
	and	x1, x1, x0
	eor	x29, x29, x10, ror #39	// Sigma0(a)
	eor	x1, x1, x3		// Maj(a, b, c)
	add	x9, x9, x29
	add	x9, x9, x1		// the new a
	ror	x28, x23, #1			// W[10] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x20, #19
	eor	x28, x28, x23, ror #8
	eor	x29, x29, x20, ror #61
	eor	x28, x28, x23, lsr #7
	eor	x29, x29, x20, lsr #6
	add	x22, x22, x14
	add	x28, x28, x29
	add	x22, x22, x28
	ldr	x30, [x2], #8		// round 26: h += K[t] + W[t]
	add	x8, x8, x22
	ror	x28, x5, #14
	add	x8, x8, x30
	and	x29, x5, x6
	eor	x28, x28, x5, ror #18
	bic	x30, x7, x5
	eor	x28, x28, x5, ror #41	// Sigma1(e)
	add	x8, x8, x29
	add	x8, x8, x30		// + Ch(e, f, g)
	ror	x29, x9, #28
	add	x8, x8, x28		// T1
	eor	x1, x9, x10
	eor	x29, x29, x9, ror #34
	add	x4, x4, x8		// the new e
	and	x0, x0, x1
	eor	x29, x29, x9, ror #39	// Sigma0(a)
	eor	x0, x0, x10		// Maj(a, b, c)
	add	x8, x8, x29
	add	x8, x8, x0		// the new a
	ror	x28, x24, #1			// W[11] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x21, #19
	eor	x28, x28, x24, ror #8
	eor	x29, x29, x21, ror #61
	eor	x28, x28, x24, lsr #7
	eor	x29, x29, x21, lsr #6
	add	x23, x23, x15
	add	x28, x28, x29
	add	x23, x23, x28
	ldr	x30, [x2], #8		// round 27: h += K[t] + W[t]
	add	x7, x7, x23
	ror	x28, x4, #14
	add	x7, x7, x30
	and	x29, x4, x5
	eor	x28, x28, x4, ror #18
	bic	x30, x6, x4
	eor	x28, x28, x4, ror #41	// Sigma1(e)
	add	x7, x7, x29
	add	x7, x7, x30		// + Ch(e, f, g)
	ror	x29, x8, #28
	add	x7, x7, x28		// T1
	eor	x0, x8, x9
	eor	x29, x29, x8, ror #34
	add	x3, x3, x7		// the new e
	and	x1, x1, x0
	eor	x29, x29, x8, ror #39	// Sigma0(a)
	eor	x1, x1, x9		// Maj(a, b, c)
	add	x7, x7, x29
	add	x7, x7, x1		// the new a
	ror	x28, x25, #1			// W[12] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x22, #19
	eor	x28, x28, x25, ror #8
	eor	x29, x29, x22, ror #61
	eor	x28, x28, x25, lsr #7
	eor	x29, x29, x22, lsr #6
	add	x24, x24, x16
	add	x28, x28, x29
	add	x24, x24, x28
	ldr	x30, [x2], #8		// round 28: h += K[t] + W[t]
	add	x6, x6, x24
	ror	x28, x3, #14
	add	x6, x6, x30
	and	x29, x3, x4
	eor	x28, x28, x3, ror #18
	bic	x30, x5, x3
	eor	x28, x28, x3, ror #41	// Sigma1(e)
	add	x6, x6, x29
	add	x6, x6, x30		// + Ch(e, f, g)
	ror	x29, x7, #28
	add	x6, x6, x28		// T1
	eor	x1, x7, x8
	eor	x29, x29, x7, ror #34
	add	x10, x10, x6		// the new e
	and	x0, x0, x1
	eor	x29, x29, x7, ror #39	// Sigma0(a)
	eor	x0, x0, x8		// Maj(a, b, c)
	add	x6, x6, x29
	add	x6, x6, x0		// the new a
	ror	x28, x26, #1			// W[13] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x23, #19
	eor	x28, x28, x26, ror #8
	eor	x29, x29, x23, ror #61
	eor	x28, x28, x26, lsr #7
	eor	x29, x29, x23, lsr #6
	add	x25, x25, x17
	add	x28, x28, x29
	add	x25, x25, x28
	ldr	x30, [x2], #8		// round 29: h += K[t] + W[t]
	add	x5, x5, x25
	ror	x28, x10, #14
	add	x5, x5, x30
	and	x29, x10, x3
	eor	x28, x28, x10, ror #18
	bic	x30, x4, x10
	eor	x28, x28, x10, ror #41	// Sigma1(e)
	add	x5, x5, x29
	add	x5, x5, x30		// + Ch(e, f, g)
	ror	x29, x6, #28
	add	x5, x5, x28		// T1
	eor	x0, x6, x7
	eor	x29, x29, x6, ror #34
	add	x9, x9, x5		// the new e
	and	x1, x1, x0
	eor	x29, x29, x6, ror #39	// Sigma0(a)
	eor	x1, x1, x7		// Maj(a, b, c)
	add	x5, x5, x29
	add	x5, x5, x1		// the new a
	ror	x28, x27, #1			// W[14] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x24, #19
	eor	x28, x28, x27, ror #8
	eor	x29, x29, x24, ror #61
	eor	x28, x28, x27, lsr #7
	eor	x29, x29, x24, lsr #6
	add	x26, x26, x19
	add	x28, x28, x29
	add	x26, x26, x28
	ldr	x30, [x2], #8		// round 30: h += K[t] + W[t]
	add	x4, x4, x26
	ror	x28, x9, #14
	add	x4, x4, x30
	and	x29, x9, x10
	eor	x28, x28, x9, ror #18
	bic	x30, x3, x9
	eor	x28, x28, x9, ror #41	// Sigma1(e)
	add	x4, x4, x29
	add	x4, x4, x30		// + Ch(e, f, g)
	ror	x29, x5, #28
	add	x4, x4, x28		// T1
	eor	x1, x5, x6
	eor	x29, x29, x5, ror #34
	add	x8, x8, x4		// the new e
	and	x0, x0, x1
	eor	x29, x29, x5, ror #39	// Sigma0(a)
	eor	x0, x0, x6		// Maj(a, b, c)
	add	x4, x4, x29
	add	x4, x4, x0		// the new a
	ror	x28, x11, #1			// W[15] += s0(W[t-15]) + s1(W[t-2]) + W[t-7]
	ror	x29, x25, #19
	eor	x28, x28, x11, ror #8
	eor	x29, x29, x25, ror #61
	eor	x28, x28, x11, lsr #7
	eor	x29, x29, x25, lsr #6
	add	x27, x27, x20
	add	x28, x28, x29
	add	x27, x27, x28
	ldr	x30, [x2], #8		// round 31: h += K[t] + W[t]
	add	x3, x3, x27
	ror	x28, x8, #14
	add	x3, x3, x30
	and	x29, x8, x9
	eor	x28, x28, x8, ror #18
	bic	x30, x10, x8
	eor	x28, x28, x8, ror #41	// Sigma1(e)
	add	x3, x3, x29
	add	x3, x3, x30		// + Ch(e, f, g)
	ror	x29, x4, #28
	add	x3, x3, x28		// T1
	eor	x0, x4, x5
	eor	x29, x29, x4, ror #34
	add	x7, x7, x3		// the new e
	and	x1, x1, x0
	eor	x29, x29, x4, ror #39	// Sigma0(a)
	eor	x1, x1, x5		// Maj(a, b, c)
	add	x3, x3, x29
	add	x3, x3, x1		// the new a

	ldr	x28, [sp, #S_K]
	add	x28, x28, #640
	cmp	x2, x28
	b.ne	.Lsched
	/* feed-forward */
	ldr	x28, [sp, #S_STATE]
	ldp	x29, x30, [x28]
	add	x3, x3, x29
	add	x4, x4, x30
	ldp	x29, x30, [x28, #16]
	add	x5, x5, x29
	add	x6, x6, x30
	ldp	x29, x30, [x28, #32]
	add	x7, x7, x29
	add	x8, x8, x30
	ldp	x29, x30, [x28, #48]
	add	x9, x9, x29
	add	x10, x10, x30
	stp	x3, x4, [x28]
	stp	x5, x6, [x28, #16]
	stp	x7, x8, [x28, #32]
	stp	x9, x10, [x28, #48]
	ldr	x29, [sp, #S_N]
	subs	x29, x29, #1
	str	x29, [sp, #S_N]
	b.ne	.Lblock
	/* the message schedule is message-derived: clear the registers */
	mov	x11, xzr
	mov	x12, xzr
	mov	x13, xzr
	mov	x14, xzr
	mov	x15, xzr
	mov	x16, xzr
	mov	x17, xzr
	mov	x0, xzr
	mov	x1, xzr
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #128
	ret
	.size	sha512_blocks_arm64, .-sha512_blocks_arm64

	.section .note.GNU-stack, "", %progbits
