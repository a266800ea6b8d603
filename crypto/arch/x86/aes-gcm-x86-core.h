/* SPDX-License-Identifier: MIT */
/*
 * The fused AES-GCM core body (contract: aes-gcm-x86.h), written once and
 * instantiated per vector width by aes-gcm-vaes-avx512.c (zmm, 4 blocks
 * a vector) and aes-gcm-vaes-avx2.c (ymm, 2). A step is 256 bytes: 16
 * counter blocks through the AES rounds and the GHASH step of
 * polyval-x86-step.h over 16 ciphertext blocks (H^16 .. H^1, one
 * reduction), so the data is read once and the AES and carry-less
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
 * read; the rest zero) and v_clear_all().
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
GCM_INLINE void ctr_step(vec_t *x, const vec_t *k, int nr, vec_t c,
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

/*
 * The last len bytes (1 .. GCM_STEP - 1) in nv = ceil(len / 64) vectors,
 * masked: n blocks, block j times H^(n - j), powers[16 - n + j].
 */
GCM_INLINE __m128i gcm_tail(const vec_t *k, int nr, vec_t c, vec_t bmask,
			    const uint8_t(*powers)[16], __m128i a, uint8_t *dst,
			    const uint8_t *src, size_t len, int enc, int nv)
{
	size_t n = (len + 15) / 16;
	vec_t hp[NVEC], hk[NVEC], x[NVEC], d[NVEC];
	size_t nb[NVEC];

	GCM_UNROLL
	for (int j = 0; j < nv; j++) {
		size_t first = (size_t)VEC_BLOCKS * j; /* < n */

		nb[j] = vec_bytes(len, j);
		d[j] = v_load_part(src + 16 * VEC_BLOCKS * j, nb[j]);
		hp[j] = v_load_powers(powers[16 - n + first], n - first);
		hk[j] = pv_karatsuba_key(hp[j]);
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

GCM_INLINE void gcm_body(const struct aes_x86_ctx *aes, struct polyval_state *st,
			 uint8_t *dst, const uint8_t *src, size_t len,
			 const uint8_t *ctr, int nr, int enc)
{
	const vec_t bmask = v_bcast128(_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8,
						     7, 6, 5, 4, 3, 2, 1, 0));
	const uint8_t(*powers)[16] = st->key.powers;
	vec_t k[AES_X86_MAX_ROUNDS + 1], c;
	__m128i a = _mm_loadu_si128((const __m128i *)st->acc);

	GCM_UNROLL
	for (int r = 0; r <= nr; r++)
		k[r] = v_bcast128(_mm_load_si128((const __m128i *)(aes->enc + 16 * r)));
	/* lane i: the counter block + i, byte-reversed */
	c = v_add32(v_shuffle_bytes(v_bcast128(_mm_loadu_si128((const __m128i *)ctr)),
				    bmask),
		    v_lane_index());
	if (len >= GCM_STEP) {
		/* block j of a whole step times H^(16 - j) */
		vec_t hp[NVEC], hk[NVEC], x[NVEC], d[NVEC], prev[NVEC];

		for (int i = 0; i < NVEC; i++) {
			hp[i] = v_loadu(powers[VEC_BLOCKS * i]);
			hk[i] = pv_karatsuba_key(hp[i]);
		}
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
	switch ((len + 16 * VEC_BLOCKS - 1) / (16 * VEC_BLOCKS)) {
#define TAIL(nv)                                                               \
	case nv:                                                               \
		a = gcm_tail(k, nr, c, bmask, powers, a, dst, src, len, enc, nv); \
		break;
		GCM_TAIL_CASES(TAIL)
#undef TAIL
	default:
		break;
	}
	_mm_storeu_si128((__m128i *)st->acc, a);
	v_clear_all();
}

void GCM_FN(const struct aes_x86_ctx *aes,
			       struct polyval_state *st, uint8_t *dst,
			       const uint8_t *src, size_t len,
			       const uint8_t ctr[16], int enc)
{
	/* specialised per key size and direction, as aes-x86-modes.h */
#define BODY(nr)                                                      \
	do {                                                          \
		if (enc)                                              \
			gcm_body(aes, st, dst, src, len, ctr, nr, 1); \
		else                                                  \
			gcm_body(aes, st, dst, src, len, ctr, nr, 0); \
	} while (0)
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
#undef BODY
}
