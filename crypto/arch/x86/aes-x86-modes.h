/* SPDX-License-Identifier: MIT */
/*
 * The AES mode cores (XTS, ECB, CBC and CFB decryption, CTR), written once
 * and instantiated per vector width: aes-aesni.c (xmm), aes-vaes-avx2.c
 * (ymm) and aes-vaes-avx512.c (zmm) each define the primitives below and
 * then include this file. The design follows the one of the Linux kernel's
 * arch/x86/crypto/aes-xts-avx-x86_64.S (E. Biggers, 2024: one body, one
 * instantiation per vector length), written here from scratch in C:
 *
 *  - NVEC = 8 vectors are in flight, round-major: AESENC has a latency of
 *    4 cycles and Zen 5 issues 2 per cycle at every width (measured: 4
 *    independent vectors reach half that rate, 8 the full rate), so 8
 *    chains keep both AES units busy; cores with one unit need only 4.
 *  - Round keys are broadcast to every 128-bit lane once per call, and the
 *    body is specialised per key size (10, 12, 14 rounds) so they live in
 *    registers or folded memory operands.
 *  - The final XOR of each mode goes into the last round key:
 *    AESENCLAST(x, rkN ^ y) = AESENCLAST(x, rkN) ^ y, with y the XTS
 *    tweak, the previous ciphertext (CBC, CFB) or the data (CTR). XTS
 *    keeps its tweaks as T ^ rkN throughout (see xts_body), so neither
 *    whitening XOR costs an instruction of its own.
 *  - Whole 128-byte chunks only: a main loop of NVEC vectors, then one pass
 *    over the remaining 1..NVEC-1 vectors (AES_TAIL_CASES lists which can
 *    occur), so nothing falls back to one latency-bound vector at a time.
 *
 * Contract of the entry points: see aes-x86.h.
 *
 * The including file defines:
 *   AES_ISA          suffix of the entry points (aesni, vaes_avx2, ...)
 *   vec_t            the vector type; VEC_BLOCKS AES blocks per vector
 *   AES_TAIL_CASES(X) X(n) for every tail of n vectors that can occur:
 *                    n * 16 * VEC_BLOCKS a multiple of 128, below NVEC
 *   v_loadu, v_storeu, v_xor, v_xor3, v_key (16 bytes to every lane),
 *   v_enc, v_enclast, v_dec, v_declast (one AES round on every lane),
 *   v_bswap (byte-reverse each lane), v_add_lo (add to the low 64 bits of
 *   each lane), v_ctr_first (lanes lo+i : hi, little-endian),
 *   v_prev_first (lanes: iv, then the first blocks of c0),
 *   tw_init (u[j] lane i = tweak * x^(j * VEC_BLOCKS + i) ^ K),
 *   tw_const (K * x^m ^ K, m = NVEC * VEC_BLOCKS), tw_next (every u[j]
 *   times x^m, plus that constant), tw_store (lane 0 of u ^ K).
 */
#ifndef AES_ISA
#error "define the vector primitives, then include aes-x86-modes.h"
#endif

#include <string.h>

#include "crypto/arch/x86/aes-x86.h"

#define NVEC 8
#define VEC_BYTES (16 * VEC_BLOCKS)
#define MAIN_BYTES (NVEC * VEC_BYTES)

#define AES_CAT2(a, b) a##_##b
#define AES_CAT(a, b) AES_CAT2(a, b)
#define AES_FN(name) AES_CAT(name, AES_ISA)

#define AES_INLINE static inline __attribute__((always_inline))
#define AES_UNROLL _Pragma("GCC unroll 16")

/* the nr + 1 round keys, each broadcast to every lane */
AES_INLINE void load_keys(vec_t *k, const uint8_t *rk, int nr)
{
	AES_UNROLL
	for (int r = 0; r <= nr; r++)
		k[r] = v_key(rk + 16 * r);
}

/* rounds 1 .. nr-1 on n vectors, round-major */
AES_INLINE void enc_middle(vec_t *x, const vec_t *k, int nr, int n)
{
	AES_UNROLL
	for (int r = 1; r < nr; r++) {
		AES_UNROLL
		for (int j = 0; j < n; j++)
			x[j] = v_enc(x[j], k[r]);
	}
}

AES_INLINE void dec_middle(vec_t *x, const vec_t *k, int nr, int n)
{
	AES_UNROLL
	for (int r = 1; r < nr; r++) {
		AES_UNROLL
		for (int j = 0; j < n; j++)
			x[j] = v_dec(x[j], k[r]);
	}
}

/* ---- XTS ---------------------------------------------------------------- */

/*
 * n vectors: dst = E(src ^ T) ^ T (or D). The tweaks are held as
 * u = T ^ rk[nr] (see xts_body), so the first XOR is src ^ u ^ kc with
 * kc = rk[0] ^ rk[nr], and the last round takes u as its key.
 */
AES_INLINE void xts_pass(const vec_t *k, vec_t kc, int nr, int n, int dec,
			 const vec_t *u, uint8_t *dst, const uint8_t *src)
{
	vec_t x[NVEC];

	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = v_xor3(v_loadu(src + j * VEC_BYTES), u[j], kc);
	if (dec)
		dec_middle(x, k, nr, n);
	else
		enc_middle(x, k, nr, n);
	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = dec ? v_declast(x[j], u[j]) : v_enclast(x[j], u[j]);
	AES_UNROLL
	for (int j = 0; j < n; j++)
		v_storeu(dst + j * VEC_BYTES, x[j]);
}

/*
 * Multiplying by x^m is linear over GF(2), so with u = T ^ K (K the last
 * round key) the next u is u * x^m ^ (K * x^m ^ K): tw_next adds the
 * constant tw_const(K) once per vector, and the per-block XOR of T with
 * the last round key disappears from the loop.
 */
AES_INLINE void xts_body(const struct aes_x86_ctx *ctx, uint8_t *dst,
			 const uint8_t *src, size_t nbytes, uint8_t *tweak,
			 int nr, int dec)
{
	vec_t k[AES_X86_MAX_ROUNDS + 1], u[NVEC], kc, c;

	load_keys(k, dec ? ctx->dec : ctx->enc, nr);
	kc = v_xor(k[0], k[nr]);
	c = tw_const(k[nr]);
	tw_init(u, tweak, k[nr]);
	for (; nbytes >= MAIN_BYTES; nbytes -= MAIN_BYTES) {
		xts_pass(k, kc, nr, NVEC, dec, u, dst, src);
		tw_next(u, c);
		src += MAIN_BYTES;
		dst += MAIN_BYTES;
	}
	switch (nbytes / VEC_BYTES) {
#define XTS_TAIL(n)                                       \
	case n:                                           \
		xts_pass(k, kc, nr, n, dec, u, dst, src); \
		tw_store(tweak, u[n], k[nr]);             \
		return;
		AES_TAIL_CASES(XTS_TAIL)
#undef XTS_TAIL
	default:
		break;
	}
	tw_store(tweak, u[0], k[nr]);
}

/* ---- ECB ---------------------------------------------------------------- */

AES_INLINE void ecb_pass(const vec_t *k, int nr, int n, int dec, uint8_t *dst,
			 const uint8_t *src)
{
	vec_t x[NVEC];

	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = v_xor(v_loadu(src + j * VEC_BYTES), k[0]);
	if (dec)
		dec_middle(x, k, nr, n);
	else
		enc_middle(x, k, nr, n);
	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = dec ? v_declast(x[j], k[nr]) : v_enclast(x[j], k[nr]);
	AES_UNROLL
	for (int j = 0; j < n; j++)
		v_storeu(dst + j * VEC_BYTES, x[j]);
}

AES_INLINE void ecb_body(const struct aes_x86_ctx *ctx, uint8_t *dst,
			 const uint8_t *src, size_t nbytes, int nr, int dec)
{
	vec_t k[AES_X86_MAX_ROUNDS + 1];

	load_keys(k, dec ? ctx->dec : ctx->enc, nr);
	for (; nbytes >= MAIN_BYTES; nbytes -= MAIN_BYTES) {
		ecb_pass(k, nr, NVEC, dec, dst, src);
		src += MAIN_BYTES;
		dst += MAIN_BYTES;
	}
	switch (nbytes / VEC_BYTES) {
#define ECB_TAIL(n)                                \
	case n:                                    \
		ecb_pass(k, nr, n, dec, dst, src); \
		return;
		AES_TAIL_CASES(ECB_TAIL)
#undef ECB_TAIL
	default:
		break;
	}
}

/* ---- CBC and CFB decryption ------------------------------------------- */

/*
 * The block before each of n vectors of ciphertext: iv for the first
 * block, src - 16 after that. Loaded before any store, so dst == src works.
 */
AES_INLINE void prev_blocks(vec_t *p, int n, __m128i iv, const uint8_t *src)
{
	p[0] = v_prev_first(iv, v_loadu(src));
	AES_UNROLL
	for (int j = 1; j < n; j++)
		p[j] = v_loadu(src + j * VEC_BYTES - 16);
}

/* CBC: P = D(C) ^ C_prev; returns the new iv (the last ciphertext block) */
AES_INLINE __m128i cbc_pass(const vec_t *k, int nr, int n, __m128i iv,
			    uint8_t *dst, const uint8_t *src)
{
	vec_t x[NVEC], p[NVEC];
	__m128i last = _mm_loadu_si128((const void *)(src + n * VEC_BYTES - 16));

	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = v_xor(v_loadu(src + j * VEC_BYTES), k[0]);
	dec_middle(x, k, nr, n);
	prev_blocks(p, n, iv, src);
	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = v_declast(x[j], v_xor(k[nr], p[j]));
	AES_UNROLL
	for (int j = 0; j < n; j++)
		v_storeu(dst + j * VEC_BYTES, x[j]);
	return last;
}

/* CFB: P = E(C_prev) ^ C */
AES_INLINE __m128i cfb_pass(const vec_t *k, int nr, int n, __m128i iv,
			    uint8_t *dst, const uint8_t *src)
{
	vec_t x[NVEC];
	__m128i last = _mm_loadu_si128((const void *)(src + n * VEC_BYTES - 16));

	prev_blocks(x, n, iv, src);
	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = v_xor(x[j], k[0]);
	enc_middle(x, k, nr, n);
	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = v_enclast(x[j], v_xor(k[nr], v_loadu(src + j * VEC_BYTES)));
	AES_UNROLL
	for (int j = 0; j < n; j++)
		v_storeu(dst + j * VEC_BYTES, x[j]);
	return last;
}

AES_INLINE void chain_body(const struct aes_x86_ctx *ctx, uint8_t *dst,
			   const uint8_t *src, size_t nbytes, uint8_t *ivp,
			   int nr, int cfb)
{
	vec_t k[AES_X86_MAX_ROUNDS + 1];
	__m128i iv = _mm_loadu_si128((const void *)ivp);

	/* CFB decryption runs the cipher forwards */
	load_keys(k, cfb ? ctx->enc : ctx->dec, nr);
	for (; nbytes >= MAIN_BYTES; nbytes -= MAIN_BYTES) {
		iv = cfb ? cfb_pass(k, nr, NVEC, iv, dst, src) :
			   cbc_pass(k, nr, NVEC, iv, dst, src);
		src += MAIN_BYTES;
		dst += MAIN_BYTES;
	}
	switch (nbytes / VEC_BYTES) {
#define CHAIN_TAIL(n)                                          \
	case n:                                                \
		iv = cfb ? cfb_pass(k, nr, n, iv, dst, src) :  \
			   cbc_pass(k, nr, n, iv, dst, src);   \
		break;
		AES_TAIL_CASES(CHAIN_TAIL)
#undef CHAIN_TAIL
	default:
		break;
	}
	_mm_storeu_si128((void *)ivp, iv);
}

/* ---- CTR ---------------------------------------------------------------- */

static inline uint64_t ctr_load_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return __builtin_bswap64(v);
}

static inline void ctr_store_be64(uint8_t *p, uint64_t v)
{
	v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

/* n vectors of counters c[] (little-endian lanes): dst = src ^ E(c) */
AES_INLINE void ctr_pass(const vec_t *k, int nr, int n, const vec_t *c,
			 uint8_t *dst, const uint8_t *src)
{
	vec_t x[NVEC];

	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = v_xor(v_bswap(c[j]), k[0]);
	enc_middle(x, k, nr, n);
	AES_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = v_enclast(x[j], v_xor(k[nr], v_loadu(src + j * VEC_BYTES)));
	AES_UNROLL
	for (int j = 0; j < n; j++)
		v_storeu(dst + j * VEC_BYTES, x[j]);
}

/*
 * The low 64 bits of the counter do not wrap inside this request (the
 * common case: checked by the caller), so lanes add without carries.
 */
AES_INLINE void ctr_body_nocarry(const vec_t *k, int nr, uint8_t *dst,
				 const uint8_t *src, size_t nbytes, uint64_t lo,
				 uint64_t hi)
{
	vec_t c[NVEC];

	c[0] = v_ctr_first(lo, hi);
	AES_UNROLL
	for (int j = 1; j < NVEC; j++)
		c[j] = v_add_lo(c[0], (uint64_t)j * VEC_BLOCKS);
	for (; nbytes >= MAIN_BYTES; nbytes -= MAIN_BYTES) {
		ctr_pass(k, nr, NVEC, c, dst, src);
		AES_UNROLL
		for (int j = 0; j < NVEC; j++)
			c[j] = v_add_lo(c[j], NVEC * VEC_BLOCKS);
		src += MAIN_BYTES;
		dst += MAIN_BYTES;
	}
	switch (nbytes / VEC_BYTES) {
#define CTR_TAIL(n)                                \
	case n:                                    \
		ctr_pass(k, nr, n, c, dst, src);   \
		break;
		AES_TAIL_CASES(CTR_TAIL)
#undef CTR_TAIL
	default:
		break;
	}
}

/*
 * A 64-bit wrap falls inside the request (once in 2^64 blocks, or a test
 * that asks for it): counters are built one chunk at a time in memory with
 * a full 128-bit increment, encrypted as ECB and XORed in.
 */
AES_INLINE void ctr_body_carry(const vec_t *k, int nr, uint8_t *dst,
			       const uint8_t *src, size_t nbytes, uint64_t lo,
			       uint64_t hi)
{
	_Alignas(64) uint8_t ks[AES_X86_CHUNK];

	for (; nbytes; nbytes -= AES_X86_CHUNK) {
		for (int i = 0; i < AES_X86_CHUNK; i += 16) {
			ctr_store_be64(ks + i, hi);
			ctr_store_be64(ks + i + 8, lo);
			hi += ++lo == 0;
		}
		ecb_pass(k, nr, AES_X86_CHUNK / VEC_BYTES, 0, ks, ks);
		AES_UNROLL
		for (int j = 0; j < AES_X86_CHUNK / VEC_BYTES; j++)
			v_storeu(dst + j * VEC_BYTES,
				 v_xor(v_loadu(src + j * VEC_BYTES),
				       v_loadu(ks + j * VEC_BYTES)));
		src += AES_X86_CHUNK;
		dst += AES_X86_CHUNK;
	}
	explicit_bzero(ks, sizeof(ks));
}

AES_INLINE void ctr_body(const struct aes_x86_ctx *ctx, uint8_t *dst,
			 const uint8_t *src, size_t nbytes, uint8_t *ctr, int nr)
{
	vec_t k[AES_X86_MAX_ROUNDS + 1];
	uint64_t hi = ctr_load_be64(ctr), lo = ctr_load_be64(ctr + 8);
	uint64_t nblocks = nbytes / 16;

	load_keys(k, ctx->enc, nr);
	/* the counter is public: branching on it is fine */
	if (UINT64_MAX - lo >= nblocks - 1)
		ctr_body_nocarry(k, nr, dst, src, nbytes, lo, hi);
	else
		ctr_body_carry(k, nr, dst, src, nbytes, lo, hi);
	hi += lo + nblocks < lo;
	ctr_store_be64(ctr, hi);
	ctr_store_be64(ctr + 8, lo + nblocks);
}

/* ---- entry points: one body per key size ------------------------------- */

/* ctx: the entry point's const void *, a struct aes_x86_ctx */
#define AES_BY_ROUNDS(ctx, call_with_nr) \
	do {                             \
		switch (((const struct aes_x86_ctx *)(ctx))->rounds) { \
		case 10:                 \
			call_with_nr(10); \
			break;           \
		case 12:                 \
			call_with_nr(12); \
			break;           \
		default:                 \
			call_with_nr(14); \
			break;           \
		}                        \
	} while (0)

void AES_FN(aes_xts_encrypt)(const void *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nbytes, uint8_t *tweak)
{
#define CALL(nr) xts_body(ctx, dst, src, nbytes, tweak, nr, 0)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}

void AES_FN(aes_xts_decrypt)(const void *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nbytes, uint8_t *tweak)
{
#define CALL(nr) xts_body(ctx, dst, src, nbytes, tweak, nr, 1)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}

void AES_FN(aes_ecb_encrypt)(const void *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nbytes)
{
#define CALL(nr) ecb_body(ctx, dst, src, nbytes, nr, 0)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}

void AES_FN(aes_ecb_decrypt)(const void *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nbytes)
{
#define CALL(nr) ecb_body(ctx, dst, src, nbytes, nr, 1)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}

void AES_FN(aes_cbc_decrypt)(const void *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nbytes, uint8_t *iv)
{
#define CALL(nr) chain_body(ctx, dst, src, nbytes, iv, nr, 0)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}

void AES_FN(aes_cfb_decrypt)(const void *ctx, uint8_t *dst,
			     const uint8_t *src, size_t nbytes, uint8_t *iv)
{
#define CALL(nr) chain_body(ctx, dst, src, nbytes, iv, nr, 1)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}

void AES_FN(aes_ctr_crypt)(const void *ctx, uint8_t *dst,
			   const uint8_t *src, size_t nbytes, uint8_t *ctr)
{
#define CALL(nr) ctr_body(ctx, dst, src, nbytes, ctr, nr)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}
