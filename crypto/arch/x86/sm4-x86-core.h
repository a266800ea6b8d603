/* SPDX-License-Identifier: MIT */
/*
 * The SM4 cores, written once over a few vector primitives and
 * instantiated per ISA by sm4-aesni-avx2.c, sm4-gfni-avx2.c and
 * sm4-gfni-avx512.c. Entry points and their contract: sm4-x86.h.
 *
 * Technique (facts from the sources, our own code):
 *  - the S-box as the AES field inversion between two affine maps, over
 *    an isomorphism of the two fields: M.-J. O. Saarinen, "sm4ni:
 *    Demonstrating SM4 with AES-NI" (2018, github.com/mjosaarinen/sm4ni),
 *    which runs the inversion through AESENCLAST; libgcrypt's
 *    cipher/sm4-aesni-avx2-amd64.S (J. Kivilinna, 2020: "16 blocks in
 *    parallel", words of the blocks transposed into vector lanes) and
 *    cipher/sm4-gfni-avx2-amd64.S / sm4-gfni-avx512-amd64.S (2022: the
 *    maps folded into GF2P8AFFINEQB / GF2P8AFFINEINVQB). The matrices are
 *    derived by sm4-x86-affine.py;
 *  - the round structure and L: GB/T 32907-2016 (crypto/sm4/).
 *
 * Layout: a "set" is 4 vectors holding 4 * SM4_VEC_BLOCKS consecutive
 * blocks. On entry to the rounds each set is byte-swapped to big-endian
 * words and transposed (4x4 dwords per 128-bit lane), so vector i holds
 * word i of every block of the set; a round is then
 *     x0 ^= L(S(t)),  t = x1 ^ x2 ^ x3 ^ rk
 * on whole vectors with the round key broadcast, and the registers
 * rotate names instead of moving. The next round's t is formed as
 * (x0 ^ x2 ^ x3 ^ rk') ^ L(S(t)), so only L's xor tree lies between two
 * S-boxes. A main step runs 4 sets (32 blocks with AVX2, 64 with
 * AVX-512): their independent rounds hide the S-box latency (measured on
 * Zen 5: 2 sets are latency-bound, 5 or more spill registers). After 32
 * rounds the words come out as X35..X32 and are transposed back.
 *
 * Modes: XTS reads each step's tweaks from a stack buffer (xor in, xor
 * out) and writes the next step's there in scalar code, a few blocks
 * between each group of 4 rounds, where the integer ALUs are idle; only
 * the first step's are made in vectors (times x^n, n <= 56: shifts of
 * the qwords and the n bits out of the top times x^7 + x^2 + x + 1, a
 * carry-less product that fits one qword). Measured on Zen 4 (64 KiB,
 * cycles/byte): the old way, 16 tweak vectors kept in registers (they
 * spilled) and advanced by two v_mul_xn each per step on the vector
 * pipes the rounds need, cost XTS 0.20 (AVX-512) and 0.10 (GFNI-AVX2)
 * over ECB; this way 0.03-0.07 and about 0.
 *
 * CTR builds counters with 64-bit adds while the low half cannot wrap
 * inside a step (the counter is public: a branch is fine), else in
 * scalar code. CBC/CFB decryption read the previous ciphertext
 * block with a load 16 bytes back; for in-place CBC the stores go from
 * the last vector to the first, so no input is overwritten before it
 * has been read.
 *
 * Instruction semantics: Intel SDM vol. 2 (AESENCLAST, GF2P8AFFINEQB,
 * GF2P8AFFINEINVQB, VPSHUFB, VPUNPCK*, VPSLLVQ, VPROLD, VPTERNLOGD,
 * VALIGNQ).
 *
 * The including file defines before including this one:
 *   SM4_ISA                  entry point suffix (aesni_avx2, ...)
 *   vec, SM4_VEC_BLOCKS      vector type, 16-byte blocks per vector
 *   SM4_MAIN_SETS            sets per main step (at most SM4_MAX_SETS)
 *   SM4_INLINE               static inline, always_inline
 * and these SM4_INLINE functions:
 *   v_loadu(p), v_storeu(p, v), v_store_lane0(p, v)  (lane0: 16 bytes)
 *   v_xor(a, b), v_xor3(a, b, c), v_bcast32(p)
 *   v_bswap32(v), v_transpose(&a, &b, &c, &d)  (4x4 dwords per lane)
 *   v_sbox(v)               the SM4 S-box on every byte
 *   v_l_xor(x, b)           x ^ L(b) on every dword
 *   v_l_xor2(&x, &t, p, b)  x ^= L(b) and t = p ^ L(b)
 *   v_mul_xn(v, n)          each 128-bit lane times x^n, 1 <= n <= 56
 *   v_ctr(lo, hi, k)        vector k of counter blocks hi:lo + k * VB + i
 *                           (big-endian bytes, lo + 4 * VB must not wrap)
 *   v_prev_first(iv, src)   [iv, block 0 .. VB - 2 of src]
 *   v_end()                 clear vector state on the way out
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/arch/x86/sm4-x86.h"
#include "crypto/internal/util.h"
#include "crypto/sm4/sm4-internal.h"

#define SM4_CAT_(a, b) a##_##b
#define SM4_CAT(a, b) SM4_CAT_(a, b)
#define SM4_FN(name) SM4_CAT(name, SM4_ISA)
#define SM4_ENTRY
/* the mode bodies over round keys: one copy each, the entry points jump in */
#define SM4_BODY static __attribute__((noinline))

#define SM4_MAX_SETS 4
#define SM4_VEC_BYTES (16 * SM4_VEC_BLOCKS)
#define SM4_SET_BLOCKS (4 * SM4_VEC_BLOCKS)
#define SM4_SET_BYTES (16 * SM4_SET_BLOCKS)
#define SM4_MAIN_BLOCKS (SM4_MAIN_SETS * SM4_SET_BLOCKS)
#define SM4_MAIN_BYTES (16 * SM4_MAIN_BLOCKS)

_Static_assert(SM4_SET_BYTES <= SM4_X86_CHUNK && SM4_X86_CHUNK % SM4_SET_BYTES == 0,
	       "a chunk is whole sets");
_Static_assert(SM4_MAIN_SETS <= SM4_MAX_SETS, "too many sets");

/* sets of 4 vectors; index [set][vector]. A main step uses them all. */
typedef vec sm4_sets[SM4_MAX_SETS][4];

/*
 * Round i on every set, with t[s] = x[b] ^ x[c] ^ x[d] ^ rk[i], the
 * S-box input: x[a] ^= L(S(t)). With next, also the input of round i + 1,
 * x[c] ^ x[d] ^ x[a]new ^ rk[i + 1], computed as
 * (x[a]old ^ x[c] ^ x[d] ^ rk[i + 1]) ^ L(S(t)): the first part is ready
 * before the S-box is, so only L's xor tree lies between two S-boxes.
 */
#define SM4_ROUND(x, t, nsets, a, b, c, d, rkp, next)                       \
	do {                                                                \
		vec k_ = v_bcast32((rkp) + (next)), p_[SM4_MAX_SETS];       \
		/* stage by stage over the sets: independent work adjacent */ \
		_Pragma("GCC unroll 4")                                     \
		for (int s_ = 0; s_ < (nsets) && (next); s_++)              \
			p_[s_] = v_xor3(x[s_][a], x[s_][c], v_xor(x[s_][d], k_)); \
		_Pragma("GCC unroll 4")                                     \
		for (int s_ = 0; s_ < (nsets); s_++)                        \
			t[s_] = v_sbox(t[s_]);                              \
		_Pragma("GCC unroll 4")                                     \
		for (int s_ = 0; s_ < (nsets); s_++) {                      \
			if (next)                                           \
				v_l_xor2(&x[s_][a], &t[s_], p_[s_], t[s_]); \
			else                                                \
				x[s_][a] = v_l_xor(x[s_][a], t[s_]);        \
		}                                                           \
	} while (0)

#define SM4_ROUND4(x, t, nsets, rkp, last)                                  \
	do {                                                                \
		SM4_ROUND(x, t, nsets, 0, 1, 2, 3, (rkp), 1);               \
		SM4_ROUND(x, t, nsets, 1, 2, 3, 0, (rkp) + 1, 1);           \
		SM4_ROUND(x, t, nsets, 2, 3, 0, 1, (rkp) + 2, 1);           \
		SM4_ROUND(x, t, nsets, 3, 0, 1, 2, (rkp) + 3, !(last));     \
	} while (0)

/*
 * XTS tweaks made in scalar code between the round groups of a step (see
 * sm4_xts_crypt), on the integer ALUs beside the vector rounds: per
 * group, the tweaks of per_group blocks go to t, a 16-byte little-endian
 * GF(2^128) element a block, and lo:hi moves past them.
 */
struct sm4_tweaks {
	uint64_t *t;
	int per_group;
	uint64_t lo, hi;
};

/* T <- T * x with a mask, no branch (T is secret) */
static inline void sm4_tweaks_some(struct sm4_tweaks *g)
{
	uint64_t l = g->lo, h = g->hi, *t = g->t;

	_Pragma("GCC unroll 8")
	for (int i = 0; i < g->per_group; i++) {
		uint64_t carry = 0 - (h >> 63);

		t[2 * i] = l;
		t[2 * i + 1] = h;
		h = (h << 1) | (l >> 63);
		l = (l << 1) ^ (0x87 & carry);
	}
	g->t = t + 2 * g->per_group;
	g->lo = l;
	g->hi = h;
}

#define SM4_ROUND_GROUPS (SM4_ROUNDS / 4)

/*
 * 32 rounds on nsets sets given in memory layout (vector j of a set =
 * blocks j * VB ..); the result comes back in the same layout. With g,
 * each group of 4 rounds is followed by sm4_tweaks_some(g).
 */
SM4_INLINE void sm4_crypt_sets_tw(const uint32_t *rk, sm4_sets x,
				  const int nsets, struct sm4_tweaks *g)
{
	vec t[SM4_MAX_SETS], k = v_bcast32(rk);

	_Pragma("GCC unroll 4")
	for (int s = 0; s < nsets; s++) {
		for (int j = 0; j < 4; j++)
			x[s][j] = v_bswap32(x[s][j]);
		v_transpose(&x[s][0], &x[s][1], &x[s][2], &x[s][3]);
		t[s] = v_xor3(x[s][1], x[s][2], v_xor(x[s][3], k));
	}
	for (int r = 0; r < SM4_ROUNDS - 4; r += 4) {
		SM4_ROUND4(x, t, nsets, rk + r, 0);
		if (g)
			sm4_tweaks_some(g);
	}
	SM4_ROUND4(x, t, nsets, rk + SM4_ROUNDS - 4, 1);
	if (g)
		sm4_tweaks_some(g);
	_Pragma("GCC unroll 4")
	for (int s = 0; s < nsets; s++) {
		/* slot i holds X[32 + i]; the output is X35, X34, X33, X32 */
		vec o0 = x[s][3], o1 = x[s][2], o2 = x[s][1], o3 = x[s][0];

		v_transpose(&o0, &o1, &o2, &o3);
		x[s][0] = v_bswap32(o0);
		x[s][1] = v_bswap32(o1);
		x[s][2] = v_bswap32(o2);
		x[s][3] = v_bswap32(o3);
	}
}

SM4_INLINE void sm4_crypt_sets(const uint32_t *rk, sm4_sets x, const int nsets)
{
	sm4_crypt_sets_tw(rk, x, nsets, NULL);
}

#define SM4_FOR_VECTORS(nsets, s, j)                                        \
	_Pragma("GCC unroll 4") for (int s = 0; s < (nsets); s++)           \
	_Pragma("GCC unroll 4") for (int j = 0; j < 4; j++)

/* byte offset of vector j of set s */
#define SM4_OFF(s, j) (((s) * 4 + (j)) * SM4_VEC_BYTES)

/*
 * The sets left after the main steps go in one step of that many sets
 * (nsets must be a constant for the registers to be allocated).
 */
#define SM4_TAIL(nsets, call)                                               \
	switch (nsets) {                                                    \
	case 1: call(1); break;                                             \
	case 2: if (SM4_MAIN_SETS > 2) call(2); break;                      \
	case 3: if (SM4_MAIN_SETS > 3) call(3); break;                      \
	}

SM4_INLINE void sm4_ecb_step(const uint32_t *rk, uint8_t *dst,
			     const uint8_t *src, const int nsets)
{
	sm4_sets x;

	SM4_FOR_VECTORS(nsets, s, j)
		x[s][j] = v_loadu(src + SM4_OFF(s, j));
	sm4_crypt_sets(rk, x, nsets);
	SM4_FOR_VECTORS(nsets, s, j)
		v_storeu(dst + SM4_OFF(s, j), x[s][j]);
}

SM4_BODY void sm4_blocks(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
			   size_t nblocks)
{
	for (; nblocks >= SM4_MAIN_BLOCKS; nblocks -= SM4_MAIN_BLOCKS) {
		sm4_ecb_step(rk, dst, src, SM4_MAIN_SETS);
		src += SM4_MAIN_BYTES;
		dst += SM4_MAIN_BYTES;
	}
	if (nblocks >= SM4_SET_BLOCKS) {
		size_t n = nblocks - nblocks % SM4_SET_BLOCKS;
#define SM4_ECB_TAIL(ns) sm4_ecb_step(rk, dst, src, ns)
		SM4_TAIL(n / SM4_SET_BLOCKS, SM4_ECB_TAIL);
		src += 16 * n;
		dst += 16 * n;
		nblocks -= n;
	}
	if (nblocks) {
		/* a partial set (single blocks too): pad through the stack */
		uint8_t buf[SM4_SET_BYTES] __attribute__((aligned(64)));

		memset(buf, 0, sizeof(buf));
		memcpy(buf, src, 16 * nblocks);
		sm4_ecb_step(rk, buf, buf, 1);
		memcpy(dst, buf, 16 * nblocks);
		explicit_bzero(buf, sizeof(buf));
	}
	v_end();
}

/* ---- XTS ---------------------------------------------------------- */

/*
 * One step on nsets sets with the tweaks tw, stored by the step before;
 * meanwhile g stores those of the next step (a vector load over scalar
 * stores still in flight would wait for them to reach the cache).
 */
SM4_INLINE void sm4_xts_step(const uint32_t *rk, uint8_t *dst,
			     const uint8_t *src, const uint64_t *tw,
			     struct sm4_tweaks *g, const int nsets)
{
	const uint8_t *t = (const uint8_t *)tw;
	sm4_sets x;

	SM4_FOR_VECTORS(nsets, s, j)
		x[s][j] = v_xor(v_loadu(src + SM4_OFF(s, j)), v_loadu(t + SM4_OFF(s, j)));
	sm4_crypt_sets_tw(rk, x, nsets, g);
	SM4_FOR_VECTORS(nsets, s, j)
		v_storeu(dst + SM4_OFF(s, j), v_xor(x[s][j], v_loadu(t + SM4_OFF(s, j))));
}

/*
 * The first step's n tweaks (n a multiple of SM4_SET_BLOCKS) into t, in
 * vectors of a short dependency chain: the first vector in scalar code,
 * vector j of set 0 that times x^(j * VB), vector j of set s that of set
 * 0 times x^(s * SET_BLOCKS). Its loads then forward from vector stores
 * of their size. g gets the tweak after them.
 */
SM4_INLINE void sm4_xts_first(uint64_t *t, int n, struct sm4_tweaks *g)
{
	uint64_t next[2] __attribute__((aligned(16)));
	vec v0, set0[4];

	g->t = t;
	g->per_group = SM4_VEC_BLOCKS;
	sm4_tweaks_some(g);
	v0 = v_loadu((const uint8_t *)t);
	set0[0] = v0;
	for (int j = 1; j < 4; j++)
		set0[j] = v_mul_xn(v0, j * SM4_VEC_BLOCKS);
	for (int s = 0; s < n / SM4_SET_BLOCKS; s++)
		for (int j = 0; j < 4; j++)
			v_storeu((uint8_t *)t + SM4_OFF(s, j),
				 s ? v_mul_xn(set0[j], s * SM4_SET_BLOCKS) : set0[j]);
	v_store_lane0((uint8_t *)next,
		      v_mul_xn(v_loadu((const uint8_t *)(t + 2 * (n - SM4_VEC_BLOCKS))),
			       SM4_VEC_BLOCKS));
	g->lo = next[0];
	g->hi = next[1];
	explicit_bzero(next, sizeof(next));
}

SM4_BODY void sm4_xts(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
		       size_t nbytes, uint8_t *tweak)
{
	/* the tweaks of two steps: this one's and the next one's */
	uint64_t tw[2][2 * SM4_MAIN_BLOCKS] __attribute__((aligned(64)));
	size_t left = nbytes / 16;
	struct sm4_tweaks g;
	int cur = 0;

	memcpy(&g.lo, tweak, 8);
	memcpy(&g.hi, tweak + 8, 8);
	sm4_xts_first(tw[0], left < SM4_MAIN_BLOCKS ? (int)left : SM4_MAIN_BLOCKS, &g);
	for (; left >= SM4_MAIN_BLOCKS; left -= SM4_MAIN_BLOCKS) {
		size_t rest = left - SM4_MAIN_BLOCKS;

		g.t = tw[!cur];
		g.per_group = (rest < SM4_MAIN_BLOCKS ? (int)rest : SM4_MAIN_BLOCKS) /
			      SM4_ROUND_GROUPS;
		sm4_xts_step(rk, dst, src, tw[cur], &g, SM4_MAIN_SETS);
		cur = !cur;
		src += SM4_MAIN_BYTES;
		dst += SM4_MAIN_BYTES;
	}
	/* g.lo:g.hi is already the tweak after the request */
#define SM4_XTS_TAIL(ns) sm4_xts_step(rk, dst, src, tw[cur], NULL, ns)
	SM4_TAIL(left / SM4_SET_BLOCKS, SM4_XTS_TAIL);
	memcpy(tweak, &g.lo, 8);
	memcpy(tweak + 8, &g.hi, 8);
	explicit_bzero(tw, nbytes <= SM4_MAIN_BYTES ? nbytes : sizeof(tw));
	explicit_bzero(&g, sizeof(g));
	v_end();
}

_Static_assert(SM4_SET_BLOCKS % SM4_ROUND_GROUPS == 0,
	       "tweaks of whole sets split evenly over the round groups");
_Static_assert((SM4_MAX_SETS - 1) * SM4_SET_BLOCKS <= 56, "v_mul_xn range");

/* ---- CTR ---------------------------------------------------------- */

SM4_INLINE void sm4_ctr_step(const uint32_t *rk, uint8_t *dst,
			     const uint8_t *src, uint64_t lo, uint64_t hi,
			     const int nsets)
{
	const int nblocks = nsets * SM4_SET_BLOCKS;
	sm4_sets x;

	if (lo <= UINT64_MAX - (uint64_t)(nblocks - 1)) {
		SM4_FOR_VECTORS(nsets, s, j)
			x[s][j] = v_ctr(lo, hi, s * 4 + j);
	} else {
		/* the low half wraps inside this step (public counter) */
		uint8_t buf[SM4_MAX_SETS * SM4_SET_BYTES] __attribute__((aligned(64)));

		for (int i = 0; i < nblocks; i++) {
			store_be64(buf + 16 * i, hi + (lo + (uint64_t)i < lo));
			store_be64(buf + 16 * i + 8, lo + (uint64_t)i);
		}
		SM4_FOR_VECTORS(nsets, s, j)
			x[s][j] = v_loadu(buf + SM4_OFF(s, j));
	}
	sm4_crypt_sets(rk, x, nsets);
	SM4_FOR_VECTORS(nsets, s, j)
		v_storeu(dst + SM4_OFF(s, j),
			 v_xor(x[s][j], v_loadu(src + SM4_OFF(s, j))));
}

SM4_BODY void sm4_ctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
		       size_t nbytes, uint8_t *ctr)
{
	uint64_t hi = load_be64(ctr), lo = load_be64(ctr + 8);

	for (; nbytes >= SM4_MAIN_BYTES; nbytes -= SM4_MAIN_BYTES) {
		sm4_ctr_step(rk, dst, src, lo, hi, SM4_MAIN_SETS);
		hi += lo + SM4_MAIN_BLOCKS < lo;
		lo += SM4_MAIN_BLOCKS;
		src += SM4_MAIN_BYTES;
		dst += SM4_MAIN_BYTES;
	}
	if (nbytes) {
		uint64_t n = nbytes / 16;

#define SM4_CTR_TAIL(ns) sm4_ctr_step(rk, dst, src, lo, hi, ns)
		SM4_TAIL(nbytes / SM4_SET_BYTES, SM4_CTR_TAIL);
		hi += lo + n < lo;
		lo += n;
	}
	store_be64(ctr, hi);
	store_be64(ctr + 8, lo);
	v_end();
}

/* ---- CBC and CFB decryption ----------------------------------------- */

SM4_INLINE __m128i sm4_cbc_step(const uint32_t *rk, uint8_t *dst,
				const uint8_t *src, __m128i iv, const int nsets)
{
	const int nbytes = nsets * SM4_SET_BYTES;
	__m128i last = _mm_loadu_si128((const __m128i *)(src + nbytes - 16));
	sm4_sets x;

	SM4_FOR_VECTORS(nsets, s, j)
		x[s][j] = v_loadu(src + SM4_OFF(s, j));
	sm4_crypt_sets(rk, x, nsets);
	/* last vector first: each load 16 bytes back precedes its store */
	_Pragma("GCC unroll 4")
	for (int s = nsets - 1; s >= 0; s--) {
		_Pragma("GCC unroll 4")
		for (int j = 3; j >= 0; j--) {
			vec prev = s == 0 && j == 0 ?
				v_prev_first(iv, src) :
				v_loadu(src + SM4_OFF(s, j) - 16);

			v_storeu(dst + SM4_OFF(s, j), v_xor(x[s][j], prev));
		}
	}
	return last;
}

SM4_BODY void sm4_cbc_dec(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
			   size_t nbytes, uint8_t *iv)
{
	__m128i v = _mm_loadu_si128((const __m128i *)iv);

	for (; nbytes >= SM4_MAIN_BYTES; nbytes -= SM4_MAIN_BYTES) {
		v = sm4_cbc_step(rk, dst, src, v, SM4_MAIN_SETS);
		src += SM4_MAIN_BYTES;
		dst += SM4_MAIN_BYTES;
	}
#define SM4_CBC_TAIL(ns) v = sm4_cbc_step(rk, dst, src, v, ns)
	SM4_TAIL(nbytes / SM4_SET_BYTES, SM4_CBC_TAIL);
	_mm_storeu_si128((__m128i *)iv, v);
	v_end();
}

SM4_INLINE __m128i sm4_cfb_step(const uint32_t *rk, uint8_t *dst,
				const uint8_t *src, __m128i iv, const int nsets)
{
	const int nbytes = nsets * SM4_SET_BYTES;
	__m128i last = _mm_loadu_si128((const __m128i *)(src + nbytes - 16));
	sm4_sets x;

	/* keystream inputs: iv, then the ciphertext shifted by one block */
	SM4_FOR_VECTORS(nsets, s, j)
		x[s][j] = s == 0 && j == 0 ? v_prev_first(iv, src) :
					     v_loadu(src + SM4_OFF(s, j) - 16);
	sm4_crypt_sets(rk, x, nsets);
	/* the inputs are all in registers: forward stores are safe */
	SM4_FOR_VECTORS(nsets, s, j)
		v_storeu(dst + SM4_OFF(s, j),
			 v_xor(x[s][j], v_loadu(src + SM4_OFF(s, j))));
	return last;
}

SM4_BODY void sm4_cfb_dec(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
			   size_t nbytes, uint8_t *iv)
{
	__m128i v = _mm_loadu_si128((const __m128i *)iv);

	for (; nbytes >= SM4_MAIN_BYTES; nbytes -= SM4_MAIN_BYTES) {
		v = sm4_cfb_step(rk, dst, src, v, SM4_MAIN_SETS);
		src += SM4_MAIN_BYTES;
		dst += SM4_MAIN_BYTES;
	}
#define SM4_CFB_TAIL(ns) v = sm4_cfb_step(rk, dst, src, v, ns)
	SM4_TAIL(nbytes / SM4_SET_BYTES, SM4_CFB_TAIL);
	_mm_storeu_si128((__m128i *)iv, v);
	v_end();
}

/* ---- entry points (sm4-x86.h): they take the cipher context ---------- */

SM4_ENTRY uint32_t SM4_FN(sm4_tau)(uint32_t w)
{
	uint8_t out[SM4_VEC_BYTES] __attribute__((aligned(64)));
	uint32_t r;

	v_storeu(out, v_sbox(v_bcast32(&w)));
	memcpy(&r, out, 4);
	explicit_bzero(out, sizeof(out));
	v_end();
	return r;
}

/* GB/T 32907-2016 7.3, tau through this core's S-box: no table lookup */
SM4_ENTRY int SM4_FN(sm4_setkey)(void *ctx, const uint8_t *key, size_t keylen)
{
	struct sm4_x86_ctx *c = ctx;

	if (keylen != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_expand_key(key, SM4_FN(sm4_tau), c->rk_enc);
	for (unsigned int i = 0; i < SM4_ROUNDS; i++)
		c->rk_dec[SM4_ROUNDS - 1 - i] = c->rk_enc[i];
	return 0;
}

#define SM4_CTX(ctx) ((const struct sm4_x86_ctx *)(ctx))

SM4_ENTRY void SM4_FN(sm4_encrypt)(const void *ctx, uint8_t *dst,
				   const uint8_t *src)
{
	sm4_blocks(SM4_CTX(ctx)->rk_enc, dst, src, 1);
}

SM4_ENTRY void SM4_FN(sm4_decrypt)(const void *ctx, uint8_t *dst,
				   const uint8_t *src)
{
	sm4_blocks(SM4_CTX(ctx)->rk_dec, dst, src, 1);
}

SM4_ENTRY void SM4_FN(sm4_encrypt_blocks)(const void *ctx, uint8_t *dst,
					  const uint8_t *src, size_t n)
{
	if (n)
		sm4_blocks(SM4_CTX(ctx)->rk_enc, dst, src, n);
}

SM4_ENTRY void SM4_FN(sm4_decrypt_blocks)(const void *ctx, uint8_t *dst,
					  const uint8_t *src, size_t n)
{
	if (n)
		sm4_blocks(SM4_CTX(ctx)->rk_dec, dst, src, n);
}

SM4_ENTRY void SM4_FN(sm4_ecb_encrypt)(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nbytes)
{
	sm4_blocks(SM4_CTX(ctx)->rk_enc, dst, src, nbytes / 16);
}

SM4_ENTRY void SM4_FN(sm4_ecb_decrypt)(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nbytes)
{
	sm4_blocks(SM4_CTX(ctx)->rk_dec, dst, src, nbytes / 16);
}

SM4_ENTRY void SM4_FN(sm4_xts_encrypt)(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nbytes,
				       uint8_t *tweak)
{
	sm4_xts(SM4_CTX(ctx)->rk_enc, dst, src, nbytes, tweak);
}

SM4_ENTRY void SM4_FN(sm4_xts_decrypt)(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nbytes,
				       uint8_t *tweak)
{
	sm4_xts(SM4_CTX(ctx)->rk_dec, dst, src, nbytes, tweak);
}

SM4_ENTRY void SM4_FN(sm4_cbc_decrypt)(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nbytes,
				       uint8_t *iv)
{
	sm4_cbc_dec(SM4_CTX(ctx)->rk_dec, dst, src, nbytes, iv);
}

SM4_ENTRY void SM4_FN(sm4_cfb_decrypt)(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nbytes,
				       uint8_t *iv)
{
	sm4_cfb_dec(SM4_CTX(ctx)->rk_enc, dst, src, nbytes, iv);
}

SM4_ENTRY void SM4_FN(sm4_ctr_crypt)(const void *ctx, uint8_t *dst,
				     const uint8_t *src, size_t nbytes,
				     uint8_t *ctr)
{
	sm4_ctr(SM4_CTX(ctx)->rk_enc, dst, src, nbytes, ctr);
}
