/* SPDX-License-Identifier: MIT */
/*
 * Camellia with the ARMv8 Crypto Extensions on AArch64: 16 blocks a step,
 * byte-sliced (vector p holds byte p of every block, so F is S-boxes on
 * whole vectors and P vector EORs), the S-boxes as the AES field
 * inversion through AESE between the affine maps of
 * crypto/camellia/camellia-affine.h (derived by camellia-sbox.py):
 *  1. the input map into the AES field, two TBL nibble lookups (s1's
 *     map for all four S-boxes: s4's input and s2's and s3's outputs are
 *     rotated by shifts, see struct ce_consts);
 *  2. a TBL by ShiftRows^-1, which AESE's ShiftRows undoes (SubBytes
 *     works bytewise, so the two commute);
 *  3. AESE, whose key operand adds the round key: the input maps are
 *     affine, PRE(x ^ k) = PRE(x) ^ L(k), and the glue stores the F
 *     subkeys as L(k) (camellia-ce.h), broadcast by LD1R;
 *  4. the output map with the inverse of the AES affine map folded in,
 *     two more TBL lookups.
 * The same technique as the x86 cores (../x86/camellia-x86-core.h, whose
 * comment gives the sources); libgcrypt's camellia-aarch64-ce runs it on
 * 16 blocks too. Written in intrinsics (ACLE, arm_neon.h); this file
 * alone is built with the AES instructions (-march=armv8-a+crypto from
 * crypto/arch/arm/meson.build), so the rest of the build runs on CPUs
 * without them. Entry points and their contract: camellia-ce.h.
 */
#if defined(__aarch64__)
#if !defined(__ARM_FEATURE_AES)
#error "build with -march=armv8-a+crypto (crypto/arch/arm/meson.build)"
#endif
#include <arm_neon.h>
#include <string.h>

#include "crypto/arch/arm/camellia-ce.h"
#include "crypto/camellia/camellia-affine.h"
#include "crypto/internal/util.h"

#define CE_ENTRY
#define CE_NOINLINE static __attribute__((noinline))
#define CE_INLINE static inline __attribute__((always_inline))
#define CE_UNROLL _Pragma("GCC unroll 16")

#define CE_BLOCKS 16

typedef uint8x16_t vec;
typedef const uint8_t (*ce_keys)[8];

/*
 * The constant vectors, loaded once per step: six, so that they stay in
 * registers beside the 16 state vectors and F's temporaries (with the
 * maps of s2, s3 and s4 as tables of their own the compiler reloaded
 * them in every S-box: a quarter of all instructions). s4's input and
 * s2's and s3's outputs are rotated by SHL/USHR + SLI/SRI instead.
 */
struct ce_consts {
	vec pre_lo, pre_hi, post_lo, post_hi, inv_shift_rows, low4;
};

static const uint8_t ce_tables[6][16] __attribute__((aligned(16))) = {
	{ CAMELLIA_AES_PRE1_LO }, { CAMELLIA_AES_PRE1_HI },
	{ CAMELLIA_AES_POST1_LO }, { CAMELLIA_AES_POST1_HI },
	/* AES state byte r + 4c <- byte r + 4((c - r) mod 4) (FIPS-197 5.3.1) */
	{ 0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3 },
	{ 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15 },
};

CE_INLINE void ce_load_consts(struct ce_consts *c)
{
	vec *v = &c->pre_lo;

	CE_UNROLL
	for (int i = 0; i < 6; i++)
		v[i] = vld1q_u8(ce_tables[i]);
}

/* LO[x & 15] ^ HI[x >> 4] on every byte */
CE_INLINE vec ce_nibble_map(vec x, vec lo, vec hi, vec low4)
{
	return veorq_u8(vqtbl1q_u8(lo, vandq_u8(x, low4)),
			vqtbl1q_u8(hi, vshrq_n_u8(x, 4)));
}

/* each byte rotated left by one bit, or right by one */
CE_INLINE vec ce_rol1(vec x)
{
	return vsliq_n_u8(vshrq_n_u8(x, 7), x, 1);
}

CE_INLINE vec ce_ror1(vec x)
{
	return vsriq_n_u8(vshlq_n_u8(x, 7), x, 1);
}

/*
 * s_kind(x ^ k), with lk = L(k) broadcast (see the header comment):
 * s1's maps, s4 = s1(x <<< 1), s2 = s1 <<< 1, s3 = s1 >>> 1 (RFC 3713)
 */
CE_INLINE vec ce_sbox(const struct ce_consts *c, vec x, vec lk, const int kind)
{
	vec y = ce_nibble_map(kind == 4 ? ce_rol1(x) : x, c->pre_lo, c->pre_hi,
			      c->low4);

	y = vaeseq_u8(vqtbl1q_u8(y, c->inv_shift_rows), lk);
	y = ce_nibble_map(y, c->post_lo, c->post_hi, c->low4);
	return kind == 2 ? ce_rol1(y) : kind == 3 ? ce_ror1(y) : y;
}

/*
 * y ^= F(x ^ k) on byte-sliced halves: s1 s2 s3 s4 s2 s3 s4 s1, then P in
 * camellia_p's four steps (U = bytes 0..3, V = 4..7), as on x86.
 */
CE_INLINE void ce_f(const struct ce_consts *c, vec *y, const vec *x,
		    const uint8_t *lk)
{
	vec u0 = ce_sbox(c, x[0], vld1q_dup_u8(lk + 0), 1);
	vec u1 = ce_sbox(c, x[1], vld1q_dup_u8(lk + 1), 2);
	vec u2 = ce_sbox(c, x[2], vld1q_dup_u8(lk + 2), 3);
	vec u3 = ce_sbox(c, x[3], vld1q_dup_u8(lk + 3), 4);
	vec v0 = ce_sbox(c, x[4], vld1q_dup_u8(lk + 4), 2);
	vec v1 = ce_sbox(c, x[5], vld1q_dup_u8(lk + 5), 3);
	vec v2 = ce_sbox(c, x[6], vld1q_dup_u8(lk + 6), 4);
	vec v3 = ce_sbox(c, x[7], vld1q_dup_u8(lk + 7), 1);

	u0 = veorq_u8(u0, v1), u1 = veorq_u8(u1, v2);
	u2 = veorq_u8(u2, v3), u3 = veorq_u8(u3, v0);
	v0 = veorq_u8(v0, u2), v1 = veorq_u8(v1, u3);
	v2 = veorq_u8(v2, u0), v3 = veorq_u8(v3, u1);
	u0 = veorq_u8(u0, v3), u1 = veorq_u8(u1, v0);
	u2 = veorq_u8(u2, v1), u3 = veorq_u8(u3, v2);
	y[0] = veorq_u8(y[0], veorq_u8(v0, u3));
	y[1] = veorq_u8(y[1], veorq_u8(v1, u0));
	y[2] = veorq_u8(y[2], veorq_u8(v2, u1));
	y[3] = veorq_u8(y[3], veorq_u8(v3, u2));
	y[4] = veorq_u8(y[4], u0);
	y[5] = veorq_u8(y[5], u1);
	y[6] = veorq_u8(y[6], u2);
	y[7] = veorq_u8(y[7], u3);
}

/*
 * FL's two steps on a byte-sliced half: x2 ^= (x1 & k1) <<< 1 (byte b of
 * a word rotated left by a bit is (b << 1) | (b+1 >> 7), byte 3 taking
 * byte 0's top bit) and x1 ^= x2 | k2.
 */
CE_INLINE void ce_fl_and(vec *d, const uint8_t *k)
{
	vec a[4];

	CE_UNROLL
	for (int b = 0; b < 4; b++)
		a[b] = vandq_u8(d[b], vld1q_dup_u8(k + b));
	CE_UNROLL
	for (int b = 0; b < 4; b++)
		d[4 + b] = veorq_u8(d[4 + b], vorrq_u8(vshlq_n_u8(a[b], 1),
						       vshrq_n_u8(a[(b + 1) & 3], 7)));
}

CE_INLINE void ce_fl_or(vec *d, const uint8_t *k)
{
	CE_UNROLL
	for (int b = 0; b < 4; b++)
		d[b] = veorq_u8(d[b], vorrq_u8(d[4 + b], vld1q_dup_u8(k + 4 + b)));
}

CE_INLINE void ce_xor_key(vec *d, const uint8_t *k)
{
	CE_UNROLL
	for (int p = 0; p < 8; p++)
		d[p] = veorq_u8(d[p], vld1q_dup_u8(k + p));
}

/*
 * 16x16 byte transpose: vector i byte j <-> vector j byte i, four stages
 * of zipping vectors i and i + 8 (perfect shuffles). Its own inverse.
 */
CE_INLINE void ce_byteslice(vec *x)
{
	for (int s = 0; s < 4; s++) {
		vec y[16];

		CE_UNROLL
		for (int i = 0; i < 8; i++) {
			y[2 * i] = vzip1q_u8(x[i], x[i + 8]);
			y[2 * i + 1] = vzip2q_u8(x[i], x[i + 8]);
		}
		CE_UNROLL
		for (int i = 0; i < 16; i++)
			x[i] = y[i];
	}
}

/*
 * The whole network on 16 blocks in memory layout, in place (the state is
 * copied into a local array so no store to it can alias the key loads).
 */
CE_NOINLINE void ce_crypt16(ce_keys k, unsigned int rounds, vec *io)
{
	struct ce_consts c;
	vec x[16];

	ce_load_consts(&c);
	CE_UNROLL
	for (int i = 0; i < 16; i++)
		x[i] = io[i];
	ce_byteslice(x);
	ce_xor_key(x, k[0]);
	ce_xor_key(x + 8, k[1]);
	k += 2;
	for (unsigned int r = 6;; r += 6) {
		ce_f(&c, x + 8, x, k[0]);
		ce_f(&c, x, x + 8, k[1]);
		ce_f(&c, x + 8, x, k[2]);
		ce_f(&c, x, x + 8, k[3]);
		ce_f(&c, x + 8, x, k[4]);
		ce_f(&c, x, x + 8, k[5]);
		k += 6;
		if (r == rounds)
			break;
		ce_fl_and(x, k[0]);
		ce_fl_or(x, k[0]);
		ce_fl_or(x + 8, k[1]);
		ce_fl_and(x + 8, k[1]);
		k += 2;
	}
	/* C = (D2 ^ kw) || (D1 ^ kw') */
	ce_xor_key(x + 8, k[0]);
	ce_xor_key(x, k[1]);
	CE_UNROLL
	for (int p = 0; p < 8; p++) {
		vec d1 = x[p];

		x[p] = x[8 + p];
		x[8 + p] = d1;
	}
	ce_byteslice(x);
	CE_UNROLL
	for (int i = 0; i < 16; i++)
		io[i] = x[i];
}

static inline ce_keys ce_dir(const void *ctx, int dec)
{
	const struct camellia_ce_ctx *c = ctx;

	return dec ? c->dec : c->enc;
}

static inline unsigned int ce_rounds(const void *ctx)
{
	return ((const struct camellia_ce_ctx *)ctx)->rounds;
}

CE_INLINE void ce_load16(vec *x, const uint8_t *src)
{
	CE_UNROLL
	for (int j = 0; j < 16; j++)
		x[j] = vld1q_u8(src + 16 * j);
}

CE_INLINE void ce_store16(uint8_t *dst, const vec *x)
{
	CE_UNROLL
	for (int j = 0; j < 16; j++)
		vst1q_u8(dst + 16 * j, x[j]);
}

/* ---- ECB and the cipher functions ------------------------------------- */

/* nblocks >= 1; a partial step is padded through the stack */
CE_NOINLINE void ce_ecb(ce_keys k, unsigned int rounds, uint8_t *dst,
			const uint8_t *src, size_t nblocks)
{
	vec x[16];

	for (; nblocks >= CE_BLOCKS; nblocks -= CE_BLOCKS) {
		ce_load16(x, src);
		ce_crypt16(k, rounds, x);
		ce_store16(dst, x);
		src += CAMELLIA_CE_STEP;
		dst += CAMELLIA_CE_STEP;
	}
	if (nblocks) {
		uint8_t buf[CAMELLIA_CE_STEP] __attribute__((aligned(16)));

		memcpy(buf, src, 16 * nblocks);
		memset(buf + 16 * nblocks, 0, sizeof(buf) - 16 * nblocks);
		ce_load16(x, buf);
		ce_crypt16(k, rounds, x);
		ce_store16(buf, x);
		memcpy(dst, buf, 16 * nblocks);
		explicit_bzero(buf, sizeof(buf));
	}
	explicit_bzero(x, sizeof(x));
}

CE_ENTRY void camellia_encrypt_ce(const void *ctx, uint8_t *dst,
				  const uint8_t *src)
{
	ce_ecb(ce_dir(ctx, 0), ce_rounds(ctx), dst, src, 1);
}

CE_ENTRY void camellia_decrypt_ce(const void *ctx, uint8_t *dst,
				  const uint8_t *src)
{
	ce_ecb(ce_dir(ctx, 1), ce_rounds(ctx), dst, src, 1);
}

CE_ENTRY void camellia_encrypt_blocks_ce(const void *ctx, uint8_t *dst,
					 const uint8_t *src, size_t n)
{
	if (n)
		ce_ecb(ce_dir(ctx, 0), ce_rounds(ctx), dst, src, n);
}

CE_ENTRY void camellia_decrypt_blocks_ce(const void *ctx, uint8_t *dst,
					 const uint8_t *src, size_t n)
{
	if (n)
		ce_ecb(ce_dir(ctx, 1), ce_rounds(ctx), dst, src, n);
}

CE_ENTRY void camellia_ecb_encrypt_ce(const void *ctx, uint8_t *dst,
				      const uint8_t *src, size_t nbytes)
{
	ce_ecb(ce_dir(ctx, 0), ce_rounds(ctx), dst, src, nbytes / 16);
}

CE_ENTRY void camellia_ecb_decrypt_ce(const void *ctx, uint8_t *dst,
				      const uint8_t *src, size_t nbytes)
{
	ce_ecb(ce_dir(ctx, 1), ce_rounds(ctx), dst, src, nbytes / 16);
}

/* ---- XTS: the step's tweaks in general-purpose registers ----------------- */

CE_NOINLINE void ce_xts(ce_keys k, unsigned int rounds, uint8_t *dst,
			const uint8_t *src, size_t nbytes, uint8_t *tweak)
{
	uint64_t t[2 * CE_BLOCKS] __attribute__((aligned(16)));
	uint64_t lo = load_le64(tweak), hi = load_le64(tweak + 8);
	vec x[16];

	for (; nbytes; nbytes -= CAMELLIA_CE_STEP) {
		/* T <- T * x with a mask, no branch (T is secret) */
		for (int i = 0; i < CE_BLOCKS; i++) {
			uint64_t carry = 0 - (hi >> 63);

			t[2 * i] = lo;
			t[2 * i + 1] = hi;
			hi = hi << 1 | lo >> 63;
			lo = lo << 1 ^ (0x87 & carry);
		}
		CE_UNROLL
		for (int j = 0; j < 16; j++)
			x[j] = veorq_u8(vld1q_u8(src + 16 * j),
					vld1q_u8((const uint8_t *)(t + 2 * j)));
		ce_crypt16(k, rounds, x);
		CE_UNROLL
		for (int j = 0; j < 16; j++)
			vst1q_u8(dst + 16 * j,
				 veorq_u8(x[j], vld1q_u8((const uint8_t *)(t + 2 * j))));
		src += CAMELLIA_CE_STEP;
		dst += CAMELLIA_CE_STEP;
	}
	store_le64(tweak, lo);
	store_le64(tweak + 8, hi);
	explicit_bzero(t, sizeof(t));
	explicit_bzero(x, sizeof(x));
}

CE_ENTRY void camellia_xts_encrypt_ce(const void *ctx, uint8_t *dst,
				      const uint8_t *src, size_t nbytes,
				      uint8_t *tweak)
{
	ce_xts(ce_dir(ctx, 0), ce_rounds(ctx), dst, src, nbytes, tweak);
}

CE_ENTRY void camellia_xts_decrypt_ce(const void *ctx, uint8_t *dst,
				      const uint8_t *src, size_t nbytes,
				      uint8_t *tweak)
{
	ce_xts(ce_dir(ctx, 1), ce_rounds(ctx), dst, src, nbytes, tweak);
}

/* ---- CTR: counters made in scalar code (the counter is public) ----------- */

CE_ENTRY void camellia_ctr_crypt_ce(const void *ctx, uint8_t *dst,
				    const uint8_t *src, size_t nbytes,
				    uint8_t *ctr)
{
	ce_keys k = ce_dir(ctx, 0);
	unsigned int rounds = ce_rounds(ctx);
	uint64_t hi = load_be64(ctr), lo = load_be64(ctr + 8);
	uint8_t buf[CAMELLIA_CE_STEP] __attribute__((aligned(16)));
	vec x[16];

	for (; nbytes; nbytes -= CAMELLIA_CE_STEP) {
		for (int i = 0; i < CE_BLOCKS; i++) {
			store_be64(buf + 16 * i, hi);
			store_be64(buf + 16 * i + 8, lo);
			hi += ++lo == 0;
		}
		ce_load16(x, buf);
		ce_crypt16(k, rounds, x);
		CE_UNROLL
		for (int j = 0; j < 16; j++)
			vst1q_u8(dst + 16 * j, veorq_u8(x[j], vld1q_u8(src + 16 * j)));
		src += CAMELLIA_CE_STEP;
		dst += CAMELLIA_CE_STEP;
	}
	store_be64(ctr, hi);
	store_be64(ctr + 8, lo);
	explicit_bzero(buf, sizeof(buf));
	explicit_bzero(x, sizeof(x));
}

/* ---- CBC and CFB decryption ----------------------------------------------- */

/*
 * Both chain on the previous ciphertext block c[i-1] (the iv for the
 * first): CBC decrypts c[i] and XORs c[i-1], CFB encrypts c[i-1] and XORs
 * c[i]. All of a step's inputs are loaded before its stores; CBC stores
 * from the last block to the first, so in place each load 16 bytes back
 * precedes the store over it.
 */
CE_INLINE void ce_chain_decrypt(const void *ctx, uint8_t *dst,
				const uint8_t *src, size_t nbytes, uint8_t *iv,
				const int cfb)
{
	ce_keys k = ce_dir(ctx, !cfb);
	unsigned int rounds = ce_rounds(ctx);
	vec prev = vld1q_u8(iv), x[16];

	for (; nbytes; nbytes -= CAMELLIA_CE_STEP) {
		vec last = vld1q_u8(src + CAMELLIA_CE_STEP - 16);

		CE_UNROLL
		for (int j = 0; j < 16; j++)
			x[j] = !cfb ? vld1q_u8(src + 16 * j) :
			       j ? vld1q_u8(src + 16 * j - 16) : prev;
		ce_crypt16(k, rounds, x);
		CE_UNROLL
		for (int i = 0; i < 16; i++) {
			int j = cfb ? i : 15 - i;
			vec other = cfb ? vld1q_u8(src + 16 * j) :
				    j ? vld1q_u8(src + 16 * j - 16) : prev;

			vst1q_u8(dst + 16 * j, veorq_u8(x[j], other));
		}
		prev = last;
		src += CAMELLIA_CE_STEP;
		dst += CAMELLIA_CE_STEP;
	}
	vst1q_u8(iv, prev);
	explicit_bzero(x, sizeof(x));
}

CE_ENTRY void camellia_cbc_decrypt_ce(const void *ctx, uint8_t *dst,
				      const uint8_t *src, size_t nbytes,
				      uint8_t *iv)
{
	ce_chain_decrypt(ctx, dst, src, nbytes, iv, 0);
}

CE_ENTRY void camellia_cfb_decrypt_ce(const void *ctx, uint8_t *dst,
				      const uint8_t *src, size_t nbytes,
				      uint8_t *iv)
{
	ce_chain_decrypt(ctx, dst, src, nbytes, iv, 1);
}

/* ---- the S-box alone, for tests/crypto/test_camellia_sbox.c ------------- */

CE_ENTRY uint32_t camellia_sbox_ce(int kind, uint32_t w)
{
	struct ce_consts c;
	const vec zero = vdupq_n_u8(0);
	vec x = vreinterpretq_u8_u32(vdupq_n_u32(w));
	uint32_t r;

	ce_load_consts(&c);
	switch (kind) {
	case 1:
		x = ce_sbox(&c, x, zero, 1);
		break;
	case 2:
		x = ce_sbox(&c, x, zero, 2);
		break;
	case 3:
		x = ce_sbox(&c, x, zero, 3);
		break;
	default:
		x = ce_sbox(&c, x, zero, 4);
		break;
	}
	r = vgetq_lane_u32(vreinterpretq_u32_u8(x), 0);
	return r;
}
#endif
