/* SPDX-License-Identifier: MIT */
/*
 * NH with AArch64 NEON: nh_neon of nh-neon.h on AArch64.
 *
 *   void nh_neon(const uint32_t *key, const uint8_t *msg, size_t len,
 *                uint8_t hash[32]);
 *
 * A 64-byte step (units 0-3) loads its message with one LD4 of 64-bit
 * elements, which leaves units 0, 2 as a pair A (x = m0.lo m2.lo,
 * y = m0.hi m2.hi; lo = words 0, 1, hi = words 2, 3) and units 1, 3 as a
 * pair B. Key pair Kj is key units j, j + 2 in the same layout, so pass p
 * is A against Kp and B against Kp+1: x + kx, y + ky, then UMLAL (the
 * first unit's two products into the pass's two 64-bit sums) and UMLAL2
 * (the second's). One LD4 of key units j..j+3 gives Kj and Kj+1; a step
 * needs K0..K4 and K0 is the previous step's K4, still in registers, so
 * two key loads (units 1-4, 3-6) a step: 35 instructions a 64-byte step
 * (16 adds, 16 multiply-adds, 3 loads), against a floor of 32. Steps
 * alternate between two register sets (A: K0 in v24-v25, leaves K4 in
 * v6-v7; B: the reverse), four steps a loop turn. The last 1 to 3 units
 * go one at a time. Reads no key word nh_generic does not (a step reads
 * key units up to 6, its own last unit + 3).
 * Constant time: 32-bit additions and 32x32->64 multiply-adds only.
 *
 * v16-v19: the sums of passes 0-3; v0-v3 message; v4-v7, v22-v29 key;
 * v20, v21, v30, v31 temporaries; x6, x7: key units 1 and 3 of the next
 * step. v8-v15 (callee-saved) are not touched.
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

/*
 * One 64-byte step: K0 in (a0, a1) from the step before; K1, K2 loaded
 * into b0-b3, K3, K4 into c0-c3 (four consecutive registers each).
 */
.macro	STEP a0, a1, b0, b1, b2, b3, c0, c1, c2, c3
	ld4		{v0.2d, v1.2d, v2.2d, v3.2d}, [x1], #64
	ld4		{\b0\().2d, \b1\().2d, \b2\().2d, \b3\().2d}, [x6], #64
	ld4		{\c0\().2d, \c1\().2d, \c2\().2d, \c3\().2d}, [x7], #64
	PASS2		v16, v0, v1, \a0, \a1, v30, v31
	PASS2		v16, v2, v3, \b0, \b1, v20, v21
	PASS2		v17, v0, v1, \b0, \b1, v30, v31
	PASS2		v17, v2, v3, \b2, \b3, v20, v21
	PASS2		v18, v0, v1, \b2, \b3, v30, v31
	PASS2		v18, v2, v3, \c0, \c1, v20, v21
	PASS2		v19, v0, v1, \c0, \c1, v30, v31
	PASS2		v19, v2, v3, \c2, \c3, v20, v21
.endm

.macro	STEP_A
	STEP		v24, v25, v26, v27, v28, v29, v4, v5, v6, v7
.endm

.macro	STEP_B
	STEP		v6, v7, v26, v27, v28, v29, v22, v23, v24, v25
.endm

	.align	4
	.global	nh_neon
	.type	nh_neon, %function
nh_neon:
	movi		v16.2d, #0
	movi		v17.2d, #0
	movi		v18.2d, #0
	movi		v19.2d, #0
	ld4		{v24.2d, v25.2d, v26.2d, v27.2d}, [x0]	/* K0 */
	add		x6, x0, #16
	add		x7, x0, #48
	subs		x2, x2, #256
	b.lo		2f
1:	STEP_A
	STEP_B
	STEP_A
	STEP_B
	subs		x2, x2, #256
	b.hs		1b
	/* x2 = the rest - 256: bits 4-7 are the rest's (below 256) */
2:	tbz		x2, #7, 3f
	STEP_A
	STEP_B
3:	tbz		x2, #6, 4f
	STEP_A
4:	ands		x2, x2, #48			/* the last 0 to 3 units */
	b.eq		6f
	sub		x0, x6, #16			/* the next unit's key */
	mov		x5, #16
5:	ld1		{v0.4s}, [x1], #16
	ld1		{v4.4s, v5.4s, v6.4s, v7.4s}, [x0], x5
	PASS1		v16, v0, v4
	PASS1		v17, v0, v5
	PASS1		v18, v0, v6
	PASS1		v19, v0, v7
	subs		x2, x2, #16
	b.ne		5b
	/* each pass's two lanes summed mod 2^64, little-endian */
6:	addp		v0.2d, v16.2d, v17.2d
	addp		v1.2d, v18.2d, v19.2d
	st1		{v0.2d, v1.2d}, [x3]
	ret
	.size	nh_neon, . - nh_neon

	.section .note.GNU-stack, "", %progbits
