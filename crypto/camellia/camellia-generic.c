/* SPDX-License-Identifier: MIT */
/*
 * camellia-generic: constant-time Camellia in portable C. Every S-box
 * lookup goes through the gate circuit of camellia-sbox-bs.h (s1; s2, s3
 * and s4 are rotations of its output or input) on 64-bit words, so no
 * table index and no branch depends on the key or the data.
 *
 * Two layouts, chosen by the number of blocks (public):
 *  - CAMELLIA_FULL_MIN blocks or more, fully bitsliced: up to 64 blocks
 *    transposed into 128 words (word = one bit of the state, lane = one
 *    block). A round is 8 circuits; the S-box rotations, the byte moves
 *    of P and the bit rotation of FL are renamings of words.
 *  - fewer, up to 8 blocks per pass, byte planes: each half of 8 blocks
 *    is 8 words, word i holding bit i of every byte (lane = byte
 *    position, bit j of a lane = block j). One circuit does the 8 S-boxes
 *    of all 8 blocks; the rotations are masked lane blends and P and FL
 *    are the 64-bit formulas of camellia-internal.h run on each plane
 *    (they only move whole lanes). A single block (camellia_f_ct for the
 *    key schedule) is the same with one block.
 * The circuit's input constant is folded into the F subkeys (rotated for
 * the s4 bytes, whose input the circuit sees rotated).
 */
#include <errno.h>
#include <string.h>

#include "crypto/camellia/camellia-generic.h"
#include "crypto/camellia/camellia-internal.h"
#include "crypto/camellia/camellia-planes.h"
#include "crypto/camellia/camellia-sbox-bs.h"
#include "crypto/internal/bitslice.h"
#include "crypto/internal/registry.h"

/*
 * Measured on x86-64 (gcc 12 -O2, Zen 5, cloakfs-bench -c): a pass of the
 * full layout (about 23,000 cycles, idle lanes or not) costs as much as
 * 42 blocks in passes of the byte planes (about 540 cycles a block).
 */
#define CAMELLIA_FULL_MIN 42
#define CAMELLIA_PLANE_MAX 8

/* S-box of byte t1..t8 (index 0 = t1): 1, 2, 3 or 4 */
static const unsigned char sbox_kind[8] = { 1, 2, 3, 4, 2, 3, 4, 1 };

struct camellia_generic_ctx {
	/* F subkey k_r (folded): bit b as an all-zero or all-one word */
	uint64_t kmask[CAMELLIA_ROUNDS_LONG][64];
	/* F subkeys (folded) and FL subkeys as byte planes */
	uint64_t kplane[CAMELLIA_ROUNDS_LONG][8];
	uint64_t keplane[6][8];
	uint64_t ke[6];
	uint64_t kw[4];
	unsigned int rounds;
};

/* ---- shared helpers ---------------------------------------------------- */

/* the subkeys of one direction (camellia_key_order's layout, by index) */
struct camellia_dir {
	uint64_t kw_in[2], kw_out[2];
	unsigned int kidx[CAMELLIA_ROUNDS_LONG]; /* round r uses k[kidx[r]] */
	unsigned int fl[3][2];                   /* layer l: ke index FL, FL^-1 */
};

static void direction(const struct camellia_generic_ctx *c, int dec,
		      struct camellia_dir *d)
{
	unsigned int layers = c->rounds / 6 - 1;

	d->kw_in[0] = c->kw[dec ? 2 : 0];
	d->kw_in[1] = c->kw[dec ? 3 : 1];
	d->kw_out[0] = c->kw[dec ? 0 : 2];
	d->kw_out[1] = c->kw[dec ? 1 : 3];
	for (unsigned int r = 0; r < c->rounds; r++)
		d->kidx[r] = dec ? c->rounds - 1 - r : r;
	for (unsigned int l = 0; l < layers; l++) {
		unsigned int m = dec ? layers - 1 - l : l;

		d->fl[l][0] = 2 * m + (dec ? 1 : 0);
		d->fl[l][1] = 2 * m + (dec ? 0 : 1);
	}
}

/* ---- byte planes: up to 8 blocks ---------------------------------------- */

/*
 * FL's two steps on byte planes: x2 ^= (x1 & k1) <<< 1 and x1 ^= x2 | k2,
 * x1 the high 32-bit word (lanes 4..7), x2 the low one. Rotating a word
 * left by one bit moves plane i to plane i + 1, and plane 7 to plane 0
 * one lane up (lane 3 of the word to lane 0).
 */
static void fl_and_planes(uint64_t d[8], const uint64_t k[8])
{
	uint64_t a[8];

	for (unsigned int i = 0; i < 8; i++)
		a[i] = (d[i] & k[i]) >> 32;
	d[0] ^= rol32((uint32_t)a[7], 8);
	for (unsigned int i = 1; i < 8; i++)
		d[i] ^= a[i - 1];
	explicit_bzero(a, sizeof(a));
}

static void fl_or_planes(uint64_t d[8], const uint64_t k[8])
{
	for (unsigned int i = 0; i < 8; i++)
		d[i] ^= ((d[i] | k[i]) & 0xffffffffull) << 32;
}

/* FL (inv 0) or FL^-1 (inv 1) on byte planes */
static void fl_planes(uint64_t *d, const uint64_t *k, int inv)
{
	if (inv)
		fl_or_planes(d, k);
	fl_and_planes(d, k);
	if (!inv)
		fl_or_planes(d, k);
}

/* ---- fully bitsliced: up to 64 blocks ----------------------------------- */

/*
 * out ^= F(in ^ k): in/out are 64 words, word b = bit b of the half
 * (byte t_p is words 8 (8 - p) .. + 7), km the subkey's bit masks.
 */
static void f_full(uint64_t *out, const uint64_t *in, const uint64_t *km)
{
	uint64_t z[8][8], x[8], y[8];

	for (unsigned int p = 0; p < 8; p++) {
		const uint64_t *w = in + 8 * (7 - p), *m = km + 8 * (7 - p);
		unsigned int kind = sbox_kind[p];

		for (unsigned int i = 0; i < 8; i++) {
			/* s4: the input rotated left by one bit */
			unsigned int b = kind == 4 ? (i + 7) & 7 : i;

			x[i] = w[b] ^ m[b];
		}
		camellia_sbox_bs(y, x);
		for (unsigned int i = 0; i < 8; i++) {
			/* s2: output rotated left by one bit, s3: right by one */
			unsigned int b = kind == 2 ? (i + 7) & 7 :
					 kind == 3 ? (i + 1) & 7 : i;

			z[p][i] = y[b];
		}
	}
	/* P on the bytes, as camellia_p: U = z[0..3], V = z[4..7] */
	for (unsigned int i = 0; i < 8; i++) {
		uint64_t u0 = z[0][i], u1 = z[1][i], u2 = z[2][i], u3 = z[3][i];
		uint64_t v0 = z[4][i], v1 = z[5][i], v2 = z[6][i], v3 = z[7][i];

		u0 ^= v1, u1 ^= v2, u2 ^= v3, u3 ^= v0;
		v0 ^= u2, v1 ^= u3, v2 ^= u0, v3 ^= u1;
		u0 ^= v3, u1 ^= v0, u2 ^= v1, u3 ^= v2;
		v0 ^= u3, v1 ^= u0, v2 ^= u1, v3 ^= u2;
		/* t'1..t'4 = V, t'5..t'8 = U */
		out[56 + i] ^= v0;
		out[48 + i] ^= v1;
		out[40 + i] ^= v2;
		out[32 + i] ^= v3;
		out[24 + i] ^= u0;
		out[16 + i] ^= u1;
		out[8 + i] ^= u2;
		out[i] ^= u3;
	}
	explicit_bzero(z, sizeof(z));
	explicit_bzero(x, sizeof(x));
	explicit_bzero(y, sizeof(y));
}

/*
 * FL's steps on a bitsliced half d (x1 = d[32..63], x2 = d[0..31]):
 * x2 ^= (x1 & k1) <<< 1, and x1 ^= x2 | k2. Masks from the key bits.
 */
static void fl_and_full(uint64_t *d, uint64_t ke)
{
	for (unsigned int b = 0; b < 32; b++) {
		unsigned int s = (b + 31) & 31;

		d[b] ^= d[32 + s] & (0 - ((ke >> (32 + s)) & 1));
	}
}

static void fl_or_full(uint64_t *d, uint64_t ke)
{
	for (unsigned int b = 0; b < 32; b++)
		d[32 + b] ^= d[b] | (0 - ((ke >> b) & 1));
}

/* FL (inv 0) or FL^-1 (inv 1) on a bitsliced half; k points at the key */
static void fl_full(uint64_t *d, const uint64_t *k, int inv)
{
	if (inv)
		fl_or_full(d, *k);
	fl_and_full(d, *k);
	if (!inv)
		fl_or_full(d, *k);
}

/* ---- a pass in either layout ----------------------------------------- */

/* how a layout stores a half and runs F and FL on it */
struct layout {
	unsigned int blocks; /* per pass; also the words of a half */
	void (*transpose)(uint64_t *half);
	void (*f)(uint64_t *out, const uint64_t *in, const uint64_t *k);
	void (*fl)(uint64_t *d, const uint64_t *k, int inv);
};

static void transpose_planes(uint64_t *half)
{
	bs_transpose_bytes8(half);
}

static const struct layout planes = {
	CAMELLIA_PLANE_MAX, transpose_planes, camellia_f_planes, fl_planes,
};
static const struct layout full = { 64, bs_transpose64, f_full, fl_full };

/* the subkeys as a layout takes them: F key r at f + r * fstride, ... */
struct layout_keys {
	const uint64_t *f, *fl;
	size_t fstride, flstride;
};

/* n (<= l->blocks) blocks through the network */
static void crypt_pass(const struct camellia_generic_ctx *c,
		       const struct camellia_dir *dir, const struct layout *l,
		       const struct layout_keys *k, uint8_t *dst,
		       const uint8_t *src, size_t n)
{
	uint64_t st[128];
	uint64_t *d1 = st, *d2 = st + l->blocks;

	for (size_t j = 0; j < l->blocks; j++) {
		d1[j] = j < n ? load_be64(src + 16 * j) ^ dir->kw_in[0] : 0;
		d2[j] = j < n ? load_be64(src + 16 * j + 8) ^ dir->kw_in[1] : 0;
	}
	l->transpose(d1);
	l->transpose(d2);
	for (unsigned int r = 0; r < c->rounds; r++) {
		if (r && r % 6 == 0) {
			const unsigned int *fl = dir->fl[r / 6 - 1];

			l->fl(d1, k->fl + fl[0] * k->flstride, 0);
			l->fl(d2, k->fl + fl[1] * k->flstride, 1);
		}
		l->f(r & 1 ? d1 : d2, r & 1 ? d2 : d1,
		     k->f + dir->kidx[r] * k->fstride);
	}
	l->transpose(d1);
	l->transpose(d2);
	for (size_t j = 0; j < n; j++) {
		store_be64(dst + 16 * j, d2[j] ^ dir->kw_out[0]);
		store_be64(dst + 16 * j + 8, d1[j] ^ dir->kw_out[1]);
	}
	explicit_bzero(st, 2 * l->blocks * sizeof(st[0]));
}

/* ---- the driver ---------------------------------------------------------- */

static int camellia_generic_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct camellia_generic_ctx *c = ctx;
	struct camellia_subkeys sk;
	int err = camellia_expand_key(&sk, key, keylen);

	if (err)
		return err;
	memset(c, 0, sizeof(*c));
	c->rounds = sk.rounds;
	for (unsigned int r = 0; r < sk.rounds; r++) {
		uint64_t v = sk.k[r] ^ CAMELLIA_KEY_FOLD;

		for (unsigned int b = 0; b < 64; b++)
			c->kmask[r][b] = 0 - ((v >> b) & 1);
		camellia_to_planes(c->kplane[r], v);
	}
	for (unsigned int i = 0; i < 6; i++) {
		c->ke[i] = sk.ke[i];
		camellia_to_planes(c->keplane[i], sk.ke[i]);
	}
	memcpy(c->kw, sk.kw, sizeof(c->kw));
	explicit_bzero(&sk, sizeof(sk));
	return 0;
}

static void camellia_generic_crypt(const void *ctx, int dec, uint8_t *dst,
				   const uint8_t *src, size_t nblocks)
{
	const struct camellia_generic_ctx *c = ctx;
	struct camellia_dir dir;

	const struct layout_keys full_keys = {
		c->kmask[0], c->ke, sizeof(c->kmask[0]) / sizeof(uint64_t), 1,
	};
	const struct layout_keys plane_keys = {
		c->kplane[0], c->keplane[0], 8, 8,
	};

	direction(c, dec, &dir);
	while (nblocks >= CAMELLIA_FULL_MIN) {
		size_t n = nblocks < 64 ? nblocks : 64;

		crypt_pass(c, &dir, &full, &full_keys, dst, src, n);
		dst += n * CAMELLIA_BLOCK_SIZE;
		src += n * CAMELLIA_BLOCK_SIZE;
		nblocks -= n;
	}
	while (nblocks) {
		size_t n = nblocks < CAMELLIA_PLANE_MAX ? nblocks : CAMELLIA_PLANE_MAX;

		crypt_pass(c, &dir, &planes, &plane_keys, dst, src, n);
		dst += n * CAMELLIA_BLOCK_SIZE;
		src += n * CAMELLIA_BLOCK_SIZE;
		nblocks -= n;
	}
	explicit_bzero(&dir, sizeof(dir));
}

static void camellia_generic_encrypt_blocks(const void *ctx, uint8_t *dst,
					    const uint8_t *src, size_t nblocks)
{
	camellia_generic_crypt(ctx, 0, dst, src, nblocks);
}

static void camellia_generic_decrypt_blocks(const void *ctx, uint8_t *dst,
					    const uint8_t *src, size_t nblocks)
{
	camellia_generic_crypt(ctx, 1, dst, src, nblocks);
}

static void camellia_generic_encrypt(const void *ctx, uint8_t *dst,
				     const uint8_t *src)
{
	camellia_generic_crypt(ctx, 0, dst, src, 1);
}

static void camellia_generic_decrypt(const void *ctx, uint8_t *dst,
				     const uint8_t *src)
{
	camellia_generic_crypt(ctx, 1, dst, src, 1);
}

const struct cipher_alg camellia_generic_cipher = {
	.blocksize = CAMELLIA_BLOCK_SIZE,
	.keysizes = { 16, 24, 32 },
	.ctxsize = sizeof(struct camellia_generic_ctx),
	.setkey = camellia_generic_setkey,
	.encrypt = camellia_generic_encrypt,
	.decrypt = camellia_generic_decrypt,
	.encrypt_blocks = camellia_generic_encrypt_blocks,
	.decrypt_blocks = camellia_generic_decrypt_blocks,
};

int camellia_generic_register(struct crypto_registry *reg)
{
	static const struct crypto_driver drivers[] = {
		{
			.alg_name = "camellia",
			.driver_name = "camellia-generic",
			.priority = 100,
			.flags = CRYPTO_F_CONST_TIME,
			.type = CRYPTO_TYPE_CIPHER,
			.u.cipher = &camellia_generic_cipher,
		},
		{
			/* variable time: chosen only when the policy allows */
			.alg_name = "camellia",
			.driver_name = "camellia-table",
			.priority = 120,
			.flags = 0,
			.type = CRYPTO_TYPE_CIPHER,
			.u.cipher = &camellia_table_cipher,
		},
	};

	int err = crypto_register_drivers(reg, drivers, ARRAY_SIZE(drivers));

	return err ? err : camellia_register_testvecs(reg);
}
