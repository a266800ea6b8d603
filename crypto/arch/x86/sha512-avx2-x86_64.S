/* SPDX-License-Identifier: MIT */
/*
 * SHA-512 block function for x86-64 with AVX2, BMI1 and BMI2 (FIPS 180-4,
 * section 6.4): the sha512-avx2 driver (glue sha512-x86-glue.c).
 *
 * Variants and the CPUs they are for:
 *   sha512_blocks_avx2   AVX2 + BMI2 (Haswell and later, Zen and later)
 *
 * C prototype (sha512-x86.h):
 *   void sha512_blocks_avx2(uint64_t h[8], const uint8_t *data, size_t nblocks);
 * nblocks > 0 whole 128-byte blocks into the chaining value h; data needs
 * no alignment.
 *
 * Technique: the message schedule of two blocks at once in ymm registers
 * (block A in the low 128-bit lane, block B in the high one; ymm0-7 are
 * the last 16 words, two per lane), the rounds in general-purpose
 * registers with RORX and ANDN. Block A's rounds run 16 at a time with
 * the next 16 words of both blocks scheduled between them (one vector
 * step per two rounds: independent work the core overlaps); W[t] + K[t]
 * of both blocks goes to the stack, from which block B's 80 rounds read.
 * A lone last block is loaded into both lanes and block B's rounds are
 * skipped. A C version of this (asm/x86/sha512-avx2.c in the history)
 * spilled the working variables: 5.4 cycles a round against 4.5 here.
 *
 * Constant time: additions, logic and fixed rotations only. The stack
 * copy of the schedule (message-derived) is wiped before returning.
 */

/* working variables a..h; the round macro is called with them rotated */
#define A	%r8
#define B	%r9
#define C	%r10
#define D	%r11
#define E	%r12
#define F	%r13
#define G	%r14
#define H	%r15
/* round temporaries */
#define T1	%rax
#define T2	%rcx
#define T3	%rsi
#define X	%rdi
#define Y	%rdx
#define WK	%rbp	/* W[t] + K[t] of the 16 rounds in hand (block A at 0, B at 640) */
#define KP	%rbx	/* K[t] of the 16 rounds in hand */

/* stack frame (rsp 32-byte aligned) */
#define WKA	0	/* W + K of block A, 80 words */
#define WKB	640	/* W + K of block B */
#define S_STATE	1280	/* uint64_t h[8] */
#define S_DATA	1288	/* the next block */
#define S_N	1296	/* blocks left */
#define S_RSP	1304	/* rsp at entry */
#define FRAME	1312

	.text

/*
 * One round, written for two 4-cycle dependency chains (e to the next e,
 * a to the next a) at some extra additions: h += W[t] + K[t] (at \wk(WK));
 * Ch(e, f, g) = (~e & g) + (e & f) (disjoint bits, so + is ^); the new e =
 * ((d + h) + Ch) + Sigma1(e) and T1 = (h + Ch) + Sigma1(e) side by side;
 * the new a = (T1 + Maj) + Sigma0(a) with Maj = (a & (b ^ c)) ^ (b & c),
 * whose b and c terms are ready a round early.
 */
.macro ROUND a, b, c, d, e, f, g, h, wk
	add	\wk(WK), \h
	rorx	$14, \e, T1
	rorx	$18, \e, T2
	andn	\g, \e, T3
	add	\h, \d
	xor	T2, T1
	mov	\e, Y
	and	\f, Y
	rorx	$41, \e, T2
	add	Y, T3
	xor	T2, T1
	add	T3, \d
	add	T3, \h
	add	T1, \d
	add	T1, \h
	mov	\b, X
	xor	\c, X
	mov	\b, Y
	and	\c, Y
	and	\a, X
	rorx	$28, \a, T1
	rorx	$34, \a, T2
	xor	Y, X
	rorx	$39, \a, T3
	xor	T2, T1
	add	X, \h
	xor	T3, T1
	add	T1, \h
.endm

/*
 * W[n], W[n+1] of both blocks into x0 (which held W[n-16], W[n-15]):
 * sigma1(W[n-2..n-1]) + W[n-7..n-6] + sigma0(W[n-15..n-14]) + W[n-16..n-15];
 * the pairs at odd offsets straddle two registers and VPALIGNR joins them
 * per lane. Then + K and the two lanes to block A's and block B's words at
 * \off (bytes from WK and KP). AVX2 has no 64-bit rotate: each is two
 * shifts, and the three terms of a sigma are XORed together.
 */
.macro SCHED x0, x1, x4, x5, x7, off
	vpalignr	$8, \x0, \x1, %ymm9
	vpalignr	$8, \x4, \x5, %ymm10
	vpsrlq	$1, %ymm9, %ymm11
	vpaddq	%ymm10, \x0, \x0
	vpsrlq	$8, %ymm9, %ymm12
	vpsrlq	$7, %ymm9, %ymm10
	vpxor	%ymm12, %ymm11, %ymm11
	vpsllq	$63, %ymm9, %ymm12
	vpxor	%ymm10, %ymm11, %ymm11
	vpsllq	$56, %ymm9, %ymm10
	vpxor	%ymm12, %ymm11, %ymm11
	vpsrlq	$19, \x7, %ymm9
	vpxor	%ymm10, %ymm11, %ymm11
	vpsrlq	$61, \x7, %ymm12
	vpaddq	%ymm11, \x0, \x0
	vpsrlq	$6, \x7, %ymm10
	vpxor	%ymm12, %ymm9, %ymm9
	vpsllq	$45, \x7, %ymm12
	vpxor	%ymm10, %ymm9, %ymm9
	vpsllq	$3, \x7, %ymm10
	vpxor	%ymm12, %ymm9, %ymm9
	vpxor	%ymm10, %ymm9, %ymm9
	vpaddq	%ymm9, \x0, \x0
	vbroadcasti128	\off(KP), %ymm9
	vpaddq	%ymm9, \x0, %ymm9
	vmovdqa	%xmm9, \off(WK)
	vextracti128	$1, %ymm9, WKB+\off(WK)
.endm

/* eight rounds from \wk (bytes from WK), the variables rotating */
.macro ROUNDS8 wk
	ROUND	A, B, C, D, E, F, G, H, \wk
	ROUND	H, A, B, C, D, E, F, G, \wk+8
	ROUND	G, H, A, B, C, D, E, F, \wk+16
	ROUND	F, G, H, A, B, C, D, E, \wk+24
	ROUND	E, F, G, H, A, B, C, D, \wk+32
	ROUND	D, E, F, G, H, A, B, C, \wk+40
	ROUND	C, D, E, F, G, H, A, B, \wk+48
	ROUND	B, C, D, E, F, G, H, A, \wk+56
.endm

/* h[0..7] += a..h, stored back; state pointer in T1 */
.macro FEED_FORWARD
	mov	S_STATE(%rsp), T1
	add	0(T1), A
	add	8(T1), B
	add	16(T1), C
	add	24(T1), D
	add	32(T1), E
	add	40(T1), F
	add	48(T1), G
	add	56(T1), H
	mov	A, 0(T1)
	mov	B, 8(T1)
	mov	C, 16(T1)
	mov	D, 24(T1)
	mov	E, 32(T1)
	mov	F, 40(T1)
	mov	G, 48(T1)
	mov	H, 56(T1)
.endm

	.balign 32
	.globl	sha512_blocks_avx2
	.type	sha512_blocks_avx2, @function
sha512_blocks_avx2:
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rsp, %rax
	sub	$FRAME, %rsp
	and	$-32, %rsp
	mov	%rax, S_RSP(%rsp)
	mov	%rdi, S_STATE(%rsp)
	mov	%rsi, S_DATA(%rsp)
	mov	%rdx, S_N(%rsp)
	vmovdqa	.Lbswap64(%rip), %ymm8
	mov	0(%rdi), A
	mov	8(%rdi), B
	mov	16(%rdi), C
	mov	24(%rdi), D
	mov	32(%rdi), E
	mov	40(%rdi), F
	mov	48(%rdi), G
	mov	56(%rdi), H

.Lpair:
	/* block A at data, block B the next one (A again when it is the last) */
	mov	S_DATA(%rsp), T1
	lea	128(T1), T2
	cmpq	$1, S_N(%rsp)
	cmove	T1, T2
	mov	sha512_k@GOTPCREL(%rip), KP
	mov	%rsp, WK
	/* W[0..15] of both blocks, and + K to the stack */
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu	16*\i(T1), %xmm\i
	vinserti128	$1, 16*\i(T2), %ymm\i, %ymm\i
	vpshufb	%ymm8, %ymm\i, %ymm\i
	vbroadcasti128	16*\i(KP), %ymm9
	vpaddq	%ymm9, %ymm\i, %ymm9
	vmovdqa	%xmm9, 16*\i(WK)
	vextracti128	$1, %ymm9, WKB+16*\i(WK)
	.endr

	/* block A: rounds t..t+15 with words t+16..t+31 scheduled, t = 0..48 */
.Lsched_loop:
	ROUND	A, B, C, D, E, F, G, H, 0
	ROUND	H, A, B, C, D, E, F, G, 8
	SCHED	%ymm0, %ymm1, %ymm4, %ymm5, %ymm7, 128
	ROUND	G, H, A, B, C, D, E, F, 16
	ROUND	F, G, H, A, B, C, D, E, 24
	SCHED	%ymm1, %ymm2, %ymm5, %ymm6, %ymm0, 144
	ROUND	E, F, G, H, A, B, C, D, 32
	ROUND	D, E, F, G, H, A, B, C, 40
	SCHED	%ymm2, %ymm3, %ymm6, %ymm7, %ymm1, 160
	ROUND	C, D, E, F, G, H, A, B, 48
	ROUND	B, C, D, E, F, G, H, A, 56
	SCHED	%ymm3, %ymm4, %ymm7, %ymm0, %ymm2, 176
	ROUND	A, B, C, D, E, F, G, H, 64
	ROUND	H, A, B, C, D, E, F, G, 72
	SCHED	%ymm4, %ymm5, %ymm0, %ymm1, %ymm3, 192
	ROUND	G, H, A, B, C, D, E, F, 80
	ROUND	F, G, H, A, B, C, D, E, 88
	SCHED	%ymm5, %ymm6, %ymm1, %ymm2, %ymm4, 208
	ROUND	E, F, G, H, A, B, C, D, 96
	ROUND	D, E, F, G, H, A, B, C, 104
	SCHED	%ymm6, %ymm7, %ymm2, %ymm3, %ymm5, 224
	ROUND	C, D, E, F, G, H, A, B, 112
	ROUND	B, C, D, E, F, G, H, A, 120
	SCHED	%ymm7, %ymm0, %ymm3, %ymm4, %ymm6, 240
	add	$128, WK
	add	$128, KP
	lea	512(%rsp), T1
	cmp	T1, WK
	jne	.Lsched_loop
	/* rounds 64..79 of block A */
	ROUNDS8	0
	ROUNDS8	64
	FEED_FORWARD

	cmpq	$1, S_N(%rsp)
	je	.Ldone
	/* block B: 80 rounds from the stored words */
	lea	WKB(%rsp), WK
	lea	WKB+640(%rsp), KP	/* the end (KP is free here) */
.Lrounds_b:
	ROUNDS8	0
	ROUNDS8	64
	add	$128, WK
	cmp	KP, WK
	jne	.Lrounds_b
	FEED_FORWARD

	addq	$256, S_DATA(%rsp)
	subq	$2, S_N(%rsp)
	jnz	.Lpair

.Ldone:
	/* wipe the schedule of the message and the vector registers */
	vpxor	%xmm0, %xmm0, %xmm0
	mov	%rsp, T1
	lea	1280(%rsp), T2
.Lwipe:
	vmovdqa	%ymm0, (T1)
	add	$32, T1
	cmp	T2, T1
	jne	.Lwipe
	vzeroall
	mov	S_RSP(%rsp), %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	ret
	.size	sha512_blocks_avx2, .-sha512_blocks_avx2

	.section .rodata
	.balign 32
/* VPSHUFB indexes reversing the bytes of each 64-bit word (big-endian) */
.Lbswap64:
	.byte	7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8
	.byte	7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8

	.section .note.GNU-stack, "", @progbits
