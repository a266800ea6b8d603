/* SPDX-License-Identifier: MIT */
/*
 * ChaCha, 32 blocks (2 KiB) per call with AVX-512F, the round count a
 * parameter: the widest core of the chacha20-avx512 driver and of the
 * ChaCha12 drivers over the same code (the rest is chacha20-avx512.c).
 *
 * Variants and the CPUs they are for:
 *   chacha_32blocks_avx512     AVX-512F (Skylake-SP, Ice Lake, Zen 4, Zen 5)
 *
 * C prototype (chacha20-x86.h has the contract):
 *   void chacha_32blocks_avx512(const uint32_t state[16], uint8_t *dst,
 *                               const uint8_t *src, unsigned int nrounds);
 * dst = src ^ the keystream of nrounds rounds (even, at least 2) of
 * blocks state[12] .. state[12] + 31 (block counter modulo 2^32); state
 * is not changed; dst == src allowed; no alignment needed.
 *
 * Technique: the vertical layout of chacha20-x86-core.h (after M. Willi's
 * kernel chacha-avx512vl-x86_64.S, read for ideas only): zmm k holds
 * state word k of 16 blocks, one per 32-bit lane. Two independent groups
 * of 16 blocks, x in zmm0-15 and y in zmm16-31, run interleaved: a
 * quarter round is a chain of 12 dependent instructions, and with 2-cycle
 * vector latency (Zen 5) the 4 chains of one group leave the ALUs half
 * idle. VPROLD rotates in place, so the rounds need no temporaries and
 * all 32 state vectors stay in registers (the C version of this core
 * spilled about 40 vectors a double round). Afterwards y goes to the
 * stack while x is finished (feed-forward, 4x4 word transposes in each
 * 128-bit lane, 4x4 transposes of lanes, XOR, store), then y the same way;
 * the stack copy is wiped.
 */

#define STATE	%rdi	/* const uint32_t state[16] */
#define DST	%rsi	/* uint8_t *dst */
#define SRC	%rdx	/* const uint8_t *src */
#define NROUNDS	%ecx	/* unsigned int nrounds (even) */
#define ROUNDS	%eax	/* double rounds left */

	.section .rodata
	.balign 64
/* block counter offsets of the lanes: group x, then group y */
.Llanes_x:
	.long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.Llanes_y:
	.long 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31

	.text

/*
 * Two quarter rounds, one per group, step by step so that the two chains
 * interleave: (a, b, c, d) of group x and (e, f, g, h) of group y.
 */
.macro QR2 a, b, c, d, e, f, g, h
	vpaddd	\b, \a, \a
	vpaddd	\f, \e, \e
	vpxord	\a, \d, \d
	vpxord	\e, \h, \h
	vprold	$16, \d, \d
	vprold	$16, \h, \h
	vpaddd	\d, \c, \c
	vpaddd	\h, \g, \g
	vpxord	\c, \b, \b
	vpxord	\g, \f, \f
	vprold	$12, \b, \b
	vprold	$12, \f, \f
	vpaddd	\b, \a, \a
	vpaddd	\f, \e, \e
	vpxord	\a, \d, \d
	vpxord	\e, \h, \h
	vprold	$8, \d, \d
	vprold	$8, \h, \h
	vpaddd	\d, \c, \c
	vpaddd	\h, \g, \g
	vpxord	\c, \b, \b
	vpxord	\g, \f, \f
	vprold	$7, \b, \b
	vprold	$7, \f, \f
.endm

/* words 0..15 of a 16-block group: zmm(\base + k) = state[k] broadcast */
.macro BCAST16 z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12, z13, z14, z15
	vpbroadcastd	0(STATE), \z0
	vpbroadcastd	4(STATE), \z1
	vpbroadcastd	8(STATE), \z2
	vpbroadcastd	12(STATE), \z3
	vpbroadcastd	16(STATE), \z4
	vpbroadcastd	20(STATE), \z5
	vpbroadcastd	24(STATE), \z6
	vpbroadcastd	28(STATE), \z7
	vpbroadcastd	32(STATE), \z8
	vpbroadcastd	36(STATE), \z9
	vpbroadcastd	40(STATE), \z10
	vpbroadcastd	44(STATE), \z11
	vpbroadcastd	48(STATE), \z12
	vpbroadcastd	52(STATE), \z13
	vpbroadcastd	56(STATE), \z14
	vpbroadcastd	60(STATE), \z15
.endm

/*
 * In-lane 4x4 transpose of 32-bit words: \a..\d hold words 4g..4g+3 of
 * blocks 4k..4k+3 (lane k); afterwards \a..\d hold blocks 4k, 4k+1, 4k+2,
 * 4k+3 (words 4g..4g+3 each). \t0..\t3 are scratch.
 */
.macro TRANSPOSE4 a, b, c, d, t0, t1, t2, t3
	vpunpckldq	\b, \a, \t0
	vpunpckhdq	\b, \a, \t1
	vpunpckldq	\d, \c, \t2
	vpunpckhdq	\d, \c, \t3
	vpunpcklqdq	\t2, \t0, \a
	vpunpckhqdq	\t2, \t0, \b
	vpunpcklqdq	\t3, \t1, \c
	vpunpckhqdq	\t3, \t1, \d
.endm

/*
 * \a..\d hold 16-byte pieces 0..3 (words 0-3, 4-7, 8-11, 12-15) of blocks
 * j, j+4, j+8, j+12 in lanes 0..3: transpose the lanes so that each
 * output is one whole block, XOR with src and store at byte offset \off
 * + 64 * (j + 4 k) for the block in lane k. \t0..\t3 are scratch.
 */
.macro LANES_STORE a, b, c, d, off, t0, t1, t2, t3
	vshufi32x4	$0x44, \b, \a, \t0
	vshufi32x4	$0xee, \b, \a, \t1
	vshufi32x4	$0x44, \d, \c, \t2
	vshufi32x4	$0xee, \d, \c, \t3
	vshufi32x4	$0x88, \t2, \t0, \a
	vshufi32x4	$0xdd, \t2, \t0, \b
	vshufi32x4	$0x88, \t3, \t1, \c
	vshufi32x4	$0xdd, \t3, \t1, \d
	vpxord		(\off + 0 * 256)(SRC), \a, \a
	vpxord		(\off + 1 * 256)(SRC), \b, \b
	vpxord		(\off + 2 * 256)(SRC), \c, \c
	vpxord		(\off + 3 * 256)(SRC), \d, \d
	vmovdqu64	\a, (\off + 0 * 256)(DST)
	vmovdqu64	\b, (\off + 1 * 256)(DST)
	vmovdqu64	\c, (\off + 2 * 256)(DST)
	vmovdqu64	\d, (\off + 3 * 256)(DST)
.endm

/*
 * Finish the 16-block group in zmm0-15 whose counter offsets are at
 * \lanes and write it at byte offset \off: feed-forward (+ input state),
 * transposes, XOR, store. Uses zmm16-19 as scratch.
 */
.macro FINISH16 lanes, off
	vpaddd	0(STATE){1to16}, %zmm0, %zmm0
	vpaddd	4(STATE){1to16}, %zmm1, %zmm1
	vpaddd	8(STATE){1to16}, %zmm2, %zmm2
	vpaddd	12(STATE){1to16}, %zmm3, %zmm3
	vpaddd	16(STATE){1to16}, %zmm4, %zmm4
	vpaddd	20(STATE){1to16}, %zmm5, %zmm5
	vpaddd	24(STATE){1to16}, %zmm6, %zmm6
	vpaddd	28(STATE){1to16}, %zmm7, %zmm7
	vpaddd	32(STATE){1to16}, %zmm8, %zmm8
	vpaddd	36(STATE){1to16}, %zmm9, %zmm9
	vpaddd	40(STATE){1to16}, %zmm10, %zmm10
	vpaddd	44(STATE){1to16}, %zmm11, %zmm11
	vpbroadcastd	48(STATE), %zmm16
	vpaddd	\lanes(%rip), %zmm16, %zmm16
	vpaddd	%zmm16, %zmm12, %zmm12
	vpaddd	52(STATE){1to16}, %zmm13, %zmm13
	vpaddd	56(STATE){1to16}, %zmm14, %zmm14
	vpaddd	60(STATE){1to16}, %zmm15, %zmm15
	TRANSPOSE4 %zmm0, %zmm1, %zmm2, %zmm3, %zmm16, %zmm17, %zmm18, %zmm19
	TRANSPOSE4 %zmm4, %zmm5, %zmm6, %zmm7, %zmm16, %zmm17, %zmm18, %zmm19
	TRANSPOSE4 %zmm8, %zmm9, %zmm10, %zmm11, %zmm16, %zmm17, %zmm18, %zmm19
	TRANSPOSE4 %zmm12, %zmm13, %zmm14, %zmm15, %zmm16, %zmm17, %zmm18, %zmm19
	/* zmm(4g + j): words 4g..4g+3 of blocks j, j+4, j+8, j+12 */
	LANES_STORE %zmm0, %zmm4, %zmm8, %zmm12, (\off + 0 * 64), %zmm16, %zmm17, %zmm18, %zmm19
	LANES_STORE %zmm1, %zmm5, %zmm9, %zmm13, (\off + 1 * 64), %zmm16, %zmm17, %zmm18, %zmm19
	LANES_STORE %zmm2, %zmm6, %zmm10, %zmm14, (\off + 2 * 64), %zmm16, %zmm17, %zmm18, %zmm19
	LANES_STORE %zmm3, %zmm7, %zmm11, %zmm15, (\off + 3 * 64), %zmm16, %zmm17, %zmm18, %zmm19
.endm

	.globl	chacha_32blocks_avx512
	.type	chacha_32blocks_avx512, @function
	.balign	32
chacha_32blocks_avx512:
	.cfi_startproc
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	and	$-64, %rsp
	sub	$1024, %rsp		/* group y while x is finished */

	BCAST16 %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7, \
		%zmm8, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15
	BCAST16 %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, \
		%zmm24, %zmm25, %zmm26, %zmm27, %zmm28, %zmm29, %zmm30, %zmm31
	vpaddd	.Llanes_x(%rip), %zmm12, %zmm12
	vpaddd	.Llanes_y(%rip), %zmm28, %zmm28

	mov	NROUNDS, ROUNDS
	shr	$1, ROUNDS
.Ldoubleround:
	/* column round */
	QR2 %zmm0, %zmm4, %zmm8, %zmm12, %zmm16, %zmm20, %zmm24, %zmm28
	QR2 %zmm1, %zmm5, %zmm9, %zmm13, %zmm17, %zmm21, %zmm25, %zmm29
	QR2 %zmm2, %zmm6, %zmm10, %zmm14, %zmm18, %zmm22, %zmm26, %zmm30
	QR2 %zmm3, %zmm7, %zmm11, %zmm15, %zmm19, %zmm23, %zmm27, %zmm31
	/* diagonal round */
	QR2 %zmm0, %zmm5, %zmm10, %zmm15, %zmm16, %zmm21, %zmm26, %zmm31
	QR2 %zmm1, %zmm6, %zmm11, %zmm12, %zmm17, %zmm22, %zmm27, %zmm28
	QR2 %zmm2, %zmm7, %zmm8, %zmm13, %zmm18, %zmm23, %zmm24, %zmm29
	QR2 %zmm3, %zmm4, %zmm9, %zmm14, %zmm19, %zmm20, %zmm25, %zmm30
	dec	ROUNDS
	jnz	.Ldoubleround

	/* park y, finish x (blocks 0..15) */
	vmovdqa64	%zmm16, 0 * 64(%rsp)
	vmovdqa64	%zmm17, 1 * 64(%rsp)
	vmovdqa64	%zmm18, 2 * 64(%rsp)
	vmovdqa64	%zmm19, 3 * 64(%rsp)
	vmovdqa64	%zmm20, 4 * 64(%rsp)
	vmovdqa64	%zmm21, 5 * 64(%rsp)
	vmovdqa64	%zmm22, 6 * 64(%rsp)
	vmovdqa64	%zmm23, 7 * 64(%rsp)
	vmovdqa64	%zmm24, 8 * 64(%rsp)
	vmovdqa64	%zmm25, 9 * 64(%rsp)
	vmovdqa64	%zmm26, 10 * 64(%rsp)
	vmovdqa64	%zmm27, 11 * 64(%rsp)
	vmovdqa64	%zmm28, 12 * 64(%rsp)
	vmovdqa64	%zmm29, 13 * 64(%rsp)
	vmovdqa64	%zmm30, 14 * 64(%rsp)
	vmovdqa64	%zmm31, 15 * 64(%rsp)
	FINISH16 .Llanes_x, 0

	/* then y (blocks 16..31) */
	vmovdqa64	0 * 64(%rsp), %zmm0
	vmovdqa64	1 * 64(%rsp), %zmm1
	vmovdqa64	2 * 64(%rsp), %zmm2
	vmovdqa64	3 * 64(%rsp), %zmm3
	vmovdqa64	4 * 64(%rsp), %zmm4
	vmovdqa64	5 * 64(%rsp), %zmm5
	vmovdqa64	6 * 64(%rsp), %zmm6
	vmovdqa64	7 * 64(%rsp), %zmm7
	vmovdqa64	8 * 64(%rsp), %zmm8
	vmovdqa64	9 * 64(%rsp), %zmm9
	vmovdqa64	10 * 64(%rsp), %zmm10
	vmovdqa64	11 * 64(%rsp), %zmm11
	vmovdqa64	12 * 64(%rsp), %zmm12
	vmovdqa64	13 * 64(%rsp), %zmm13
	vmovdqa64	14 * 64(%rsp), %zmm14
	vmovdqa64	15 * 64(%rsp), %zmm15
	FINISH16 .Llanes_y, 1024

	/* wipe the parked state (key-derived) */
	vpxord	%zmm16, %zmm16, %zmm16
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vmovdqa64	%zmm16, \i * 64(%rsp)
	.endr

	vzeroupper
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	chacha_32blocks_avx512, .-chacha_32blocks_avx512

	.section .note.GNU-stack, "", @progbits
