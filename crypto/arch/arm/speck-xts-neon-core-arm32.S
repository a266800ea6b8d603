/* SPDX-License-Identifier: MIT */
/*
 * Speck128 and Speck64 in XTS and ECB mode with ARMv7 NEON (AArch32),
 * 128 bytes per chunk: 8 Speck128 blocks or 16 Speck64 blocks.
 *
 * Variants (ARMv7-A with NEON, e.g. Cortex-A7/A9/A15; called only when
 * HWCAP_NEON is set, see crypto/cpu.c):
 *   speck128_xts_{encrypt,decrypt}_neon   Speck128/128, /192, /256 XTS
 *   speck64_xts_{encrypt,decrypt}_neon    Speck64/96, /128 XTS
 *   speck128_ecb_{encrypt,decrypt}_neon   Speck128 ECB
 *   speck64_ecb_{encrypt,decrypt}_neon    Speck64 ECB
 *
 * C prototypes and contract: speck-xts-neon.h, as for the AArch64
 * core; the fifth argument is on the stack (AAPCS). Every entry point
 * takes the child context first (struct speck128_tfm_ctx or
 * speck64_tfm_ctx, crypto/speck/speck.h) and reads the round count and
 * the round keys from it at the SPECK*_CTX_* offsets that header
 * defines; nbytes is a nonzero multiple of 128; the tweak (16 or 8 bytes,
 * already encrypted with the tweak key) is updated to the one for the
 * next block.
 *
 * Technique: the shape of the Linux kernel's former
 * arch/arm/crypto/speck-neon-core.S (E. Biggers, 2018): the y and x words
 * of the chunk are de-interleaved into Y0-Y3 / X0-X3 (VSWP of d halves
 * for 64-bit words, VUZP.32 for 32-bit ones) so a Speck round is 7
 * instructions per pair of q registers for every block at once; the
 * 8-bit rotate is VTBL on each d half. XTS tweaks are computed with
 * vector shifts plus a 16-byte VTBL reduction table, parked on the stack
 * and XORed in before and after. Changes here: Speck128 round keys are
 * broadcast to both lanes once per call into a stack copy (AArch32 has
 * no 64-bit VLD1 to all lanes), and the round loop does two rounds per
 * pass. Written from the Speck paper (eprint 2013/404) and IEEE
 * 1619-2007; no kernel code was copied.
 *
 * Constant time: only add, rotate, xor and fixed permutations. The stack
 * copies of round keys and tweaks are wiped before returning.
 */

#include "crypto/arch/arm/speck-xts-neon.h"

	.syntax	unified
	.arm
	.fpu	neon
	.text

	/* arguments (AAPCS: the fifth on the stack) */
	CTX		.req	r0	/* const struct speck{128,64}_tfm_ctx * */
	DST		.req	r1	/* uint8_t *dst */
	SRC		.req	r2	/* const uint8_t *src */
	NBYTES		.req	r3	/* size_t nbytes, multiple of 128 */
	TWEAK		.req	r5	/* uint8_t *tweak (XTS only); stack */

	/* scalars */
	NROUNDS		.req	r4	/* ctx->nrounds (32-34 or 26-27) */
	KEYPTR		.req	r6	/* walks the round keys */
	LOOPS		.req	r7	/* 4-round passes left in this chunk */
	KEYSTEP		.req	r8	/* +-4 (Speck64 keys read in place) */
	SAVED_SP	.req	r9	/* sp on entry, after the pushes */
	KEYS		.req	r10	/* first round key of a chunk */
	QUADS		.req	r11	/* NROUNDS / 4 */
	BUF		.req	r12	/* walks the tweak buffer; scratch */

	/* the chunk, de-interleaved: Yk in q(2k), Xk in q(2k+1) */
	Y0		.req	q0
	X0		.req	q1
	X0_L		.req	d2
	X0_H		.req	d3
	Y1		.req	q2
	X1		.req	q3
	X1_L		.req	d6
	X1_H		.req	d7
	Y2		.req	q4
	X2		.req	q5
	X2_L		.req	d10
	X2_H		.req	d11
	Y3		.req	q6
	X3		.req	q7
	X3_L		.req	d14
	X3_H		.req	d15

	KEY		.req	q8	/* round key in every lane */
	KEY_L		.req	d16
	KEY_H		.req	d17
	ROT		.req	d18	/* VTBL indices for the 8-bit rotate */
	GFTAB		.req	d19	/* tweak reduction by carry-out value */
	TA		.req	q10	/* tweak(s) of the even block (pair) */
	TA_L		.req	d20
	TA_H		.req	d21
	TB		.req	q11	/* tweak(s) of the odd block (pair) */
	TB_L		.req	d22
	TB_H		.req	d23
	TMP0		.req	q12
	TMP0_L		.req	d24
	TMP0_H		.req	d25
	TMP1		.req	q13
	TMP2		.req	q14
	TMP3		.req	q15

	/*
	 * Stack frame, 16-byte aligned: 128 bytes of parked tweaks (XTS),
	 * then the broadcast round keys (Speck128); a multiple of 32 bytes,
	 * as the wipe stores 32 at a time.
	 */
	.set	MAX_ROUNDS, 34

	.align	4
/* VTBL indices: out[i] = in[idx[i]] rotates each lane right/left by 8 */
.Lror64_8:
	.byte	1, 2, 3, 4, 5, 6, 7, 0
.Lrol64_8:
	.byte	7, 0, 1, 2, 3, 4, 5, 6
.Lror32_8:
	.byte	1, 2, 3, 0, 5, 6, 7, 4
.Lrol32_8:
	.byte	3, 0, 1, 2, 7, 4, 5, 6
/* GF(2^128) times x: the carry out of the top bit (0/1) -> 0 or 0x87 */
.Lgf128_x:
	.byte	0, 0x87, 0, 0, 0, 0, 0, 0
/* GF(2^64) times x^2: the top two bits b -> b * 0x1b carry-less */
.Lgf64_x2:
	.byte	0, 0x1b, 0x36, 0x2d, 0, 0, 0, 0

/* x = (ror(x, 8) + y) ^ k; y = rol(y, 3) ^ x, on all blocks; lanes n */
.macro speck_round n
	vtbl.8		X0_L, {X0_L}, ROT
	vtbl.8		X0_H, {X0_H}, ROT
	vtbl.8		X1_L, {X1_L}, ROT
	vtbl.8		X1_H, {X1_H}, ROT
	vtbl.8		X2_L, {X2_L}, ROT
	vtbl.8		X2_H, {X2_H}, ROT
	vtbl.8		X3_L, {X3_L}, ROT
	vtbl.8		X3_H, {X3_H}, ROT
	vadd.i\n	X0, X0, Y0
	vadd.i\n	X1, X1, Y1
	vadd.i\n	X2, X2, Y2
	vadd.i\n	X3, X3, Y3
	veor		X0, X0, KEY
	veor		X1, X1, KEY
	veor		X2, X2, KEY
	veor		X3, X3, KEY
	vshl.i\n	TMP0, Y0, #3
	vshl.i\n	TMP1, Y1, #3
	vshl.i\n	TMP2, Y2, #3
	vshl.i\n	TMP3, Y3, #3
	vsri.\n		TMP0, Y0, #(\n - 3)
	vsri.\n		TMP1, Y1, #(\n - 3)
	vsri.\n		TMP2, Y2, #(\n - 3)
	vsri.\n		TMP3, Y3, #(\n - 3)
	veor		Y0, TMP0, X0
	veor		Y1, TMP1, X1
	veor		Y2, TMP2, X2
	veor		Y3, TMP3, X3
.endm

/* the inverse: y = ror(y ^ x, 3); x = rol((x ^ k) - y, 8) */
.macro speck_unround n
	veor		TMP0, Y0, X0
	veor		TMP1, Y1, X1
	veor		TMP2, Y2, X2
	veor		TMP3, Y3, X3
	vshr.u\n	Y0, TMP0, #3
	vshr.u\n	Y1, TMP1, #3
	vshr.u\n	Y2, TMP2, #3
	vshr.u\n	Y3, TMP3, #3
	vsli.\n		Y0, TMP0, #(\n - 3)
	vsli.\n		Y1, TMP1, #(\n - 3)
	vsli.\n		Y2, TMP2, #(\n - 3)
	vsli.\n		Y3, TMP3, #(\n - 3)
	veor		X0, X0, KEY
	veor		X1, X1, KEY
	veor		X2, X2, KEY
	veor		X3, X3, KEY
	vsub.i\n	X0, X0, Y0
	vsub.i\n	X1, X1, Y1
	vsub.i\n	X2, X2, Y2
	vsub.i\n	X3, X3, Y3
	vtbl.8		X0_L, {X0_L}, ROT
	vtbl.8		X0_H, {X0_H}, ROT
	vtbl.8		X1_L, {X1_L}, ROT
	vtbl.8		X1_H, {X1_H}, ROT
	vtbl.8		X2_L, {X2_L}, ROT
	vtbl.8		X2_H, {X2_H}, ROT
	vtbl.8		X3_L, {X3_L}, ROT
	vtbl.8		X3_H, {X3_H}, ROT
.endm

/* the next round key into both (Speck128) or all four (Speck64) lanes */
.macro load_key n
.if \n == 64
	vld1.64		{KEY_L-KEY_H}, [KEYPTR:128]!
.else
	vld1.32		{KEY_L[], KEY_H[]}, [KEYPTR], KEYSTEP
.endif
.endm

.macro one_round n, decrypting
	load_key \n
.if \decrypting
	speck_unround \n
.else
	speck_round \n
.endif
.endm

/*
 * All NROUNDS rounds on Y0-Y3/X0-X3: NROUNDS % 4 first, then four per
 * loop pass (the loop branch would otherwise cost 0.25 instructions/byte).
 */
.macro all_rounds n, decrypting
	mov		KEYPTR, KEYS
	mov		LOOPS, QUADS
	tst		NROUNDS, #2
	beq		5f
	one_round \n, \decrypting
	one_round \n, \decrypting
5:
	tst		NROUNDS, #1
	beq		6f
	one_round \n, \decrypting
6:
	one_round \n, \decrypting
	one_round \n, \decrypting
	one_round \n, \decrypting
	one_round \n, \decrypting
	subs		LOOPS, LOOPS, #1
	bne		6b
.endm

/* tn = tp * x in GF(2^128), little-endian (IEEE 1619); clobbers TMP0 */
.macro gf128_double tn, tn_l, tn_h, tp
	vshr.u64	TMP0, \tp, #63		@ carries out of each half
	vshl.i64	\tn, \tp, #1
	veor		\tn_h, \tn_h, TMP0_L	@ low half's carry into the high
	vtbl.8		TMP0_H, {GFTAB}, TMP0_H	@ high half's: reduce
	veor		\tn_l, \tn_l, TMP0_H
.endm

/* both 64-bit lanes: tn = tp * x^2 in GF(2^64); clobbers TMP0 */
.macro gf64_double2 tn, tp
	vshr.u64	TMP0, \tp, #62
	vshl.i64	\tn, \tp, #2
	vtbl.8		TMP0_L, {GFTAB}, TMP0_L
	vtbl.8		TMP0_H, {GFTAB}, TMP0_H
	veor		\tn, \tn, TMP0
.endm

/* TB = TA advanced by one block (Speck128) or two (Speck64 pairs) */
.macro tweak_b_from_a n
.if \n == 64
	gf128_double	TB, TB_L, TB_H, TA
.else
	gf64_double2	TB, TA
.endif
.endm

.macro tweak_a_from_b n
.if \n == 64
	gf128_double	TA, TA_L, TA_H, TB
.else
	gf64_double2	TA, TB
.endif
.endm

/*
 * Load 32 bytes into qe:qo; for XTS park their tweaks (TA, TB) in the
 * buffer, XOR them in and step TA past them.
 */
.macro load_pair n, xts, qe, qo
	vld1.8		{\qe-\qo}, [SRC]!
.if \xts
	tweak_b_from_a \n
	vst1.8		{TA-TB}, [BUF:128]!
	veor		\qe, \qe, TA
	veor		\qo, \qo, TB
	tweak_a_from_b \n
.endif
.endm

/* XOR the parked tweaks into qe:qo (XTS) and store them */
.macro store_pair xts, qe, qo
.if \xts
	vld1.8		{TMP0-TMP1}, [BUF:128]!
	veor		\qe, \qe, TMP0
	veor		\qo, \qo, TMP1
.endif
	vst1.8		{\qe-\qo}, [DST]!
.endm

/* block order <-> word vectors: Yk = the y words, Xk = the x words */
.macro split n
.if \n == 64
	vswp		d1, d2
	vswp		d5, d6
	vswp		d9, d10
	vswp		d13, d14
.else
	vuzp.32		q0, q1
	vuzp.32		q2, q3
	vuzp.32		q4, q5
	vuzp.32		q6, q7
.endif
.endm

.macro join n
.if \n == 64
	vswp		d1, d2
	vswp		d5, d6
	vswp		d9, d10
	vswp		d13, d14
.else
	vzip.32		q0, q1
	vzip.32		q2, q3
	vzip.32		q4, q5
	vzip.32		q6, q7
.endif
.endm

/*
 * The body of every entry point. n: word size (64 Speck128, 32 Speck64);
 * xts: 1 XTS, 0 ECB. Decryption uses the round keys last to first.
 */
.macro speck_crypt n, decrypting, xts
	.set	KEY_BUF, \xts * 128
.if \n == 64
	.set	FRAME, KEY_BUF + MAX_ROUNDS * 16
.else
	.set	FRAME, KEY_BUF
.endif
	push		{r4-r11}
	vpush		{d8-d15}
.if \n == 64
	.set	KEYS_AT, SPECK128_CTX_ROUND_KEYS
	ldr		NROUNDS, [CTX, #SPECK128_CTX_NROUNDS]
.else
	.set	KEYS_AT, SPECK64_CTX_ROUND_KEYS
	ldr		NROUNDS, [CTX, #SPECK64_CTX_NROUNDS]
.endif
.if \xts
	ldr		TWEAK, [sp, #96]
.endif
	mov		SAVED_SP, sp
	sub		BUF, sp, #FRAME
	bic		BUF, BUF, #15
	mov		sp, BUF
	lsr		QUADS, NROUNDS, #2

.if \decrypting
	adrl		BUF, .Lrol\n\()_8
.else
	adrl		BUF, .Lror\n\()_8
.endif
	vld1.8		{ROT}, [BUF]

	/* round keys: where a chunk starts and which way they run */
.if \n == 64
	/* broadcast each into a 16-byte slot, in the order they are used */
.if \decrypting
	add		KEYPTR, CTX, NROUNDS, lsl #3
	sub		KEYPTR, KEYPTR, #8
.if KEYS_AT
	add		KEYPTR, KEYPTR, #KEYS_AT
.endif
	mov		KEYSTEP, #-8
.else
	add		KEYPTR, CTX, #KEYS_AT
	mov		KEYSTEP, #8
.endif
	add		KEYS, sp, #KEY_BUF
	mov		BUF, KEYS
	lsr		LOOPS, NROUNDS, #1
	tst		NROUNDS, #1
	beq		3f
	vld1.64		{d24}, [KEYPTR], KEYSTEP
	vmov		d25, d24
	vst1.64		{d24-d25}, [BUF:128]!
3:	/* then two per pass */
	vld1.64		{d24}, [KEYPTR], KEYSTEP
	vld1.64		{d26}, [KEYPTR], KEYSTEP
	vmov		d25, d24
	vmov		d27, d26
	vst1.64		{d24-d27}, [BUF:128]!
	subs		LOOPS, LOOPS, #1
	bne		3b
.else
.if \decrypting
	add		KEYS, CTX, NROUNDS, lsl #2
	sub		KEYS, KEYS, #4
.if KEYS_AT
	add		KEYS, KEYS, #KEYS_AT
.endif
	mov		KEYSTEP, #-4
.else
	add		KEYS, CTX, #KEYS_AT
	mov		KEYSTEP, #4
.endif
.endif

.if \xts
.if \n == 64
	adrl		BUF, .Lgf128_x
	vld1.8		{GFTAB}, [BUF]
	vld1.8		{TA}, [TWEAK]
.else
	adrl		BUF, .Lgf64_x2
	vld1.8		{GFTAB}, [BUF]
	/* TA = (T, T * x); from then on each lane steps by x^2 */
	vld1.8		{TA_L}, [TWEAK]
	vshr.u64	TMP0_L, TA_L, #63
	vshl.i64	TA_H, TA_L, #1
	vtbl.8		TMP0_L, {GFTAB}, TMP0_L	@ 1 -> 0x1b (table entry 1)
	veor		TA_H, TA_H, TMP0_L
.endif
.endif

2:
	mov		BUF, sp
	load_pair	\n, \xts, q0, q1
	load_pair	\n, \xts, q2, q3
	load_pair	\n, \xts, q4, q5
	load_pair	\n, \xts, q6, q7
	split		\n
	all_rounds	\n, \decrypting
	join		\n
	mov		BUF, sp
	store_pair	\xts, q0, q1
	store_pair	\xts, q2, q3
	store_pair	\xts, q4, q5
	store_pair	\xts, q6, q7
	subs		NBYTES, NBYTES, #128
	bne		2b

.if \xts
.if \n == 64
	vst1.8		{TA}, [TWEAK]
.else
	vst1.8		{TA_L}, [TWEAK]
.endif
.endif
	/* wipe the stack copies of tweaks and round keys */
	vmov.i8		q12, #0
	vmov.i8		q13, #0
	mov		BUF, sp
	.rept	FRAME / 32
	vst1.8		{TMP0-TMP1}, [BUF:128]!
	.endr
	mov		sp, SAVED_SP
	vpop		{d8-d15}
	pop		{r4-r11}
	bx		lr
.endm

.macro entry name, n, decrypting, xts
	.align	4
	.global	\name
	.type	\name, %function
\name:
	speck_crypt \n, \decrypting, \xts
	.size	\name, . - \name
.endm

	entry	speck128_xts_encrypt_neon, 64, 0, 1
	entry	speck128_xts_decrypt_neon, 64, 1, 1
	entry	speck64_xts_encrypt_neon, 32, 0, 1
	entry	speck64_xts_decrypt_neon, 32, 1, 1
	entry	speck128_ecb_encrypt_neon, 64, 0, 0
	entry	speck128_ecb_decrypt_neon, 64, 1, 0
	entry	speck64_ecb_encrypt_neon, 32, 0, 0
	entry	speck64_ecb_decrypt_neon, 32, 1, 0

	.section .note.GNU-stack, "", %progbits
