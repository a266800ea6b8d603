/* SPDX-License-Identifier: MIT */
/*
 * AES-128/192/256 with the ARMv8 Crypto Extensions in AArch32 state
 * (crypto-neon-fp-armv8): ECB, CBC and CFB decryption, CTR and XTS,
 * 4 blocks in flight per pass (two passes per 128-byte chunk).
 *
 * Variants (ARMv8-A CPUs running 32-bit code, HWCAP2_AES, e.g. Cortex-A53
 * or A72 under an armhf system; called only then, see crypto/cpu.c):
 *   aes_{encrypt,decrypt}_ce          one block (the cipher)
 *   aes_{encrypt,decrypt}_blocks_ce   any number of blocks, 0 too (4, then 1 by 1)
 *   aes_ecb_{encrypt,decrypt}_ce      the same on nbytes, a multiple of 64
 *   aes_cbc_decrypt_ce                CBC decryption, nbytes a multiple of 64
 *   aes_cfb_decrypt_ce                CFB128 decryption, nbytes a multiple of 64
 *   aes_ctr_crypt_ce                  CTR, 128-bit big-endian counter
 *   aes_xts_{encrypt,decrypt}_ce      XTS, whole blocks, tweak carried
 *   aes_ce_sub_word                   SubWord() for the key expansion
 *   aes_ce_invert_round_key           InvMixColumns() of a round key
 *
 * C prototypes and contract: aes-ce.h, as for the AArch64 core;
 * the fifth argument is on the stack (AAPCS). nbytes is a nonzero
 * multiple of 128 (64 suffices here). The cipher context comes first;
 * the round count and keys are read from it at the AES_CE_CTX_* offsets
 * of that header.
 *
 * Technique: AESE/AESMC (AESD/AESIMC) do one round per pair (ARM ARM,
 * A32 "AESE"); 16 q registers cannot hold 15 round keys next to the
 * blocks, so the keys stream through q8-q9 two at a time (one VLD1 per
 * two rounds, from the same L1 lines each pass) and the code enters the
 * sequence at the pair for nrounds. XTS tweaks are doubled as in the
 * AArch64 core (VSHR.S64 #63 carries, VAND { 1, 0x87 }, VEXT swaps the
 * halves, VADD = shift left). Only q0-q3 and q8-q15 are used, so the
 * callee-saved d8-d15 need no saving.
 *
 * Constant time: AESE/AESD/AESMC/AESIMC are among the instructions the
 * ARM ARM lists as data-independent in time (FEAT_DIT); no table lookups;
 * branches depend only on nrounds, lengths and the public CTR counter.
 */

#include "crypto/arch/arm/aes-ce.h"

	.syntax	unified
	.arch	armv8-a
	.fpu	crypto-neon-fp-armv8
	.arm
	.text

	/* arguments */
	CTX		.req	r0	/* const struct aes_ce_ctx * */
	DST		.req	r1	/* uint8_t *dst */
	SRC		.req	r2	/* const uint8_t *src */
	LEN		.req	r3	/* size_t nbytes, or nblocks */
	CHAIN		.req	r4	/* uint8_t *iv / ctr / tweak; stack */

	/* scalars */
	NROUNDS		.req	r5	/* ctx->nrounds: 10, 12 or 14 */
	TMP		.req	r6	/* scratch address */
	CTR_W0		.req	r6	/* CTR: counter bits 127..96, native */
	CTR_W1		.req	r7
	CTR_W2		.req	r8
	CTR_W3		.req	r9	/* bits 31..0 */
	CTR_T0		.req	r10	/* byte-swapped words */
	CTR_T1		.req	r11
	KEYPTR		.req	ip	/* walks the round keys */

	/*
	 * Vectors: q0-q3 the 4 blocks of a pass; q8-q9 the round key pair,
	 * q10 the last key; q11 the XTS mask { 1, 0x87 } or the CBC chaining
	 * value; q12-q15 XTS tweaks, CBC/CFB ciphertext copies or CTR input.
	 */
	MASK		.req	q11
	CBC_IV		.req	q11

/* one full round with key \k on blocks q\b, \rest...: aese+aesmc or aesd+aesimc */
.macro round op, mix, k, b, rest:vararg
	\op\().8	q\b, \k
	\mix\().8	q\b, q\b
.ifnb \rest
	round		\op, \mix, \k, \rest
.endif
.endm

/* the last round: AddRoundKey(Kn-1), (Inv)ShiftRows, (Inv)SubBytes, AddRoundKey(Kn) */
.macro last_round op, k1, k2, b, rest:vararg
	\op\().8	q\b, \k1
	veor		q\b, q\b, \k2
.ifnb \rest
	last_round	\op, \k1, \k2, \rest
.endif
.endm

/* the whole cipher on blocks q\b..., keys read two by two from CTX + \keys */
.macro cipher op, mix, keys, b:vararg
	add		KEYPTR, CTX, #\keys
	vld1.8		{d16-d19}, [KEYPTR]!
	cmp		NROUNDS, #12
	blt		83f
	beq		84f
	round		\op, \mix, q8, \b
	round		\op, \mix, q9, \b
	vld1.8		{d16-d19}, [KEYPTR]!
84:	round		\op, \mix, q8, \b
	round		\op, \mix, q9, \b
	vld1.8		{d16-d19}, [KEYPTR]!
83:	round		\op, \mix, q8, \b
	round		\op, \mix, q9, \b
	vld1.8		{d16-d19}, [KEYPTR]!
	round		\op, \mix, q8, \b
	round		\op, \mix, q9, \b
	vld1.8		{d16-d19}, [KEYPTR]!
	round		\op, \mix, q8, \b
	round		\op, \mix, q9, \b
	vld1.8		{d16-d19}, [KEYPTR]!
	round		\op, \mix, q8, \b
	round		\op, \mix, q9, \b
	vld1.8		{d16-d19}, [KEYPTR]!
	round		\op, \mix, q8, \b
	vld1.8		{d20-d21}, [KEYPTR]
	last_round	\op, q9, q10, \b
.endm

.macro encrypt b:vararg
	cipher		aese, aesmc, AES_CE_CTX_ENC, \b
.endm

.macro decrypt b:vararg
	cipher		aesd, aesimc, AES_CE_CTX_DEC, \b
.endm

/* \out = \in * x in GF(2^128), little-endian (IEEE 1619); \tmp clobbered */
.macro next_tweak out, in, tmp
	vshr.s64	\tmp, \in, #63
	vand		\tmp, \tmp, MASK
	vadd.i64	\out, \in, \in
	vext.8		\tmp, \tmp, \tmp, #8
	veor		\out, \out, \tmp
.endm

/* push r4-r11, fetch NROUNDS and (chain = 1) the stacked argument */
.macro prologue chain=0
	push		{r4-r11}
	ldr		NROUNDS, [CTX, #AES_CE_CTX_ROUNDS]
.if \chain
	ldr		CHAIN, [sp, #32]
.endif
.endm

.macro epilogue
	pop		{r4-r11}
	bx		lr
.endm

.macro entry name
	.align		4
	.global		\name
	.type		\name, %function
\name:
.endm

.macro end name
	.size		\name, . - \name
.endm

/* the cipher on one block */
.macro single name, dir
entry	\name
	prologue
	vld1.8		{d0-d1}, [SRC]
	\dir		0
	vst1.8		{d0-d1}, [DST]
	epilogue
end	\name
.endm

	single		aes_encrypt_ce, encrypt
	single		aes_decrypt_ce, decrypt

/*
 * ECB: 4 blocks per pass, then the rest one by one. The mode's entry
 * takes bytes and falls into the cipher's, which takes blocks (a
 * second label in the same function: no padding between them).
 */
.macro ecb name, blocks_name, dir
entry	\name
	lsr		LEN, LEN, #4
	.global		\blocks_name
	.type		\blocks_name, %function
\blocks_name:
	prologue
	subs		LEN, LEN, #4
	blo		2f
1:	vld1.8		{d0-d3}, [SRC]!
	vld1.8		{d4-d7}, [SRC]!
	\dir		0, 1, 2, 3
	vst1.8		{d0-d3}, [DST]!
	vst1.8		{d4-d7}, [DST]!
	subs		LEN, LEN, #4
	bhs		1b
2:	adds		LEN, LEN, #4
	beq		4f
3:	vld1.8		{d0-d1}, [SRC]!
	\dir		0
	vst1.8		{d0-d1}, [DST]!
	subs		LEN, LEN, #1
	bne		3b
4:	epilogue
end	\blocks_name
end	\name
.endm

	ecb		aes_ecb_encrypt_ce, aes_encrypt_blocks_ce, encrypt
	ecb		aes_ecb_decrypt_ce, aes_decrypt_blocks_ce, decrypt

/*
 * CBC decryption: P[i] = D(C[i]) ^ C[i-1]. The ciphertext is loaded a
 * second time into q12-q15 before any store, so dst == src works.
 */
entry	aes_cbc_decrypt_ce
	prologue	chain=1
	vld1.8		{d22-d23}, [CHAIN]
1:	vld1.8		{d0-d3}, [SRC]!
	vld1.8		{d4-d7}, [SRC]!
	sub		TMP, SRC, #64
	vld1.8		{d24-d27}, [TMP]!
	vld1.8		{d28-d31}, [TMP]
	decrypt		0, 1, 2, 3
	veor		q0, q0, CBC_IV
	veor		q1, q1, q12
	veor		q2, q2, q13
	veor		q3, q3, q14
	vmov		CBC_IV, q15
	vst1.8		{d0-d3}, [DST]!
	vst1.8		{d4-d7}, [DST]!
	subs		LEN, LEN, #64
	bne		1b
	vst1.8		{d22-d23}, [CHAIN]
	epilogue
end	aes_cbc_decrypt_ce

/*
 * CFB decryption: P[i] = C[i] ^ E(C[i-1]), C[-1] = iv; q12-q15 keep the
 * ciphertext (loaded before any store, so dst == src works) and q0 enters
 * each pass holding the previous pass's last ciphertext block.
 */
entry	aes_cfb_decrypt_ce
	prologue	chain=1
	vld1.8		{d0-d1}, [CHAIN]
1:	vld1.8		{d24-d27}, [SRC]!
	vld1.8		{d28-d31}, [SRC]!
	vmov		q1, q12
	vmov		q2, q13
	vmov		q3, q14
	encrypt		0, 1, 2, 3
	veor		q0, q0, q12
	veor		q1, q1, q13
	veor		q2, q2, q14
	veor		q3, q3, q15
	vst1.8		{d0-d3}, [DST]!
	vst1.8		{d4-d7}, [DST]!
	vmov		q0, q15
	subs		LEN, LEN, #64
	bne		1b
	vst1.8		{d0-d1}, [CHAIN]
	epilogue
end	aes_cfb_decrypt_ce

/*
 * CTR: the counter is kept as four native words (W0 most significant);
 * each block's value is byte-swapped into its d registers.
 */
.macro ctr_block lo, hi
	rev		CTR_T0, CTR_W0
	rev		CTR_T1, CTR_W1
	vmov		\lo, CTR_T0, CTR_T1
	rev		CTR_T0, CTR_W2
	rev		CTR_T1, CTR_W3
	vmov		\hi, CTR_T0, CTR_T1
	adds		CTR_W3, CTR_W3, #1
	adcs		CTR_W2, CTR_W2, #0
	adcs		CTR_W1, CTR_W1, #0
	adc		CTR_W0, CTR_W0, #0
.endm

entry	aes_ctr_crypt_ce
	prologue	chain=1
	/* single loads: the counter need not be word-aligned */
	ldr		CTR_W0, [CHAIN]
	ldr		CTR_W1, [CHAIN, #4]
	ldr		CTR_W2, [CHAIN, #8]
	ldr		CTR_W3, [CHAIN, #12]
	rev		CTR_W0, CTR_W0
	rev		CTR_W1, CTR_W1
	rev		CTR_W2, CTR_W2
	rev		CTR_W3, CTR_W3
1:	ctr_block	d0, d1
	ctr_block	d2, d3
	ctr_block	d4, d5
	ctr_block	d6, d7
	encrypt		0, 1, 2, 3
	vld1.8		{d24-d27}, [SRC]!
	vld1.8		{d28-d31}, [SRC]!
	veor		q0, q0, q12
	veor		q1, q1, q13
	veor		q2, q2, q14
	veor		q3, q3, q15
	vst1.8		{d0-d3}, [DST]!
	vst1.8		{d4-d7}, [DST]!
	subs		LEN, LEN, #64
	bne		1b
	rev		CTR_W0, CTR_W0
	rev		CTR_W1, CTR_W1
	rev		CTR_W2, CTR_W2
	rev		CTR_W3, CTR_W3
	str		CTR_W0, [CHAIN]
	str		CTR_W1, [CHAIN, #4]
	str		CTR_W2, [CHAIN, #8]
	str		CTR_W3, [CHAIN, #12]
	epilogue
end	aes_ctr_crypt_ce

/*
 * XTS: tweaks T0..T3 of a pass in q12-q15 (q0 is their scratch before
 * the data is loaded), C = E(P ^ T) ^ T, and T0 of the next pass = T3 * x.
 */
.macro xts name, dir
entry	\name
	prologue	chain=1
	vmov.i32	MASK, #0
	mov		TMP, #1
	vmov.32		d22[0], TMP
	mov		TMP, #0x87
	vmov.32		d23[0], TMP
	vld1.8		{d24-d25}, [CHAIN]
1:	next_tweak	q13, q12, q0
	next_tweak	q14, q13, q0
	next_tweak	q15, q14, q0
	vld1.8		{d0-d3}, [SRC]!
	vld1.8		{d4-d7}, [SRC]!
	veor		q0, q0, q12
	veor		q1, q1, q13
	veor		q2, q2, q14
	veor		q3, q3, q15
	\dir		0, 1, 2, 3
	veor		q0, q0, q12
	veor		q1, q1, q13
	veor		q2, q2, q14
	veor		q3, q3, q15
	vst1.8		{d0-d3}, [DST]!
	vst1.8		{d4-d7}, [DST]!
	next_tweak	q12, q15, q0
	subs		LEN, LEN, #64
	bne		1b
	vst1.8		{d24-d25}, [CHAIN]
	epilogue
end	\name
.endm

	xts		aes_xts_encrypt_ce, encrypt
	xts		aes_xts_decrypt_ce, decrypt

/*
 * SubWord(w): AESE with an all-zero state and w in every column is
 * SubBytes(ShiftRows(w,w,w,w)); ShiftRows moves nothing when the columns
 * are equal. Key material is cleared from the vectors before returning.
 */
entry	aes_ce_sub_word
	vdup.32		q1, r0
	vmov.i8		q0, #0
	aese.8		q0, q1
	vmov.32		r0, d0[0]
	vmov.i8		q0, #0
	vmov.i8		q1, #0
	bx		lr
end	aes_ce_sub_word

entry	aes_ce_invert_round_key
	vld1.8		{d0-d1}, [r1]
	aesimc.8	q0, q0
	vst1.8		{d0-d1}, [r0]
	vmov.i8		q0, #0
	bx		lr
end	aes_ce_invert_round_key

	.section .note.GNU-stack, "", %progbits
