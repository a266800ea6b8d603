/* SPDX-License-Identifier: MIT */
/*
 * ChaCha, 4 blocks at once, with AArch64 NEON: the 4-block pass of
 * chacha-neon-core.c (the intrinsics version spent 127 instructions a
 * double round where 112 do: register copies and loop bookkeeping).
 *
 *   void chacha_neon_4blocks(const uint32_t st[16], uint8_t *dst,
 *                            const uint8_t *src, unsigned int nrounds);
 *
 * dst = src ^ 256 bytes of key stream of blocks st[12] .. st[12] + 3 with
 * nrounds rounds (a multiple of 4: 8, 12, 20, as on AArch32); st is not
 * changed; dst == src allowed.
 *
 * Layout: vertical: v16 + k holds state word k of the four blocks (lane =
 * block), so the four quarter rounds of a round run side by side, 14
 * instructions each (rotations: by 16 REV32 of halfwords, by 8 TBL, by
 * 12 and 7 SHL + SRI). Then each row of 4 words is transposed (TRN1/TRN2
 * of words, then of doublewords), the state row added (word 12 + lane
 * first) and XORed with the input, 64-byte stride.
 * v0-v3 temporaries, v4 the TBL index of the 8-bit rotation, v5 the
 * lane numbers; v8-v15 (callee-saved) are not touched.
 * Constant time: add, xor, shift and fixed permutations only.
 */
	.arch	armv8-a
	.text

/* d <<<= rd, rd 16 or 8 */
.macro	ROTD rd, d
	.if	\rd == 16
	rev32	\d\().8h, \d\().8h
	.else
	tbl	\d\().16b, {\d\().16b}, v4.16b
	.endif
.endm

/*
 * Half of four quarter rounds (a_i, b_i, c_i, d_i), i = 0..3:
 * a += b; d ^= a; d <<<= rd; c += d; b ^= c; b <<<= rb
 * with (rd, rb) = (16, 12), then (8, 7) (RFC 8439). By 16: REV32 of
 * halfwords; by 8: TBL with v4; by 12 and 7: SHL + SRI through v0-v3.
 */
.macro	HALF4 rd, rb, a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3
	add	\a0\().4s, \a0\().4s, \b0\().4s
	add	\a1\().4s, \a1\().4s, \b1\().4s
	add	\a2\().4s, \a2\().4s, \b2\().4s
	add	\a3\().4s, \a3\().4s, \b3\().4s
	eor	\d0\().16b, \d0\().16b, \a0\().16b
	eor	\d1\().16b, \d1\().16b, \a1\().16b
	eor	\d2\().16b, \d2\().16b, \a2\().16b
	eor	\d3\().16b, \d3\().16b, \a3\().16b
	ROTD	\rd, \d0
	ROTD	\rd, \d1
	ROTD	\rd, \d2
	ROTD	\rd, \d3
	add	\c0\().4s, \c0\().4s, \d0\().4s
	add	\c1\().4s, \c1\().4s, \d1\().4s
	add	\c2\().4s, \c2\().4s, \d2\().4s
	add	\c3\().4s, \c3\().4s, \d3\().4s
	eor	v0.16b, \b0\().16b, \c0\().16b
	eor	v1.16b, \b1\().16b, \c1\().16b
	eor	v2.16b, \b2\().16b, \c2\().16b
	eor	v3.16b, \b3\().16b, \c3\().16b
	shl	\b0\().4s, v0.4s, #\rb
	shl	\b1\().4s, v1.4s, #\rb
	shl	\b2\().4s, v2.4s, #\rb
	shl	\b3\().4s, v3.4s, #\rb
	sri	\b0\().4s, v0.4s, #(32 - \rb)
	sri	\b1\().4s, v1.4s, #(32 - \rb)
	sri	\b2\().4s, v2.4s, #(32 - \rb)
	sri	\b3\().4s, v3.4s, #(32 - \rb)
.endm

/* four quarter rounds, both halves */
.macro	QR4 a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3
	HALF4	16, 12, \a0, \b0, \c0, \d0, \a1, \b1, \c1, \d1, \a2, \b2, \c2, \d2, \a3, \b3, \c3, \d3
	HALF4	8, 7, \a0, \b0, \c0, \d0, \a1, \b1, \c1, \d1, \a2, \b2, \c2, \d2, \a3, \b3, \c3, \d3
.endm

/*
 * Words 4g..4g+3 of the 4 blocks in va..vd (lane k = block k) to block
 * k's 16 bytes at offset off = 16 g: transpose, add state row vrow, XOR,
 * store (register numbers, for both the v and the q names).
 */
.macro	OUTROW a, b, c, d, row, off
	trn1	v0.4s, v\a\().4s, v\b\().4s
	trn2	v1.4s, v\a\().4s, v\b\().4s
	trn1	v2.4s, v\c\().4s, v\d\().4s
	trn2	v3.4s, v\c\().4s, v\d\().4s
	trn1	v\a\().2d, v0.2d, v2.2d
	trn1	v\b\().2d, v1.2d, v3.2d
	trn2	v\c\().2d, v0.2d, v2.2d
	trn2	v\d\().2d, v1.2d, v3.2d
	add	v\a\().4s, v\a\().4s, v\row\().4s
	add	v\b\().4s, v\b\().4s, v\row\().4s
	add	v\c\().4s, v\c\().4s, v\row\().4s
	add	v\d\().4s, v\d\().4s, v\row\().4s
	ldr	q0, [x2, #(\off)]
	ldr	q1, [x2, #(\off + 64)]
	ldr	q2, [x2, #(\off + 128)]
	ldr	q3, [x2, #(\off + 192)]
	eor	v\a\().16b, v\a\().16b, v0.16b
	eor	v\b\().16b, v\b\().16b, v1.16b
	eor	v\c\().16b, v\c\().16b, v2.16b
	eor	v\d\().16b, v\d\().16b, v3.16b
	str	q\a, [x1, #(\off)]
	str	q\b, [x1, #(\off + 64)]
	str	q\c, [x1, #(\off + 128)]
	str	q\d, [x1, #(\off + 192)]
.endm

	.section .rodata
	.align	4
.Lrot8:	/* byte i of the result is byte rot8[i]: each word turned left by 8 */
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
.Llanes:
	.word	0, 1, 2, 3

	.text
	.align	4
	.global	chacha_neon_4blocks
	.type	chacha_neon_4blocks, %function
chacha_neon_4blocks:
	adrp	x4, .Lrot8
	add	x4, x4, :lo12:.Lrot8
	ld1	{v4.16b, v5.16b}, [x4]		/* rot8 index, lanes */
	ld1	{v0.4s, v1.4s, v2.4s, v3.4s}, [x0]
	dup	v16.4s, v0.s[0]
	dup	v17.4s, v0.s[1]
	dup	v18.4s, v0.s[2]
	dup	v19.4s, v0.s[3]
	dup	v20.4s, v1.s[0]
	dup	v21.4s, v1.s[1]
	dup	v22.4s, v1.s[2]
	dup	v23.4s, v1.s[3]
	dup	v24.4s, v2.s[0]
	dup	v25.4s, v2.s[1]
	dup	v26.4s, v2.s[2]
	dup	v27.4s, v2.s[3]
	dup	v28.4s, v3.s[0]
	dup	v29.4s, v3.s[1]
	dup	v30.4s, v3.s[2]
	dup	v31.4s, v3.s[3]
	add	v28.4s, v28.4s, v5.4s		/* block k's counter + k */

	lsr	w6, w3, #1			/* double rounds */
	cbz	w6, 2f
1:	QR4	v16, v20, v24, v28, v17, v21, v25, v29, v18, v22, v26, v30, v19, v23, v27, v31
	QR4	v16, v21, v26, v31, v17, v22, v27, v28, v18, v23, v24, v29, v19, v20, v25, v30
	subs	w6, w6, #1
	b.ne	1b

2:	add	v28.4s, v28.4s, v5.4s		/* the feed-forward's + k */
	ld1	{v4.4s, v5.4s, v6.4s, v7.4s}, [x0]
	OUTROW	16, 17, 18, 19, 4, 0
	OUTROW	20, 21, 22, 23, 5, 16
	OUTROW	24, 25, 26, 27, 6, 32
	OUTROW	28, 29, 30, 31, 7, 48
	ret
	.size	chacha_neon_4blocks, . - chacha_neon_4blocks

	.section .note.GNU-stack, "", %progbits
