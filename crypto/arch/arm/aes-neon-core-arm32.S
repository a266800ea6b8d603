/* SPDX-License-Identifier: MIT */
/*
 * Single-block AES for ARMv7 NEON without the Crypto Extensions (see
 * aes-neon.h and aes-neon-core.c, which holds the tables and says how
 * the rounds work). Assembly because the compiler's intrinsics copied
 * every 32-byte table part between d registers before each VTBL (about
 * twice the instructions a round).
 *
 * A round: ShiftRows as two VTBL.8 of the state; SubBytes as eight
 * 32-byte parts of the S-box loaded from its fixed address into
 * d16-d19, each looked up by VTBX.8 (VTBL.8 for the first) with the
 * index lowered by 32 before each part (an index out of range leaves
 * the lane alone): 16 lookups, 8 loads, 7 subtractions; MixColumns on
 * 32-bit columns (10 instructions). No load address depends on data.
 *
 * Registers: q0 state, q1 index, q2 SubBytes out, q3 the ShiftRows
 * permutation, q8-q9 a table part, q10 32 in each byte, q11 0x1b in
 * each byte, q12-q13 temporaries, q14 round key; r0 round keys, r1 dst,
 * r2 src, r3 the table, r4 rounds left, ip the table part.
 */
#include "crypto/arch/arm/aes-neon.h"

	.syntax	unified
	.arm
	.fpu	neon
	.text

/* reg = address of sym: PC-relative, the offset word at lit */
.macro	table_addr reg, lit, pclabel
	ldr		\reg, \lit
\pclabel:
	add		\reg, pc, \reg
.endm

/* q2 = SubBytes(ShiftRows(q0)) with the S-box at \tab, q3 the shuffle */
.macro	sub_shift tab
	vtbl.8		d2, {d0-d1}, d6
	vtbl.8		d3, {d0-d1}, d7
	mov		ip, \tab
	vld1.8		{d16-d19}, [ip:128]!
	vtbl.8		d4, {d16-d19}, d2
	vtbl.8		d5, {d16-d19}, d3
	.rept	7
	vsub.i8		q1, q1, q10
	vld1.8		{d16-d19}, [ip:128]!
	vtbx.8		d4, {d16-d19}, d2
	vtbx.8		d5, {d16-d19}, d3
	.endr
.endm

/* \v = each byte of \v times x in GF(2^8); \t clobbered */
.macro	xtime v, t
	vshr.s8		\t, \v, #7
	vadd.i8		\v, \v, \v
	vand		\t, \t, q11
	veor		\v, \v, \t
.endm

/* q0 = MixColumns(q2): b = 2t ^ rot1(a) ^ rot2(t), t = a ^ rot1(a) */
.macro	mix_columns
	vshl.i32	q12, q2, #24
	vsri.32		q12, q2, #8
	veor		q13, q2, q12
	vrev32.16	q0, q13
	veor		q0, q0, q12
	xtime		q13, q12
	veor		q0, q0, q13
.endm

/* key material leaves no register behind */
.macro	wipe_regs
	vmov.i8		q0, #0
	vmov.i8		q1, #0
	vmov.i8		q2, #0
	vmov.i8		q8, #0
	vmov.i8		q9, #0
	vmov.i8		q12, #0
	vmov.i8		q13, #0
	vmov.i8		q14, #0
.endm

/* common start: constants, the shuffle at \idx, q0 = src */
.macro	start idx
	vld1.8		{d6-d7}, [\idx]
	vmov.i8		q10, #32
	vmov.i8		q11, #0x1b
	vld1.8		{d0-d1}, [r2]
.endm

/* the last round (no MixColumns), dst, and no key left in registers */
.macro	finish
	sub_shift	r3
	vld1.8		{d28-d29}, [r0]
	veor		q2, q2, q14
	vst1.8		{d4-d5}, [r1]
	wipe_regs
.endm

/* void aes_neon_encrypt_block(const void *key, uint8_t *dst, const uint8_t *src) */
	.align	4
	.global	aes_neon_encrypt_block
	.type	aes_neon_encrypt_block, %function
aes_neon_encrypt_block:
	push		{r4, lr}
	ldr		r4, [r0, #AES_NEON_ROUNDS_OFFSET]
	table_addr	r3, .Lenc_sbox, .Lenc_pc0
	table_addr	ip, .Lenc_idx, .Lenc_pc1
	start		ip
	vld1.8		{d28-d29}, [r0]!
	veor		q0, q0, q14
	sub		r4, r4, #1
1:	sub_shift	r3
	mix_columns
	vld1.8		{d28-d29}, [r0]!
	veor		q0, q0, q14
	subs		r4, r4, #1
	bne		1b
	finish
	pop		{r4, pc}
	.align	2
.Lenc_sbox:
	.word	aes_neon_sbox - (.Lenc_pc0 + 8)
.Lenc_idx:
	.word	aes_neon_shift_rows_idx - (.Lenc_pc1 + 8)
	.size	aes_neon_encrypt_block, . - aes_neon_encrypt_block

/*
 * void aes_neon_decrypt_block(const void *key, uint8_t *dst, const uint8_t *src):
 * the round keys backwards (r5 = -16); InvMixColumns is MixColumns after
 * a ^= 4(a ^ rot2(a))
 */
	.align	4
	.global	aes_neon_decrypt_block
	.type	aes_neon_decrypt_block, %function
aes_neon_decrypt_block:
	push		{r4, r5}
	ldr		r4, [r0, #AES_NEON_ROUNDS_OFFSET]
	add		r0, r0, r4, lsl #4
	mvn		r5, #15
	table_addr	r3, .Ldec_sbox, .Ldec_pc0
	table_addr	ip, .Ldec_idx, .Ldec_pc1
	start		ip
	vld1.8		{d28-d29}, [r0], r5
	veor		q0, q0, q14
	sub		r4, r4, #1
1:	sub_shift	r3
	vld1.8		{d28-d29}, [r0], r5
	veor		q2, q2, q14
	vrev32.16	q12, q2
	veor		q12, q12, q2
	xtime		q12, q13
	xtime		q12, q13
	veor		q2, q2, q12
	mix_columns
	subs		r4, r4, #1
	bne		1b
	finish
	pop		{r4, r5}
	bx		lr
	.align	2
.Ldec_sbox:
	.word	aes_neon_inv_sbox - (.Ldec_pc0 + 8)
.Ldec_idx:
	.word	aes_neon_inv_shift_rows_idx - (.Ldec_pc1 + 8)
	.size	aes_neon_decrypt_block, . - aes_neon_decrypt_block

	.section .note.GNU-stack, "", %progbits
