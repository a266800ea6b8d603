/* SPDX-License-Identifier: MIT */
/*
 * NH with AArch64 NEON: nh_neon of nh-neon.h on AArch64 (the intrinsics
 * version spent a sixth of its loop on address arithmetic and copies).
 *
 *   void nh_neon(const uint32_t *key, const uint8_t *msg, size_t len,
 *                uint8_t hash[32]);
 *
 * Two units a, b go together as LD2 of 64-bit halves leaves them:
 * x = a0 a1 b0 b1, y = a2 a3 b2 b3, the key likewise (LD2 from key word
 * 4j gives the key pair j, j + 1). One pass of the pair is x + kx, y + ky,
 * UMLAL (unit a's two products into the pass's two 64-bit sums) and
 * UMLAL2 (unit b's). A 64-byte step (pairs a, b) reads key pairs 0..3
 * for a and 2..5 for b: 6 key loads, 2 message loads, 32 arithmetic
 * instructions. The last 1 to 3 units go one at a time, t's halves
 * brought together with EXT. Reads no key word nh_generic does not.
 * Constant time: 32-bit additions and 32x32->64 multiply-adds only.
 *
 * v16-v19: the sums of passes 0-3; v0-v3 message; v4-v7, v20-v27 key;
 * v28-v31 temporaries. v8-v15 (callee-saved) are not touched.
 */
	.arch	armv8-a
	.text

/* pass sum of the pair (mx, my) against the key pair (kx, ky) */
.macro	PASS2 sum, mx, my, kx, ky, tx, ty
	add		\tx\().4s, \mx\().4s, \kx\().4s
	add		\ty\().4s, \my\().4s, \ky\().4s
	umlal		\sum\().2d, \tx\().2s, \ty\().2s
	umlal2		\sum\().2d, \tx\().4s, \ty\().4s
.endm

/* pass sum of the unit m against key vector k, one unit */
.macro	PASS1 sum, m, k
	add		v28.4s, \m\().4s, \k\().4s
	ext		v29.16b, v28.16b, v28.16b, #8
	umlal		\sum\().2d, v28.2s, v29.2s
.endm

	.align	4
	.global	nh_neon
	.type	nh_neon, %function
nh_neon:
	movi		v16.2d, #0
	movi		v17.2d, #0
	movi		v18.2d, #0
	movi		v19.2d, #0
	mov		x5, #16
	subs		x2, x2, #64
	b.lo		2f
1:	ld2		{v0.2d, v1.2d}, [x1], #32	/* pair a */
	ld2		{v2.2d, v3.2d}, [x1], #32	/* pair b */
	ld2		{v4.2d, v5.2d}, [x0], x5	/* key pair 0 */
	ld2		{v6.2d, v7.2d}, [x0], x5	/* 1 */
	ld2		{v20.2d, v21.2d}, [x0], x5	/* 2 */
	ld2		{v22.2d, v23.2d}, [x0], x5	/* 3 */
	ld2		{v24.2d, v25.2d}, [x0], x5	/* 4 */
	ld2		{v26.2d, v27.2d}, [x0]		/* 5 */
	sub		x0, x0, #16			/* 64 bytes on */
	PASS2		v16, v0, v1, v4, v5, v28, v29
	PASS2		v17, v0, v1, v6, v7, v30, v31
	PASS2		v18, v0, v1, v20, v21, v28, v29
	PASS2		v19, v0, v1, v22, v23, v30, v31
	PASS2		v16, v2, v3, v20, v21, v28, v29
	PASS2		v17, v2, v3, v22, v23, v30, v31
	PASS2		v18, v2, v3, v24, v25, v28, v29
	PASS2		v19, v2, v3, v26, v27, v30, v31
	subs		x2, x2, #64
	b.hs		1b
2:	adds		x2, x2, #64			/* the last 0 to 3 units */
	b.eq		4f
3:	ld1		{v0.4s}, [x1], #16
	ld1		{v4.4s, v5.4s, v6.4s, v7.4s}, [x0]
	add		x0, x0, #16
	PASS1		v16, v0, v4
	PASS1		v17, v0, v5
	PASS1		v18, v0, v6
	PASS1		v19, v0, v7
	subs		x2, x2, #16
	b.ne		3b
	/* each pass's two lanes summed mod 2^64, little-endian */
4:	addp		v0.2d, v16.2d, v17.2d
	addp		v1.2d, v18.2d, v19.2d
	st1		{v0.2d, v1.2d}, [x3]
	ret
	.size	nh_neon, . - nh_neon

	.section .note.GNU-stack, "", %progbits
