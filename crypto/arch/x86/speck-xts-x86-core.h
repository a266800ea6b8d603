/* SPDX-License-Identifier: MIT */
/*
 * The Speck128 and Speck64 XTS/ECB cores, written once over a few vector
 * primitives and instantiated per ISA by speck-xts-avx2.c and
 * speck-xts-avx512.c (one body, many ISAs, as the kernel's
 * arch/x86/crypto/aes-xts-avx-x86_64.S does with .set VL). The entry
 * points and their contract are in speck-xts-x86.h.
 *
 * Technique: the design of the Linux kernel's former
 * arch/arm/crypto/speck-neon-core.S (E. Biggers, 2018), redone for x86
 * with our own code. Each step takes 2 * npairs vectors of blocks:
 *  1. load them and de-interleave each pair of vectors into one vector of
 *     y words and one of x words;
 *  2. XTS: XOR each block's tweak in (Speck64: before de-interleaving).
 *     Tweaks are computed in vector registers, several per vector, each
 *     vector's straight from the step's first by a multiplication by x^s
 *     (shifts, plus the reduction polynomial times the s bits shifted
 *     out), so there is no long dependency chain;
 *  3. run round 1 over all pairs, then round 2, ... (one broadcast round
 *     key per round; the pairs are independent and hide the latency of
 *     the round's add-rotate-xor chain);
 *  4. XOR the tweaks again, re-interleave, store.
 * Main steps take 1 KiB with AVX-512 (8 pairs) and 512 bytes with AVX2
 * (7 pairs plus 4 Speck128 blocks in general-purpose registers, see
 * SCALAR_BLOCKS128); the rest of a request goes in one more step of as
 * many pairs as it has. The tweak of the block after the last one is
 * written back for the C template.
 *
 * Instruction semantics: Intel 64 and IA-32 Architectures Software
 * Developer's Manual, vol. 2 (VPROLQ/VPRORD, VPSHUFB, VPSLLQ/VPSRLQ,
 * VPSLLVQ/VPSRLVQ, VPUNPCK*, VPSHUFD, VPTERNLOGQ, VPBROADCASTQ).
 *
 * Constant time: add, rotate, shift, xor and fixed shuffles only; no
 * branch or address depends on the key, the data or the tweak.
 *
 * The including file defines before including this one:
 *   SPECK_ISA                 entry point suffix
 *   vec, VEC_BYTES            the vector type and its size in bytes
 *   MAX_PAIRS128, MAX_PAIRS64 vector pairs per main step (at most 8)
 *   SCALAR_BLOCKS128          optional, see below
 *   V_LOAD(p), V_STORE(p, v)  unaligned load/store; V_ZERO()
 *   V_XOR(a, b), V_XOR3(a, b, c)
 *   V_ADD64/V_SUB64/V_ADD32/V_SUB32(a, b)
 *   V_BCAST64(p), V_BCAST32(p)        broadcast the word at p
 *   V_ROR64_8, V_ROL64_8, V_ROL64_3, V_ROR64_3 (and the same for 32)
 *   V_SLLI64(v, n), V_SRLI64(v, n)   constant shift of each qword
 *   V_SLLV64(v, c), V_SRLV64(v, c)   per-qword counts; 64 or more gives 0
 *   V_STORE_LANE0(p, v)       store qword 0
 *   V_SPLIT32(v)              dwords 0 2 1 3 within each 128-bit lane
 *   V_UNPACKLO64/HI64/LO32/HI32(a, b)   per 128-bit lane interleaves
 *   V_END()                   clear the vector registers on the way out
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/arch/x86/speck-xts-x86.h"
#include "crypto/speck/speck.h"

#define SPECK_CAT_(a, b) a##_##b
#define SPECK_CAT(a, b) SPECK_CAT_(a, b)
#define SPECK_FN(name) SPECK_CAT(name, SPECK_ISA)
#define SPECK_INLINE static inline __attribute__((always_inline))
#define SPECK_ENTRY
/*
 * The tweaks wait in memory (tbuf) during the rounds: without this the
 * compiler keeps them in registers and spills round state instead.
 */
#define SPECK_TWEAKS_TO_MEMORY() __asm__ volatile("" ::: "memory")

#define LANES64 (VEC_BYTES / 8)
#define PAIR_BYTES (2 * VEC_BYTES)

/*
 * Tweak arithmetic on 64-bit lanes: multiplying by x^s (1 <= s <= 56)
 * shifts each lane left by s; the s bits c shifted out of the top of the
 * field element come back multiplied by the reduction polynomial's low
 * part, a carry-less product small enough for one qword (c < 2^56).
 */
#define TWEAK_MAX_SHIFT 56

/* ---- Speck128: 16-byte blocks, y (first qword) and x ---- */

/*
 * SCALAR_BLOCKS128 (0 or 4) more blocks per main step go through the
 * general-purpose registers, interleaved round by round with the vector
 * pairs: the vector pipes are the bottleneck and the integer ALUs would
 * otherwise idle. (A main step must stay a multiple of 128 bytes: with
 * AVX2 that takes an odd MAX_PAIRS128.)
 */
#ifndef SCALAR_BLOCKS128
#define SCALAR_BLOCKS128 0
#endif
#define MAIN128_BYTES (MAX_PAIRS128 * PAIR_BYTES + 16 * SCALAR_BLOCKS128)
/* vector pairs' worth of tweaks in a main step */
#define TWEAK_PAIRS128 (MAX_PAIRS128 + (SCALAR_BLOCKS128 != 0))
_Static_assert(MAIN128_BYTES % 128 == 0, "main steps must be whole chunks");
_Static_assert(SCALAR_BLOCKS128 == 0 ||
	       (SCALAR_BLOCKS128 == LANES64 &&
		MAIN128_BYTES / 16 <= TWEAK_MAX_SHIFT),
	       "scalar blocks take the tweak lanes of one more vector pair");

/*
 * With scalar blocks, the scalar rounds load rk[r] into a register and
 * the compiler would broadcast that register (two more vector-pipe
 * instructions per round); a table of broadcast round keys, built once
 * per call, keeps the vector side to plain loads.
 */
#define SPECK128_MAX_ROUNDS 34
#if SCALAR_BLOCKS128
#define SPECK128_ROUND_KEY(rkv, rk, r) ((rkv)[r])
#else
#define SPECK128_ROUND_KEY(rkv, rk, r) ((void)(rkv), V_BCAST64(&(rk)[r]))
#endif

static inline uint64_t speck_ror64(uint64_t v, int n)
{
	return (v >> n) | (v << (64 - n));
}

static inline uint64_t speck_rol64(uint64_t v, int n)
{
	return (v << n) | (v >> (64 - n));
}

/*
 * Speck128 tweaks live de-interleaved like the data: for each vector pair
 * one vector of tweak lo qwords (XORed into y) and one of hi qwords (into
 * x), lane for lane. Multiplying every lane by x^s in GF(2^128) mod
 * x^128 + x^7 + x^2 + x + 1 keeps the lane order, so pair p's tweaks are
 * pair 0's times x^(LANES64 * p): each computed straight from pair 0's,
 * no long dependency chain.
 */
SPECK_INLINE void speck128_tweak_mul(vec *lo, vec *hi, vec tlo, vec thi, int s)
{
	vec carry_lo = V_SRLI64(tlo, 64 - s), carry_hi = V_SRLI64(thi, 64 - s);

	*hi = V_XOR(V_SLLI64(thi, s), carry_lo);
	/* carry_hi * 0x87 (x^7 + x^2 + x + 1) */
	*lo = V_XOR3(V_XOR3(V_SLLI64(tlo, s), carry_hi, V_SLLI64(carry_hi, 1)),
		     V_SLLI64(carry_hi, 2), V_SLLI64(carry_hi, 7));
}

/*
 * The y vector of a pair (V_UNPACKLO64 of vectors A, B) holds, per 128-bit
 * lane i, block i of A and block i of B: qword 2i is block i of the pair,
 * qword 2i + 1 block i + LANES64 / 2.
 */
static inline int speck128_lane(int block)
{
	return block < LANES64 / 2 ? 2 * block : 2 * (block - LANES64 / 2) + 1;
}

/*
 * Pair 0's tweaks from the 16-byte running tweak T: block j's is T * x^j,
 * j < LANES64, done in all lanes at once with per-lane shift counts (a
 * count of 64 gives 0, which is what j = 0 needs).
 */
SPECK_INLINE void speck128_tweak_first(const uint8_t *tweak, vec *lo, vec *hi)
{
	uint64_t shift[LANES64], unshift[LANES64];
	vec tlo, thi, s, u, carry_hi;

	for (int j = 0; j < LANES64; j++) {
		shift[speck128_lane(j)] = (uint64_t)j;
		unshift[speck128_lane(j)] = (uint64_t)(64 - j);
	}
	s = V_LOAD(shift);
	u = V_LOAD(unshift);
	tlo = V_BCAST64((const uint64_t *)(const void *)tweak); /* LE */
	thi = V_BCAST64((const uint64_t *)(const void *)(tweak + 8));
	carry_hi = V_SRLV64(thi, u);
	*hi = V_XOR(V_SLLV64(thi, s), V_SRLV64(tlo, u));
	/* carry_hi * 0x87 (x^7 + x^2 + x + 1) */
	*lo = V_XOR3(V_XOR3(V_SLLV64(tlo, s), carry_hi, V_SLLI64(carry_hi, 1)),
		     V_SLLI64(carry_hi, 2), V_SLLI64(carry_hi, 7));
}

/* Encryption round i: x = (ror(x, 8) + y) ^ rk[i]; y = rol(y, 3) ^ x. */
SPECK_INLINE void speck128_encrypt_rounds(vec *x, vec *y, int npairs,
					  uint64_t *sx, uint64_t *sy,
					  int nscalar, const uint64_t *rk,
					  const vec *rkv, int nrounds)
{
	for (int r = 0; r < nrounds; r++) {
		const vec k = SPECK128_ROUND_KEY(rkv, rk, r);

#pragma GCC unroll 8
		for (int p = 0; p < npairs; p++) {
			x[p] = V_XOR(V_ADD64(V_ROR64_8(x[p]), y[p]), k);
			y[p] = V_XOR(V_ROL64_3(y[p]), x[p]);
		}
#pragma GCC unroll 8
		for (int j = 0; j < nscalar; j++) {
			sx[j] = (speck_ror64(sx[j], 8) + sy[j]) ^ rk[r];
			sy[j] = speck_rol64(sy[j], 3) ^ sx[j];
		}
	}
}

SPECK_INLINE void speck128_decrypt_rounds(vec *x, vec *y, int npairs,
					  uint64_t *sx, uint64_t *sy,
					  int nscalar, const uint64_t *rk,
					  const vec *rkv, int nrounds)
{
	for (int r = nrounds - 1; r >= 0; r--) {
		const vec k = SPECK128_ROUND_KEY(rkv, rk, r);

#pragma GCC unroll 8
		for (int p = 0; p < npairs; p++) {
			y[p] = V_ROR64_3(V_XOR(y[p], x[p]));
			x[p] = V_ROL64_8(V_SUB64(V_XOR(x[p], k), y[p]));
		}
#pragma GCC unroll 8
		for (int j = 0; j < nscalar; j++) {
			sy[j] = speck_ror64(sy[j] ^ sx[j], 3);
			sx[j] = speck_rol64((sx[j] ^ rk[r]) - sy[j], 8);
		}
	}
}

/*
 * npairs vector pairs of blocks, then nscalar blocks in scalar registers.
 * For XTS, tw[0..1] are pair 0's tweaks (lo, hi; advanced past this step),
 * tbuf and stw keep this step's for the vectors and the scalar blocks (so
 * they can be wiped). All loads happen before any store: dst == src works.
 */
SPECK_INLINE void speck128_step(const uint64_t *rk, const vec *rkv,
				int nrounds, int enc, int xts, uint8_t *dst,
				const uint8_t *src, int npairs, int nscalar,
				vec *tw, vec *tbuf, uint64_t *stw)
{
	const uint8_t *ssrc = src + npairs * PAIR_BYTES;
	uint8_t *sdst = dst + npairs * PAIR_BYTES;
	const int nblocks = npairs * LANES64 + nscalar;
	vec x[MAX_PAIRS128], y[MAX_PAIRS128];
	vec *tlo = tbuf, *thi = tbuf + TWEAK_PAIRS128;
	uint64_t sx[LANES64], sy[LANES64];

	if (xts) {
		tlo[0] = tw[0];
		thi[0] = tw[1];
#pragma GCC unroll 8
		for (int p = 1; p < npairs + (nscalar != 0); p++)
			speck128_tweak_mul(&tlo[p], &thi[p], tw[0], tw[1],
					   LANES64 * p);
		if (nblocks <= TWEAK_MAX_SHIFT)
			speck128_tweak_mul(&tw[0], &tw[1], tw[0], tw[1], nblocks);
		else /* from the last pair (no scalar blocks here) */
			speck128_tweak_mul(&tw[0], &tw[1], tlo[npairs - 1],
					   thi[npairs - 1], LANES64);
		if (nscalar) {
			/* the scalar blocks take the lanes of one more pair */
			V_STORE(stw, tlo[npairs]);
			V_STORE(stw + LANES64, thi[npairs]);
		}
	}
	/* pair p: the y words of both vectors, then the x words */
#pragma GCC unroll 8
	for (int p = 0; p < npairs; p++) {
		vec a = V_LOAD(src + 2 * p * VEC_BYTES);
		vec b = V_LOAD(src + (2 * p + 1) * VEC_BYTES);

		y[p] = V_UNPACKLO64(a, b);
		x[p] = V_UNPACKHI64(a, b);
		if (xts) {
			y[p] = V_XOR(y[p], tlo[p]);
			x[p] = V_XOR(x[p], thi[p]);
		}
	}
#pragma GCC unroll 8
	for (int j = 0; j < nscalar; j++) {
		memcpy(&sy[j], ssrc + 16 * j, 8);
		memcpy(&sx[j], ssrc + 16 * j + 8, 8);
		if (xts) {
			sy[j] ^= stw[speck128_lane(j)];
			sx[j] ^= stw[LANES64 + speck128_lane(j)];
		}
	}
	if (xts)
		SPECK_TWEAKS_TO_MEMORY();
	if (enc)
		speck128_encrypt_rounds(x, y, npairs, sx, sy, nscalar, rk, rkv,
					nrounds);
	else
		speck128_decrypt_rounds(x, y, npairs, sx, sy, nscalar, rk, rkv,
					nrounds);
#pragma GCC unroll 8
	for (int p = 0; p < npairs; p++) {
		if (xts) {
			y[p] = V_XOR(y[p], tlo[p]);
			x[p] = V_XOR(x[p], thi[p]);
		}
		V_STORE(dst + 2 * p * VEC_BYTES, V_UNPACKLO64(y[p], x[p]));
		V_STORE(dst + (2 * p + 1) * VEC_BYTES, V_UNPACKHI64(y[p], x[p]));
	}
#pragma GCC unroll 8
	for (int j = 0; j < nscalar; j++) {
		if (xts) {
			sy[j] ^= stw[speck128_lane(j)];
			sx[j] ^= stw[LANES64 + speck128_lane(j)];
		}
		memcpy(sdst + 16 * j, &sy[j], 8);
		memcpy(sdst + 16 * j + 8, &sx[j], 8);
	}
}

/* enc, xts: constants; tweak unused for ECB */
SPECK_INLINE void speck128_crypt(const uint64_t *rk, int nrounds, int enc,
				 int xts, uint8_t *dst, const uint8_t *src,
				 size_t nbytes, uint8_t *tweak)
{
	/* the scalar blocks' tweaks, lo then hi lanes */
	uint64_t stw[SCALAR_BLOCKS128 ? 2 * LANES64 : 1];
	/* lo, hi tweak vectors of the pairs of a step, the running pair */
	vec tbuf[2 * TWEAK_PAIRS128 + 2], *tw = tbuf + 2 * TWEAK_PAIRS128;
	vec rkv[SCALAR_BLOCKS128 ? SPECK128_MAX_ROUNDS : 1];

	if (SCALAR_BLOCKS128) {
		for (int r = 0; r < nrounds; r++)
			rkv[r] = V_BCAST64(&rk[r]);
	}
	if (xts)
		speck128_tweak_first(tweak, &tw[0], &tw[1]);
	for (; nbytes >= MAIN128_BYTES; nbytes -= MAIN128_BYTES) {
		speck128_step(rk, rkv, nrounds, enc, xts, dst, src, MAX_PAIRS128,
			      SCALAR_BLOCKS128, tw, tbuf, stw);
		src += MAIN128_BYTES;
		dst += MAIN128_BYTES;
	}
	/* the rest, in one step: a multiple of 128 bytes, so of PAIR_BYTES */
	switch (nbytes / PAIR_BYTES) {
#define SPECK128_TAIL(n)                                                       \
	case n:                                                                \
		speck128_step(rk, rkv, nrounds, enc, xts, dst, src, n, 0, tw,  \
			      tbuf, stw);                                      \
		break;
	SPECK128_TAIL(1)
	SPECK128_TAIL(2)
	SPECK128_TAIL(3)
#if MAX_PAIRS128 > 4
	SPECK128_TAIL(4)
#endif
#if MAX_PAIRS128 > 5
	SPECK128_TAIL(5)
#endif
#if MAX_PAIRS128 > 6
	SPECK128_TAIL(6)
#endif
#if MAX_PAIRS128 > 7
	SPECK128_TAIL(7)
#endif
#undef SPECK128_TAIL
	}
	if (xts) {
		/* lane 0 of pair 0's tweaks is the next block's */
		V_STORE_LANE0(tweak, tw[0]);
		V_STORE_LANE0(tweak + 8, tw[1]);
		explicit_bzero(stw, sizeof(stw));
		explicit_bzero(tbuf, sizeof(tbuf));
	}
	if (SCALAR_BLOCKS128)
		explicit_bzero(rkv, sizeof(rkv));
	V_END();
}

/* ---- Speck64: 8-byte blocks, y (first dword) and x ---- */

/*
 * Speck64 tweaks stay in memory order, one per qword (a vector's tweaks
 * are XORed into its blocks before de-interleaving). Vector i's are vector
 * 0's times x^(LANES64 * i) in GF(2^64) mod x^64 + x^4 + x^3 + x + 1; at
 * most x^56 is done at once, so vectors 8.. start again from vector 7.
 */
SPECK_INLINE vec speck64_tweak_mul(vec t, int s)
{
	vec carry = V_SRLI64(t, 64 - s);

	/* carry * 0x1b (x^4 + x^3 + x + 1) */
	return V_XOR3(V_XOR3(V_SLLI64(t, s), carry, V_SLLI64(carry, 1)),
		      V_SLLI64(carry, 3), V_SLLI64(carry, 4));
}

/* vector 0's tweaks t * x^j, j < LANES64, as in speck128_tweak_first() */
SPECK_INLINE vec speck64_tweak_first(const uint8_t *tweak)
{
	uint64_t shift[LANES64], unshift[LANES64];
	vec t, s, u, carry;

	for (int j = 0; j < LANES64; j++) {
		shift[j] = (uint64_t)j;
		unshift[j] = (uint64_t)(64 - j);
	}
	s = V_LOAD(shift);
	u = V_LOAD(unshift);
	t = V_BCAST64((const uint64_t *)(const void *)tweak); /* LE */
	carry = V_SRLV64(t, u);
	/* carry * 0x1b (x^4 + x^3 + x + 1) */
	return V_XOR3(V_XOR3(V_SLLV64(t, s), carry, V_SLLI64(carry, 1)),
		      V_SLLI64(carry, 3), V_SLLI64(carry, 4));
}

SPECK_INLINE void speck64_encrypt_rounds(vec *x, vec *y, int npairs,
					 const uint32_t *rk, int nrounds)
{
	for (int r = 0; r < nrounds; r++) {
		const vec k = V_BCAST32(&rk[r]);

#pragma GCC unroll 8
		for (int p = 0; p < npairs; p++) {
			x[p] = V_XOR(V_ADD32(V_ROR32_8(x[p]), y[p]), k);
			y[p] = V_XOR(V_ROL32_3(y[p]), x[p]);
		}
	}
}

SPECK_INLINE void speck64_decrypt_rounds(vec *x, vec *y, int npairs,
					 const uint32_t *rk, int nrounds)
{
	for (int r = nrounds - 1; r >= 0; r--) {
		const vec k = V_BCAST32(&rk[r]);

#pragma GCC unroll 8
		for (int p = 0; p < npairs; p++) {
			y[p] = V_ROR32_3(V_XOR(y[p], x[p]));
			x[p] = V_ROL32_8(V_SUB32(V_XOR(x[p], k), y[p]));
		}
	}
}

/* as speck128_step, with 8-byte blocks; tw is vector 0's tweaks */
SPECK_INLINE void speck64_step(const uint32_t *rk, int nrounds, int enc,
			       int xts, uint8_t *dst, const uint8_t *src,
			       int npairs, vec *tw, vec *tbuf)
{
	vec x[MAX_PAIRS64], y[MAX_PAIRS64];

	if (xts) {
#pragma GCC unroll 16
		for (int i = 0; i < 2 * npairs; i++) {
			int base = i & ~7;

			if (i == 0)
				tbuf[i] = *tw;
			else if (i == base)
				tbuf[i] = speck64_tweak_mul(tbuf[i - 1], LANES64);
			else
				tbuf[i] = speck64_tweak_mul(tbuf[base],
							    LANES64 * (i - base));
		}
		*tw = speck64_tweak_mul(tbuf[2 * npairs - 1], LANES64);
	}
	/*
	 * A 128-bit lane holds blocks (y0 x0 y1 x1); V_SPLIT32 makes it
	 * (y0 y1 x0 x1), and the qword unpacks gather the y and x halves of
	 * two vectors. V_UNPACK*32 of (y, x) below is the exact inverse.
	 */
#pragma GCC unroll 8
	for (int p = 0; p < npairs; p++) {
		vec a = V_LOAD(src + 2 * p * VEC_BYTES);
		vec b = V_LOAD(src + (2 * p + 1) * VEC_BYTES);

		if (xts) {
			a = V_XOR(a, tbuf[2 * p]);
			b = V_XOR(b, tbuf[2 * p + 1]);
		}
		a = V_SPLIT32(a);
		b = V_SPLIT32(b);
		y[p] = V_UNPACKLO64(a, b);
		x[p] = V_UNPACKHI64(a, b);
	}
	if (xts)
		SPECK_TWEAKS_TO_MEMORY();
	if (enc)
		speck64_encrypt_rounds(x, y, npairs, rk, nrounds);
	else
		speck64_decrypt_rounds(x, y, npairs, rk, nrounds);
#pragma GCC unroll 8
	for (int p = 0; p < npairs; p++) {
		vec a = V_UNPACKLO32(y[p], x[p]), b = V_UNPACKHI32(y[p], x[p]);

		if (xts) {
			a = V_XOR(a, tbuf[2 * p]);
			b = V_XOR(b, tbuf[2 * p + 1]);
		}
		V_STORE(dst + 2 * p * VEC_BYTES, a);
		V_STORE(dst + (2 * p + 1) * VEC_BYTES, b);
	}
}

SPECK_INLINE void speck64_crypt(const uint32_t *rk, int nrounds, int enc,
				int xts, uint8_t *dst, const uint8_t *src,
				size_t nbytes, uint8_t *tweak)
{
	/* this step's tweak vectors, then the running one */
	vec tbuf[2 * MAX_PAIRS64 + 1], *tw = tbuf + 2 * MAX_PAIRS64;

	if (xts)
		*tw = speck64_tweak_first(tweak);
	for (; nbytes >= MAX_PAIRS64 * PAIR_BYTES;
	     nbytes -= MAX_PAIRS64 * PAIR_BYTES) {
		speck64_step(rk, nrounds, enc, xts, dst, src, MAX_PAIRS64, tw,
			     tbuf);
		src += MAX_PAIRS64 * PAIR_BYTES;
		dst += MAX_PAIRS64 * PAIR_BYTES;
	}
	/* the rest, in one step: a multiple of 128 bytes, so of PAIR_BYTES */
	switch (nbytes / PAIR_BYTES) {
#define SPECK64_TAIL(n)                                                        \
	case n:                                                                \
		speck64_step(rk, nrounds, enc, xts, dst, src, n, tw, tbuf);    \
		break;
	SPECK64_TAIL(1)
	SPECK64_TAIL(2)
	SPECK64_TAIL(3)
#if MAX_PAIRS64 > 4
	SPECK64_TAIL(4)
#endif
#if MAX_PAIRS64 > 5
	SPECK64_TAIL(5)
#endif
#if MAX_PAIRS64 > 6
	SPECK64_TAIL(6)
#endif
#if MAX_PAIRS64 > 7
	SPECK64_TAIL(7)
#endif
#undef SPECK64_TAIL
	}
	if (xts) {
		V_STORE_LANE0(tweak, *tw); /* the next block's tweak */
		explicit_bzero(tbuf, sizeof(tbuf));
	}
	V_END();
}

/* ---- entry points (see speck-xts-x86.h): they take the child context ---- */

SPECK_ENTRY void SPECK_FN(speck128_xts_encrypt)(const void *ctx, uint8_t *dst,
						const uint8_t *src,
						size_t nbytes, uint8_t *tweak)
{
	const struct speck128_tfm_ctx *c = ctx;

	speck128_crypt(c->round_keys, c->nrounds, 1, 1, dst, src, nbytes,
		       tweak);
}

SPECK_ENTRY void SPECK_FN(speck128_xts_decrypt)(const void *ctx, uint8_t *dst,
						const uint8_t *src,
						size_t nbytes, uint8_t *tweak)
{
	const struct speck128_tfm_ctx *c = ctx;

	speck128_crypt(c->round_keys, c->nrounds, 0, 1, dst, src, nbytes,
		       tweak);
}

SPECK_ENTRY void SPECK_FN(speck128_ecb_encrypt)(const void *ctx, uint8_t *dst,
						const uint8_t *src,
						size_t nbytes)
{
	const struct speck128_tfm_ctx *c = ctx;

	speck128_crypt(c->round_keys, c->nrounds, 1, 0, dst, src, nbytes,
		       NULL);
}

SPECK_ENTRY void SPECK_FN(speck128_ecb_decrypt)(const void *ctx, uint8_t *dst,
						const uint8_t *src,
						size_t nbytes)
{
	const struct speck128_tfm_ctx *c = ctx;

	speck128_crypt(c->round_keys, c->nrounds, 0, 0, dst, src, nbytes,
		       NULL);
}

SPECK_ENTRY void SPECK_FN(speck64_xts_encrypt)(const void *ctx, uint8_t *dst,
					       const uint8_t *src,
					       size_t nbytes, uint8_t *tweak)
{
	const struct speck64_tfm_ctx *c = ctx;

	speck64_crypt(c->round_keys, c->nrounds, 1, 1, dst, src, nbytes,
		      tweak);
}

SPECK_ENTRY void SPECK_FN(speck64_xts_decrypt)(const void *ctx, uint8_t *dst,
					       const uint8_t *src,
					       size_t nbytes, uint8_t *tweak)
{
	const struct speck64_tfm_ctx *c = ctx;

	speck64_crypt(c->round_keys, c->nrounds, 0, 1, dst, src, nbytes,
		      tweak);
}

SPECK_ENTRY void SPECK_FN(speck64_ecb_encrypt)(const void *ctx, uint8_t *dst,
					       const uint8_t *src,
					       size_t nbytes)
{
	const struct speck64_tfm_ctx *c = ctx;

	speck64_crypt(c->round_keys, c->nrounds, 1, 0, dst, src, nbytes,
		      NULL);
}

SPECK_ENTRY void SPECK_FN(speck64_ecb_decrypt)(const void *ctx, uint8_t *dst,
					       const uint8_t *src,
					       size_t nbytes)
{
	const struct speck64_tfm_ctx *c = ctx;

	speck64_crypt(c->round_keys, c->nrounds, 0, 0, dst, src, nbytes,
		      NULL);
}
