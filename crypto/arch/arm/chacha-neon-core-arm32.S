/* SPDX-License-Identifier: MIT */
/*
 * ChaCha, 4 blocks at once, with ARMv7 NEON (AArch32): the 4-block pass
 * of chacha-neon-core.c on AArch32, where the compiler's register
 * allocation of the intrinsics spilled about 30 instructions a double
 * round (16 state vectors and a temporary do not fit 16 q registers).
 *
 *   void chacha_neon_4blocks(const uint32_t st[16], uint8_t *dst,
 *                            const uint8_t *src, unsigned int nrounds);
 *
 * dst = src ^ 256 bytes of key stream of blocks st[12] .. st[12] + 3 with
 * nrounds rounds (a multiple of 4: 8, 12, 20); st is not changed;
 * dst == src allowed.
 *
 * Layout: vertical: q register k holds state word
 * k of the four blocks (lane = block). Word 11 lives on the stack and
 * shares q8 with word 8 (a column round needs word 11 only in its last
 * quarter round, a diagonal round needs word 8 only in its last), so q11
 * is the one temporary; the swap costs 4 loads/stores a double round.
 * Rotations: by 16 vrev32.16, the others vshl + vsri into the temporary
 * or the register a word just left, so a quarter round is 15
 * instructions and leaves its b word in d's register and d in b's. After
 * a double round rows b and d have turned by two registers; after two
 * they are home, so the loop body is two double rounds (hence rounds a
 * multiple of 4, as every ChaCha in use). Then each row of 4 words is
 * transposed in place (vtrn, vswp of halves), the state row added, and
 * XORed with the input, 64-byte stride.
 * Constant time: add, xor, shift and fixed permutations only.
 */
	.syntax	unified
	.arm
	.fpu	neon
	.text

/* a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12; ... (RFC 8439) */
.macro	QR a, b, c, d
	vadd.i32	\a, \a, \b
	veor		\d, \d, \a
	vrev32.16	\d, \d
	vadd.i32	\c, \c, \d
	veor		\b, \b, \c
	vshl.i32	q11, \b, #12
	vsri.32		q11, \b, #20		@ q11 = b
	vadd.i32	\a, \a, q11
	veor		\d, \d, \a
	vshl.i32	\b, \d, #8
	vsri.32		\b, \d, #24		@ b's register = d
	vadd.i32	\c, \c, \b
	veor		q11, q11, \c
	vshl.i32	\d, q11, #7
	vsri.32		\d, q11, #25		@ d's register = b
.endm

/*
 * One round: quarter rounds (a_i, b_i, c_i, d_i), i = 0..3, with word 8
 * or 11's swap through q8 before the last: q8 stored to the slot at
 * rsave, the word at rload loaded into it.
 */
.macro	ROUND a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, rsave, rload, a3, b3, c3, d3
	QR	\a0, \b0, \c0, \d0
	QR	\a1, \b1, \c1, \d1
	QR	\a2, \b2, \c2, \d2
	vst1.32	{d16-d17}, [\rsave :128]
	vld1.32	{d16-d17}, [\rload :128]
	QR	\a3, \b3, \c3, \d3
.endm

/*
 * One double round; b4..b7, d12..d15 are the registers of words 4..7 and
 * 12..15. Afterwards words 4, 5, 6, 7 are in b6, b7, b4, b5 and words 12,
 * 13, 14, 15 in d14, d15, d12, d13. r4: word 8's stack slot, r5: 11's.
 */
.macro	DOUBLEROUND b4, b5, b6, b7, d12, d13, d14, d15
	/* columns; q8 = word 11 before the last */
	ROUND	q0, \b4, q8, \d12, q1, \b5, q9, \d13, q2, \b6, q10, \d14, r4, r5, q3, \b7, q8, \d15
	/* 4..7 in d12..d15, 12..15 in b4..b7; diagonals, q8 = word 8 before the last */
	ROUND	q0, \d13, q10, \b7, q1, \d14, q8, \b4, q3, \d12, q9, \b6, r5, r4, q2, \d15, q8, \b5
.endm

/* 16 bytes at r1 = those at r2 ^ q, both advanced 64 bytes; qt: free */
.macro	XORST q, qt
	vld1.8		{\qt}, [r2], r6
	veor		\q, \q, \qt
	vst1.8		{\q}, [r1], r6
.endm

/*
 * Words 4g..4g+3 of the 4 blocks in qa..qd (lane k = block k) to block k's
 * 16 bytes at offset 16 g: transpose (ah, bh: the high halves of qa, qb;
 * cl, dl: the low halves of qc, qd), add state row g (r0, advanced), XOR
 * with the input at r2 and store at r1 (both advanced by 16). qt: free.
 */
.macro	OUTROW qa, qb, qc, qd, ah, bh, cl, dl, qt
	vtrn.32		\qa, \qb
	vtrn.32		\qc, \qd
	vswp		\ah, \cl
	vswp		\bh, \dl
	vld1.32		{\qt}, [r0]!
	vadd.i32	\qa, \qa, \qt
	vadd.i32	\qb, \qb, \qt
	vadd.i32	\qc, \qc, \qt
	vadd.i32	\qd, \qd, \qt
	XORST		\qa, \qt
	XORST		\qb, \qt
	XORST		\qc, \qt
	XORST		\qd, \qt
	sub		r2, r2, #240
	sub		r1, r1, #240
.endm

	.align	4
.Llanes:
	.word	0, 1, 2, 3

	.align	4
	.global	chacha_neon_4blocks
	.type	chacha_neon_4blocks, %function
chacha_neon_4blocks:
	push		{r4-r8, lr}
	vpush		{d8-d15}
	mov		r8, sp
	sub		r4, sp, #32
	bic		r4, r4, #15
	mov		sp, r4			@ r4: word 8's slot
	add		r5, r4, #16		@ r5: word 11's slot
	mov		r6, #64

	/* every word broadcast to the 4 lanes; word 12 + lane */
	vld1.32		{d22-d23}, [r0]!
	vdup.32		q0, d22[0]
	vdup.32		q1, d22[1]
	vdup.32		q2, d23[0]
	vdup.32		q3, d23[1]
	vld1.32		{d22-d23}, [r0]!
	vdup.32		q4, d22[0]
	vdup.32		q5, d22[1]
	vdup.32		q6, d23[0]
	vdup.32		q7, d23[1]
	vld1.32		{d22-d23}, [r0]!
	vdup.32		q8, d22[0]
	vdup.32		q9, d22[1]
	vdup.32		q10, d23[0]
	vdup.32		q12, d23[1]
	vst1.32		{d24-d25}, [r5 :128]
	vld1.32		{d22-d23}, [r0]
	sub		r0, r0, #48
	vdup.32		q12, d22[0]
	vdup.32		q13, d22[1]
	vdup.32		q14, d23[0]
	vdup.32		q15, d23[1]
	adr		r12, .Llanes		@ kept for the end (out of adr's reach there)
	vld1.32		{d22-d23}, [r12 :128]
	vadd.i32	q12, q12, q11

	lsrs		r7, r3, #2		@ pairs of double rounds
	beq		2f
1:	DOUBLEROUND	q4, q5, q6, q7, q12, q13, q14, q15
	DOUBLEROUND	q6, q7, q4, q5, q14, q15, q12, q13
	subs		r7, r7, #1
	bne		1b
2:
	OUTROW		q0, q1, q2, q3, d1, d3, d4, d6, q11
	OUTROW		q4, q5, q6, q7, d9, d11, d12, d14, q11
	vld1.32		{d22-d23}, [r5 :128]	@ word 11
	OUTROW		q8, q9, q10, q11, d17, d19, d20, d22, q0
	vld1.32		{d0-d1}, [r12 :128]
	vadd.i32	q12, q12, q0
	OUTROW		q12, q13, q14, q15, d25, d27, d28, d30, q0

	/* the stack slots held state words, the registers key stream */
	vmov.i32	q0, #0
	vst1.32		{d0-d1}, [r4 :128]
	vst1.32		{d0-d1}, [r5 :128]
	mov		sp, r8
	vpop		{d8-d15}
	pop		{r4-r8, pc}
	.size	chacha_neon_4blocks, . - chacha_neon_4blocks

	.section .note.GNU-stack, "", %progbits
