/* SPDX-License-Identifier: MIT */
/*
 * SM4 with plain AArch64 Advanced SIMD (NEON), 8 blocks (128 bytes) per
 * step, for CPUs without the SM4 extension (Cortex-A53/A57/A72, ...).
 *
 * Variants: one, base ARMv8-A Advanced SIMD only.
 *
 * Entry points: sm4-arm64.h (the cipher_alg and
 * crypto_bulk_ops signatures over struct sm4_arm64_ctx, and the contract),
 * and sm4_tau_neon, the S-box on each byte of w, for the key schedule in
 * C (sm4-neon-glue.c). Each entry point points x0 at the round
 * keys it uses (SM4_ARM64_CTX_RK_ENC or _DEC in the context: 32 words in
 * the order they are applied) and runs the body shared by both
 * directions, which reads them from there; the ECB ones also turn nbytes
 * into a block count. dst == src is allowed (every source block of a step
 * is read before the step writes).
 *
 * Technique: the words of 4 blocks are transposed into 4 vectors (lane b
 * = block b), two such sets per step, so one round is lane-wise work on
 * all blocks. The S-box is the 256-byte table held in v16-v31: TBL over
 * four registers covers entries 0-63, and TBX over the next four with
 * the index lowered by 64 (out-of-range indices leave the byte alone)
 * covers 64-127, and so on; every lookup reads the whole table from
 * registers, so no address depends on a secret. The linear map is
 *   L(B) = B ^ rol24(B) ^ rol2(B ^ rol8(B) ^ rol16(B)),
 * which is B ^ rol2 ^ rol10 ^ rol18 ^ rol24 (GB/T 32907-2016 6.2): rol16
 * is REV32 on halfwords, rol8 a TBL, rol24 = rol8 of rol16. Written from
 * the standard; no code was copied.
 *
 * Constant time: TBL/TBX over the register-held table, xor, shifts and
 * fixed permutations; branches and addresses depend on lengths only.
 */

#include "crypto/arch/arm/sm4-arm64.h"

	.text
	.arch	armv8-a

	/* arguments */
	RK		.req	x0	/* const void *ctx, then its rk_enc or rk_dec */
	DST		.req	x1	/* uint8_t *dst */
	SRC		.req	x2	/* const uint8_t *src */
	NBYTES		.req	x3	/* size_t nbytes (nblocks for crypt_blocks) */
	CHAIN		.req	x4	/* uint8_t *tweak / iv / ctr */

	/* scalars */
	RKP		.req	x8	/* walks the round keys */
	LOOPS		.req	w9	/* 4-round passes left */
	TLO		.req	x10	/* XTS tweak low 64 bits / CBC, CFB iv */
	THI		.req	x11	/* XTS tweak high 64 bits / CBC, CFB iv */
	CTRHI		.req	x10	/* CTR counter, high 64 bits as an integer */
	CTRLO		.req	x11	/* CTR counter, low 64 bits */
	TMP		.req	x12
	TMP2		.req	x13
	/* sm4_encrypt/decrypt_neon: the state words in general-purpose registers */
	SW0		.req	w10
	SW1		.req	w11
	SW2		.req	w12
	SW3		.req	w13
	KW		.req	w14	/* round key */
	TW		.req	w15	/* S-box input, then output */
	GFPOLY		.req	x14	/* XTS: 0x87, x^128 mod the XTS polynomial */

	/*
	 * Vectors: v0-v3 and v4-v7 two sets of 4 blocks (block-wise on load
	 * and store, word-wise X0..X3 in the rounds); v8-v15 constants and
	 * temporaries (d8-d15 saved); v16-v31 the S-box.
	 */
	C64		.req	v8	/* 64 in every byte: next table quarter */
	ROL8		.req	v9	/* TBL indices: rotate each word left by 8 */
	RKV		.req	v10	/* round key in every lane */
	SA		.req	v11	/* set A: S-box input, then rol2 input */
	SB		.req	v12	/* set B: the same */
	RA		.req	v13	/* set A: S-box output */
	RB		.req	v14	/* set B: S-box output */
	U		.req	v15	/* rotate temporary */

	.section .rodata
	.align	4
/* out[i] = in[idx[i]]: each little-endian 32-bit lane rotated left by 8 */
.Lrol32_8:
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14

	.text

/* the S-box table (sm4-sbox.c, read whole: no secret-dependent address) */
.macro load_sbox
	adrp	TMP, :got:sm4_sbox
	ldr	TMP, [TMP, :got_lo12:sm4_sbox]
	ld1	{v16.16b-v19.16b}, [TMP], #64
	ld1	{v20.16b-v23.16b}, [TMP], #64
	ld1	{v24.16b-v27.16b}, [TMP], #64
	ld1	{v28.16b-v31.16b}, [TMP]
.endm

.macro load_consts
	load_sbox
	movi	C64.16b, #64
	adrp	TMP, .Lrol32_8
	add	TMP, TMP, :lo12:.Lrol32_8
	ld1	{ROL8.16b}, [TMP]
.endm

.macro frame_push
	stp	d8, d9, [sp, #-64]!
	stp	d10, d11, [sp, #16]
	stp	d12, d13, [sp, #32]
	stp	d14, d15, [sp, #48]
.endm

/* one-register steps, so that .irp can name a register */
.macro vzero r
	movi	\r\().16b, #0
.endm
.macro vrev32 r
	rev32	\r\().16b, \r\().16b
.endm

/* restore d8-d15; the data registers are wiped first */
.macro frame_pop
.irp r, v0, v1, v2, v3, v4, v5, v6, v7, v10, v11, v12, v13, v14, v15
	vzero	\r
.endr
	ldp	d10, d11, [sp, #16]
	ldp	d12, d13, [sp, #32]
	ldp	d14, d15, [sp, #48]
	ldp	d8, d9, [sp], #64
.endm

/* r = S(s) bytewise; s is clobbered */
.macro sbox r, s
	tbl	\r\().16b, {v16.16b-v19.16b}, \s\().16b
	sub	\s\().16b, \s\().16b, C64.16b
	tbx	\r\().16b, {v20.16b-v23.16b}, \s\().16b
	sub	\s\().16b, \s\().16b, C64.16b
	tbx	\r\().16b, {v24.16b-v27.16b}, \s\().16b
	sub	\s\().16b, \s\().16b, C64.16b
	tbx	\r\().16b, {v28.16b-v31.16b}, \s\().16b
.endm

/* x0 ^= L(r); t and u are clobbered */
.macro lin x0, r, t, u
	rev32	\u\().8h, \r\().8h
	eor	\t\().16b, \r\().16b, \u\().16b
	tbl	\u\().16b, {\u\().16b}, ROL8.16b
	eor	\x0\().16b, \x0\().16b, \u\().16b
	tbl	\u\().16b, {\r\().16b}, ROL8.16b
	eor	\t\().16b, \t\().16b, \u\().16b
	eor	\x0\().16b, \x0\().16b, \r\().16b
	shl	\u\().4s, \t\().4s, #2
	sri	\u\().4s, \t\().4s, #30
	eor	\x0\().16b, \x0\().16b, \u\().16b
.endm

/*
 * One round on one or both sets: X0 ^= L(S(X1 ^ X2 ^ X3 ^ rk)), set A
 * in a0-a3, set B in b0-b3; the round key comes from RKP.
 */
.macro round nsets, a0, a1, a2, a3, b0, b1, b2, b3
	ld1r	{RKV.4s}, [RKP], #4
	eor	SA.16b, \a1\().16b, \a2\().16b
.if \nsets == 2
	eor	SB.16b, \b1\().16b, \b2\().16b
.endif
	eor	SA.16b, SA.16b, \a3\().16b
.if \nsets == 2
	eor	SB.16b, SB.16b, \b3\().16b
.endif
	eor	SA.16b, SA.16b, RKV.16b
.if \nsets == 2
	eor	SB.16b, SB.16b, RKV.16b
	sbox	RB, SB
.endif
	sbox	RA, SA
	lin	\a0, RA, SA, U
.if \nsets == 2
	lin	\b0, RB, SB, RA
.endif
.endm

/* all 32 rounds on the word-wise sets, four per loop pass */
.macro rounds nsets
	mov	RKP, RK
	mov	LOOPS, #8
9:
	round	\nsets, v0, v1, v2, v3, v4, v5, v6, v7
	round	\nsets, v1, v2, v3, v0, v5, v6, v7, v4
	round	\nsets, v2, v3, v0, v1, v6, v7, v4, v5
	round	\nsets, v3, v0, v1, v2, v7, v4, v5, v6
	subs	LOOPS, LOOPS, #1
	b.ne	9b
.endm

/*
 * 4x4 transpose of 32-bit words: o_j[k] = i_k[j]. Outputs may be any of
 * the inputs (all are read into v11-v14 first).
 */
.macro transpose o0, o1, o2, o3, i0, i1, i2, i3
	trn1	v11.4s, \i0\().4s, \i1\().4s
	trn2	v12.4s, \i0\().4s, \i1\().4s
	trn1	v13.4s, \i2\().4s, \i3\().4s
	trn2	v14.4s, \i2\().4s, \i3\().4s
	trn1	\o0\().2d, v11.2d, v13.2d
	trn1	\o1\().2d, v12.2d, v14.2d
	trn2	\o2\().2d, v11.2d, v13.2d
	trn2	\o3\().2d, v12.2d, v14.2d
.endm

/* blocks (memory order) -> big-endian words, word-wise */
.macro to_words a, b, c, d
	transpose \a, \b, \c, \d, \a, \b, \c, \d
.irp r, \a, \b, \c, \d
	vrev32	\r
.endr
.endm

/* X32..X35 word-wise -> output blocks X35 X34 X33 X32 (memory order) */
.macro to_blocks a, b, c, d
.irp r, \a, \b, \c, \d
	vrev32	\r
.endr
	transpose \a, \b, \c, \d, \d, \c, \b, \a
.endm

/* SM4 on the 4 blocks in v0-v3 (memory order in and out) */
.macro crypt4
	to_words v0, v1, v2, v3
	rounds	1
	to_blocks v0, v1, v2, v3
.endm

/* SM4 on the 8 blocks in v0-v7 (memory order in and out) */
.macro crypt8
	to_words v0, v1, v2, v3
	to_words v4, v5, v6, v7
	rounds	2
	to_blocks v0, v1, v2, v3
	to_blocks v4, v5, v6, v7
.endm

	.align	4
	.global	sm4_tau_neon
	.type	sm4_tau_neon, %function
sm4_tau_neon:
	stp	d8, d9, [sp, #-16]!
	load_sbox
	movi	C64.16b, #64
	dup	v1.4s, w0
	sbox	v0, v1
	umov	w0, v0.s[0]
	movi	v0.16b, #0
	movi	v1.16b, #0
	ldp	d8, d9, [sp], #16
	ret
	.size	sm4_tau_neon, . - sm4_tau_neon

/*
 * One round on one block in SW0-SW3: the S-box in v0/v1 (4 lookups as in
 * the bulk path), L in general-purpose registers with rotated operands
 * (ror 30, 22, 14, 8 = rol 2, 10, 18, 24).
 */
.macro round1 a0, a1, a2, a3
	ldr	KW, [RKP], #4
	eor	TW, \a1, \a2
	eor	TW, TW, \a3
	eor	TW, TW, KW
	fmov	s1, TW
	sbox	v0, v1
	fmov	TW, s0
	eor	\a0, \a0, TW
	eor	\a0, \a0, TW, ror #30
	eor	\a0, \a0, TW, ror #22
	eor	\a0, \a0, TW, ror #14
	eor	\a0, \a0, TW, ror #8
.endm

	entry	sm4_decrypt_neon, SM4_ARM64_CTX_RK_DEC
	b	.Lcrypt_block
	endfn	sm4_decrypt_neon

	entry	sm4_encrypt_neon, SM4_ARM64_CTX_RK_ENC
.Lcrypt_block:
	stp	d8, d9, [sp, #-16]!
	load_sbox
	movi	C64.16b, #64
	ldp	SW0, SW1, [SRC]
	ldp	SW2, SW3, [SRC, #8]
	rev	SW0, SW0
	rev	SW1, SW1
	rev	SW2, SW2
	rev	SW3, SW3
	mov	RKP, RK
	mov	LOOPS, #8
1:
	round1	SW0, SW1, SW2, SW3
	round1	SW1, SW2, SW3, SW0
	round1	SW2, SW3, SW0, SW1
	round1	SW3, SW0, SW1, SW2
	subs	LOOPS, LOOPS, #1
	b.ne	1b
	/* output X35 X34 X33 X32, big-endian */
	rev	SW0, SW0
	rev	SW1, SW1
	rev	SW2, SW2
	rev	SW3, SW3
	stp	SW3, SW2, [DST]
	stp	SW1, SW0, [DST, #8]
	mov	SW0, wzr
	mov	SW1, wzr
	mov	SW2, wzr
	mov	SW3, wzr
	mov	TW, wzr
	movi	v0.16b, #0
	movi	v1.16b, #0
	ldp	d8, d9, [sp], #16
	ret
	endfn	sm4_encrypt_neon

	/* ECB: nbytes / 16 blocks */
	entry	sm4_ecb_decrypt_neon, SM4_ARM64_CTX_RK_DEC
	lsr	NBYTES, NBYTES, #4
	b	.Lcrypt_blocks
	endfn	sm4_ecb_decrypt_neon

	entry	sm4_ecb_encrypt_neon, SM4_ARM64_CTX_RK_ENC
	lsr	NBYTES, NBYTES, #4
	b	.Lcrypt_blocks
	endfn	sm4_ecb_encrypt_neon

	entry	sm4_decrypt_blocks_neon, SM4_ARM64_CTX_RK_DEC
	b	.Lcrypt_blocks
	endfn	sm4_decrypt_blocks_neon

	entry	sm4_encrypt_blocks_neon, SM4_ARM64_CTX_RK_ENC
.Lcrypt_blocks:
	/* NBYTES counts blocks here, 0 included */
	frame_push
	load_consts
	subs	NBYTES, NBYTES, #8
	b.lo	2f
1:
	ld1	{v0.16b-v3.16b}, [SRC], #64
	ld1	{v4.16b-v7.16b}, [SRC], #64
	crypt8
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #8
	b.hs	1b
2:
	/* NBYTES is the count left minus 8: its low 3 bits are the count */
	tbz	NBYTES, #2, 3f
	ld1	{v0.16b-v3.16b}, [SRC], #64
	crypt4
	st1	{v0.16b-v3.16b}, [DST], #64
3:
	/*
	 * 1 to 3 blocks left: one set of 4 with the lanes beyond them zero
	 * (their output is dropped and wiped); branches on the count only
	 */
	ands	NBYTES, NBYTES, #3
	b.eq	5f
	movi	v1.16b, #0
	movi	v2.16b, #0
	movi	v3.16b, #0
	cmp	NBYTES, #2
	ld1	{v0.16b}, [SRC], #16
	b.lo	4f
	ld1	{v1.16b}, [SRC], #16
	b.eq	4f
	ld1	{v2.16b}, [SRC]
4:
	crypt4
	cmp	NBYTES, #2
	st1	{v0.16b}, [DST], #16
	b.lo	5f
	st1	{v1.16b}, [DST], #16
	b.eq	5f
	st1	{v2.16b}, [DST]
5:
	frame_pop
	ret
	endfn	sm4_encrypt_blocks_neon

	entry	sm4_xts_decrypt_neon, SM4_ARM64_CTX_RK_DEC
	b	.Lxts_crypt
	endfn	sm4_xts_decrypt_neon

	entry	sm4_xts_encrypt_neon, SM4_ARM64_CTX_RK_ENC
.Lxts_crypt:
	frame_push
	/* the 8 tweaks of a step live at [sp, #0..127] (wiped on exit) */
	sub	sp, sp, #128
	load_consts
	ldp	TLO, THI, [CHAIN]
	mov	GFPOLY, #0x87
1:
	/* tweaks: T_{i+1} = T_i * x in GF(2^128), carry by mask */
	mov	TMP2, sp
.rept 8
	stp	TLO, THI, [TMP2], #16
	and	TMP, GFPOLY, THI, asr #63
	extr	THI, THI, TLO, #63
	eor	TLO, TMP, TLO, lsl #1
.endr
	ld1	{v0.16b-v3.16b}, [SRC], #64
	ld1	{v4.16b-v7.16b}, [SRC], #64
	mov	TMP2, sp
	ld1	{v12.16b-v15.16b}, [TMP2], #64
	eor	v0.16b, v0.16b, v12.16b
	eor	v1.16b, v1.16b, v13.16b
	eor	v2.16b, v2.16b, v14.16b
	eor	v3.16b, v3.16b, v15.16b
	ld1	{v12.16b-v15.16b}, [TMP2]
	eor	v4.16b, v4.16b, v12.16b
	eor	v5.16b, v5.16b, v13.16b
	eor	v6.16b, v6.16b, v14.16b
	eor	v7.16b, v7.16b, v15.16b
	crypt8
	mov	TMP2, sp
	ld1	{v12.16b-v15.16b}, [TMP2], #64
	eor	v0.16b, v0.16b, v12.16b
	eor	v1.16b, v1.16b, v13.16b
	eor	v2.16b, v2.16b, v14.16b
	eor	v3.16b, v3.16b, v15.16b
	ld1	{v12.16b-v15.16b}, [TMP2]
	eor	v4.16b, v4.16b, v12.16b
	eor	v5.16b, v5.16b, v13.16b
	eor	v6.16b, v6.16b, v14.16b
	eor	v7.16b, v7.16b, v15.16b
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #128
	b.ne	1b
	stp	TLO, THI, [CHAIN]
	/* wipe the tweaks */
	movi	v12.16b, #0
	mov	TMP2, sp
	movi	v13.16b, #0
	movi	v14.16b, #0
	movi	v15.16b, #0
	st1	{v12.16b-v15.16b}, [TMP2], #64
	st1	{v12.16b-v15.16b}, [TMP2]
	mov	TLO, xzr
	mov	THI, xzr
	add	sp, sp, #128
	frame_pop
	ret
	endfn	sm4_xts_encrypt_neon

	entry	sm4_cbc_decrypt_neon, SM4_ARM64_CTX_RK_DEC
	frame_push
	load_consts
	ldp	TLO, THI, [CHAIN]
1:
	add	TMP, SRC, #64
	ld1	{v0.16b-v3.16b}, [SRC]
	ld1	{v4.16b-v7.16b}, [TMP]
	crypt8
	/* the ciphertext again (not yet overwritten): the chaining values */
	ld1	{v12.16b-v15.16b}, [SRC], #64
	mov	RKV.d[0], TLO
	mov	RKV.d[1], THI
	eor	v0.16b, v0.16b, RKV.16b
	eor	v1.16b, v1.16b, v12.16b
	eor	v2.16b, v2.16b, v13.16b
	eor	v3.16b, v3.16b, v14.16b
	eor	v4.16b, v4.16b, v15.16b
	ld1	{v12.16b-v15.16b}, [SRC], #64
	eor	v5.16b, v5.16b, v12.16b
	eor	v6.16b, v6.16b, v13.16b
	eor	v7.16b, v7.16b, v14.16b
	umov	TLO, v15.d[0]
	umov	THI, v15.d[1]
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #128
	b.ne	1b
	stp	TLO, THI, [CHAIN]
	frame_pop
	ret
	endfn	sm4_cbc_decrypt_neon

	entry	sm4_cfb_decrypt_neon, SM4_ARM64_CTX_RK_ENC
	frame_push
	load_consts
	ldp	TLO, THI, [CHAIN]
1:
	/* keystream inputs: iv, c0 .. c6; c7 is the next iv */
	mov	v0.d[0], TLO
	mov	v0.d[1], THI
	add	TMP, SRC, #64
	ld1	{v1.16b-v4.16b}, [SRC]
	ld1	{v5.16b-v7.16b}, [TMP]
	ldp	TLO, THI, [SRC, #112]
	crypt8
	ld1	{v12.16b-v15.16b}, [SRC], #64
	eor	v0.16b, v0.16b, v12.16b
	eor	v1.16b, v1.16b, v13.16b
	eor	v2.16b, v2.16b, v14.16b
	eor	v3.16b, v3.16b, v15.16b
	ld1	{v12.16b-v15.16b}, [SRC], #64
	eor	v4.16b, v4.16b, v12.16b
	eor	v5.16b, v5.16b, v13.16b
	eor	v6.16b, v6.16b, v14.16b
	eor	v7.16b, v7.16b, v15.16b
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #128
	b.ne	1b
	stp	TLO, THI, [CHAIN]
	frame_pop
	ret
	endfn	sm4_cfb_decrypt_neon

/* Vv = the counter CTRHI:CTRLO, big-endian; then count up (public) */
.macro ctr_block v
	rev	TMP, CTRHI
	rev	TMP2, CTRLO
	mov	\v\().d[0], TMP
	mov	\v\().d[1], TMP2
	adds	CTRLO, CTRLO, #1
	adc	CTRHI, CTRHI, xzr
.endm

	entry	sm4_ctr_crypt_neon, SM4_ARM64_CTX_RK_ENC
	frame_push
	load_consts
	ldp	CTRHI, CTRLO, [CHAIN]
	rev	CTRHI, CTRHI
	rev	CTRLO, CTRLO
1:
	ctr_block v0
	ctr_block v1
	ctr_block v2
	ctr_block v3
	ctr_block v4
	ctr_block v5
	ctr_block v6
	ctr_block v7
	crypt8
	ld1	{v12.16b-v15.16b}, [SRC], #64
	eor	v0.16b, v0.16b, v12.16b
	eor	v1.16b, v1.16b, v13.16b
	eor	v2.16b, v2.16b, v14.16b
	eor	v3.16b, v3.16b, v15.16b
	ld1	{v12.16b-v15.16b}, [SRC], #64
	eor	v4.16b, v4.16b, v12.16b
	eor	v5.16b, v5.16b, v13.16b
	eor	v6.16b, v6.16b, v14.16b
	eor	v7.16b, v7.16b, v15.16b
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #128
	b.ne	1b
	rev	CTRHI, CTRHI
	rev	CTRLO, CTRLO
	stp	CTRHI, CTRLO, [CHAIN]
	frame_pop
	ret
	endfn	sm4_ctr_crypt_neon

	/* no executable stack */
	.section .note.GNU-stack, "", %progbits
