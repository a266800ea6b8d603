// SPDX-License-Identifier: MIT
/*
 * The fused gcm(aes) core for AES + PMULL (contract: aes-gcm-ce.h), one
 * file of intrinsics for AArch64 and AArch32, compiled with the crypto
 * extension enabled for it alone (meson.build). A step is 128 bytes: 8
 * counter blocks through the rounds side by side (AESE/AESMC of one round
 * on all 8 before the next, so the AES unit's latency is hidden) and the
 * GHASH step of polyval-pmull-step.h over 8 ciphertext blocks (H^8 ..
 * H^1, one reduction). The loop is specialised per key size and
 * direction, as the x86 cores (the round count a constant); it loads the
 * round keys and powers where it uses them (gcm_body says why). The
 * AAD, the last partial step and the lengths block go through the same
 * GHASH step with the powers H^n .. H^1 of their n blocks; a partial
 * block is zero-padded.
 */
#include <arm_neon.h>

#include "crypto/arch/arm/aes-gcm-ce.h"
#include "crypto/arch/arm/polyval-pmull-step.h"
#include "crypto/internal/util.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the counter lane below assumes a little-endian ARM"
#endif

#define STEP 8
#define STEP_BYTES (16 * STEP)
#define GCM_INLINE static inline __attribute__((always_inline))
#define GCM_UNROLL _Pragma("GCC unroll 16")

/* counter block c: cb's nonce, c big-endian in the last word (inc32) */
GCM_INLINE uint8x16_t ctr_block(uint8x16_t cb, uint32_t c)
{
	return vreinterpretq_u8_u32(vsetq_lane_u32(__builtin_bswap32(c),
						   vreinterpretq_u32_u8(cb), 3));
}

/*
 * x[j] = d[j] ^ E_K(counter c + j) for j < n (x and d distinct): AESE is
 * AddRoundKey + SubBytes + ShiftRows, so the last key is XORed after it,
 * together with the data.
 */
GCM_INLINE void ctr_xor(uint8x16_t *x, const uint8x16_t *d,
			const uint8x16_t *k, int nr, uint8x16_t cb, uint32_t c,
			int n)
{
	GCM_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = ctr_block(cb, c + (uint32_t)j);
	GCM_UNROLL
	for (int r = 0; r < nr - 1; r++) {
		GCM_UNROLL
		for (int j = 0; j < n; j++)
			x[j] = vaesmcq_u8(vaeseq_u8(x[j], k[r]));
	}
	GCM_UNROLL
	for (int j = 0; j < n; j++)
		x[j] = veorq_u8(vaeseq_u8(x[j], k[nr - 1]), veorq_u8(k[nr], d[j]));
}

/* hp[j] = H^(n - j) for j < n (powers[16 - k] = H^k), and Karatsuba keys */
GCM_INLINE void load_powers(uint64x2_t *hp, uint64x2_t *hk,
			    const uint8_t (*powers)[16], int n)
{
	GCM_UNROLL
	for (int j = 0; j < n; j++) {
		hp[j] = vreinterpretq_u64_u8(vld1q_u8(powers[16 - n + j]));
		hk[j] = karatsuba_key(hp[j]);
	}
}

/* (a ^ b[0]) H^n ^ b[1] H^(n-1) ^ ... ^ b[n-1] H, one reduction */
GCM_INLINE uint64x2_t ghash_step(uint64x2_t a, const uint8x16_t *b,
				 const uint64x2_t *hp, const uint64x2_t *hk,
				 int n)
{
	uint64x2_t lo = vdupq_n_u64(0), mid = lo, hi = lo;

	mul_acc(veorq_u64(ghash_order(b[0]), a), hp[0], hk[0], &lo, &mid, &hi);
	GCM_UNROLL
	for (int j = 1; j < n; j++)
		mul_acc(ghash_order(b[j]), hp[j], hk[j], &lo, &mid, &hi);
	return reduce(lo, mid, hi);
}

/* the first n (1 .. 16) bytes at p, zero-padded */
static uint8x16_t load_part(const uint8_t *p, size_t n)
{
	uint8_t buf[16] = { 0 };
	uint8x16_t x;

	memcpy(buf, p, n);
	x = vld1q_u8(buf);
	wipe(buf, sizeof(buf));
	return x;
}

/* the first n (1 .. 16) bytes of x to p */
static void store_part(uint8_t *p, uint8x16_t x, size_t n)
{
	uint8_t buf[16];

	vst1q_u8(buf, x);
	memcpy(p, buf, n);
	wipe(buf, sizeof(buf));
}

/* x with its bytes from n on zeroed (n public) */
static uint8x16_t keep_bytes(uint8x16_t x, size_t n)
{
	static const uint8_t index[16] = { 0, 1, 2,  3,  4,  5,  6,  7,
					   8, 9, 10, 11, 12, 13, 14, 15 };

	return vandq_u8(x, vcltq_u8(vld1q_u8(index), vdupq_n_u8((uint8_t)n)));
}

/* n blocks from p, the last one of last bytes, zero-padded */
GCM_INLINE void load_blocks(uint8x16_t *b, const uint8_t *p, int n, size_t last)
{
	GCM_UNROLL
	for (int j = 0; j < n - 1; j++)
		b[j] = vld1q_u8(p + 16 * j);
	b[n - 1] = load_part(p + 16 * (n - 1), last);
}

/*
 * A tail of len bytes in n = ceil(len / 16) blocks (1 .. STEP), n a
 * constant in each case (so the arrays stay in registers): a =
 * TAIL_CALL(n), defined at the use
 */
#define TAIL_CASE(n)                  \
	case n:                       \
		a = TAIL_CALL(n);     \
		break;
#define TAIL_SWITCH(len)                                                      \
	do {                                                                  \
		switch (((len) + 15) / 16) {                                  \
			TAIL_CASE(1) TAIL_CASE(2) TAIL_CASE(3) TAIL_CASE(4)   \
			TAIL_CASE(5) TAIL_CASE(6) TAIL_CASE(7) TAIL_CASE(8)   \
		default:                                                      \
			break;                                                \
		}                                                             \
	} while (0)

/* GHASH of len bytes (1 .. STEP_BYTES - 1) at p in n blocks, zero-padded */
GCM_INLINE uint64x2_t hash_tail(const uint8_t (*powers)[16], uint64x2_t a,
				const uint8_t *p, size_t len, int n)
{
	uint64x2_t hp[STEP], hk[STEP];
	uint8x16_t b[STEP];

	load_blocks(b, p, n, len - 16 * (size_t)(n - 1));
	load_powers(hp, hk, powers, n);
	return ghash_step(a, b, hp, hk, n);
}

/* GHASH of len bytes at p, zero-padded: the AAD */
static uint64x2_t hash_bytes(const uint8_t (*powers)[16], uint64x2_t a,
			     const uint8_t *p, size_t len)
{
	if (len >= STEP_BYTES) {
		uint64x2_t hp[STEP], hk[STEP];
		uint8x16_t b[STEP];

		load_powers(hp, hk, powers, STEP);
		for (; len >= STEP_BYTES; len -= STEP_BYTES, p += STEP_BYTES) {
			GCM_UNROLL
			for (int j = 0; j < STEP; j++)
				b[j] = vld1q_u8(p + 16 * j);
			a = ghash_step(a, b, hp, hk, STEP);
		}
	}
#define TAIL_CALL(n) hash_tail(powers, a, p, len, n)
	TAIL_SWITCH(len);
#undef TAIL_CALL
	return a;
}

/* the last len bytes (1 .. STEP_BYTES - 1) in n blocks from counter c */
GCM_INLINE uint64x2_t gcm_tail(const uint8x16_t *k, int nr, uint8x16_t cb,
			       uint32_t c, const uint8_t (*powers)[16],
			       uint64x2_t a, uint8_t *dst, const uint8_t *src,
			       size_t len, int enc, int n)
{
	uint64x2_t hp[STEP], hk[STEP];
	uint8x16_t x[STEP], d[STEP];
	size_t last = len - 16 * (size_t)(n - 1);

	load_blocks(d, src, n, last);
	ctr_xor(x, d, k, nr, cb, c, n);
	GCM_UNROLL
	for (int j = 0; j < n - 1; j++)
		vst1q_u8(dst + 16 * j, x[j]);
	store_part(dst + 16 * (n - 1), x[n - 1], last);
	/* GHASH takes the ciphertext zero-padded (d is already) */
	x[n - 1] = keep_bytes(x[n - 1], last);
	load_powers(hp, hk, powers, n);
	return ghash_step(a, enc ? x : d, hp, hk, n);
}

/* gcm_tail for any tail and key size: one copy, outside the bodies */
static __attribute__((noinline)) uint64x2_t
gcm_tail_any(const uint8x16_t *k, int nr, uint8x16_t cb, uint32_t c,
	     const uint8_t (*powers)[16], uint64x2_t a, uint8_t *dst,
	     const uint8_t *src, size_t len, int enc)
{
#define TAIL_CALL(n) gcm_tail(k, nr, cb, c, powers, a, dst, src, len, enc, n)
	TAIL_SWITCH(len);
#undef TAIL_CALL
	return a;
}

/* GHASH of the 8 blocks at p with the step's powers (keys) */
GCM_INLINE uint64x2_t hash_step_mem(const struct aes_gcm_ce_keys *keys,
				    uint64x2_t a, const uint8_t *p)
{
	uint64x2_t lo = vdupq_n_u64(0), mid = lo, hi = lo;

	/*
	 * REV64 alone leaves a block's halves swapped against ghash_order;
	 * with the power's halves swapped too (keys->h), mul_acc's low
	 * product is the high one and the reverse
	 */
	GCM_UNROLL
	for (int j = 0; j < STEP; j++) {
		uint64x2_t h = vreinterpretq_u64_u8(vld1q_u8(keys->h[j]));
		uint64x2_t x = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p + 16 * j)));

		mul_acc(j ? x : veorq_u64(x, swap64(a)), h,
			vld1q_dup_u64(&keys->hk[j]), &hi, &mid, &lo);
	}
	return reduce(lo, mid, hi);
}

void aes_gcm_ce_step_keys(struct aes_gcm_ce_keys *keys,
			  const struct polyval_state *st)
{
	for (int j = 0; j < STEP; j++) {
		uint64x2_t h = vreinterpretq_u64_u8(vld1q_u8(st->key.powers[16 - STEP + j]));

		vst1q_u8(keys->h[j], vreinterpretq_u8_u64(swap64(h)));
		keys->hk[j] = vgetq_lane_u64(karatsuba_key(h), 0);
	}
}

#ifdef __aarch64__
/*
 * The step's 8 counter blocks on AArch64: from cv, the counter block with
 * each word byte-swapped, advanced here. inc32 is a 32-bit add on its
 * last lane (wrapping as inc32 does) and REV32 makes the block: 2
 * instructions a block against ctr_block's 4 (2.94 instructions/byte
 * against 3.04). On AArch32 the two more q registers cost more spills
 * than that saves (3.91 against 3.66): ctr_block there.
 */
GCM_INLINE void step_counters(uint8x16_t *x, uint32x4_t *cv)
{
	const uint32x4_t one = vsetq_lane_u32(1, vdupq_n_u32(0), 3);

	GCM_UNROLL
	for (int j = 0; j < STEP; j++) {
		x[j] = vrev32q_u8(vreinterpretq_u8_u32(*cv));
		*cv = vaddq_u32(*cv, one);
	}
}
#endif

/*
 * The whole steps, then the tail. The round keys and powers of H are
 * loaded where they are used, and the step's data is read twice from
 * L1: decryption hashes the ciphertext before the step writes over it
 * (in place), encryption after it is written. Measured
 * (bench/arm-insns.sh, AES-256, 4 KiB): with keys, powers and data kept
 * in registers, AArch32 (16 q registers) spilled them, 4.66
 * instructions/byte against 3.69 this way; AArch64 (32), hashing the
 * step before beside the AES of this one as the x86 cores do, took 3.25
 * against 3.19 (the copy of the 8 blocks carried over). The step's
 * powers then came from struct aes_gcm_ce_keys (no byte swap of the
 * halves, no Karatsuba XOR per block): 3.04 and 3.66.
 */
GCM_INLINE uint64x2_t gcm_body(const struct aes_ce_ctx *aes,
			       const struct aes_gcm_ce_keys *keys,
			       const uint8_t (*powers)[16], uint64x2_t a,
			       uint8_t *dst, const uint8_t *src, size_t len,
			       const uint8_t *ctr, int nr, int enc)
{
	const uint8_t (*rk)[16] = aes->enc;
	uint8x16_t cb = vld1q_u8(ctr);
	uint32_t c = load_be32(ctr + 12);
#ifdef __aarch64__
	uint32x4_t cv = vreinterpretq_u32_u8(vrev32q_u8(cb));
#endif

	for (; len >= STEP_BYTES; len -= STEP_BYTES) {
		uint8x16_t x[STEP], key, last;

		if (!enc)
			a = hash_step_mem(keys, a, src);
#ifdef __aarch64__
		step_counters(x, &cv);
#else
		GCM_UNROLL
		for (int j = 0; j < STEP; j++)
			x[j] = ctr_block(cb, c + (uint32_t)j);
#endif
		GCM_UNROLL
		for (int r = 0; r < nr - 1; r++) {
			key = vld1q_u8(rk[r]);
			GCM_UNROLL
			for (int j = 0; j < STEP; j++)
				x[j] = vaesmcq_u8(vaeseq_u8(x[j], key));
		}
		key = vld1q_u8(rk[nr - 1]);
		last = vld1q_u8(rk[nr]);
		GCM_UNROLL
		for (int j = 0; j < STEP; j++)
			vst1q_u8(dst + 16 * j,
				 veorq_u8(vaeseq_u8(x[j], key),
					  veorq_u8(last, vld1q_u8(src + 16 * j))));
		if (enc)
			a = hash_step_mem(keys, a, dst);
		c += STEP;
		src += STEP_BYTES;
		dst += STEP_BYTES;
	}
	if (len) {
		uint8x16_t k[AES_CE_MAX_ROUNDS + 1];

		for (int r = 0; r <= nr; r++)
			k[r] = vld1q_u8(rk[r]);
		a = gcm_tail_any(k, nr, cb, c, powers, a, dst, src, len, enc);
	}
	return a;
}

void aes_gcm_crypt_ce(const struct aes_ce_ctx *aes,
		      const struct polyval_state *st,
		      const struct aes_gcm_ce_keys *keys, const uint8_t *aad,
		      size_t aadlen, uint8_t *dst, const uint8_t *src,
		      size_t len, const uint8_t ctr[16], int enc,
		      uint8_t ghash[16])
{
	const uint8_t (*powers)[16] = st->key.powers;
	uint64x2_t a = vdupq_n_u64(0), h1, hk1;
	uint8_t lengths[16];
	uint8x16_t b;

	if (aadlen)
		a = hash_bytes(powers, a, aad, aadlen);
	/* specialised per key size and direction */
#define BODY(nr)                                                               \
	do {                                                                   \
		if (enc)                                                       \
			a = gcm_body(aes, keys, powers, a, dst, src, len, ctr, nr, 1); \
		else                                                           \
			a = gcm_body(aes, keys, powers, a, dst, src, len, ctr, nr, 0); \
	} while (0)
	if (len) {
		switch (aes->nrounds) {
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
	/* the lengths block be64(8 |A|) || be64(8 |C|) */
	store_be64(lengths, (uint64_t)aadlen * 8);
	store_be64(lengths + 8, (uint64_t)len * 8);
	b = vld1q_u8(lengths);
	load_powers(&h1, &hk1, powers, 1);
	a = ghash_step(a, &b, &h1, &hk1, 1);
	vst1q_u8(ghash, vreinterpretq_u8_u64(ghash_order(vreinterpretq_u8_u64(a))));
}
