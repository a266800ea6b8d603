/* SPDX-License-Identifier: MIT */
/*
 * sm4-generic: constant-time SM4 in portable C. Every S-box lookup goes
 * through the gate circuit of sm4-sbox-bs.h on 64-bit words, so there is
 * no table index and no branch that depends on the key or the data.
 *
 * How the circuit's 64 lanes are filled depends only on the number of
 * blocks (public):
 *  - more than 32 blocks (SM4_FULL_MIN): fully bitsliced. Up to 64
 *    blocks are transposed into 128 words, word = one bit of the state,
 *    lane = one block; a round is 4 circuits plus XORs (L is a renaming
 *    of words). Fewer than 64 blocks run with idle lanes.
 *  - 3 .. 32 blocks, 16 at a time: each round packs the 64 S-box input
 *    bytes of 16 blocks into 8 words (an 8x8 bit transpose per byte
 *    lane), runs one circuit, unpacks, and does L on 32-bit words.
 *  - 1 or 2 blocks (and the key schedule): the 8 input bytes stay where
 *    they are; word i holds bit i of every byte (mask and shift).
 *
 * The circuit computes S''(v) with S(x) = S''(x ^ E) ^ C (constants in
 * sm4-sbox-bs.h). E is folded into the round keys; C adds a constant
 * K = L(C C C C) to every new state word, which shows up as a known
 * offset on X[i] for i/4 odd and is cancelled in the round keys that
 * read those words (see fold_round_keys). The output words X[32..35]
 * carry no offset.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/bitslice.h"
#include "crypto/internal/registry.h"
#include "crypto/sm4/sm4-generic.h"
#include "crypto/sm4/sm4-internal.h"
#include "crypto/sm4/sm4-sbox-bs.h"

/*
 * Measured on x86-64 (gcc 12 -O2): 64 lanes cost about as much as two
 * 16-block passes, so up to 32 blocks the 16-block layout is cheaper.
 */
#define SM4_FULL_MIN 33
#define SM4_MID_MAX 16

struct sm4_generic_ctx {
	/* bit b of round key r as an all-zero or all-one word */
	uint64_t rkmask[SM4_ROUNDS][32];
	/* round keys with the circuit's constants folded in */
	uint32_t rk[SM4_ROUNDS];
};

static const uint64_t LANE_LSB = 0x0101010101010101ull;

/* S'' on each of the 8 bytes of w (2 words), bits kept in place */
static uint64_t sbox_bytes(uint64_t w)
{
	uint64_t x[8], y[8], r = 0;

	for (unsigned int i = 0; i < 8; i++)
		x[i] = (w >> i) & LANE_LSB;
	sm4_sbox_bs(y, x);
	for (unsigned int i = 0; i < 8; i++)
		r |= (y[i] & LANE_LSB) << i;
	explicit_bzero(x, sizeof(x));
	explicit_bzero(y, sizeof(y));
	return r;
}

/* the real tau (with both constants) on one word: key schedule only */
static uint32_t tau_word(uint32_t w)
{
	return (uint32_t)sbox_bytes(w ^ SM4_SBOX_IN_XOR * 0x01010101u) ^
	       SM4_SBOX_OUT_XOR * 0x01010101u;
}

/* 1 if an offset K sits on X[i]: i/4 odd (offsets start at X[4]) */
static unsigned int word_offset(unsigned int i)
{
	return (i / 4) & 1;
}

/*
 * rk'[i] = rk[i] ^ E^4 ^ (K for each offset word among X[i+1..i+3]).
 * The offset pattern is symmetric (i <-> 31 - i), so decryption can use
 * rk'[31 - i] in round i just like plain SM4 does.
 */
static void fold_round_keys(uint32_t rk[SM4_ROUNDS])
{
	uint32_t e = SM4_SBOX_IN_XOR * 0x01010101u;
	uint32_t k = sm4_l(SM4_SBOX_OUT_XOR * 0x01010101u);

	for (unsigned int i = 0; i < SM4_ROUNDS; i++) {
		unsigned int odd = word_offset(i + 1) ^ word_offset(i + 2) ^
				   word_offset(i + 3);

		rk[i] ^= e ^ (k & (0u - odd));
	}
}

static int sm4_generic_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct sm4_generic_ctx *c = ctx;

	if (keylen != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_expand_key(key, tau_word, c->rk);
	fold_round_keys(c->rk);
	for (unsigned int r = 0; r < SM4_ROUNDS; r++)
		for (unsigned int b = 0; b < 32; b++)
			c->rkmask[r][b] = 0 - (uint64_t)((c->rk[r] >> b) & 1);
	return 0;
}

/* ---- 1 or 2 blocks ------------------------------------------------- */

static void crypt_two(const struct sm4_generic_ctx *c, int dec, uint8_t *dst,
		      const uint8_t *src, size_t n)
{
	uint32_t a[4], b[4] = { 0, 0, 0, 0 };

	for (unsigned int i = 0; i < 4; i++) {
		a[i] = load_be32(src + 4 * i);
		if (n == 2)
			b[i] = load_be32(src + 16 + 4 * i);
	}
	for (unsigned int r = 0; r < SM4_ROUNDS; r++) {
		uint32_t k = c->rk[dec ? SM4_ROUNDS - 1 - r : r];
		uint32_t ta = a[1] ^ a[2] ^ a[3] ^ k;
		uint32_t tb = b[1] ^ b[2] ^ b[3] ^ k;
		uint64_t s = sbox_bytes((uint64_t)ta << 32 | tb);
		uint32_t na = a[0] ^ sm4_l((uint32_t)(s >> 32));
		uint32_t nb = b[0] ^ sm4_l((uint32_t)s);

		a[0] = a[1], a[1] = a[2], a[2] = a[3], a[3] = na;
		b[0] = b[1], b[1] = b[2], b[2] = b[3], b[3] = nb;
	}
	for (unsigned int i = 0; i < 4; i++) {
		store_be32(dst + 4 * i, a[3 - i]);
		if (n == 2)
			store_be32(dst + 16 + 4 * i, b[3 - i]);
	}
	explicit_bzero(a, sizeof(a));
	explicit_bzero(b, sizeof(b));
}

/* ---- up to 16 blocks, S-box inputs packed per round ------------------ */

static void crypt_sixteen(const struct sm4_generic_ctx *c, int dec,
			  uint8_t *dst, const uint8_t *src, size_t n)
{
	uint32_t x[4][SM4_MID_MAX];
	uint64_t p[8], s[8];

	memset(x, 0, sizeof(x));
	for (size_t j = 0; j < n; j++)
		for (unsigned int i = 0; i < 4; i++)
			x[i][j] = load_be32(src + 16 * j + 4 * i);
	for (unsigned int r = 0; r < SM4_ROUNDS; r++) {
		uint32_t k = c->rk[dec ? SM4_ROUNDS - 1 - r : r];
		uint32_t *x0 = x[r & 3];
		const uint32_t *x1 = x[(r + 1) & 3], *x2 = x[(r + 2) & 3],
			       *x3 = x[(r + 3) & 3];

		for (unsigned int i = 0; i < 8; i++) {
			unsigned int e = 2 * i, o = 2 * i + 1;

			p[i] = (uint64_t)(x1[e] ^ x2[e] ^ x3[e] ^ k) << 32 |
			       (x1[o] ^ x2[o] ^ x3[o] ^ k);
		}
		bs_transpose_bytes8(p);
		sm4_sbox_bs(s, p);
		bs_transpose_bytes8(s);
		for (unsigned int i = 0; i < 8; i++) {
			x0[2 * i] ^= sm4_l((uint32_t)(s[i] >> 32));
			x0[2 * i + 1] ^= sm4_l((uint32_t)s[i]);
		}
	}
	/* 32 rounds: slot i holds X[32 + i]; the output is X35..X32 */
	for (size_t j = 0; j < n; j++)
		for (unsigned int i = 0; i < 4; i++)
			store_be32(dst + 16 * j + 4 * i, x[3 - i][j]);
	explicit_bzero(x, sizeof(x));
	explicit_bzero(p, sizeof(p));
	explicit_bzero(s, sizeof(s));
}

/* ---- up to 64 blocks, fully bitsliced -------------------------------- */

static void crypt_sixtyfour(const struct sm4_generic_ctx *c, int dec,
			    uint8_t *dst, const uint8_t *src, size_t n)
{
	/*
	 * st[0..63]: rows "bytes 0..7 of block j" transposed, so st[32 + b]
	 * is bit b of word 0 and st[b] bit b of word 1; st[64..127] the
	 * same for words 2 and 3.
	 */
	uint64_t st[128], t[32], s[32];
	uint64_t *x[4] = { st + 32, st, st + 96, st + 64 };

	for (size_t j = 0; j < 64; j++) {
		st[j] = j < n ? load_be64(src + 16 * j) : 0;
		st[64 + j] = j < n ? load_be64(src + 16 * j + 8) : 0;
	}
	bs_transpose64(st);
	bs_transpose64(st + 64);
	for (unsigned int r = 0; r < SM4_ROUNDS; r++) {
		const uint64_t *m = c->rkmask[dec ? SM4_ROUNDS - 1 - r : r];
		uint64_t *x0 = x[r & 3];
		const uint64_t *x1 = x[(r + 1) & 3], *x2 = x[(r + 2) & 3],
			       *x3 = x[(r + 3) & 3];

		for (unsigned int b = 0; b < 32; b++)
			t[b] = x1[b] ^ x2[b] ^ x3[b] ^ m[b];
		for (unsigned int k = 0; k < 32; k += 8)
			sm4_sbox_bs(s + k, t + k);
		/* L: (B <<< n) bit b is B bit b - n */
		for (unsigned int b = 0; b < 32; b++)
			x0[b] ^= s[b] ^ s[(b + 30) & 31] ^ s[(b + 22) & 31] ^
				 s[(b + 14) & 31] ^ s[(b + 8) & 31];
	}
	/* slot i holds X[32 + i]: rows come back as X32:X33 and X34:X35 */
	bs_transpose64(st);
	bs_transpose64(st + 64);
	for (size_t j = 0; j < n; j++) {
		store_be64(dst + 16 * j, rol64(st[64 + j], 32));
		store_be64(dst + 16 * j + 8, rol64(st[j], 32));
	}
	explicit_bzero(st, sizeof(st));
	explicit_bzero(t, sizeof(t));
	explicit_bzero(s, sizeof(s));
}

static void sm4_generic_crypt(const void *ctx, int dec, uint8_t *dst,
			      const uint8_t *src, size_t nblocks)
{
	const struct sm4_generic_ctx *c = ctx;

	while (nblocks >= SM4_FULL_MIN) {
		size_t n = nblocks < 64 ? nblocks : 64;

		crypt_sixtyfour(c, dec, dst, src, n);
		dst += n * SM4_BLOCK_SIZE;
		src += n * SM4_BLOCK_SIZE;
		nblocks -= n;
	}
	while (nblocks > 2) {
		size_t n = nblocks < SM4_MID_MAX ? nblocks : SM4_MID_MAX;

		crypt_sixteen(c, dec, dst, src, n);
		dst += n * SM4_BLOCK_SIZE;
		src += n * SM4_BLOCK_SIZE;
		nblocks -= n;
	}
	if (nblocks)
		crypt_two(c, dec, dst, src, nblocks);
}

static void sm4_generic_encrypt_blocks(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nblocks)
{
	sm4_generic_crypt(ctx, 0, dst, src, nblocks);
}

static void sm4_generic_decrypt_blocks(const void *ctx, uint8_t *dst,
				       const uint8_t *src, size_t nblocks)
{
	sm4_generic_crypt(ctx, 1, dst, src, nblocks);
}

static void sm4_generic_encrypt(const void *ctx, uint8_t *dst,
				const uint8_t *src)
{
	crypt_two(ctx, 0, dst, src, 1);
}

static void sm4_generic_decrypt(const void *ctx, uint8_t *dst,
				const uint8_t *src)
{
	crypt_two(ctx, 1, dst, src, 1);
}

const struct cipher_alg sm4_generic_cipher = {
	.blocksize = SM4_BLOCK_SIZE,
	.keysizes = { SM4_KEY_SIZE },
	.ctxsize = sizeof(struct sm4_generic_ctx),
	.setkey = sm4_generic_setkey,
	.encrypt = sm4_generic_encrypt,
	.decrypt = sm4_generic_decrypt,
	.encrypt_blocks = sm4_generic_encrypt_blocks,
	.decrypt_blocks = sm4_generic_decrypt_blocks,
};

int sm4_generic_register(struct crypto_registry *reg)
{
	static const struct crypto_driver drivers[] = {
		{
			.alg_name = "sm4",
			.driver_name = "sm4-generic",
			.priority = 100,
			.flags = CRYPTO_F_CONST_TIME,
			.type = CRYPTO_TYPE_CIPHER,
			.u.cipher = &sm4_generic_cipher,
		},
		{
			/* variable time: chosen only when the policy allows */
			.alg_name = "sm4",
			.driver_name = "sm4-table",
			.priority = 120,
			.flags = 0,
			.type = CRYPTO_TYPE_CIPHER,
			.u.cipher = &sm4_table_cipher,
		},
	};

	int err = crypto_register_drivers(reg, drivers, ARRAY_SIZE(drivers));

	return err ? err : sm4_register_testvecs(reg);
}
