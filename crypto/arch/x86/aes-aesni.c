/* SPDX-License-Identifier: MIT */
/*
 * AES with AES-NI on 128-bit vectors (see aes-x86.h for the variants):
 * the key schedule, one block, independent blocks with 8 in flight, and
 * the xmm instance of the mode cores (aes-x86-modes.h).
 *
 * Key expansion is FIPS-197 5.2 (KeyExpansion) word by word, with
 * AESKEYGENASSIST as the S-box: for a word w in dword 1 of its source it
 * returns SubWord(w) in dword 0 and RotWord(SubWord(w)) in dword 1 (Intel
 * SDM vol. 2A, AESKEYGENASSIST; RotWord and SubWord commute). One loop
 * serves 128-, 192- and 256-bit keys. The decryption schedule is the
 * equivalent inverse cipher of FIPS-197 5.3.5, with AESIMC for
 * InvMixColumns. No table lookups: constant time.
 *
 * XTS tweaks are multiplied by x one block after another with SSE2 shifts
 * and a sign mask (no PCLMULQDQ needed); the chain runs beside the AES
 * rounds, which are the bottleneck.
 *
 * Built with -maes -msse4.1 (crypto/arch/x86/meson.build).
 */
#if defined(__x86_64__)

#include <errno.h>
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "crypto/arch/x86/aes-x86.h"

/* ---- key schedule ------------------------------------------------------ */

/* FIPS-197 5.2: Rcon[i] = x^(i-1) in GF(2^8) */
static const uint8_t aes_rcon[10] = {
	0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36,
};

/* SubWord(w), or RotWord(SubWord(w)) when rot is set */
static inline uint32_t aes_subword(uint32_t w, int rot)
{
	__m128i r = _mm_aeskeygenassist_si128(_mm_set_epi32(0, 0, (int)w, 0), 0);

	return (uint32_t)(rot ? _mm_extract_epi32(r, 1) : _mm_cvtsi128_si32(r));
}

int aes_x86_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct aes_x86_ctx *ctx = vctx;
	uint32_t w[4 * (AES_X86_MAX_ROUNDS + 1)];
	unsigned int nk = (unsigned int)keylen / 4, nr, total;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	nr = nk + 6;
	total = 4 * (nr + 1);
	/* x86 is little-endian: word i is key bytes 4i..4i+3 as the AES
	 * instructions lay out a column */
	memcpy(w, key, keylen);
	for (unsigned int i = nk; i < total; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0)
			t = aes_subword(t, 1) ^ aes_rcon[i / nk - 1];
		else if (nk > 6 && i % nk == 4)
			t = aes_subword(t, 0);
		w[i] = w[i - nk] ^ t;
	}
	memcpy(ctx->enc, w, 16 * (nr + 1));

	/* equivalent inverse cipher: reversed, InvMixColumns inside */
	memcpy(ctx->dec, ctx->enc + 16 * nr, 16);
	for (unsigned int r = 1; r < nr; r++)
		_mm_store_si128((__m128i *)(void *)(ctx->dec + 16 * r),
				_mm_aesimc_si128(_mm_load_si128(
					(const __m128i *)(const void *)(ctx->enc + 16 * (nr - r)))));
	memcpy(ctx->dec + 16 * nr, ctx->enc, 16);
	ctx->rounds = nr;
	explicit_bzero(w, sizeof(w));
	return 0;
}

/* ---- single blocks ------------------------------------------------------- */

static inline __m128i rk_load(const uint8_t *rk, unsigned int r)
{
	return _mm_load_si128((const __m128i *)(const void *)(rk + 16 * r));
}

void aes_encrypt_aesni(const void *vctx, uint8_t *dst, const uint8_t *src)
{
	const struct aes_x86_ctx *ctx = vctx;
	unsigned int nr = ctx->rounds;
	__m128i x = _mm_xor_si128(_mm_loadu_si128((const void *)src),
				  rk_load(ctx->enc, 0));

	for (unsigned int r = 1; r < nr; r++)
		x = _mm_aesenc_si128(x, rk_load(ctx->enc, r));
	_mm_storeu_si128((void *)dst, _mm_aesenclast_si128(x, rk_load(ctx->enc, nr)));
}

void aes_decrypt_aesni(const void *vctx, uint8_t *dst, const uint8_t *src)
{
	const struct aes_x86_ctx *ctx = vctx;
	unsigned int nr = ctx->rounds;
	__m128i x = _mm_xor_si128(_mm_loadu_si128((const void *)src),
				  rk_load(ctx->dec, 0));

	for (unsigned int r = 1; r < nr; r++)
		x = _mm_aesdec_si128(x, rk_load(ctx->dec, r));
	_mm_storeu_si128((void *)dst, _mm_aesdeclast_si128(x, rk_load(ctx->dec, nr)));
}

/* ---- vector primitives for aes-x86-modes.h ----------------------------- */

#define AES_ISA aesni
#define VEC_BLOCKS 1
typedef __m128i vec_t;
/* one main pass is exactly one 128-byte chunk: no tails */
#define AES_TAIL_CASES(X)

#define V_INLINE static inline __attribute__((always_inline))

V_INLINE vec_t v_loadu(const uint8_t *p)
{
	return _mm_loadu_si128((const void *)p);
}

V_INLINE void v_storeu(uint8_t *p, vec_t v)
{
	_mm_storeu_si128((void *)p, v);
}

V_INLINE vec_t v_xor(vec_t a, vec_t b)
{
	return _mm_xor_si128(a, b);
}

V_INLINE vec_t v_xor3(vec_t a, vec_t b, vec_t c)
{
	return _mm_xor_si128(_mm_xor_si128(a, b), c);
}

V_INLINE vec_t v_key(const uint8_t *rk)
{
	return _mm_load_si128((const void *)rk);
}

V_INLINE vec_t v_enc(vec_t x, vec_t k)
{
	return _mm_aesenc_si128(x, k);
}

V_INLINE vec_t v_enclast(vec_t x, vec_t k)
{
	return _mm_aesenclast_si128(x, k);
}

V_INLINE vec_t v_dec(vec_t x, vec_t k)
{
	return _mm_aesdec_si128(x, k);
}

V_INLINE vec_t v_declast(vec_t x, vec_t k)
{
	return _mm_aesdeclast_si128(x, k);
}

V_INLINE vec_t v_bswap(vec_t v)
{
	return _mm_shuffle_epi8(v, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
						10, 11, 12, 13, 14, 15));
}

V_INLINE vec_t v_add_lo(vec_t v, uint64_t n)
{
	return _mm_add_epi64(v, _mm_set_epi64x(0, (long long)n));
}

V_INLINE vec_t v_ctr_first(uint64_t lo, uint64_t hi)
{
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

V_INLINE vec_t v_prev_first(__m128i iv, vec_t c0)
{
	(void)c0;
	return iv;
}

/*
 * t * x in GF(2^128) mod x^128 + x^7 + x^2 + x + 1 (IEEE 1619 5.2, little
 * endian): each 64-bit half doubles; the bit shifted out of the low half
 * enters the high half, the one shifted out of the top folds back as 0x87.
 * Arithmetic shifts turn those two bits into masks: no branch.
 */
V_INLINE __m128i gf128_mul_x(__m128i t)
{
	__m128i sign = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13);

	return _mm_xor_si128(_mm_add_epi64(t, t),
			     _mm_and_si128(sign, _mm_set_epi32(0, 1, 0, 0x87)));
}

V_INLINE vec_t tw_const(vec_t k)
{
	return _mm_xor_si128(gf128_mul_x(k), k);
}

V_INLINE void tw_init(vec_t *u, const uint8_t *tweak, vec_t k)
{
	__m128i t = _mm_loadu_si128((const void *)tweak);

	_Pragma("GCC unroll 8")
	for (int j = 0; j < 8; j++) {
		u[j] = _mm_xor_si128(t, k);
		t = gf128_mul_x(t);
	}
}

/* one block after another: u[j] = u[j-1] * x ^ c */
V_INLINE void tw_next(vec_t *u, vec_t c)
{
	u[0] = _mm_xor_si128(gf128_mul_x(u[7]), c);
	_Pragma("GCC unroll 8")
	for (int j = 1; j < 8; j++)
		u[j] = _mm_xor_si128(gf128_mul_x(u[j - 1]), c);
}

V_INLINE void tw_store(uint8_t *tweak, vec_t u, vec_t k)
{
	_mm_storeu_si128((void *)tweak, _mm_xor_si128(u, k));
}

#include "crypto/arch/x86/aes-x86-modes.h"

/* ---- independent blocks (the cipher's multi-block path) ---------------- */

AES_INLINE void blocks_body(const struct aes_x86_ctx *ctx, uint8_t *dst,
			    const uint8_t *src, size_t nblocks, int nr, int dec)
{
	vec_t k[AES_X86_MAX_ROUNDS + 1];

	load_keys(k, dec ? ctx->dec : ctx->enc, nr);
	for (; nblocks >= 8; nblocks -= 8, src += 128, dst += 128)
		ecb_pass(k, nr, 8, dec, dst, src);
	if (nblocks >= 4) {
		ecb_pass(k, nr, 4, dec, dst, src);
		nblocks -= 4, src += 64, dst += 64;
	}
	if (nblocks >= 2) {
		ecb_pass(k, nr, 2, dec, dst, src);
		nblocks -= 2, src += 32, dst += 32;
	}
	if (nblocks)
		ecb_pass(k, nr, 1, dec, dst, src);
}

void aes_encrypt_blocks_aesni(const void *ctx, uint8_t *dst,
			      const uint8_t *src, size_t nblocks)
{
#define CALL(nr) blocks_body(ctx, dst, src, nblocks, nr, 0)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}

void aes_decrypt_blocks_aesni(const void *ctx, uint8_t *dst,
			      const uint8_t *src, size_t nblocks)
{
#define CALL(nr) blocks_body(ctx, dst, src, nblocks, nr, 1)
	AES_BY_ROUNDS(ctx, CALL);
#undef CALL
}

#endif /* __x86_64__ */
