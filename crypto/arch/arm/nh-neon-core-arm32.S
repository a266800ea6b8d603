/* SPDX-License-Identifier: MIT */
/*
 * NH with ARMv7 NEON (AArch32): nh_neon of nh-neon.h on AArch32, where
 * the intrinsics version spent about a third of its instructions on
 * address arithmetic (vld1 takes no offsets) and register copies.
 *
 *   void nh_neon(const uint32_t *key, const uint8_t *msg, size_t len,
 *                uint8_t hash[32]);
 *
 * Per 64-byte step (4 units): the message in two 32-byte loads, key
 * vectors 0..6 in four loads (unit u's pass p takes key vector u + p;
 * the key pointer ends 64 bytes on), then for each unit and pass one
 * vadd.i32 (t = m + k) and one vmlal.u32 of t's low half by its high half
 * into the pass's two 64-bit sums: 32 arithmetic instructions. The last
 * 1 to 3 units go one at a time. Reads no key word nh_generic does not.
 * Constant time: 32-bit additions and 32x32->64 multiply-adds only.
 *
 * q0-q6 key vectors, q8-q11 the sums of passes 0-3, q12-q13 message,
 * q7, q14, q15 the t of the unit being summed.
 */
	.syntax	unified
	.arm
	.fpu	neon
	.text

/* pass p's sum += t.lo * t.hi lanewise, t = m + k; tt: a free register */
.macro	PASS sum, m, k, tt, tlo, thi
	vadd.i32	\tt, \m, \k
	vmlal.u32	\sum, \tlo, \thi
.endm

/* the four passes of message vector m against key vectors ka..kd */
.macro	UNIT m, ka, kb, kc, kd
	PASS	q8, \m, \ka, q7, d14, d15
	PASS	q9, \m, \kb, q14, d28, d29
	PASS	q10, \m, \kc, q15, d30, d31
	PASS	q11, \m, \kd, q7, d14, d15
.endm

	.align	4
	.global	nh_neon
	.type	nh_neon, %function
nh_neon:
	vpush		{d8-d15}
	vmov.i64	q8, #0
	vmov.i64	q9, #0
	vmov.i64	q10, #0
	vmov.i64	q11, #0
	subs		r2, r2, #64
	blo		2f
1:	vld1.8		{d24-d27}, [r1]!	@ units 0, 1
	vld1.32		{d0-d3}, [r0]!
	vld1.32		{d4-d7}, [r0]!
	vld1.32		{d8-d11}, [r0]!
	vld1.32		{d12-d13}, [r0]
	sub		r0, r0, #32		@ 64 bytes on
	UNIT		q12, q0, q1, q2, q3
	UNIT		q13, q1, q2, q3, q4
	vld1.8		{d24-d27}, [r1]!	@ units 2, 3
	UNIT		q12, q2, q3, q4, q5
	UNIT		q13, q3, q4, q5, q6
	subs		r2, r2, #64
	bhs		1b
2:	adds		r2, r2, #64		@ the last 0 to 3 units
	beq		4f
3:	vld1.8		{d24-d25}, [r1]!
	vld1.32		{d0-d3}, [r0]!
	vld1.32		{d4-d7}, [r0]
	sub		r0, r0, #16
	UNIT		q12, q0, q1, q2, q3
	subs		r2, r2, #16
	bne		3b
	/* each pass's two lanes summed mod 2^64, little-endian */
4:	vadd.i64	d16, d16, d17
	vadd.i64	d17, d18, d19
	vadd.i64	d18, d20, d21
	vadd.i64	d19, d22, d23
	vst1.8		{d16-d19}, [r3]
	vpop		{d8-d15}
	bx		lr
	.size	nh_neon, . - nh_neon

	.section .note.GNU-stack, "", %progbits
