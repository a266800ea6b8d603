/* SPDX-License-Identifier: MIT */
/*
 * The fused AES-GCM core body (contract: aes-gcm-x86.h), written once and
 * instantiated per vector width by aes-gcm-vaes-avx512.c (zmm, 4 blocks
 * a vector), aes-gcm-vaes-avx2.c (ymm, 2) and aes-gcm-aesni-pclmul.c
 * (xmm, 1). A step is 256 bytes: 16 counter blocks through the AES
 * rounds and the GHASH step of polyval-x86-step.h over 16 ciphertext
 * blocks (H^16 .. H^1, one reduction), so the data is read once and the AES and carry-less
 * multiply units work side by side. The counter blocks are kept
 * byte-reversed, where inc32 is a 32-bit add on the low dword of each
 * lane (wrapping as inc32 does), and reversed back with the shuffle
 * GHASH uses. The last partial step runs the same code on partial loads
 * and stores: its blocks of zeros contribute nothing to GHASH.
 *
 * The including file includes its polyval-x86-<width>.h (vec_t,
 * VEC_BLOCKS, NVEC, the GHASH operations) and defines GCM_ISA,
 * GCM_TAIL_CASES(X) (X(n) for n = 1 .. NVEC), v_storeu, v_aesenc,
 * v_aesenclast, v_add32, v_lane_dw0(n) (n in the low dword of each lane),
 * v_lane_index() (i in the low dword of lane i), v_load_part(p, n) and
 * v_store_part(p, v, n) (the first n bytes of a vector, n any size_t,
 * the rest zero on loading), v_keep_bytes(v, n) (bytes from n on
 * zeroed), v_load_powers(p, m) (the first m 16-byte blocks at p, no more
 * read; the rest zero) and v_clear_all(); and GCM_AES_GROUP where fewer
 * than NVEC vectors are to go through the AES rounds at a time (xmm: 16
 * registers).
 */
#ifndef GCM_ISA
#error "define the vector primitives, then include aes-gcm-x86-core.h"
#endif

#include "crypto/arch/x86/aes-gcm-x86.h"
#include "crypto/arch/x86/polyval-x86-step.h"

#define GCM_CAT2(a, b) a##_##b
#define GCM_CAT(a, b) GCM_CAT2(a, b)
#define GCM_FN GCM_CAT(aes_gcm_crypt, GCM_ISA)
#define GCM_INLINE static inline __attribute__((always_inline))
#define GCM_STEP (16 * VEC_BLOCKS * NVEC)
#define GCM_UNROLL _Pragma("GCC unroll 16")
/* vectors in flight through the AES rounds: all unless the includer sets fewer */
#ifndef GCM_AES_GROUP
#define GCM_AES_GROUP NVEC
#endif

/* the bytes of vector j of a len-byte tail */
GCM_INLINE size_t vec_bytes(size_t len, int j)
{
	size_t off = (size_t)j * 16 * VEC_BLOCKS;

	return len <= off ? 0 : len - off;
}

/*
 * The keystream of nv vectors of counter blocks from c (byte-reversed,
 * lane i at c + i) XORed with d[]: the last round takes k[nr] ^ d[j].
 */
GCM_INLINE void ctr_rounds(vec_t *x, const vec_t *k, int nr, vec_t c,
			   vec_t bmask, const vec_t *d, int nv)
{
	const vec_t next = v_lane_dw0(VEC_BLOCKS);

	GCM_UNROLL
	for (int j = 0; j < nv; j++) {
		x[j] = v_xor(v_shuffle_bytes(c, bmask), k[0]);
		c = v_add32(c, next);
	}
	GCM_UNROLL
	for (int r = 1; r < nr; r++) {
		GCM_UNROLL
		for (int j = 0; j < nv; j++)
			x[j] = v_aesenc(x[j], k[r]);
	}
	GCM_UNROLL
	for (int j = 0; j < nv; j++)
		x[j] = v_aesenclast(x[j], v_xor(k[nr], d[j]));
}

/* ctr_rounds on GCM_AES_GROUP vectors at a time */
GCM_INLINE void ctr_step(vec_t *x, const vec_t *k, int nr, vec_t c,
			 vec_t bmask, const vec_t *d, int nv)
{
#if GCM_AES_GROUP < NVEC
	GCM_UNROLL
	for (int g = 0; g < nv; g += GCM_AES_GROUP)
		ctr_rounds(x + g, k, nr, v_add32(c, v_lane_dw0(VEC_BLOCKS * g)),
			   bmask, d + g, nv - g < GCM_AES_GROUP ? nv - g : GCM_AES_GROUP);
#else
	ctr_rounds(x, k, nr, c, bmask, d, nv);
#endif
}

/*
 * One whole step: d[] = the 256 bytes at src, x[] = d ^ the keystream
 * from *c, stored to dst; *c advanced by 16 blocks.
 */
GCM_INLINE void crypt_step(vec_t *x, vec_t *d, const vec_t *k, int nr, vec_t *c,
			   vec_t bmask, uint8_t *dst, const uint8_t *src)
{
	const vec_t step = v_lane_dw0(VEC_BLOCKS * NVEC);

	GCM_UNROLL
	for (int j = 0; j < NVEC; j++)
		d[j] = v_loadu(src + 16 * VEC_BLOCKS * j);
	ctr_step(x, k, nr, *c, bmask, d, NVEC);
	*c = v_add32(*c, step);
	GCM_UNROLL
	for (int j = 0; j < NVEC; j++)
		v_storeu(dst + 16 * VEC_BLOCKS * j, x[j]);
}

/* the powers of a whole step: block j times H^(16 - j) */
GCM_INLINE void step_powers(vec_t *hp, vec_t *hk, const uint8_t (*powers)[16])
{
	for (int i = 0; i < NVEC; i++) {
		hp[i] = v_loadu(powers[VEC_BLOCKS * i]);
		hk[i] = pv_karatsuba_key(hp[i]);
	}
}

/*
 * TAIL_CALL(nv) (defined at the use) for a tail of len bytes in
 * nv = ceil(len / VEC_BYTES) vectors, a constant in each case; nothing
 * for 0
 */
#define TAIL_CASE(nv)          \
	case nv:               \
		TAIL_CALL(nv); \
		break;
#define TAIL_SWITCH(len)                                              \
	do {                                                          \
		switch (((len) + 16 * VEC_BLOCKS - 1) / (16 * VEC_BLOCKS)) { \
			GCM_TAIL_CASES(TAIL_CASE)                     \
		default:                                              \
			break;                                        \
		}                                                     \
	} while (0)

/*
 * The powers for a run of n blocks (1 .. 16) in nv = ceil(n / VEC_BLOCKS)
 * vectors: block j times H^(n - j), powers[16 - n + j].
 */
GCM_INLINE void tail_powers(vec_t *hp, vec_t *hk, const uint8_t (*powers)[16],
			    size_t n, int nv)
{
	GCM_UNROLL
	for (int j = 0; j < nv; j++) {
		size_t first = (size_t)VEC_BLOCKS * j; /* < n */

		hp[j] = v_load_powers(powers[16 - n + first], n - first);
		hk[j] = pv_karatsuba_key(hp[j]);
	}
}

/* the last len bytes (1 .. GCM_STEP - 1) in nv = ceil(len / VEC_BYTES) vectors */
GCM_INLINE __m128i gcm_tail(const vec_t *k, int nr, vec_t c, vec_t bmask,
			    const uint8_t(*powers)[16], __m128i a, uint8_t *dst,
			    const uint8_t *src, size_t len, int enc, int nv)
{
	vec_t hp[NVEC], hk[NVEC], x[NVEC], d[NVEC];
	size_t nb[NVEC];

	tail_powers(hp, hk, powers, (len + 15) / 16, nv);
	GCM_UNROLL
	for (int j = 0; j < nv; j++) {
		nb[j] = vec_bytes(len, j);
		d[j] = v_load_part(src + 16 * VEC_BLOCKS * j, nb[j]);
	}
	ctr_step(x, k, nr, c, bmask, d, nv);
	GCM_UNROLL
	for (int j = 0; j < nv; j++) {
		v_store_part(dst + 16 * VEC_BLOCKS * j, x[j], nb[j]);
		/* GHASH takes the ciphertext zero-padded */
		if (enc)
			x[j] = v_keep_bytes(x[j], nb[j]);
	}
	return pv_step(hp, hk, a, enc ? x : d, bmask, nv);
}

/* GHASH of len bytes at p (1 .. GCM_STEP - 1), zero-padded, in nv vectors */
GCM_INLINE __m128i hash_tail(const uint8_t(*powers)[16], __m128i a,
			     const uint8_t *p, size_t len, vec_t bmask, int nv)
{
	vec_t hp[NVEC], hk[NVEC], d[NVEC];

	tail_powers(hp, hk, powers, (len + 15) / 16, nv);
	GCM_UNROLL
	for (int j = 0; j < nv; j++)
		d[j] = v_load_part(p + 16 * VEC_BLOCKS * j, vec_bytes(len, j));
	return pv_step(hp, hk, a, d, bmask, nv);
}

/* GHASH of the AAD, zero-padded (one copy, outside the key-size bodies) */
static __attribute__((noinline)) __m128i hash_aad(const uint8_t(*powers)[16],
						  const uint8_t *p, size_t len)
{
	const vec_t bmask = v_bcast128(_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
						     7, 6, 5, 4, 3, 2, 1, 0));
	__m128i a = _mm_setzero_si128();

	if (len >= GCM_STEP) {
		vec_t hp[NVEC], hk[NVEC], d[NVEC];

		step_powers(hp, hk, powers);
		for (; len >= GCM_STEP; len -= GCM_STEP, p += GCM_STEP) {
			GCM_UNROLL
			for (int j = 0; j < NVEC; j++)
				d[j] = v_loadu(p + 16 * VEC_BLOCKS * j);
			a = pv_step(hp, hk, a, d, bmask, NVEC);
		}
	}
#define TAIL_CALL(nv) (a = hash_tail(powers, a, p, len, bmask, nv))
	TAIL_SWITCH(len);
#undef TAIL_CALL
	return a;
}

GCM_INLINE __m128i gcm_body(const struct aes_x86_ctx *aes,
			    const uint8_t(*powers)[16], __m128i a, uint8_t *dst,
			    const uint8_t *src, size_t len, const uint8_t *ctr,
			    int nr, int enc)
{
	const vec_t bmask = v_bcast128(_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
						     7, 6, 5, 4, 3, 2, 1, 0));
	vec_t k[AES_X86_MAX_ROUNDS + 1], c;

	GCM_UNROLL
	for (int r = 0; r <= nr; r++)
		k[r] = v_bcast128(_mm_load_si128((const __m128i *)(aes->enc + 16 * r)));
	/* lane i: the counter block + i, byte-reversed */
	c = v_add32(v_shuffle_bytes(v_bcast128(_mm_loadu_si128((const __m128i *)ctr)),
				    bmask),
		    v_lane_index());
	if (len >= GCM_STEP) {
		vec_t hp[NVEC], hk[NVEC], x[NVEC], d[NVEC], prev[NVEC];

		step_powers(hp, hk, powers);
		/*
		 * Encryption hashes the ciphertext of the step before beside
		 * the AES of this one (prev): the two are independent, so the
		 * AES units never wait for the multiplies (4 KiB: 7.0 GB/s
		 * with GHASH after the AES of the same step, 8.8 this way).
		 */
		if (enc) {
			crypt_step(prev, d, k, nr, &c, bmask, dst, src);
			src += GCM_STEP;
			dst += GCM_STEP;
			len -= GCM_STEP;
		}
		for (; len >= GCM_STEP; len -= GCM_STEP) {
			crypt_step(x, d, k, nr, &c, bmask, dst, src);
			a = pv_step(hp, hk, a, enc ? prev : d, bmask, NVEC);
			GCM_UNROLL
			for (int j = 0; j < NVEC; j++)
				prev[j] = x[j];
			src += GCM_STEP;
			dst += GCM_STEP;
		}
		if (enc)
			a = pv_step(hp, hk, a, prev, bmask, NVEC);
	}
#define TAIL_CALL(nv) (a = gcm_tail(k, nr, c, bmask, powers, a, dst, src, len, enc, nv))
	TAIL_SWITCH(len);
#undef TAIL_CALL
	return a;
}

void GCM_FN(const struct aes_x86_ctx *aes, const struct polyval_state *st,
	    const uint8_t *aad, size_t aadlen, uint8_t *dst, const uint8_t *src,
	    size_t len, const uint8_t ctr[16], int enc, uint8_t ghash[16])
{
	const __m128i rev = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
					  7, 6, 5, 4, 3, 2, 1, 0);
	const uint8_t(*powers)[16] = st->key.powers;
	__m128i a = aadlen ? hash_aad(powers, aad, aadlen) : _mm_setzero_si128();
	__m128i lengths = _mm_set_epi64x((long long)((uint64_t)aadlen * 8),
					 (long long)((uint64_t)len * 8));

	/* specialised per key size and direction, as aes-x86-modes.h */
#define BODY(nr)                                                               \
	do {                                                                   \
		if (enc)                                                       \
			a = gcm_body(aes, powers, a, dst, src, len, ctr, nr, 1); \
		else                                                           \
			a = gcm_body(aes, powers, a, dst, src, len, ctr, nr, 0); \
	} while (0)
	if (len) {
		switch (aes->rounds) {
		case 10:
			BODY(10);
			break;
		case 12:
			BODY(12);
			break;
		default:
			BODY(14);
			break;
		}
	}
#undef BODY
	/*
	 * the lengths block be64(8 |A|) || be64(8 |C|), byte-reversed as
	 * every GHASH block: the qwords swapped, each in host order
	 */
	a = pv_mul1(_mm_xor_si128(a, lengths), _mm_loadu_si128((const __m128i *)powers[15]));
	_mm_storeu_si128((__m128i *)ghash, _mm_shuffle_epi8(a, rev));
	v_clear_all();
}
