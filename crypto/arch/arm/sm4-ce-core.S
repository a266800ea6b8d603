/* SPDX-License-Identifier: MIT */
/*
 * SM4 with the ARMv8.2 SM4 Crypto Extension (SM4E, SM4EKEY), 8 blocks
 * (128 bytes) per step.
 *
 * Variants: one, for AArch64 CPUs with FEAT_SM4 (HWCAP_SM4), e.g.
 * qemu -cpu max; Cortex-A53/A57/A72 lack it (sm4-ce-glue.c
 * registers the drivers only with CPU_FEAT_ARM_SM4).
 *
 * Entry points: sm4-arm64.h (the cipher_alg and
 * crypto_bulk_ops signatures over struct sm4_arm64_ctx, and the contract;
 * the setkey is sm4_setkey_ce). Each entry point points x0 at the round
 * keys it uses (SM4_ARM64_CTX_RK_ENC or _DEC in the context: 32 words in
 * the order they are applied) and runs the body shared by both
 * directions, which reads them from there; the ECB ones also turn nbytes
 * into a block count. dst == src is allowed (every source block is read
 * before its destination is written).
 *
 * SM4E (Arm ARM, "SM4E"): Vd holds the state words X[i..i+3] (lane 0 =
 * X[i], host order), Vn four round keys; it runs four rounds and leaves
 * X[i+4..i+7]. SM4EKEY: Vn = K[i..i+3], Vm = CK[i..i+3] -> rk[i..i+3].
 * Blocks are big-endian words, so REV32 on the way in; the output block
 * is X35 X34 X33 X32 big-endian, which is the whole register byte-
 * reversed (REV64 + EXT #8). Written from GB/T 32907-2016 and the Arm
 * ARM; no kernel code was copied.
 *
 * Constant time: SM4E/SM4EKEY, fixed permutations, xor, adds on public
 * counters; no secret-dependent branch or address.
 */

#include "crypto/arch/arm/sm4-arm64.h"

	.text
	.arch	armv8.2-a+sm4

	/* arguments */
	RK		.req	x0	/* const void *ctx, then its rk_enc or rk_dec */
	DST		.req	x1	/* uint8_t *dst */
	SRC		.req	x2	/* const uint8_t *src */
	NBYTES		.req	x3	/* size_t nbytes (nblocks for crypt_blocks) */
	CHAIN		.req	x4	/* uint8_t *tweak / iv / ctr */

	/* scalars */
	TLO		.req	x5	/* XTS tweak, low 64 bits (little-endian) */
	THI		.req	x6	/* XTS tweak, high 64 bits */
	CTRHI		.req	x5	/* CTR counter, high 64 bits as an integer */
	CTRLO		.req	x6	/* CTR counter, low 64 bits */
	TMP		.req	x7
	TMP2		.req	x9
	GFPOLY		.req	x9	/* XTS: 0x87 = x^128 mod P (x9: XTS uses no TMP2) */

	/*
	 * Vectors: v0-v7 the 8 blocks of a step, v16-v23 their tweaks (XTS)
	 * or the ciphertext blocks (CBC/CFB/CTR input), v24-v31 the 32 round
	 * keys, four per register. v8 (CBC/CFB iv; d8 saved) is the only
	 * callee-saved one used.
	 */
	IV		.req	v8

	.section .rodata
	.align	4
/* GB/T 32907-2016 7.3: FK, and CK[i] with byte j = (4i + j) * 7 mod 256 */
.Lfk:
	.word	0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc
.Lck:
	.word	0x00070e15, 0x1c232a31, 0x383f464d, 0x545b6269
	.word	0x70777e85, 0x8c939aa1, 0xa8afb6bd, 0xc4cbd2d9
	.word	0xe0e7eef5, 0xfc030a11, 0x181f262d, 0x343b4249
	.word	0x50575e65, 0x6c737a81, 0x888f969d, 0xa4abb2b9
	.word	0xc0c7ced5, 0xdce3eaf1, 0xf8ff060d, 0x141b2229
	.word	0x30373e45, 0x4c535a61, 0x686f767d, 0x848b9299
	.word	0xa0a7aeb5, 0xbcc3cad1, 0xd8dfe6ed, 0xf4fb0209
	.word	0x10171e25, 0x2c333a41, 0x484f565d, 0x646b7279

	.text

.macro load_rk
	ld1	{v24.4s-v27.4s}, [RK], #64
	ld1	{v28.4s-v31.4s}, [RK]
	sub	RK, RK, #64
.endm

/* zero the key and data registers before returning (no key left behind) */
.macro wipe_vectors
	movi	v0.16b, #0
	movi	v1.16b, #0
	movi	v2.16b, #0
	movi	v3.16b, #0
	movi	v4.16b, #0
	movi	v5.16b, #0
	movi	v6.16b, #0
	movi	v7.16b, #0
	movi	v16.16b, #0
	movi	v17.16b, #0
	movi	v18.16b, #0
	movi	v19.16b, #0
	movi	v20.16b, #0
	movi	v21.16b, #0
	movi	v22.16b, #0
	movi	v23.16b, #0
	movi	v24.16b, #0
	movi	v25.16b, #0
	movi	v26.16b, #0
	movi	v27.16b, #0
	movi	v28.16b, #0
	movi	v29.16b, #0
	movi	v30.16b, #0
	movi	v31.16b, #0
.endm

/* one-register steps, so that .irp below can name a register */
.macro vrev32 r
	rev32	\r\().16b, \r\().16b
.endm
.macro vsm4e r, k
	sm4e	\r\().4s, \k\().4s
.endm
.macro vrev64 r
	rev64	\r\().16b, \r\().16b
.endm
.macro vswap64 r
	ext	\r\().16b, \r\().16b, \r\().16b, #8
.endm

/* the 32 rounds on the blocks in the listed registers (memory order) */
.macro sm4_rounds b:vararg
.irp r, \b
	vrev32	\r
.endr
.irp k, v24, v25, v26, v27, v28, v29, v30, v31
.irp r, \b
	vsm4e	\r, \k
.endr
.endr
.irp r, \b
	vrev64	\r
.endr
.irp r, \b
	vswap64	\r
.endr
.endm

#define ALL8 v0, v1, v2, v3, v4, v5, v6, v7

/* Tv = (TLO, THI); then (TLO, THI) *= x in GF(2^128) (mask, no branch) */
.macro xts_tweak tv
	mov	\tv\().d[0], TLO
	mov	\tv\().d[1], THI
	and	TMP, GFPOLY, THI, asr #63
	extr	THI, THI, TLO, #63
	eor	TLO, TMP, TLO, lsl #1
.endm

/* Vv = the counter CTRHI:CTRLO, big-endian; then count up (public) */
.macro ctr_block v
	rev	TMP, CTRHI
	rev	TMP2, CTRLO
	mov	\v\().d[0], TMP
	mov	\v\().d[1], TMP2
	adds	CTRLO, CTRLO, #1
	adc	CTRHI, CTRHI, xzr
.endm

	.align	4
	.global	sm4_setkey_ce
	.type	sm4_setkey_ce, %function
sm4_setkey_ce:
	/* x0 ctx, x1 key, x2 keylen (public) */
	cmp	x2, #16
	b.ne	1f
	ld1	{v0.16b}, [x1]
	add	x1, x0, #SM4_ARM64_CTX_RK_ENC
	add	x2, x0, #SM4_ARM64_CTX_RK_DEC
	adrp	x3, .Lfk
	add	x3, x3, :lo12:.Lfk
	ld1	{v1.4s}, [x3]
	adrp	x3, .Lck
	add	x3, x3, :lo12:.Lck
	ld1	{v24.4s-v27.4s}, [x3], #64
	ld1	{v28.4s-v31.4s}, [x3]
	rev32	v0.16b, v0.16b
	eor	v0.16b, v0.16b, v1.16b
	sm4ekey	v16.4s, v0.4s, v24.4s
	sm4ekey	v17.4s, v16.4s, v25.4s
	sm4ekey	v18.4s, v17.4s, v26.4s
	sm4ekey	v19.4s, v18.4s, v27.4s
	sm4ekey	v20.4s, v19.4s, v28.4s
	sm4ekey	v21.4s, v20.4s, v29.4s
	sm4ekey	v22.4s, v21.4s, v30.4s
	sm4ekey	v23.4s, v22.4s, v31.4s
	st1	{v16.4s-v19.4s}, [x1], #64
	st1	{v20.4s-v23.4s}, [x1]
	/* rk_dec: the same words backwards */
.irp r, v16, v17, v18, v19, v20, v21, v22, v23
	rev64	\r\().4s, \r\().4s
	ext	\r\().16b, \r\().16b, \r\().16b, #8
.endr
	mov	v0.16b, v23.16b
	mov	v1.16b, v22.16b
	mov	v2.16b, v21.16b
	mov	v3.16b, v20.16b
	mov	v4.16b, v19.16b
	mov	v5.16b, v18.16b
	mov	v6.16b, v17.16b
	mov	v7.16b, v16.16b
	st1	{v0.4s-v3.4s}, [x2], #64
	st1	{v4.4s-v7.4s}, [x2]
	wipe_vectors
	mov	w0, #0
	ret
1:
	mov	w0, #-SM4_ARM64_EINVAL
	ret
	.size	sm4_setkey_ce, . - sm4_setkey_ce

	entry	sm4_decrypt_ce, SM4_ARM64_CTX_RK_DEC
	b	.Lcrypt_block
	endfn	sm4_decrypt_ce

	entry	sm4_encrypt_ce, SM4_ARM64_CTX_RK_ENC
.Lcrypt_block:
	/*
	 * Serial modes call this per block, so the round keys are left in
	 * v24-v31 (a copy of what the context holds); the block is wiped.
	 */
	load_rk
	ld1	{v0.16b}, [SRC]
	sm4_rounds v0
	st1	{v0.16b}, [DST]
	movi	v0.16b, #0
	ret
	endfn	sm4_encrypt_ce

	/* ECB: nbytes / 16 blocks */
	entry	sm4_ecb_decrypt_ce, SM4_ARM64_CTX_RK_DEC
	lsr	NBYTES, NBYTES, #4
	b	.Lcrypt_blocks
	endfn	sm4_ecb_decrypt_ce

	entry	sm4_ecb_encrypt_ce, SM4_ARM64_CTX_RK_ENC
	lsr	NBYTES, NBYTES, #4
	b	.Lcrypt_blocks
	endfn	sm4_ecb_encrypt_ce

	entry	sm4_decrypt_blocks_ce, SM4_ARM64_CTX_RK_DEC
	b	.Lcrypt_blocks
	endfn	sm4_decrypt_blocks_ce

	entry	sm4_encrypt_blocks_ce, SM4_ARM64_CTX_RK_ENC
.Lcrypt_blocks:
	/* NBYTES counts blocks here, 0 included */
	load_rk
	subs	NBYTES, NBYTES, #8
	b.lo	2f
1:
	ld1	{v0.16b-v3.16b}, [SRC], #64
	ld1	{v4.16b-v7.16b}, [SRC], #64
	sm4_rounds ALL8
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #8
	b.hs	1b
2:
	adds	NBYTES, NBYTES, #8
	b.eq	4f
3:
	ld1	{v0.16b}, [SRC], #16
	sm4_rounds v0
	st1	{v0.16b}, [DST], #16
	subs	NBYTES, NBYTES, #1
	b.ne	3b
4:
	wipe_vectors
	ret
	endfn	sm4_encrypt_blocks_ce

	entry	sm4_xts_decrypt_ce, SM4_ARM64_CTX_RK_DEC
	b	.Lxts_crypt
	endfn	sm4_xts_decrypt_ce

	entry	sm4_xts_encrypt_ce, SM4_ARM64_CTX_RK_ENC
.Lxts_crypt:
	load_rk
	ldp	TLO, THI, [CHAIN]
	mov	GFPOLY, #0x87
1:
	xts_tweak v16
	xts_tweak v17
	xts_tweak v18
	xts_tweak v19
	xts_tweak v20
	xts_tweak v21
	xts_tweak v22
	xts_tweak v23
	ld1	{v0.16b-v3.16b}, [SRC], #64
	ld1	{v4.16b-v7.16b}, [SRC], #64
	eor	v0.16b, v0.16b, v16.16b
	eor	v1.16b, v1.16b, v17.16b
	eor	v2.16b, v2.16b, v18.16b
	eor	v3.16b, v3.16b, v19.16b
	eor	v4.16b, v4.16b, v20.16b
	eor	v5.16b, v5.16b, v21.16b
	eor	v6.16b, v6.16b, v22.16b
	eor	v7.16b, v7.16b, v23.16b
	sm4_rounds ALL8
	eor	v0.16b, v0.16b, v16.16b
	eor	v1.16b, v1.16b, v17.16b
	eor	v2.16b, v2.16b, v18.16b
	eor	v3.16b, v3.16b, v19.16b
	eor	v4.16b, v4.16b, v20.16b
	eor	v5.16b, v5.16b, v21.16b
	eor	v6.16b, v6.16b, v22.16b
	eor	v7.16b, v7.16b, v23.16b
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #128
	b.ne	1b
	stp	TLO, THI, [CHAIN]
	mov	TLO, xzr
	mov	THI, xzr
	wipe_vectors
	ret
	endfn	sm4_xts_encrypt_ce

	entry	sm4_cbc_decrypt_ce, SM4_ARM64_CTX_RK_DEC
	str	d8, [sp, #-16]!
	load_rk
	ld1	{IV.16b}, [CHAIN]
1:
	/* keep the ciphertext: it is the next block's chaining value */
	ld1	{v16.16b-v19.16b}, [SRC], #64
	ld1	{v20.16b-v23.16b}, [SRC], #64
	mov	v0.16b, v16.16b
	mov	v1.16b, v17.16b
	mov	v2.16b, v18.16b
	mov	v3.16b, v19.16b
	mov	v4.16b, v20.16b
	mov	v5.16b, v21.16b
	mov	v6.16b, v22.16b
	mov	v7.16b, v23.16b
	sm4_rounds ALL8
	eor	v0.16b, v0.16b, IV.16b
	eor	v1.16b, v1.16b, v16.16b
	eor	v2.16b, v2.16b, v17.16b
	eor	v3.16b, v3.16b, v18.16b
	eor	v4.16b, v4.16b, v19.16b
	eor	v5.16b, v5.16b, v20.16b
	eor	v6.16b, v6.16b, v21.16b
	eor	v7.16b, v7.16b, v22.16b
	mov	IV.16b, v23.16b
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #128
	b.ne	1b
	st1	{IV.16b}, [CHAIN]
	wipe_vectors
	ldr	d8, [sp], #16
	ret
	endfn	sm4_cbc_decrypt_ce

	entry	sm4_cfb_decrypt_ce, SM4_ARM64_CTX_RK_ENC
	str	d8, [sp, #-16]!
	load_rk
	ld1	{IV.16b}, [CHAIN]
1:
	/* keystream inputs: iv, c0 .. c6 */
	ld1	{v16.16b-v19.16b}, [SRC], #64
	ld1	{v20.16b-v23.16b}, [SRC], #64
	mov	v0.16b, IV.16b
	mov	v1.16b, v16.16b
	mov	v2.16b, v17.16b
	mov	v3.16b, v18.16b
	mov	v4.16b, v19.16b
	mov	v5.16b, v20.16b
	mov	v6.16b, v21.16b
	mov	v7.16b, v22.16b
	mov	IV.16b, v23.16b
	sm4_rounds ALL8
	eor	v0.16b, v0.16b, v16.16b
	eor	v1.16b, v1.16b, v17.16b
	eor	v2.16b, v2.16b, v18.16b
	eor	v3.16b, v3.16b, v19.16b
	eor	v4.16b, v4.16b, v20.16b
	eor	v5.16b, v5.16b, v21.16b
	eor	v6.16b, v6.16b, v22.16b
	eor	v7.16b, v7.16b, v23.16b
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #128
	b.ne	1b
	st1	{IV.16b}, [CHAIN]
	wipe_vectors
	ldr	d8, [sp], #16
	ret
	endfn	sm4_cfb_decrypt_ce

	entry	sm4_ctr_crypt_ce, SM4_ARM64_CTX_RK_ENC
	load_rk
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
	sm4_rounds ALL8
	ld1	{v16.16b-v19.16b}, [SRC], #64
	ld1	{v20.16b-v23.16b}, [SRC], #64
	eor	v0.16b, v0.16b, v16.16b
	eor	v1.16b, v1.16b, v17.16b
	eor	v2.16b, v2.16b, v18.16b
	eor	v3.16b, v3.16b, v19.16b
	eor	v4.16b, v4.16b, v20.16b
	eor	v5.16b, v5.16b, v21.16b
	eor	v6.16b, v6.16b, v22.16b
	eor	v7.16b, v7.16b, v23.16b
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
	subs	NBYTES, NBYTES, #128
	b.ne	1b
	rev	CTRHI, CTRHI
	rev	CTRLO, CTRLO
	stp	CTRHI, CTRLO, [CHAIN]
	wipe_vectors
	ret
	endfn	sm4_ctr_crypt_ce

	/* no executable stack */
	.section .note.GNU-stack, "", %progbits
