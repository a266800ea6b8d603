/* SPDX-License-Identifier: MIT */
/*
 * The Camellia cores, written once over a few vector primitives and
 * instantiated per ISA by camellia-aesni-avx2.c, camellia-gfni-avx2.c and
 * camellia-gfni-avx512.c. Entry points and their contract: camellia-x86.h.
 *
 * Technique (facts from the sources, our own code):
 *  - byte slicing: 16 vectors of blocks are transposed (a 16x16 byte
 *    transpose in every 128-bit lane) so that vector p holds byte p of
 *    every block; Camellia's F is then S-boxes on whole vectors and P a
 *    network of vector XORs, FL bytewise AND/OR and a bit rotation across
 *    the four bytes of a word. This is the layout of the Linux kernel's
 *    and libgcrypt's camellia-aesni-avx cores (J. Kivilinna, 2012);
 *  - the S-boxes as the AES field inversion between affine maps, derived
 *    by crypto/camellia/camellia-sbox.py (crypto/camellia/camellia-affine.h):
 *    around AESENCLAST (nibble-table maps in and out, ShiftRows undone by
 *    a byte shuffle before it) or as GF2P8AFFINEQB then GF2P8AFFINEINVQB,
 *    the s2/s3 output rotations and the s4 input rotation folded into
 *    the maps;
 *  - the cipher itself: RFC 3713 (crypto/camellia/camellia-internal.h);
 *    P as four steps on the word halves (camellia_p), here on vectors.
 * Instruction semantics: Intel SDM vol. 2 (AESENCLAST, GF2P8AFFINEQB,
 * GF2P8AFFINEINVQB, VPSHUFB, VPUNPCKL/HBW, VPSLLVQ).
 *
 * A step is 16 vectors (16 * CAM_VB blocks) in flight; the transposes
 * are an involution (4 stages of byte unpacks), so the same one goes in
 * and out. Single blocks and partial steps are padded to a step on the
 * stack (no short path is cheaper: the cost of a step is fixed).
 * XTS makes a step's tweaks in vectors (lane i of vector j = T times
 * x^(j CAM_VB + i)); CTR builds counters with 64-bit adds while the low
 * half cannot wrap inside the step (the counter is public: a branch is
 * fine), else in scalar code; CBC decryption stores from the last vector
 * to the first so that an in-place request reads every previous
 * ciphertext block before it is overwritten.
 *
 * The including file defines before including this one:
 *   CAM_ISA                  entry point suffix
 *   vec, CAM_VB              vector type, 16-byte blocks per vector
 *   CAM_INLINE               static inline, always_inline
 *   CAM_TAIL_ISA (optional)  the suffix of a core of half this step,
 *                            which takes a request's last half step
 * and these CAM_INLINE functions:
 *   v_loadu(p), v_storeu(p, v), v_store_lane0(p, v)  (lane0: 16 bytes)
 *   v_xor(a, b), v_xor3(a, b, c), v_and(a, b), v_or(a, b)
 *   v_bcast32(p)            *p in every 32-bit lane
 *   v_unpacklo8(a, b), v_unpackhi8(a, b)  (VPUNPCKLBW / VPUNPCKHBW)
 *   v_shl1_bytes(v), v_msb_bytes(v)  each byte << 1, each byte >> 7
 *   v_sbox(v, kind)         s1..s4 (kind a constant 1..4) on every byte
 *   v_mul_xn(v, n)          each 128-bit lane times x^n, 1 <= n <= 56
 *   v_ctr(lo, hi, k)        vector k of counter blocks hi:lo + k * VB + i
 *                           (big-endian bytes, lo + 16 * VB must not wrap)
 *   v_prev_first(iv, src)   [iv, blocks 0 .. VB - 2 of src]
 *   v_end()                 clear vector state on the way out
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/arch/x86/camellia-x86.h"
#include "crypto/internal/util.h"

#define CAM_CAT_(a, b) a##_##b
#define CAM_CAT(a, b) CAM_CAT_(a, b)
#define CAM_FN(name) CAM_CAT(name, CAM_ISA)
#define CAM_ENTRY
#define CAM_NOINLINE static __attribute__((noinline))

#define CAM_VEC_BYTES (16 * CAM_VB)
#define CAM_STEP_BLOCKS (16 * CAM_VB)
#define CAM_STEP_BYTES (16 * CAM_STEP_BLOCKS)
#define CAM_UNROLL _Pragma("GCC unroll 16")

/* the subkey rows of one direction */
typedef const uint32_t (*cam_keys)[8];

static inline cam_keys cam_dir(const void *ctx, int dec)
{
	const struct camellia_x86_ctx *c = ctx;

	return dec ? c->dec : c->enc;
}

static inline unsigned int cam_rounds(const void *ctx)
{
	return ((const struct camellia_x86_ctx *)ctx)->rounds;
}

/*
 * 16x16 byte transpose in every 128-bit lane: vector i byte j <-> vector
 * j byte i. Four stages of interleaving vectors i and i + 8 (a perfect
 * shuffle each; four of them on 16 indices transpose). Its own inverse.
 */
CAM_INLINE void cam_byteslice(vec *x)
{
	for (int s = 0; s < 4; s++) {
		vec y[16];

		CAM_UNROLL
		for (int i = 0; i < 8; i++) {
			y[2 * i] = v_unpacklo8(x[i], x[i + 8]);
			y[2 * i + 1] = v_unpackhi8(x[i], x[i + 8]);
		}
		CAM_UNROLL
		for (int i = 0; i < 16; i++)
			x[i] = y[i];
	}
}

/*
 * y ^= F(x ^ k) on byte-sliced halves: s1 s2 s3 s4 s2 s3 s4 s1 on the
 * bytes, then P in camellia_p's four steps (U = bytes 0..3, V = 4..7;
 * a byte rotation of a word is a renaming), the last one merged with
 * the XOR into y.
 */
CAM_INLINE void cam_f(vec *y, const vec *x, const uint32_t *k)
{
	vec u0 = v_sbox(v_xor(x[0], v_bcast32(k + 0)), 1);
	vec u1 = v_sbox(v_xor(x[1], v_bcast32(k + 1)), 2);
	vec u2 = v_sbox(v_xor(x[2], v_bcast32(k + 2)), 3);
	vec u3 = v_sbox(v_xor(x[3], v_bcast32(k + 3)), 4);
	vec v0 = v_sbox(v_xor(x[4], v_bcast32(k + 4)), 2);
	vec v1 = v_sbox(v_xor(x[5], v_bcast32(k + 5)), 3);
	vec v2 = v_sbox(v_xor(x[6], v_bcast32(k + 6)), 4);
	vec v3 = v_sbox(v_xor(x[7], v_bcast32(k + 7)), 1);

	u0 = v_xor(u0, v1), u1 = v_xor(u1, v2), u2 = v_xor(u2, v3), u3 = v_xor(u3, v0);
	v0 = v_xor(v0, u2), v1 = v_xor(v1, u3), v2 = v_xor(v2, u0), v3 = v_xor(v3, u1);
	u0 = v_xor(u0, v3), u1 = v_xor(u1, v0), u2 = v_xor(u2, v1), u3 = v_xor(u3, v2);
	y[0] = v_xor3(y[0], v0, u3);
	y[1] = v_xor3(y[1], v1, u0);
	y[2] = v_xor3(y[2], v2, u1);
	y[3] = v_xor3(y[3], v3, u2);
	y[4] = v_xor(y[4], u0);
	y[5] = v_xor(y[5], u1);
	y[6] = v_xor(y[6], u2);
	y[7] = v_xor(y[7], u3);
}

/*
 * FL's two steps on a byte-sliced half (x1 = bytes 0..3, x2 = 4..7 of
 * the big-endian half, k1/k2 likewise): x2 ^= (x1 & k1) <<< 1, where
 * byte b of a word rotated left by one bit is (b << 1) | (b+1 >> 7),
 * byte 3 taking byte 0's top bit; and x1 ^= x2 | k2.
 */
CAM_INLINE void cam_fl_and(vec *d, const uint32_t *k)
{
	vec a[4];

	CAM_UNROLL
	for (int b = 0; b < 4; b++)
		a[b] = v_and(d[b], v_bcast32(k + b));
	CAM_UNROLL
	for (int b = 0; b < 4; b++)
		d[4 + b] = v_xor3(d[4 + b], v_shl1_bytes(a[b]),
				  v_msb_bytes(a[(b + 1) & 3]));
}

CAM_INLINE void cam_fl_or(vec *d, const uint32_t *k)
{
	CAM_UNROLL
	for (int b = 0; b < 4; b++)
		d[b] = v_xor(d[b], v_or(d[4 + b], v_bcast32(k + 4 + b)));
}

/*
 * The whole network on 16 vectors in block layout, in place: whitening,
 * the rounds in groups of six with FL / FL^-1 between groups, and the
 * output swap of the halves with the last whitening. The state is copied
 * into a local array so that no store to it can alias the key loads.
 */
CAM_NOINLINE void cam_crypt16(cam_keys k, unsigned int rounds, vec *io)
{
	vec x[16];

	CAM_UNROLL
	for (int i = 0; i < 16; i++)
		x[i] = io[i];
	cam_byteslice(x);
	CAM_UNROLL
	for (int p = 0; p < 8; p++) {
		x[p] = v_xor(x[p], v_bcast32(&k[0][p]));
		x[8 + p] = v_xor(x[8 + p], v_bcast32(&k[1][p]));
	}
	k += 2;
	for (unsigned int r = 6;; r += 6) {
		cam_f(x + 8, x, k[0]);
		cam_f(x, x + 8, k[1]);
		cam_f(x + 8, x, k[2]);
		cam_f(x, x + 8, k[3]);
		cam_f(x + 8, x, k[4]);
		cam_f(x, x + 8, k[5]);
		k += 6;
		if (r == rounds)
			break;
		cam_fl_and(x, k[0]);
		cam_fl_or(x, k[0]);
		cam_fl_or(x + 8, k[1]);
		cam_fl_and(x + 8, k[1]);
		k += 2;
	}
	/* C = (D2 ^ kw) || (D1 ^ kw') */
	CAM_UNROLL
	for (int p = 0; p < 8; p++) {
		vec d1 = x[p];

		x[p] = v_xor(x[8 + p], v_bcast32(&k[0][p]));
		x[8 + p] = v_xor(d1, v_bcast32(&k[1][p]));
	}
	cam_byteslice(x);
	CAM_UNROLL
	for (int i = 0; i < 16; i++)
		io[i] = x[i];
}

/* ---- ECB and the cipher functions ------------------------------------- */

/* nblocks >= 1 blocks; a partial step is padded through the stack */
CAM_NOINLINE void cam_ecb(cam_keys k, unsigned int rounds, uint8_t *dst,
			  const uint8_t *src, size_t nblocks)
{
	vec x[16];

	for (; nblocks >= CAM_STEP_BLOCKS; nblocks -= CAM_STEP_BLOCKS) {
		CAM_UNROLL
		for (int j = 0; j < 16; j++)
			x[j] = v_loadu(src + j * CAM_VEC_BYTES);
		cam_crypt16(k, rounds, x);
		CAM_UNROLL
		for (int j = 0; j < 16; j++)
			v_storeu(dst + j * CAM_VEC_BYTES, x[j]);
		src += CAM_STEP_BYTES;
		dst += CAM_STEP_BYTES;
	}
	if (nblocks) {
		uint8_t buf[CAM_STEP_BYTES] __attribute__((aligned(64)));

		memcpy(buf, src, 16 * nblocks);
		memset(buf + 16 * nblocks, 0, sizeof(buf) - 16 * nblocks);
		for (int j = 0; j < 16; j++)
			x[j] = v_loadu(buf + j * CAM_VEC_BYTES);
		cam_crypt16(k, rounds, x);
		for (int j = 0; j < 16; j++)
			v_storeu(buf + j * CAM_VEC_BYTES, x[j]);
		memcpy(dst, buf, 16 * nblocks);
		explicit_bzero(buf, sizeof(buf));
	}
	explicit_bzero(x, sizeof(x));
}

CAM_ENTRY void CAM_FN(camellia_encrypt)(const void *ctx, uint8_t *dst,
					const uint8_t *src)
{
	cam_ecb(cam_dir(ctx, 0), cam_rounds(ctx), dst, src, 1);
	v_end();
}

CAM_ENTRY void CAM_FN(camellia_decrypt)(const void *ctx, uint8_t *dst,
					const uint8_t *src)
{
	cam_ecb(cam_dir(ctx, 1), cam_rounds(ctx), dst, src, 1);
	v_end();
}

CAM_ENTRY void CAM_FN(camellia_encrypt_blocks)(const void *ctx, uint8_t *dst,
					       const uint8_t *src, size_t n)
{
	if (n)
		cam_ecb(cam_dir(ctx, 0), cam_rounds(ctx), dst, src, n);
	v_end();
}

CAM_ENTRY void CAM_FN(camellia_decrypt_blocks)(const void *ctx, uint8_t *dst,
					       const uint8_t *src, size_t n)
{
	if (n)
		cam_ecb(cam_dir(ctx, 1), cam_rounds(ctx), dst, src, n);
	v_end();
}

/*
 * The bulk entry points: whole steps here; with CAM_TAIL_ISA a last half
 * step (the bulk hooks' chunk is then CAM_STEP_BYTES / 2) goes to that
 * narrower core, whose full step it is, instead of a half-empty one. The
 * chaining value is updated in place, so the tail continues from it.
 */
#if defined(CAM_TAIL_ISA)
#define CAM_TAIL_FN(name) CAM_CAT(name, CAM_TAIL_ISA)
#define CAM_BULK(name, body, ...)                                           \
	size_t main_ = nbytes - nbytes % CAM_STEP_BYTES;                   \
	if (main_)                                                          \
		body(ctx, dst, src, main_, ##__VA_ARGS__);                  \
	v_end();                                                            \
	if (nbytes > main_)                                                 \
		CAM_TAIL_FN(name)(ctx, dst + main_, src + main_,            \
				  nbytes - main_, ##__VA_ARGS__)
#else
#define CAM_BULK(name, body, ...)                                           \
	body(ctx, dst, src, nbytes, ##__VA_ARGS__);                         \
	v_end()
#endif

CAM_INLINE void cam_ecb_enc(const void *ctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes)
{
	cam_ecb(cam_dir(ctx, 0), cam_rounds(ctx), dst, src, nbytes / 16);
}

CAM_INLINE void cam_ecb_dec(const void *ctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes)
{
	cam_ecb(cam_dir(ctx, 1), cam_rounds(ctx), dst, src, nbytes / 16);
}

CAM_ENTRY void CAM_FN(camellia_ecb_encrypt)(const void *ctx, uint8_t *dst,
					    const uint8_t *src, size_t nbytes)
{
	CAM_BULK(camellia_ecb_encrypt, cam_ecb_enc);
}

CAM_ENTRY void CAM_FN(camellia_ecb_decrypt)(const void *ctx, uint8_t *dst,
					    const uint8_t *src, size_t nbytes)
{
	CAM_BULK(camellia_ecb_decrypt, cam_ecb_dec);
}

/* ---- XTS -------------------------------------------------------------- */

/*
 * The step's tweaks from t[0] (lane i = T x^i): vector j is t[0] times
 * x^(j VB), in two levels so that no multiplication exceeds x^56.
 */
CAM_INLINE void cam_xts_tweaks(vec *t)
{
	CAM_UNROLL
	for (int j = 1; j < 16; j++)
		t[j] = j * CAM_VB <= 56 ? v_mul_xn(t[0], j * CAM_VB) :
					  v_mul_xn(t[j - 8], 8 * CAM_VB);
}

CAM_NOINLINE void cam_xts(cam_keys k, unsigned int rounds, uint8_t *dst,
			  const uint8_t *src, size_t nbytes, uint8_t *tweak)
{
	uint64_t first[2 * CAM_VB] __attribute__((aligned(64)));
	uint64_t lo, hi;
	vec t[16], x[16];

	/* lane i of the first vector: T x^i, in scalar code */
	memcpy(&lo, tweak, 8);
	memcpy(&hi, tweak + 8, 8);
	for (int i = 0; i < CAM_VB; i++) {
		uint64_t carry = 0 - (hi >> 63);

		first[2 * i] = lo;
		first[2 * i + 1] = hi;
		hi = hi << 1 | lo >> 63;
		lo = lo << 1 ^ (0x87 & carry);
	}
	t[0] = v_loadu((const uint8_t *)first);
	for (; nbytes; nbytes -= CAM_STEP_BYTES) {
		cam_xts_tweaks(t);
		CAM_UNROLL
		for (int j = 0; j < 16; j++)
			x[j] = v_xor(v_loadu(src + j * CAM_VEC_BYTES), t[j]);
		cam_crypt16(k, rounds, x);
		CAM_UNROLL
		for (int j = 0; j < 16; j++)
			v_storeu(dst + j * CAM_VEC_BYTES, v_xor(x[j], t[j]));
		t[0] = v_mul_xn(t[15], CAM_VB);
		src += CAM_STEP_BYTES;
		dst += CAM_STEP_BYTES;
	}
	v_store_lane0(tweak, t[0]);
	explicit_bzero(first, sizeof(first));
	explicit_bzero(t, sizeof(t));
	explicit_bzero(x, sizeof(x));
}

CAM_INLINE void cam_xts_enc(const void *ctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes, uint8_t *tweak)
{
	cam_xts(cam_dir(ctx, 0), cam_rounds(ctx), dst, src, nbytes, tweak);
}

CAM_INLINE void cam_xts_dec(const void *ctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes, uint8_t *tweak)
{
	cam_xts(cam_dir(ctx, 1), cam_rounds(ctx), dst, src, nbytes, tweak);
}

CAM_ENTRY void CAM_FN(camellia_xts_encrypt)(const void *ctx, uint8_t *dst,
					    const uint8_t *src, size_t nbytes,
					    uint8_t *tweak)
{
	CAM_BULK(camellia_xts_encrypt, cam_xts_enc, tweak);
}

CAM_ENTRY void CAM_FN(camellia_xts_decrypt)(const void *ctx, uint8_t *dst,
					    const uint8_t *src, size_t nbytes,
					    uint8_t *tweak)
{
	CAM_BULK(camellia_xts_decrypt, cam_xts_dec, tweak);
}

/* ---- CTR ---------------------------------------------------------------- */

CAM_NOINLINE void cam_ctr(const void *ctx, uint8_t *dst, const uint8_t *src,
			  size_t nbytes, uint8_t *ctr)
{
	cam_keys k = cam_dir(ctx, 0);
	unsigned int rounds = cam_rounds(ctx);
	uint64_t hi = load_be64(ctr), lo = load_be64(ctr + 8);
	vec x[16];

	for (; nbytes; nbytes -= CAM_STEP_BYTES) {
		if (lo <= UINT64_MAX - (CAM_STEP_BLOCKS - 1)) {
			CAM_UNROLL
			for (int j = 0; j < 16; j++)
				x[j] = v_ctr(lo, hi, j);
		} else {
			/* the low half wraps inside this step (public counter) */
			uint8_t buf[CAM_STEP_BYTES] __attribute__((aligned(64)));

			for (int i = 0; i < CAM_STEP_BLOCKS; i++) {
				store_be64(buf + 16 * i, hi + (lo + (uint64_t)i < lo));
				store_be64(buf + 16 * i + 8, lo + (uint64_t)i);
			}
			for (int j = 0; j < 16; j++)
				x[j] = v_loadu(buf + j * CAM_VEC_BYTES);
		}
		cam_crypt16(k, rounds, x);
		CAM_UNROLL
		for (int j = 0; j < 16; j++)
			v_storeu(dst + j * CAM_VEC_BYTES,
				 v_xor(x[j], v_loadu(src + j * CAM_VEC_BYTES)));
		hi += lo + CAM_STEP_BLOCKS < lo;
		lo += CAM_STEP_BLOCKS;
		src += CAM_STEP_BYTES;
		dst += CAM_STEP_BYTES;
	}
	store_be64(ctr, hi);
	store_be64(ctr + 8, lo);
	explicit_bzero(x, sizeof(x));
}

CAM_ENTRY void CAM_FN(camellia_ctr_crypt)(const void *ctx, uint8_t *dst,
					  const uint8_t *src, size_t nbytes,
					  uint8_t *ctr)
{
	CAM_BULK(camellia_ctr_crypt, cam_ctr, ctr);
}

/* ---- CBC and CFB decryption ----------------------------------------- */

/*
 * Both chain on the previous ciphertext block c[i-1] (the iv for the
 * first): CBC decrypts c[i] and XORs c[i-1], CFB encrypts c[i-1] and XORs
 * c[i]. All of a step's inputs are loaded before its stores; CBC stores
 * from the last vector to the first, so in place each load 16 bytes back
 * precedes the store over it.
 */
CAM_INLINE void cam_chain_decrypt(const void *ctx, uint8_t *dst,
				  const uint8_t *src, size_t nbytes,
				  uint8_t *iv, const int cfb)
{
	cam_keys k = cam_dir(ctx, !cfb);
	unsigned int rounds = cam_rounds(ctx);
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)iv);
	vec x[16];

	for (; nbytes; nbytes -= CAM_STEP_BYTES) {
		__m128i last = _mm_loadu_si128(
			(const __m128i *)(const void *)(src + CAM_STEP_BYTES - 16));

		CAM_UNROLL
		for (int j = 0; j < 16; j++)
			x[j] = !cfb ? v_loadu(src + j * CAM_VEC_BYTES) :
			       j ? v_loadu(src + j * CAM_VEC_BYTES - 16) :
				   v_prev_first(v, src);
		cam_crypt16(k, rounds, x);
		CAM_UNROLL
		for (int i = 0; i < 16; i++) {
			int j = cfb ? i : 15 - i;
			vec other = cfb ? v_loadu(src + j * CAM_VEC_BYTES) :
				    j ? v_loadu(src + j * CAM_VEC_BYTES - 16) :
					v_prev_first(v, src);

			v_storeu(dst + j * CAM_VEC_BYTES, v_xor(x[j], other));
		}
		v = last;
		src += CAM_STEP_BYTES;
		dst += CAM_STEP_BYTES;
	}
	_mm_storeu_si128((__m128i *)(void *)iv, v);
	explicit_bzero(x, sizeof(x));
}

CAM_INLINE void cam_cbc_dec(const void *ctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes, uint8_t *iv)
{
	cam_chain_decrypt(ctx, dst, src, nbytes, iv, 0);
}

CAM_INLINE void cam_cfb_dec(const void *ctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes, uint8_t *iv)
{
	cam_chain_decrypt(ctx, dst, src, nbytes, iv, 1);
}

CAM_ENTRY void CAM_FN(camellia_cbc_decrypt)(const void *ctx, uint8_t *dst,
					    const uint8_t *src, size_t nbytes,
					    uint8_t *iv)
{
	CAM_BULK(camellia_cbc_decrypt, cam_cbc_dec, iv);
}

CAM_ENTRY void CAM_FN(camellia_cfb_decrypt)(const void *ctx, uint8_t *dst,
					    const uint8_t *src, size_t nbytes,
					    uint8_t *iv)
{
	CAM_BULK(camellia_cfb_decrypt, cam_cfb_dec, iv);
}

/* ---- the S-box alone, for tests/crypto/test_camellia_sbox.c ------------- */

CAM_ENTRY uint32_t CAM_FN(camellia_sbox)(int kind, uint32_t w)
{
	uint8_t out[CAM_VEC_BYTES] __attribute__((aligned(64)));
	vec x = v_bcast32(&w);
	uint32_t r;

	switch (kind) {
	case 1:
		x = v_sbox(x, 1);
		break;
	case 2:
		x = v_sbox(x, 2);
		break;
	case 3:
		x = v_sbox(x, 3);
		break;
	default:
		x = v_sbox(x, 4);
		break;
	}
	v_storeu(out, x);
	memcpy(&r, out, 4);
	v_end();
	return r;
}
