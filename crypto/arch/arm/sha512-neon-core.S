/* SPDX-License-Identifier: MIT */
/*
 * SHA-512 block function with NEON on ARMv7 AArch32 (FIPS 180-4, section
 * 6.4): the sha512-neon driver (glue sha512-arm-glue.c).
 *
 * Variants and the CPUs they are for:
 *   sha512_blocks_neon   ARMv7-A with NEON (Cortex-A7/A8/A9/A15, and
 *                        AArch32 on ARMv8 cores)
 *
 * C prototype (sha512-arm.h):
 *   void sha512_blocks_neon(uint64_t h[8], const uint8_t *data,
 *                           size_t nblocks);
 * nblocks > 0 whole 128-byte blocks into h (sha512_blocks_fn). K is
 * sha512_k (FIPS 180-4 section 4.2.3, crypto/sha512/sha512-generic.c),
 * found from a literal holding its offset from the PC, resolved at link
 * time (sha512-arm.h).
 *
 * Technique: 32-bit general-purpose registers need 2-4 instructions for
 * each 64-bit addition or rotation (the generic C), NEON's d registers one
 * or two: the working variables live in d16-d23 (renamed, not moved, by
 * the round macro), the last 16 message words in q0-q7 (d0-d15), and each
 * rotation is a VSHR + VSLI pair. Ch and Maj are one VBSL each (Ch selects
 * f or g by e; Maj selects c or b by a ^ b). Rounds run 16 at a time; the
 * next 16 words are then scheduled two per q register (VEXT joins the
 * pairs at odd offsets), in place.
 *
 * Constant time: NEON additions, logic and fixed shifts only.
 */

	.syntax	unified
	.arch	armv7-a
	.fpu	neon
	.arm
	.text

/* registers */
STATE	.req	r0	/* uint64_t h[8] */
DATA	.req	r1	/* const uint8_t *data, advanced a block at a time */
NBLOCKS	.req	r2	/* blocks left */
KBASE	.req	r3	/* sha512_k */
KPTR	.req	r12	/* K[t] of the round in hand */
LOOPS	.req	lr	/* 16-round groups left in the block */
/* d0-d15: W ring; d16-d23: a..h at the start of the block (renamed by
 * the macros); d24-d31 (q12-q15): temporaries */

/*
 * One round t, W[t] in \w: T1 = h + Sigma1(e) + Ch(e, f, g) + K[t] + W[t];
 * d += T1; h = T1 + Sigma0(a) + Maj(a, b, c).
 */
.macro ROUND a, b, c, d, e, f, g, h, w
	vld1.64		{d28}, [KPTR :64]!
	vshr.u64	d24, \e, #14
	vshr.u64	d25, \e, #18
	vshr.u64	d26, \e, #41
	vadd.i64	d28, d28, \w
	vsli.64		d24, \e, #50
	vsli.64		d25, \e, #46
	vsli.64		d26, \e, #23
	vmov		d27, \e
	vadd.i64	\h, \h, d28
	veor		d24, d24, d25
	vbsl		d27, \f, \g
	veor		d24, d24, d26
	vadd.i64	\h, \h, d27
	vshr.u64	d25, \a, #28
	vadd.i64	\h, \h, d24
	vshr.u64	d26, \a, #34
	vshr.u64	d27, \a, #39
	vsli.64		d25, \a, #36
	vsli.64		d26, \a, #30
	vsli.64		d27, \a, #25
	vadd.i64	\d, \d, \h
	veor		d25, d25, d26
	veor		d29, \a, \b
	veor		d25, d25, d27
	vbsl		d29, \c, \b
	vadd.i64	\h, \h, d25
	vadd.i64	\h, \h, d29
.endm

/* eight rounds, W[t..t+7] in w0..w7 */
.macro ROUNDS8 w0, w1, w2, w3, w4, w5, w6, w7
	ROUND	d16, d17, d18, d19, d20, d21, d22, d23, \w0
	ROUND	d23, d16, d17, d18, d19, d20, d21, d22, \w1
	ROUND	d22, d23, d16, d17, d18, d19, d20, d21, \w2
	ROUND	d21, d22, d23, d16, d17, d18, d19, d20, \w3
	ROUND	d20, d21, d22, d23, d16, d17, d18, d19, \w4
	ROUND	d19, d20, d21, d22, d23, d16, d17, d18, \w5
	ROUND	d18, d19, d20, d21, d22, d23, d16, d17, \w6
	ROUND	d17, d18, d19, d20, d21, d22, d23, d16, \w7
.endm

/*
 * W[t+16], W[t+17] into q\j, which held W[t], W[t+1]: sigma1(W[t+14..15])
 * (q\j7) + W[t+9..10] + sigma0(W[t+1..2]) + W[t..t+1]; q12-q15 scratch.
 */
.macro SCHED j, j1, j4, j5, j7
	vext.8		q12, q\j, q\j1, #8
	vext.8		q13, q\j4, q\j5, #8
	vshr.u64	q14, q12, #1
	vshr.u64	q15, q12, #8
	vadd.i64	q\j, q\j, q13
	vsli.64		q14, q12, #63
	vsli.64		q15, q12, #56
	vshr.u64	q13, q12, #7
	veor		q14, q14, q15
	vshr.u64	q12, q\j7, #19
	veor		q14, q14, q13
	vshr.u64	q15, q\j7, #61
	vadd.i64	q\j, q\j, q14
	vsli.64		q12, q\j7, #45
	vsli.64		q15, q\j7, #3
	vshr.u64	q13, q\j7, #6
	veor		q12, q12, q15
	veor		q12, q12, q13
	vadd.i64	q\j, q\j, q12
.endm

/* before the entry: the body (4.3 KiB) is past LDR's 4 KiB reach */
	.balign	4
.Lk512_off:
	.word	sha512_k - (.Lk512_pc + 8)

	.globl	sha512_blocks_neon
	.type	sha512_blocks_neon, %function
	.balign	16
sha512_blocks_neon:
	ldr		KBASE, .Lk512_off
.Lk512_pc:
	add		KBASE, pc, KBASE	/* pc reads as .Lk512_pc + 8 */
	push		{lr}
	vpush		{d8-d15}
	vld1.64		{d16-d19}, [STATE]!
	vld1.64		{d20-d23}, [STATE]
	sub		STATE, STATE, #32
.Lblock:
	vld1.8		{d0-d3}, [DATA]!
	vld1.8		{d4-d7}, [DATA]!
	vld1.8		{d8-d11}, [DATA]!
	vld1.8		{d12-d15}, [DATA]!
	vrev64.8	q0, q0
	vrev64.8	q1, q1
	vrev64.8	q2, q2
	vrev64.8	q3, q3
	vrev64.8	q4, q4
	vrev64.8	q5, q5
	vrev64.8	q6, q6
	vrev64.8	q7, q7
	mov		KPTR, KBASE
	mov		LOOPS, #4
.Lrounds:
	ROUNDS8	d0, d1, d2, d3, d4, d5, d6, d7
	ROUNDS8	d8, d9, d10, d11, d12, d13, d14, d15
	SCHED	0, 1, 4, 5, 7
	SCHED	1, 2, 5, 6, 0
	SCHED	2, 3, 6, 7, 1
	SCHED	3, 4, 7, 0, 2
	SCHED	4, 5, 0, 1, 3
	SCHED	5, 6, 1, 2, 4
	SCHED	6, 7, 2, 3, 5
	SCHED	7, 0, 3, 4, 6
	subs		LOOPS, LOOPS, #1
	bne		.Lrounds
	ROUNDS8	d0, d1, d2, d3, d4, d5, d6, d7
	ROUNDS8	d8, d9, d10, d11, d12, d13, d14, d15
	/* feed-forward: h += a..h */
	vld1.64		{d24-d27}, [STATE]!
	vld1.64		{d28-d31}, [STATE]
	sub		STATE, STATE, #32
	vadd.i64	q8, q8, q12
	vadd.i64	q9, q9, q13
	vadd.i64	q10, q10, q14
	vadd.i64	q11, q11, q15
	vst1.64		{d16-d19}, [STATE]!
	vst1.64		{d20-d23}, [STATE]
	sub		STATE, STATE, #32
	subs		NBLOCKS, NBLOCKS, #1
	bne		.Lblock
	/* the schedule is message-derived: wipe it */
	vmov.i8		q0, #0
	vmov.i8		q1, #0
	vmov.i8		q2, #0
	vmov.i8		q3, #0
	vmov.i8		q4, #0
	vmov.i8		q5, #0
	vmov.i8		q6, #0
	vmov.i8		q7, #0
	vmov.i8		q12, #0
	vmov.i8		q13, #0
	vmov.i8		q14, #0
	vmov.i8		q15, #0
	vpop		{d8-d15}
	pop		{pc}
	.size	sha512_blocks_neon, .-sha512_blocks_neon

	.section .note.GNU-stack, "", %progbits
