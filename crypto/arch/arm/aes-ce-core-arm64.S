/* SPDX-License-Identifier: MIT */
/*
 * AES-128/192/256 with the ARMv8 Crypto Extensions (AArch64): ECB, CBC
 * and CFB decryption, CTR and XTS, 8 blocks (128 bytes) in flight per pass.
 *
 * Variants (ARMv8-A CPUs with the AES instructions, HWCAP_AES, e.g.
 * Cortex-A53/A57/A72; called only then, see crypto/cpu.c):
 *   aes_{encrypt,decrypt}_ce          one block (the cipher)
 *   aes_{encrypt,decrypt}_blocks_ce   any number of blocks, 0 too (8, then 1 by 1)
 *   aes_ecb_{encrypt,decrypt}_ce      the same on nbytes, a multiple of 128
 *   aes_cbc_decrypt_ce                CBC decryption, nbytes a multiple of 128
 *   aes_cfb_decrypt_ce                CFB128 decryption, nbytes a multiple of 128
 *   aes_ctr_crypt_ce                  CTR, 128-bit big-endian counter
 *   aes_xts_{encrypt,decrypt}_ce      XTS, whole blocks, tweak carried
 *   aes_ce_sub_word                   SubWord() for the key expansion
 *   aes_ce_invert_round_key           InvMixColumns() of a round key
 *
 * C prototypes and contract: aes-ce.h. Every cipher and mode
 * entry point takes the cipher context first (struct aes_ce_ctx) and
 * reads the round count and the round keys from it at the AES_CE_CTX_*
 * offsets that header defines: nrounds + 1 keys of 16 bytes in FIPS-197
 * byte order, the decryption keys those of the equivalent inverse cipher
 * (FIPS-197 5.3.5: reversed, the inner ones through InvMixColumns).
 *
 * Technique: AESE = AddRoundKey + ShiftRows + SubBytes and AESMC =
 * MixColumns (ARM ARM, "AESE", "AESMC"), so a round is one pair per block;
 * the pairs of 8 blocks are interleaved per round key. All round keys stay
 * in v16-v30: for nrounds = 10/12/14 the first one sits in v20/v18/v16 and
 * the code enters the round sequence at that key. XTS tweaks are doubled
 * in GF(2^128) (IEEE 1619-2007 5.2) with shifts: sshr #63 gives each
 * 64-bit half's carry as a mask, AND picks 1 / 0x87, EXT swaps the halves
 * and EOR adds them to the tweak shifted left by one (add = shift).
 *
 * Constant time: AESE/AESD/AESMC/AESIMC are among the instructions the
 * ARM ARM lists as data-independent in time (FEAT_DIT); no table lookups;
 * branches depend only on nrounds, lengths and the public CTR counter.
 */

#include "crypto/arch/arm/aes-ce.h"

	.text
	.arch	armv8-a+crypto

	/* arguments */
	CTX		.req	x0	/* const struct aes_ce_ctx * */
	DST		.req	x1	/* uint8_t *dst */
	SRC		.req	x2	/* const uint8_t *src */
	LEN		.req	x3	/* size_t nbytes, or nblocks */
	CHAIN		.req	x4	/* uint8_t *iv / ctr / tweak */

	/* scalars */
	NROUNDS		.req	w5	/* ctx->nrounds: 10, 12 or 14 */
	TMP		.req	x8	/* key pointer at entry; scratch */
	CTR_HI		.req	x6	/* CTR: counter bits 127..64, native */
	CTR_LO		.req	x7	/* CTR: counter bits 63..0, native */
	CTR_T0		.req	x9	/* CTR: byte-swapped halves */
	CTR_T1		.req	x10

	/*
	 * Vectors: v0-v7 the 8 blocks of a pass; v8-v15 XTS tweaks, CBC/CFB
	 * ciphertext copies or CTR input (d8-d15 are callee-saved: saved
	 * on entry); v16-v30 round keys K0..K14 shifted so the last is v30;
	 * v31 the XTS doubling mask { 1, 0x87 } or the CBC chaining value.
	 */
	MASK		.req	v31
	CBC_IV		.req	v31

/*
 * NROUNDS from the context and its nrounds + 1 round keys for \dir
 * (encrypt or decrypt) so that the last one lands in v30
 */
.macro load_round_keys dir
	ldr		NROUNDS, [CTX, #AES_CE_CTX_ROUNDS]
.ifc \dir, encrypt
	add		TMP, CTX, #AES_CE_CTX_ENC
.else
	add		TMP, CTX, #AES_CE_CTX_DEC
.endif
	cmp		NROUNDS, #12
	b.lo		81f
	b.eq		82f
	ld1		{v16.16b-v17.16b}, [TMP], #32
82:	ld1		{v18.16b-v19.16b}, [TMP], #32
81:	ld1		{v20.16b-v23.16b}, [TMP], #64
	ld1		{v24.16b-v27.16b}, [TMP], #64
	ld1		{v28.16b-v30.16b}, [TMP]
.endm

/* one full round with key \k on blocks v\b, \rest...: aese+aesmc or aesd+aesimc */
.macro round op, mix, k, b, rest:vararg
	\op		v\b\().16b, \k\().16b
	\mix		v\b\().16b, v\b\().16b
.ifnb \rest
	round		\op, \mix, \k, \rest
.endif
.endm

/* the last round: AddRoundKey(Kn-1), (Inv)ShiftRows, (Inv)SubBytes, AddRoundKey(Kn) */
.macro last_round op, k1, k2, b, rest:vararg
	\op		v\b\().16b, \k1\().16b
	eor		v\b\().16b, v\b\().16b, \k2\().16b
.ifnb \rest
	last_round	\op, \k1, \k2, \rest
.endif
.endm

/* the whole cipher on blocks v\b..., entered at the first key for NROUNDS */
.macro cipher op, mix, b:vararg
	cmp		NROUNDS, #12
	b.lo		83f
	b.eq		84f
	round		\op, \mix, v16, \b
	round		\op, \mix, v17, \b
84:	round		\op, \mix, v18, \b
	round		\op, \mix, v19, \b
83:	round		\op, \mix, v20, \b
	round		\op, \mix, v21, \b
	round		\op, \mix, v22, \b
	round		\op, \mix, v23, \b
	round		\op, \mix, v24, \b
	round		\op, \mix, v25, \b
	round		\op, \mix, v26, \b
	round		\op, \mix, v27, \b
	round		\op, \mix, v28, \b
	last_round	\op, v29, v30, \b
.endm

.macro encrypt b:vararg
	cipher		aese, aesmc, \b
.endm

.macro decrypt b:vararg
	cipher		aesd, aesimc, \b
.endm

/* \out = \in * x in GF(2^128), little-endian (IEEE 1619); \tmp clobbered */
.macro next_tweak out, in, tmp
	sshr		\tmp\().2d, \in\().2d, #63
	and		\tmp\().16b, \tmp\().16b, MASK.16b
	add		\out\().2d, \in\().2d, \in\().2d
	ext		\tmp\().16b, \tmp\().16b, \tmp\().16b, #8
	eor		\out\().16b, \out\().16b, \tmp\().16b
.endm

.macro save_d8_d15
	stp		d8, d9, [sp, #-64]!
	stp		d10, d11, [sp, #16]
	stp		d12, d13, [sp, #32]
	stp		d14, d15, [sp, #48]
.endm

.macro restore_d8_d15
	ldp		d10, d11, [sp, #16]
	ldp		d12, d13, [sp, #32]
	ldp		d14, d15, [sp, #48]
	ldp		d8, d9, [sp], #64
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
	load_round_keys	\dir
	ld1		{v0.16b}, [SRC]
	\dir		0
	st1		{v0.16b}, [DST]
	ret
end	\name
.endm

	single		aes_encrypt_ce, encrypt
	single		aes_decrypt_ce, decrypt

/*
 * ECB: 8 blocks per pass, then the rest one by one. The mode's entry
 * takes bytes and falls into the cipher's, which takes blocks (a
 * second label in the same function: no padding between them).
 */
.macro ecb name, blocks_name, dir
entry	\name
	lsr		LEN, LEN, #4
	.global		\blocks_name
	.type		\blocks_name, %function
\blocks_name:
	load_round_keys	\dir
	subs		LEN, LEN, #8
	b.lo		2f
1:	ld1		{v0.16b-v3.16b}, [SRC], #64
	ld1		{v4.16b-v7.16b}, [SRC], #64
	\dir		0, 1, 2, 3, 4, 5, 6, 7
	st1		{v0.16b-v3.16b}, [DST], #64
	st1		{v4.16b-v7.16b}, [DST], #64
	subs		LEN, LEN, #8
	b.hs		1b
2:	adds		LEN, LEN, #8
	b.eq		4f
3:	ld1		{v0.16b}, [SRC], #16
	\dir		0
	st1		{v0.16b}, [DST], #16
	subs		LEN, LEN, #1
	b.ne		3b
4:	ret
end	\blocks_name
end	\name
.endm

	ecb		aes_ecb_encrypt_ce, aes_encrypt_blocks_ce, encrypt
	ecb		aes_ecb_decrypt_ce, aes_decrypt_blocks_ce, decrypt

/*
 * CBC decryption: P[i] = D(C[i]) ^ C[i-1]. The ciphertext is loaded a
 * second time into v8-v15 before any store, so dst == src works.
 */
entry	aes_cbc_decrypt_ce
	save_d8_d15
	load_round_keys	decrypt
	ld1		{CBC_IV.16b}, [CHAIN]
1:	ld1		{v0.16b-v3.16b}, [SRC], #64
	ld1		{v4.16b-v7.16b}, [SRC], #64
	sub		TMP, SRC, #128
	ld1		{v8.16b-v11.16b}, [TMP], #64
	ld1		{v12.16b-v15.16b}, [TMP]
	decrypt		0, 1, 2, 3, 4, 5, 6, 7
	eor		v0.16b, v0.16b, CBC_IV.16b
	eor		v1.16b, v1.16b, v8.16b
	eor		v2.16b, v2.16b, v9.16b
	eor		v3.16b, v3.16b, v10.16b
	eor		v4.16b, v4.16b, v11.16b
	eor		v5.16b, v5.16b, v12.16b
	eor		v6.16b, v6.16b, v13.16b
	eor		v7.16b, v7.16b, v14.16b
	mov		CBC_IV.16b, v15.16b
	st1		{v0.16b-v3.16b}, [DST], #64
	st1		{v4.16b-v7.16b}, [DST], #64
	subs		LEN, LEN, #128
	b.ne		1b
	st1		{CBC_IV.16b}, [CHAIN]
	restore_d8_d15
	ret
end	aes_cbc_decrypt_ce

/*
 * CFB decryption: P[i] = C[i] ^ E(C[i-1]), C[-1] = iv; v8-v15 keep the
 * ciphertext (loaded before any store, so dst == src works) and v0 enters
 * each pass holding the previous pass's last ciphertext block.
 */
entry	aes_cfb_decrypt_ce
	save_d8_d15
	load_round_keys	encrypt
	ld1		{v0.16b}, [CHAIN]
1:	ld1		{v8.16b-v11.16b}, [SRC], #64
	ld1		{v12.16b-v15.16b}, [SRC], #64
	mov		v1.16b, v8.16b
	mov		v2.16b, v9.16b
	mov		v3.16b, v10.16b
	mov		v4.16b, v11.16b
	mov		v5.16b, v12.16b
	mov		v6.16b, v13.16b
	mov		v7.16b, v14.16b
	encrypt		0, 1, 2, 3, 4, 5, 6, 7
	eor		v0.16b, v0.16b, v8.16b
	eor		v1.16b, v1.16b, v9.16b
	eor		v2.16b, v2.16b, v10.16b
	eor		v3.16b, v3.16b, v11.16b
	eor		v4.16b, v4.16b, v12.16b
	eor		v5.16b, v5.16b, v13.16b
	eor		v6.16b, v6.16b, v14.16b
	eor		v7.16b, v7.16b, v15.16b
	st1		{v0.16b-v3.16b}, [DST], #64
	st1		{v4.16b-v7.16b}, [DST], #64
	mov		v0.16b, v15.16b
	subs		LEN, LEN, #128
	b.ne		1b
	st1		{v0.16b}, [CHAIN]
	restore_d8_d15
	ret
end	aes_cfb_decrypt_ce

/*
 * CTR: the counter is kept as two native 64-bit halves and each block's
 * value is byte-swapped into its vector (6 scalar instructions a block;
 * the counter is public, so its carry may be an adc).
 */
.macro ctr_block v
	rev		CTR_T0, CTR_HI
	rev		CTR_T1, CTR_LO
	mov		\v\().d[0], CTR_T0
	mov		\v\().d[1], CTR_T1
	adds		CTR_LO, CTR_LO, #1
	adc		CTR_HI, CTR_HI, xzr
.endm

entry	aes_ctr_crypt_ce
	save_d8_d15
	load_round_keys	encrypt
	ldp		CTR_HI, CTR_LO, [CHAIN]
	rev		CTR_HI, CTR_HI
	rev		CTR_LO, CTR_LO
1:	ctr_block	v0
	ctr_block	v1
	ctr_block	v2
	ctr_block	v3
	ctr_block	v4
	ctr_block	v5
	ctr_block	v6
	ctr_block	v7
	encrypt		0, 1, 2, 3, 4, 5, 6, 7
	ld1		{v8.16b-v11.16b}, [SRC], #64
	ld1		{v12.16b-v15.16b}, [SRC], #64
	eor		v0.16b, v0.16b, v8.16b
	eor		v1.16b, v1.16b, v9.16b
	eor		v2.16b, v2.16b, v10.16b
	eor		v3.16b, v3.16b, v11.16b
	eor		v4.16b, v4.16b, v12.16b
	eor		v5.16b, v5.16b, v13.16b
	eor		v6.16b, v6.16b, v14.16b
	eor		v7.16b, v7.16b, v15.16b
	st1		{v0.16b-v3.16b}, [DST], #64
	st1		{v4.16b-v7.16b}, [DST], #64
	subs		LEN, LEN, #128
	b.ne		1b
	rev		CTR_HI, CTR_HI
	rev		CTR_LO, CTR_LO
	stp		CTR_HI, CTR_LO, [CHAIN]
	restore_d8_d15
	ret
end	aes_ctr_crypt_ce

/*
 * XTS: tweaks T0..T7 of a pass in v8-v15 (v0 is their scratch before the
 * data is loaded), C = E(P ^ T) ^ T, and T0 of the next pass = T7 * x.
 */
.macro xts name, dir
entry	\name
	save_d8_d15
	load_round_keys	\dir
	mov		TMP, #1
	mov		MASK.d[0], TMP
	mov		TMP, #0x87
	mov		MASK.d[1], TMP
	ld1		{v8.16b}, [CHAIN]
1:	next_tweak	v9, v8, v0
	next_tweak	v10, v9, v0
	next_tweak	v11, v10, v0
	next_tweak	v12, v11, v0
	next_tweak	v13, v12, v0
	next_tweak	v14, v13, v0
	next_tweak	v15, v14, v0
	ld1		{v0.16b-v3.16b}, [SRC], #64
	ld1		{v4.16b-v7.16b}, [SRC], #64
	eor		v0.16b, v0.16b, v8.16b
	eor		v1.16b, v1.16b, v9.16b
	eor		v2.16b, v2.16b, v10.16b
	eor		v3.16b, v3.16b, v11.16b
	eor		v4.16b, v4.16b, v12.16b
	eor		v5.16b, v5.16b, v13.16b
	eor		v6.16b, v6.16b, v14.16b
	eor		v7.16b, v7.16b, v15.16b
	\dir		0, 1, 2, 3, 4, 5, 6, 7
	eor		v0.16b, v0.16b, v8.16b
	eor		v1.16b, v1.16b, v9.16b
	eor		v2.16b, v2.16b, v10.16b
	eor		v3.16b, v3.16b, v11.16b
	eor		v4.16b, v4.16b, v12.16b
	eor		v5.16b, v5.16b, v13.16b
	eor		v6.16b, v6.16b, v14.16b
	eor		v7.16b, v7.16b, v15.16b
	st1		{v0.16b-v3.16b}, [DST], #64
	st1		{v4.16b-v7.16b}, [DST], #64
	next_tweak	v8, v15, v0
	subs		LEN, LEN, #128
	b.ne		1b
	st1		{v8.16b}, [CHAIN]
	restore_d8_d15
	ret
end	\name
.endm

	xts		aes_xts_encrypt_ce, encrypt
	xts		aes_xts_decrypt_ce, decrypt

/*
 * SubWord(w) for the key expansion: AESE with an all-zero state and w in
 * every column is SubBytes(ShiftRows(w,w,w,w)), and ShiftRows moves
 * nothing when the four columns are equal. The key material is cleared
 * from the vectors before returning.
 */
entry	aes_ce_sub_word
	dup		v1.4s, w0
	movi		v0.16b, #0
	aese		v0.16b, v1.16b
	umov		w0, v0.s[0]
	movi		v0.16b, #0
	movi		v1.16b, #0
	ret
end	aes_ce_sub_word

entry	aes_ce_invert_round_key
	ld1		{v0.16b}, [x1]
	aesimc		v0.16b, v0.16b
	st1		{v0.16b}, [x0]
	movi		v0.16b, #0
	ret
end	aes_ce_invert_round_key

	.section .note.GNU-stack, "", %progbits
