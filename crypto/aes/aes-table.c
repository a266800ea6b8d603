/* SPDX-License-Identifier: MIT */
/*
 * Classic table-driven AES (FIPS-197): four 1 KiB T-tables per direction,
 * the equivalent inverse cipher (FIPS-197 5.3.5) for decryption.
 *
 * VARIABLE TIME: table indexes depend on key and data, so cache timing can
 * leak them. Registered without CRYPTO_F_CONST_TIME; the policy picks it
 * only where variable-time drivers are allowed.
 *
 * The tables are computed by the compiler from the S-box: each entry is a
 * column of MixColumns (or InvMixColumns) times S[x], in the little-endian
 * column words used here (row r = bits 8r..8r+7).
 */
#include <errno.h>
#include <string.h>

#include "crypto/aes/aes-internal.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"

#define AES_MAX_ROUNDS 14

/* FIPS-197 figure 7 (S-box) and figure 14 (inverse S-box) */
#define AES_SBOX_LIST(X) \
	X(0x63) X(0x7c) X(0x77) X(0x7b) X(0xf2) X(0x6b) X(0x6f) X(0xc5) \
	X(0x30) X(0x01) X(0x67) X(0x2b) X(0xfe) X(0xd7) X(0xab) X(0x76) \
	X(0xca) X(0x82) X(0xc9) X(0x7d) X(0xfa) X(0x59) X(0x47) X(0xf0) \
	X(0xad) X(0xd4) X(0xa2) X(0xaf) X(0x9c) X(0xa4) X(0x72) X(0xc0) \
	X(0xb7) X(0xfd) X(0x93) X(0x26) X(0x36) X(0x3f) X(0xf7) X(0xcc) \
	X(0x34) X(0xa5) X(0xe5) X(0xf1) X(0x71) X(0xd8) X(0x31) X(0x15) \
	X(0x04) X(0xc7) X(0x23) X(0xc3) X(0x18) X(0x96) X(0x05) X(0x9a) \
	X(0x07) X(0x12) X(0x80) X(0xe2) X(0xeb) X(0x27) X(0xb2) X(0x75) \
	X(0x09) X(0x83) X(0x2c) X(0x1a) X(0x1b) X(0x6e) X(0x5a) X(0xa0) \
	X(0x52) X(0x3b) X(0xd6) X(0xb3) X(0x29) X(0xe3) X(0x2f) X(0x84) \
	X(0x53) X(0xd1) X(0x00) X(0xed) X(0x20) X(0xfc) X(0xb1) X(0x5b) \
	X(0x6a) X(0xcb) X(0xbe) X(0x39) X(0x4a) X(0x4c) X(0x58) X(0xcf) \
	X(0xd0) X(0xef) X(0xaa) X(0xfb) X(0x43) X(0x4d) X(0x33) X(0x85) \
	X(0x45) X(0xf9) X(0x02) X(0x7f) X(0x50) X(0x3c) X(0x9f) X(0xa8) \
	X(0x51) X(0xa3) X(0x40) X(0x8f) X(0x92) X(0x9d) X(0x38) X(0xf5) \
	X(0xbc) X(0xb6) X(0xda) X(0x21) X(0x10) X(0xff) X(0xf3) X(0xd2) \
	X(0xcd) X(0x0c) X(0x13) X(0xec) X(0x5f) X(0x97) X(0x44) X(0x17) \
	X(0xc4) X(0xa7) X(0x7e) X(0x3d) X(0x64) X(0x5d) X(0x19) X(0x73) \
	X(0x60) X(0x81) X(0x4f) X(0xdc) X(0x22) X(0x2a) X(0x90) X(0x88) \
	X(0x46) X(0xee) X(0xb8) X(0x14) X(0xde) X(0x5e) X(0x0b) X(0xdb) \
	X(0xe0) X(0x32) X(0x3a) X(0x0a) X(0x49) X(0x06) X(0x24) X(0x5c) \
	X(0xc2) X(0xd3) X(0xac) X(0x62) X(0x91) X(0x95) X(0xe4) X(0x79) \
	X(0xe7) X(0xc8) X(0x37) X(0x6d) X(0x8d) X(0xd5) X(0x4e) X(0xa9) \
	X(0x6c) X(0x56) X(0xf4) X(0xea) X(0x65) X(0x7a) X(0xae) X(0x08) \
	X(0xba) X(0x78) X(0x25) X(0x2e) X(0x1c) X(0xa6) X(0xb4) X(0xc6) \
	X(0xe8) X(0xdd) X(0x74) X(0x1f) X(0x4b) X(0xbd) X(0x8b) X(0x8a) \
	X(0x70) X(0x3e) X(0xb5) X(0x66) X(0x48) X(0x03) X(0xf6) X(0x0e) \
	X(0x61) X(0x35) X(0x57) X(0xb9) X(0x86) X(0xc1) X(0x1d) X(0x9e) \
	X(0xe1) X(0xf8) X(0x98) X(0x11) X(0x69) X(0xd9) X(0x8e) X(0x94) \
	X(0x9b) X(0x1e) X(0x87) X(0xe9) X(0xce) X(0x55) X(0x28) X(0xdf) \
	X(0x8c) X(0xa1) X(0x89) X(0x0d) X(0xbf) X(0xe6) X(0x42) X(0x68) \
	X(0x41) X(0x99) X(0x2d) X(0x0f) X(0xb0) X(0x54) X(0xbb) X(0x16)

#define AES_INV_SBOX_LIST(X) \
	X(0x52) X(0x09) X(0x6a) X(0xd5) X(0x30) X(0x36) X(0xa5) X(0x38) \
	X(0xbf) X(0x40) X(0xa3) X(0x9e) X(0x81) X(0xf3) X(0xd7) X(0xfb) \
	X(0x7c) X(0xe3) X(0x39) X(0x82) X(0x9b) X(0x2f) X(0xff) X(0x87) \
	X(0x34) X(0x8e) X(0x43) X(0x44) X(0xc4) X(0xde) X(0xe9) X(0xcb) \
	X(0x54) X(0x7b) X(0x94) X(0x32) X(0xa6) X(0xc2) X(0x23) X(0x3d) \
	X(0xee) X(0x4c) X(0x95) X(0x0b) X(0x42) X(0xfa) X(0xc3) X(0x4e) \
	X(0x08) X(0x2e) X(0xa1) X(0x66) X(0x28) X(0xd9) X(0x24) X(0xb2) \
	X(0x76) X(0x5b) X(0xa2) X(0x49) X(0x6d) X(0x8b) X(0xd1) X(0x25) \
	X(0x72) X(0xf8) X(0xf6) X(0x64) X(0x86) X(0x68) X(0x98) X(0x16) \
	X(0xd4) X(0xa4) X(0x5c) X(0xcc) X(0x5d) X(0x65) X(0xb6) X(0x92) \
	X(0x6c) X(0x70) X(0x48) X(0x50) X(0xfd) X(0xed) X(0xb9) X(0xda) \
	X(0x5e) X(0x15) X(0x46) X(0x57) X(0xa7) X(0x8d) X(0x9d) X(0x84) \
	X(0x90) X(0xd8) X(0xab) X(0x00) X(0x8c) X(0xbc) X(0xd3) X(0x0a) \
	X(0xf7) X(0xe4) X(0x58) X(0x05) X(0xb8) X(0xb3) X(0x45) X(0x06) \
	X(0xd0) X(0x2c) X(0x1e) X(0x8f) X(0xca) X(0x3f) X(0x0f) X(0x02) \
	X(0xc1) X(0xaf) X(0xbd) X(0x03) X(0x01) X(0x13) X(0x8a) X(0x6b) \
	X(0x3a) X(0x91) X(0x11) X(0x41) X(0x4f) X(0x67) X(0xdc) X(0xea) \
	X(0x97) X(0xf2) X(0xcf) X(0xce) X(0xf0) X(0xb4) X(0xe6) X(0x73) \
	X(0x96) X(0xac) X(0x74) X(0x22) X(0xe7) X(0xad) X(0x35) X(0x85) \
	X(0xe2) X(0xf9) X(0x37) X(0xe8) X(0x1c) X(0x75) X(0xdf) X(0x6e) \
	X(0x47) X(0xf1) X(0x1a) X(0x71) X(0x1d) X(0x29) X(0xc5) X(0x89) \
	X(0x6f) X(0xb7) X(0x62) X(0x0e) X(0xaa) X(0x18) X(0xbe) X(0x1b) \
	X(0xfc) X(0x56) X(0x3e) X(0x4b) X(0xc6) X(0xd2) X(0x79) X(0x20) \
	X(0x9a) X(0xdb) X(0xc0) X(0xfe) X(0x78) X(0xcd) X(0x5a) X(0xf4) \
	X(0x1f) X(0xdd) X(0xa8) X(0x33) X(0x88) X(0x07) X(0xc7) X(0x31) \
	X(0xb1) X(0x12) X(0x10) X(0x59) X(0x27) X(0x80) X(0xec) X(0x5f) \
	X(0x60) X(0x51) X(0x7f) X(0xa9) X(0x19) X(0xb5) X(0x4a) X(0x0d) \
	X(0x2d) X(0xe5) X(0x7a) X(0x9f) X(0x93) X(0xc9) X(0x9c) X(0xef) \
	X(0xa0) X(0xe0) X(0x3b) X(0x4d) X(0xae) X(0x2a) X(0xf5) X(0xb0) \
	X(0xc8) X(0xeb) X(0xbb) X(0x3c) X(0x83) X(0x53) X(0x99) X(0x61) \
	X(0x17) X(0x2b) X(0x04) X(0x7e) X(0xba) X(0x77) X(0xd6) X(0x26) \
	X(0xe1) X(0x69) X(0x14) X(0x63) X(0x55) X(0x21) X(0x0c) X(0x7d)

/* GF(2^8) products with small constants, as constant expressions */
#define GF_X2(x) ((((x) << 1) ^ (((x) >> 7) * 0x1b)) & 0xff)
#define GF_X4(x) GF_X2(GF_X2(x))
#define GF_X8(x) GF_X2(GF_X4(x))
#define GF_X3(x) (GF_X2(x) ^ (x))
#define GF_X9(x) (GF_X8(x) ^ (x))
#define GF_XB(x) (GF_X8(x) ^ GF_X2(x) ^ (x))
#define GF_XD(x) (GF_X8(x) ^ GF_X4(x) ^ (x))
#define GF_XE(x) (GF_X8(x) ^ GF_X4(x) ^ GF_X2(x))

#define WORD(b0, b1, b2, b3)                                               \
	((uint32_t)(b0) | (uint32_t)(b1) << 8 | (uint32_t)(b2) << 16 |     \
	 (uint32_t)(b3) << 24)

/* MixColumns column j times s: rows (2,1,1,3), (3,2,1,1), ... */
#define TE0(s) WORD(GF_X2(s), s, s, GF_X3(s)),
#define TE1(s) WORD(GF_X3(s), GF_X2(s), s, s),
#define TE2(s) WORD(s, GF_X3(s), GF_X2(s), s),
#define TE3(s) WORD(s, s, GF_X3(s), GF_X2(s)),
/* InvMixColumns column j times s: (e,9,d,b), (b,e,9,d), ... */
#define TD0(s) WORD(GF_XE(s), GF_X9(s), GF_XD(s), GF_XB(s)),
#define TD1(s) WORD(GF_XB(s), GF_XE(s), GF_X9(s), GF_XD(s)),
#define TD2(s) WORD(GF_XD(s), GF_XB(s), GF_XE(s), GF_X9(s)),
#define TD3(s) WORD(GF_X9(s), GF_XD(s), GF_XB(s), GF_XE(s)),
#define BYTE(s) s,

static const uint32_t te0[256] = { AES_SBOX_LIST(TE0) };
static const uint32_t te1[256] = { AES_SBOX_LIST(TE1) };
static const uint32_t te2[256] = { AES_SBOX_LIST(TE2) };
static const uint32_t te3[256] = { AES_SBOX_LIST(TE3) };
static const uint32_t td0[256] = { AES_INV_SBOX_LIST(TD0) };
static const uint32_t td1[256] = { AES_INV_SBOX_LIST(TD1) };
static const uint32_t td2[256] = { AES_INV_SBOX_LIST(TD2) };
static const uint32_t td3[256] = { AES_INV_SBOX_LIST(TD3) };
static const uint8_t sbox[256] = { AES_SBOX_LIST(BYTE) };
static const uint8_t inv_sbox[256] = { AES_INV_SBOX_LIST(BYTE) };

struct aes_table_ctx {
	uint32_t ek[4 * (AES_MAX_ROUNDS + 1)]; /* encryption round keys */
	uint32_t dk[4 * (AES_MAX_ROUNDS + 1)]; /* equivalent inverse cipher */
	unsigned int rounds;
};

#define B0(x) ((x) & 0xff)
#define B1(x) (((x) >> 8) & 0xff)
#define B2(x) (((x) >> 16) & 0xff)
#define B3(x) ((x) >> 24)

static uint32_t sub_word(uint32_t w)
{
	return WORD(sbox[B0(w)], sbox[B1(w)], sbox[B2(w)], sbox[B3(w)]);
}

static uint32_t inv_mix_word(uint32_t w)
{
	return td0[sbox[B0(w)]] ^ td1[sbox[B1(w)]] ^ td2[sbox[B2(w)]] ^
	       td3[sbox[B3(w)]];
}

static int aes_table_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	static const uint8_t rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10,
					  0x20, 0x40, 0x80, 0x1b, 0x36 };
	struct aes_table_ctx *ctx = vctx;
	size_t nk = keylen / 4, nw;
	unsigned int rounds;
	uint32_t *ek = ctx->ek, *dk = ctx->dk;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	rounds = (unsigned int)nk + 6;
	ctx->rounds = rounds;
	nw = 4 * ((size_t)rounds + 1);

	for (size_t i = 0; i < nk; i++)
		ek[i] = load_le32(key + 4 * i);
	for (size_t i = nk; i < nw; i++) {
		uint32_t t = ek[i - 1];

		if (i % nk == 0)
			t = sub_word(ror32(t, 8)) ^ rcon[i / nk - 1];
		else if (nk > 6 && i % nk == 4)
			t = sub_word(t);
		ek[i] = ek[i - nk] ^ t;
	}

	/* decryption keys: reversed, InvMixColumns on the inner ones */
	for (unsigned int j = 0; j < 4; j++) {
		dk[j] = ek[4 * rounds + j];
		dk[4 * rounds + j] = ek[j];
	}
	for (unsigned int r = 1; r < rounds; r++)
		for (unsigned int j = 0; j < 4; j++)
			dk[4 * r + j] = inv_mix_word(ek[4 * (rounds - r) + j]);
	return 0;
}

static void aes_table_encrypt(const void *vctx, uint8_t *dst,
			      const uint8_t *src)
{
	const struct aes_table_ctx *ctx = vctx;
	const uint32_t *rk = ctx->ek;
	uint32_t s0 = load_le32(src) ^ rk[0], s1 = load_le32(src + 4) ^ rk[1];
	uint32_t s2 = load_le32(src + 8) ^ rk[2], s3 = load_le32(src + 12) ^ rk[3];

	for (unsigned int r = 1; r < ctx->rounds; r++) {
		uint32_t t0, t1, t2, t3;

		rk += 4;
		/* row r of output column c comes from column c + r */
		t0 = te0[B0(s0)] ^ te1[B1(s1)] ^ te2[B2(s2)] ^ te3[B3(s3)] ^ rk[0];
		t1 = te0[B0(s1)] ^ te1[B1(s2)] ^ te2[B2(s3)] ^ te3[B3(s0)] ^ rk[1];
		t2 = te0[B0(s2)] ^ te1[B1(s3)] ^ te2[B2(s0)] ^ te3[B3(s1)] ^ rk[2];
		t3 = te0[B0(s3)] ^ te1[B1(s0)] ^ te2[B2(s1)] ^ te3[B3(s2)] ^ rk[3];
		s0 = t0;
		s1 = t1;
		s2 = t2;
		s3 = t3;
	}
	rk += 4;
	store_le32(dst, WORD(sbox[B0(s0)], sbox[B1(s1)], sbox[B2(s2)],
			     sbox[B3(s3)]) ^ rk[0]);
	store_le32(dst + 4, WORD(sbox[B0(s1)], sbox[B1(s2)], sbox[B2(s3)],
				 sbox[B3(s0)]) ^ rk[1]);
	store_le32(dst + 8, WORD(sbox[B0(s2)], sbox[B1(s3)], sbox[B2(s0)],
				 sbox[B3(s1)]) ^ rk[2]);
	store_le32(dst + 12, WORD(sbox[B0(s3)], sbox[B1(s0)], sbox[B2(s1)],
				  sbox[B3(s2)]) ^ rk[3]);
}

static void aes_table_decrypt(const void *vctx, uint8_t *dst,
			      const uint8_t *src)
{
	const struct aes_table_ctx *ctx = vctx;
	const uint32_t *rk = ctx->dk;
	uint32_t s0 = load_le32(src) ^ rk[0], s1 = load_le32(src + 4) ^ rk[1];
	uint32_t s2 = load_le32(src + 8) ^ rk[2], s3 = load_le32(src + 12) ^ rk[3];

	for (unsigned int r = 1; r < ctx->rounds; r++) {
		uint32_t t0, t1, t2, t3;

		rk += 4;
		/* row r of output column c comes from column c - r */
		t0 = td0[B0(s0)] ^ td1[B1(s3)] ^ td2[B2(s2)] ^ td3[B3(s1)] ^ rk[0];
		t1 = td0[B0(s1)] ^ td1[B1(s0)] ^ td2[B2(s3)] ^ td3[B3(s2)] ^ rk[1];
		t2 = td0[B0(s2)] ^ td1[B1(s1)] ^ td2[B2(s0)] ^ td3[B3(s3)] ^ rk[2];
		t3 = td0[B0(s3)] ^ td1[B1(s2)] ^ td2[B2(s1)] ^ td3[B3(s0)] ^ rk[3];
		s0 = t0;
		s1 = t1;
		s2 = t2;
		s3 = t3;
	}
	rk += 4;
	store_le32(dst, WORD(inv_sbox[B0(s0)], inv_sbox[B1(s3)],
			     inv_sbox[B2(s2)], inv_sbox[B3(s1)]) ^ rk[0]);
	store_le32(dst + 4, WORD(inv_sbox[B0(s1)], inv_sbox[B1(s0)],
				 inv_sbox[B2(s3)], inv_sbox[B3(s2)]) ^ rk[1]);
	store_le32(dst + 8, WORD(inv_sbox[B0(s2)], inv_sbox[B1(s1)],
				 inv_sbox[B2(s0)], inv_sbox[B3(s3)]) ^ rk[2]);
	store_le32(dst + 12, WORD(inv_sbox[B0(s3)], inv_sbox[B1(s2)],
				  inv_sbox[B2(s1)], inv_sbox[B3(s0)]) ^ rk[3]);
}

static void aes_table_encrypt_blocks(const void *ctx, uint8_t *dst,
				     const uint8_t *src, size_t nblocks)
{
	for (size_t i = 0; i < nblocks; i++)
		aes_table_encrypt(ctx, dst + AES_BLOCK_SIZE * i,
				  src + AES_BLOCK_SIZE * i);
}

static void aes_table_decrypt_blocks(const void *ctx, uint8_t *dst,
				     const uint8_t *src, size_t nblocks)
{
	for (size_t i = 0; i < nblocks; i++)
		aes_table_decrypt(ctx, dst + AES_BLOCK_SIZE * i,
				  src + AES_BLOCK_SIZE * i);
}

static const struct cipher_alg aes_table_alg = {
	.blocksize = AES_BLOCK_SIZE,
	.keysizes = { 16, 24, 32, 0 },
	.ctxsize = sizeof(struct aes_table_ctx),
	.setkey = aes_table_setkey,
	.encrypt = aes_table_encrypt,
	.decrypt = aes_table_decrypt,
	.encrypt_blocks = aes_table_encrypt_blocks,
	.decrypt_blocks = aes_table_decrypt_blocks,
};

/* see aes-internal.h */
const struct crypto_driver aes_table_driver = {
	.alg_name = "aes",
	.driver_name = "aes-table",
	.priority = 120,
	.features = 0,
	.flags = 0, /* variable time */
	.type = CRYPTO_TYPE_CIPHER,
	.u.cipher = &aes_table_alg,
};
