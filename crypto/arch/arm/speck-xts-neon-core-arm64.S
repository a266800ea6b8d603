/* SPDX-License-Identifier: MIT */
/*
 * Speck128 and Speck64 in XTS and ECB mode with AArch64 Advanced SIMD
 * (NEON), 128 bytes per chunk: 8 Speck128 blocks or 16 Speck64 blocks.
 *
 * Variants (all need only the base AArch64 Advanced SIMD; no crypto
 * extension, so they suit Cortex-A53/A72 parts without AES too):
 *   speck128_xts_{encrypt,decrypt}_neon   Speck128/128, /192, /256 XTS
 *   speck64_xts_{encrypt,decrypt}_neon    Speck64/96, /128 XTS
 *   speck128_ecb_{encrypt,decrypt}_neon   Speck128 ECB
 *   speck64_ecb_{encrypt,decrypt}_neon    Speck64 ECB
 *
 * C prototypes and contract: speck-xts-neon.h. Every entry point
 * takes the child context first (struct speck128_tfm_ctx or
 * speck64_tfm_ctx, crypto/speck/speck.h) and reads the round count and
 * the round keys from it at the SPECK*_CTX_* offsets that header
 * defines; nbytes is a nonzero multiple of 128; the tweak (16 or 8 bytes,
 * already encrypted with the tweak key) is updated to the one for the
 * next block.
 *
 * Technique: the shape of the Linux kernel's former
 * arch/arm64/crypto/speck-neon-core.S (E. Biggers, 2018): the x and y
 * words of the blocks are de-interleaved into separate vectors so one
 * Speck round is a handful of lane-wise instructions applied to every
 * block of the chunk; the round key is broadcast to all lanes; the 8-bit
 * rotate is one TBL. XTS tweaks are computed in vector registers before
 * the rounds and XORed in before and after. Written from the Speck paper
 * (eprint 2013/404) and IEEE 1619-2007; no kernel code was copied.
 *
 * Constant time: only add, rotate, xor and fixed permutations.
 */

#include "crypto/arch/arm/speck-xts-neon.h"

	.text
	.arch	armv8-a

	/* arguments */
	CTX		.req	x0	/* const struct speck{128,64}_tfm_ctx * */
	DST		.req	x1	/* uint8_t *dst */
	SRC		.req	x2	/* const uint8_t *src */
	NBYTES		.req	x3	/* size_t nbytes, multiple of 128 */
	TWEAK		.req	x4	/* uint8_t *tweak (XTS only) */

	/* scalars */
	NROUNDS		.req	w5	/* ctx->nrounds (32-34 or 26-27) */
	KEYPTR		.req	x6	/* walks the round keys */
	LOOPS		.req	w7	/* 4-round passes left in this chunk */
	KEYSTEP		.req	x8	/* +-size of one round key */
	TMPADDR		.req	x9	/* address of a constant */
	KEYS		.req	x11	/* the round key a chunk starts with */

	/*
	 * Vectors. v0-v7 hold the chunk as loaded (block-wise), then serve
	 * as round temporaries; v8-v9 constants (callee-saved: d8/d9 are
	 * saved); v16-v23 the XTS tweaks; v24-v31 the de-interleaved words.
	 */
	ROT		.req	v8	/* TBL indices for the 8-bit rotate */
	GFMUL		.req	v9	/* tweak doubling: mask or table */
	KEY		.req	v4	/* round key in every lane */
	T0		.req	v16	/* tweaks of blocks (pairs for Speck64) */
	T1		.req	v17
	T2		.req	v18
	T3		.req	v19
	T4		.req	v20
	T5		.req	v21
	T6		.req	v22
	T7		.req	v23
	VY0		.req	v24	/* first words (y) of the blocks */
	VX0		.req	v25	/* second words (x) */
	VY1		.req	v26
	VX1		.req	v27
	VY2		.req	v28
	VX2		.req	v29
	VY3		.req	v30
	VX3		.req	v31

	.section .rodata
	.align	4
/* byte indices: out[i] = in[idx[i]] rotates each lane right/left by 8 */
.Lror64_8:
	.byte	1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8
.Lrol64_8:
	.byte	7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14
.Lror32_8:
	.byte	1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12
.Lrol32_8:
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
/*
 * GF(2^128) doubling: after the halves are swapped and turned into
 * all-ones masks of their top bits, the low half gets 0x87 when the
 * high half overflowed and the high half gets 1 when the low one did.
 */
.Lgf128_mask:
	.quad	0x87, 1
/*
 * GF(2^64) times x^2: the top two bits b of a tweak, reduced by
 * x^64 = x^4 + x^3 + x + 1: b * 0x1b carry-less, for b = 0..3.
 */
.Lgf64_x2:
	.byte	0, 0x1b, 0x36, 0x2d
	.fill	12

	.text

/* x = (ror(x, 8) + y) ^ k; y = rol(y, 3) ^ x, on all blocks; lanes: s */
.macro speck_round s, n
	tbl	VX0.16b, {VX0.16b}, ROT.16b
	tbl	VX1.16b, {VX1.16b}, ROT.16b
	tbl	VX2.16b, {VX2.16b}, ROT.16b
	tbl	VX3.16b, {VX3.16b}, ROT.16b
	add	VX0.\s, VX0.\s, VY0.\s
	add	VX1.\s, VX1.\s, VY1.\s
	add	VX2.\s, VX2.\s, VY2.\s
	add	VX3.\s, VX3.\s, VY3.\s
	eor	VX0.16b, VX0.16b, KEY.16b
	eor	VX1.16b, VX1.16b, KEY.16b
	eor	VX2.16b, VX2.16b, KEY.16b
	eor	VX3.16b, VX3.16b, KEY.16b
	shl	v0.\s, VY0.\s, #3
	shl	v1.\s, VY1.\s, #3
	shl	v2.\s, VY2.\s, #3
	shl	v3.\s, VY3.\s, #3
	sri	v0.\s, VY0.\s, #(\n - 3)
	sri	v1.\s, VY1.\s, #(\n - 3)
	sri	v2.\s, VY2.\s, #(\n - 3)
	sri	v3.\s, VY3.\s, #(\n - 3)
	eor	VY0.16b, v0.16b, VX0.16b
	eor	VY1.16b, v1.16b, VX1.16b
	eor	VY2.16b, v2.16b, VX2.16b
	eor	VY3.16b, v3.16b, VX3.16b
.endm

/* the inverse: y = ror(y ^ x, 3); x = rol((x ^ k) - y, 8) */
.macro speck_unround s, n
	eor	v0.16b, VY0.16b, VX0.16b
	eor	v1.16b, VY1.16b, VX1.16b
	eor	v2.16b, VY2.16b, VX2.16b
	eor	v3.16b, VY3.16b, VX3.16b
	ushr	VY0.\s, v0.\s, #3
	ushr	VY1.\s, v1.\s, #3
	ushr	VY2.\s, v2.\s, #3
	ushr	VY3.\s, v3.\s, #3
	sli	VY0.\s, v0.\s, #(\n - 3)
	sli	VY1.\s, v1.\s, #(\n - 3)
	sli	VY2.\s, v2.\s, #(\n - 3)
	sli	VY3.\s, v3.\s, #(\n - 3)
	eor	VX0.16b, VX0.16b, KEY.16b
	eor	VX1.16b, VX1.16b, KEY.16b
	eor	VX2.16b, VX2.16b, KEY.16b
	eor	VX3.16b, VX3.16b, KEY.16b
	sub	VX0.\s, VX0.\s, VY0.\s
	sub	VX1.\s, VX1.\s, VY1.\s
	sub	VX2.\s, VX2.\s, VY2.\s
	sub	VX3.\s, VX3.\s, VY3.\s
	tbl	VX0.16b, {VX0.16b}, ROT.16b
	tbl	VX1.16b, {VX1.16b}, ROT.16b
	tbl	VX2.16b, {VX2.16b}, ROT.16b
	tbl	VX3.16b, {VX3.16b}, ROT.16b
.endm

/* load the round key for the next round into all lanes, step KEYPTR */
.macro load_key s
	ld1r	{KEY.\s}, [KEYPTR], KEYSTEP
.endm

.macro one_round s, n, decrypting
	load_key \s
.if \decrypting
	speck_unround \s, \n
.else
	speck_round \s, \n
.endif
.endm

/*
 * All NROUNDS rounds on the chunk in VY0-VY3/VX0-VX3: NROUNDS % 4 first,
 * then four per loop pass (the loop branch would otherwise cost about
 * 0.25 instructions/byte).
 */
.macro all_rounds s, n, decrypting, start
	mov	KEYPTR, \start
	lsr	LOOPS, NROUNDS, #2
	tbz	NROUNDS, #1, 5f
	one_round \s, \n, \decrypting
	one_round \s, \n, \decrypting
5:
	tbz	NROUNDS, #0, 6f
	one_round \s, \n, \decrypting
6:
	one_round \s, \n, \decrypting
	one_round \s, \n, \decrypting
	one_round \s, \n, \decrypting
	one_round \s, \n, \decrypting
	subs	LOOPS, LOOPS, #1
	b.ne	6b
.endm

/* Tn = Tp * x in GF(2^128), little-endian (IEEE 1619); clobbers v0 */
.macro gf128_double tn, tp
	ext	v0.16b, \tp\().16b, \tp\().16b, #8
	sshr	v0.2d, v0.2d, #63
	and	v0.16b, v0.16b, GFMUL.16b
	add	\tn\().2d, \tp\().2d, \tp\().2d
	eor	\tn\().16b, \tn\().16b, v0.16b
.endm

/* both 64-bit lanes: Tn = Tp * x^2 in GF(2^64); clobbers v0 */
.macro gf64_double2 tn, tp
	ushr	v0.2d, \tp\().2d, #62
	shl	\tn\().2d, \tp\().2d, #2
	tbl	v0.16b, {GFMUL.16b}, v0.16b
	eor	\tn\().16b, \tn\().16b, v0.16b
.endm

/* v0-v7 (blocks in memory order) <-> VY0-3/VX0-3 (word vectors) */
.macro split s
	uzp1	VY0.\s, v0.\s, v1.\s
	uzp2	VX0.\s, v0.\s, v1.\s
	uzp1	VY1.\s, v2.\s, v3.\s
	uzp2	VX1.\s, v2.\s, v3.\s
	uzp1	VY2.\s, v4.\s, v5.\s
	uzp2	VX2.\s, v4.\s, v5.\s
	uzp1	VY3.\s, v6.\s, v7.\s
	uzp2	VX3.\s, v6.\s, v7.\s
.endm

.macro join s
	zip1	v0.\s, VY0.\s, VX0.\s
	zip2	v1.\s, VY0.\s, VX0.\s
	zip1	v2.\s, VY1.\s, VX1.\s
	zip2	v3.\s, VY1.\s, VX1.\s
	zip1	v4.\s, VY2.\s, VX2.\s
	zip2	v5.\s, VY2.\s, VX2.\s
	zip1	v6.\s, VY3.\s, VX3.\s
	zip2	v7.\s, VY3.\s, VX3.\s
.endm

.macro xor_tweaks
	eor	v0.16b, v0.16b, T0.16b
	eor	v1.16b, v1.16b, T1.16b
	eor	v2.16b, v2.16b, T2.16b
	eor	v3.16b, v3.16b, T3.16b
	eor	v4.16b, v4.16b, T4.16b
	eor	v5.16b, v5.16b, T5.16b
	eor	v6.16b, v6.16b, T6.16b
	eor	v7.16b, v7.16b, T7.16b
.endm

/*
 * The body of every entry point. n: word size (64 Speck128, 32 Speck64);
 * xts: 1 XTS, 0 ECB. Round keys run forwards when encrypting and
 * backwards (from the last) when decrypting.
 */
.macro speck_crypt n, decrypting, xts
	stp	d8, d9, [sp, #-16]!
.if \n == 64
	.set	.Lesize, 8
	.set	.Lkeys, SPECK128_CTX_ROUND_KEYS
	ldr	NROUNDS, [CTX, #SPECK128_CTX_NROUNDS]
.else
	.set	.Lesize, 4
	.set	.Lkeys, SPECK64_CTX_ROUND_KEYS
	ldr	NROUNDS, [CTX, #SPECK64_CTX_NROUNDS]
.endif
.if \decrypting
	mov	KEYSTEP, #-.Lesize
	/* start at the last round key */
	sub	w10, NROUNDS, #1
.if \n == 64
	add	KEYS, CTX, w10, uxtw #3
.else
	add	KEYS, CTX, w10, uxtw #2
.endif
.if .Lkeys
	add	KEYS, KEYS, #.Lkeys
.endif
	adrp	TMPADDR, .Lrol\n\()_8
	add	TMPADDR, TMPADDR, :lo12:.Lrol\n\()_8
.else
	mov	KEYSTEP, #.Lesize
	add	KEYS, CTX, #.Lkeys
	adrp	TMPADDR, .Lror\n\()_8
	add	TMPADDR, TMPADDR, :lo12:.Lror\n\()_8
.endif
	ld1	{ROT.16b}, [TMPADDR]
.if \xts
.if \n == 64
	adrp	TMPADDR, .Lgf128_mask
	add	TMPADDR, TMPADDR, :lo12:.Lgf128_mask
	ld1	{GFMUL.16b}, [TMPADDR]
	ld1	{T0.16b}, [TWEAK]
.else
	adrp	TMPADDR, .Lgf64_x2
	add	TMPADDR, TMPADDR, :lo12:.Lgf64_x2
	ld1	{GFMUL.16b}, [TMPADDR]
	/* T0 = (T, T * x): from then on each 64-bit lane steps by x^2 */
	ldr	x12, [TWEAK]
	mov	x14, #0x1b
	asr	x13, x12, #63
	and	x13, x13, x14
	eor	x13, x13, x12, lsl #1
	mov	T0.d[0], x12
	mov	T0.d[1], x13
.endif
.endif
2:
.if \xts
.if \n == 64
	gf128_double T1, T0
	gf128_double T2, T1
	gf128_double T3, T2
	gf128_double T4, T3
	gf128_double T5, T4
	gf128_double T6, T5
	gf128_double T7, T6
.else
	gf64_double2 T1, T0
	gf64_double2 T2, T1
	gf64_double2 T3, T2
	gf64_double2 T4, T3
	gf64_double2 T5, T4
	gf64_double2 T6, T5
	gf64_double2 T7, T6
.endif
.endif
	ld1	{v0.16b-v3.16b}, [SRC], #64
	ld1	{v4.16b-v7.16b}, [SRC], #64
.if \xts
	xor_tweaks
.endif
.if \n == 64
	split	2d
	all_rounds 2d, 64, \decrypting, KEYS
	join	2d
.else
	split	4s
	all_rounds 4s, 32, \decrypting, KEYS
	join	4s
.endif
.if \xts
	xor_tweaks
.endif
	st1	{v0.16b-v3.16b}, [DST], #64
	st1	{v4.16b-v7.16b}, [DST], #64
.if \xts
	/* the tweak of the next chunk's first block (pair) */
.if \n == 64
	gf128_double T0, T7
.else
	gf64_double2 T0, T7
.endif
.endif
	subs	NBYTES, NBYTES, #128
	b.ne	2b
.if \xts
	/* the tweak of the next block: lane 0 of T0 */
.if \n == 64
	st1	{T0.16b}, [TWEAK]
.else
	st1	{T0.d}[0], [TWEAK]
.endif
.endif
	ldp	d8, d9, [sp], #16
	ret
.endm

	.align	4
	.global	speck128_xts_encrypt_neon
	.type	speck128_xts_encrypt_neon, %function
speck128_xts_encrypt_neon:
	speck_crypt 64, 0, 1
	.size	speck128_xts_encrypt_neon, . - speck128_xts_encrypt_neon

	.align	4
	.global	speck128_xts_decrypt_neon
	.type	speck128_xts_decrypt_neon, %function
speck128_xts_decrypt_neon:
	speck_crypt 64, 1, 1
	.size	speck128_xts_decrypt_neon, . - speck128_xts_decrypt_neon

	.align	4
	.global	speck64_xts_encrypt_neon
	.type	speck64_xts_encrypt_neon, %function
speck64_xts_encrypt_neon:
	speck_crypt 32, 0, 1
	.size	speck64_xts_encrypt_neon, . - speck64_xts_encrypt_neon

	.align	4
	.global	speck64_xts_decrypt_neon
	.type	speck64_xts_decrypt_neon, %function
speck64_xts_decrypt_neon:
	speck_crypt 32, 1, 1
	.size	speck64_xts_decrypt_neon, . - speck64_xts_decrypt_neon

	.align	4
	.global	speck128_ecb_encrypt_neon
	.type	speck128_ecb_encrypt_neon, %function
speck128_ecb_encrypt_neon:
	speck_crypt 64, 0, 0
	.size	speck128_ecb_encrypt_neon, . - speck128_ecb_encrypt_neon

	.align	4
	.global	speck128_ecb_decrypt_neon
	.type	speck128_ecb_decrypt_neon, %function
speck128_ecb_decrypt_neon:
	speck_crypt 64, 1, 0
	.size	speck128_ecb_decrypt_neon, . - speck128_ecb_decrypt_neon

	.align	4
	.global	speck64_ecb_encrypt_neon
	.type	speck64_ecb_encrypt_neon, %function
speck64_ecb_encrypt_neon:
	speck_crypt 32, 0, 0
	.size	speck64_ecb_encrypt_neon, . - speck64_ecb_encrypt_neon

	.align	4
	.global	speck64_ecb_decrypt_neon
	.type	speck64_ecb_decrypt_neon, %function
speck64_ecb_decrypt_neon:
	speck_crypt 32, 1, 0
	.size	speck64_ecb_decrypt_neon, . - speck64_ecb_decrypt_neon

	.section .note.GNU-stack, "", %progbits
