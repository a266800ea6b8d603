/* SPDX-License-Identifier: MIT */
/*
 * SHA-512 block function with the ARMv8.2 SHA-512 instructions (FIPS
 * 180-4, section 6.4): the sha512-ce driver (glue sha512-arm-glue.c).
 *
 * Variants and the CPUs they are for:
 *   sha512_blocks_ce   AArch64 with FEAT_SHA512 (HWCAP_SHA512: Apple M1,
 *                      Neoverse V1/N2, Cortex-A710 and later; qemu -cpu max)
 *
 * C prototype (sha512-arm.h):
 *   void sha512_blocks_ce(uint64_t h[8], const uint8_t *data, size_t nblocks);
 * nblocks > 0 whole 128-byte blocks into h (sha512_blocks_fn). K is
 * sha512_k (FIPS 180-4 section 4.2.3, crypto/sha512/sha512-generic.c),
 * addressed with ADRP + ADD :lo12:, resolved at link time
 * (sha512-arm.h).
 *
 * Technique: the state in four vectors as FIPS orders it, (a, b), (c, d),
 * (e, f), (g, h), lane 0 first; two rounds per SHA512H + SHA512H2 pair
 * (their operands per the ARM ARM, as qemu's target/arm crypto_helper.c
 * models them):
 *   SHA512H  Qd, Qn, Vm: d1 += S1(m1) + Ch(m1, n0, n1);
 *                        d0 += S1(d1 + m0) + Ch(d1 + m0, m1, n0)
 *   SHA512H2 Qd, Qn, Vm: d1 += S0(m0) + Maj(n0, m1, m0);
 *                        d0 += S0(d1) + Maj(d1, m0, m1)
 * With d = (g + W[t+1] + K[t+1], h + W[t] + K[t]), n = (f, g), m = (d, e),
 * SHA512H gives (T1 of round t+1, T1 of round t); (c, d) + that is the new
 * (e, f); SHA512H2 on it with n = (c, d), m = (a, b) gives the new (a, b);
 * the old (a, b) becomes (c, d) and the old (e, f) becomes (g, h). So five
 * registers rotate (period 6): the 40 steps are written out. The message
 * schedule, 2 words per step in v16-v23 (a ring of the last 16 words):
 *   SHA512SU0 Vd, Vn: d0 += s0(d1), d1 += s0(n0)
 *   SHA512SU1 Vd, Vn, Vm: d0 += s1(n0) + m0, d1 += s1(n1) + m1
 * with d = W[t..t+1], n = W[t+2..t+3], then n = W[t+14..t+15], m =
 * W[t+9..t+10] (EXT of two ring registers).
 *
 * Constant time: the instructions take the same time whatever the data.
 */

	.arch	armv8.2-a+sha3
	.text

/* registers */
STATE	.req	x0	/* uint64_t h[8] */
DATA	.req	x1	/* const uint8_t *data, advanced a block at a time */
NBLOCKS	.req	x2	/* blocks left */
KBASE	.req	x3	/* sha512_k */
KPTR	.req	x4	/* K[t] of the step in hand */
/* v0-v4: the state (rotating), v16-v23: W ring, v24-v27: the state at the
 * block's start (feed-forward), v28-v31: temporaries */

/*
 * Rounds 2s and 2s+1 (s = 0..39) from W pair register w; then, while
 * words remain to schedule (w1 given), W[2s+16..2s+17] into w.
 * ab, cd, ef, gh: the state registers; t: the free one (gets the new ab).
 */
.macro DROUND ab, cd, ef, gh, t, w, w1, w4, w5, w7
	ld1	{v28.2d}, [KPTR], #16
	add	v28.2d, v28.2d, v\w\().2d
	ext	v28.16b, v28.16b, v28.16b, #8
	add	v\t\().2d, v\gh\().2d, v28.2d
	ext	v29.16b, v\ef\().16b, v\gh\().16b, #8
	ext	v30.16b, v\cd\().16b, v\ef\().16b, #8
	.ifnb	\w1
	sha512su0	v\w\().2d, v\w1\().2d
	ext	v31.16b, v\w4\().16b, v\w5\().16b, #8
	.endif
	sha512h	q\t, q29, v30.2d
	.ifnb	\w1
	sha512su1	v\w\().2d, v\w7\().2d, v31.2d
	.endif
	add	v\gh\().2d, v\cd\().2d, v\t\().2d
	sha512h2	q\t, q\cd, v\ab\().2d
.endm

	.globl	sha512_blocks_ce
	.type	sha512_blocks_ce, %function
	.balign	16
sha512_blocks_ce:
	adrp	KBASE, sha512_k
	add	KBASE, KBASE, :lo12:sha512_k
	ld1	{v0.2d-v3.2d}, [STATE]
.Lblock:
	ld1	{v16.16b-v19.16b}, [DATA], #64
	ld1	{v20.16b-v23.16b}, [DATA], #64
	rev64	v16.16b, v16.16b
	rev64	v17.16b, v17.16b
	rev64	v18.16b, v18.16b
	rev64	v19.16b, v19.16b
	rev64	v20.16b, v20.16b
	rev64	v21.16b, v21.16b
	rev64	v22.16b, v22.16b
	rev64	v23.16b, v23.16b
	mov	v24.16b, v0.16b
	mov	v25.16b, v1.16b
	mov	v26.16b, v2.16b
	mov	v27.16b, v3.16b
	mov	KPTR, KBASE
	DROUND	0, 1, 2, 3, 4, 16, 17, 20, 21, 23
	DROUND	4, 0, 3, 2, 1, 17, 18, 21, 22, 16
	DROUND	1, 4, 2, 3, 0, 18, 19, 22, 23, 17
	DROUND	0, 1, 3, 2, 4, 19, 20, 23, 16, 18
	DROUND	4, 0, 2, 3, 1, 20, 21, 16, 17, 19
	DROUND	1, 4, 3, 2, 0, 21, 22, 17, 18, 20
	DROUND	0, 1, 2, 3, 4, 22, 23, 18, 19, 21
	DROUND	4, 0, 3, 2, 1, 23, 16, 19, 20, 22
	DROUND	1, 4, 2, 3, 0, 16, 17, 20, 21, 23
	DROUND	0, 1, 3, 2, 4, 17, 18, 21, 22, 16
	DROUND	4, 0, 2, 3, 1, 18, 19, 22, 23, 17
	DROUND	1, 4, 3, 2, 0, 19, 20, 23, 16, 18
	DROUND	0, 1, 2, 3, 4, 20, 21, 16, 17, 19
	DROUND	4, 0, 3, 2, 1, 21, 22, 17, 18, 20
	DROUND	1, 4, 2, 3, 0, 22, 23, 18, 19, 21
	DROUND	0, 1, 3, 2, 4, 23, 16, 19, 20, 22
	DROUND	4, 0, 2, 3, 1, 16, 17, 20, 21, 23
	DROUND	1, 4, 3, 2, 0, 17, 18, 21, 22, 16
	DROUND	0, 1, 2, 3, 4, 18, 19, 22, 23, 17
	DROUND	4, 0, 3, 2, 1, 19, 20, 23, 16, 18
	DROUND	1, 4, 2, 3, 0, 20, 21, 16, 17, 19
	DROUND	0, 1, 3, 2, 4, 21, 22, 17, 18, 20
	DROUND	4, 0, 2, 3, 1, 22, 23, 18, 19, 21
	DROUND	1, 4, 3, 2, 0, 23, 16, 19, 20, 22
	DROUND	0, 1, 2, 3, 4, 16, 17, 20, 21, 23
	DROUND	4, 0, 3, 2, 1, 17, 18, 21, 22, 16
	DROUND	1, 4, 2, 3, 0, 18, 19, 22, 23, 17
	DROUND	0, 1, 3, 2, 4, 19, 20, 23, 16, 18
	DROUND	4, 0, 2, 3, 1, 20, 21, 16, 17, 19
	DROUND	1, 4, 3, 2, 0, 21, 22, 17, 18, 20
	DROUND	0, 1, 2, 3, 4, 22, 23, 18, 19, 21
	DROUND	4, 0, 3, 2, 1, 23, 16, 19, 20, 22
	DROUND	1, 4, 2, 3, 0, 16
	DROUND	0, 1, 3, 2, 4, 17
	DROUND	4, 0, 2, 3, 1, 18
	DROUND	1, 4, 3, 2, 0, 19
	DROUND	0, 1, 2, 3, 4, 20
	DROUND	4, 0, 3, 2, 1, 21
	DROUND	1, 4, 2, 3, 0, 22
	DROUND	0, 1, 3, 2, 4, 23
	/* after 40 steps (a, b) is in v4, (c, d) in v0, (e, f) v2, (g, h) v3 */
	add	v1.2d, v0.2d, v25.2d
	add	v0.2d, v4.2d, v24.2d
	add	v2.2d, v2.2d, v26.2d
	add	v3.2d, v3.2d, v27.2d
	subs	NBLOCKS, NBLOCKS, #1
	b.ne	.Lblock
	st1	{v0.2d-v3.2d}, [STATE]
	/* the schedule is message-derived: wipe it */
	movi	v16.16b, #0
	movi	v17.16b, #0
	movi	v18.16b, #0
	movi	v19.16b, #0
	movi	v20.16b, #0
	movi	v21.16b, #0
	movi	v22.16b, #0
	movi	v23.16b, #0
	movi	v28.16b, #0
	movi	v29.16b, #0
	movi	v30.16b, #0
	movi	v31.16b, #0
	ret
	.size	sha512_blocks_ce, .-sha512_blocks_ce

	.section .note.GNU-stack, "", %progbits
