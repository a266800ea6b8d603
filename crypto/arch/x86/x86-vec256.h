/* SPDX-License-Identifier: MIT */
/*
 * The AVX2 vector primitives the byte-sliced block-cipher cores share
 * (sm4-x86-avx2.h, camellia-x86-avx2.h): 256-bit vectors
 * of two 16-byte blocks, one per 128-bit lane. Include only from a core
 * file built with its ISA flags (-mavx2 and more, from the algorithm's
 * meson.build). What each must do: the cores' bodies, sm4-x86-core.h and
 * camellia-x86-core.h.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_X86_VEC256_H
#define CLOAKFS_CRYPTO_ARCH_X86_X86_VEC256_H

#include <immintrin.h>
#include <stdint.h>

typedef __m256i vec;
#define VEC_INLINE static inline __attribute__((always_inline))

/* byte i of each 128-bit lane comes from byte mask[i] (VPSHUFB) */
#define VEC_LANE_MASK(...) _mm256_setr_epi8(__VA_ARGS__, __VA_ARGS__)
#define VEC_BYTES_BSWAP128 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0

VEC_INLINE vec v_loadu(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

VEC_INLINE void v_storeu(uint8_t *p, vec v)
{
	_mm256_storeu_si256((__m256i *)(void *)p, v);
}

VEC_INLINE void v_store_lane0(uint8_t *p, vec v)
{
	_mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(v));
}

VEC_INLINE vec v_xor(vec a, vec b)
{
	return _mm256_xor_si256(a, b);
}

VEC_INLINE vec v_xor3(vec a, vec b, vec c)
{
	return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
}

VEC_INLINE vec v_bcast32(const uint32_t *p)
{
	return _mm256_set1_epi32((int)*p);
}

/* LO[x & 15] ^ HI[x >> 4] on every byte (lo, hi: VEC_LANE_MASK tables) */
VEC_INLINE vec v_nibble_map(vec x, vec lo, vec hi)
{
	const vec low4 = _mm256_set1_epi8(0x0f);
	vec l = _mm256_and_si256(x, low4);
	vec h = _mm256_and_si256(_mm256_srli_epi16(x, 4), low4);

	return v_xor(_mm256_shuffle_epi8(lo, l), _mm256_shuffle_epi8(hi, h));
}

/* each 128-bit lane (an XTS tweak) times x^n in GF(2^128), 1 <= n <= 56 */
VEC_INLINE vec v_mul_xn(vec v, const int n)
{
	vec hi = _mm256_slli_epi64(v, n);
	/* the n bits out of each qword, moved to the other qword */
	vec c = _mm256_shuffle_epi32(_mm256_srli_epi64(v, 64 - n), 0x4e);
	/* low qword: c * (x^7 + x^2 + x + 1); high qword: c (shift >= 64 is 0) */
	vec r = v_xor3(c, _mm256_sllv_epi64(c, _mm256_setr_epi64x(1, 64, 1, 64)),
		       _mm256_sllv_epi64(c, _mm256_setr_epi64x(2, 64, 2, 64)));

	return v_xor3(hi, r, _mm256_sllv_epi64(c, _mm256_setr_epi64x(7, 64, 7, 64)));
}

/* counter blocks hi:lo + 2k + i in lane i, big-endian (lo must not wrap) */
VEC_INLINE vec v_ctr(uint64_t lo, uint64_t hi, int k)
{
	vec base = _mm256_setr_epi64x((long long)lo, (long long)hi,
				      (long long)lo, (long long)hi);
	vec inc = _mm256_setr_epi64x(2 * k, 0, 2 * k + 1, 0);

	return _mm256_shuffle_epi8(_mm256_add_epi64(base, inc),
				   VEC_LANE_MASK(VEC_BYTES_BSWAP128));
}

/* [iv, block 0 of src] */
VEC_INLINE vec v_prev_first(__m128i iv, const uint8_t *src)
{
	return _mm256_inserti128_si256(_mm256_castsi128_si256(iv),
				       _mm_loadu_si128((const __m128i *)(const void *)src), 1);
}

VEC_INLINE void v_end(void)
{
	_mm256_zeroall();
}

#endif
