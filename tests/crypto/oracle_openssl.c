/* SPDX-License-Identifier: MIT */
/* OpenSSL as the oracle of the block-cipher tests. See oracle_openssl.h. */
#include "oracle_openssl.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#define BLOCK 16

/* OpenSSL's name of each oracle mode: "<FAMILY>-<bits>-<this>" */
static const char *const ossl_modes[ORACLE_NMODES] = {
	[ORACLE_ECB] = "ECB", [ORACLE_CBC] = "CBC", [ORACLE_CFB] = "CFB",
	[ORACLE_CTR] = "CTR", [ORACLE_XTS] = "XTS", [ORACLE_CTS] = "CBC-CTS",
};

/* fetched ciphers, by family (first letter is enough here), mode, bits */
static EVP_CIPHER *cache[2][ORACLE_NMODES][3];

static int evp_encrypt(const char *family, enum oracle_mode mode,
		       const uint8_t *key, size_t keylen, const uint8_t *iv,
		       uint8_t *out, const uint8_t *in, size_t len)
{
	int bits = (int)(mode == ORACLE_XTS ? keylen / 2 : keylen) * 8;
	EVP_CIPHER **slot = &cache[family[0] == 'C'][mode][(bits - 128) / 64];
	OSSL_PARAM cts[2] = {
		OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE,
						 (char *)"CS3", 0),
		OSSL_PARAM_END,
	};
	EVP_CIPHER_CTX *ctx;
	int ok, l1 = 0, l2 = 0;

	if (bits != 128 && bits != 192 && bits != 256)
		return -1;
	if (!*slot) {
		char name[40];

		snprintf(name, sizeof(name), "%s-%d-%s", family, bits,
			 ossl_modes[mode]);
		*slot = EVP_CIPHER_fetch(NULL, name, NULL);
		if (!*slot)
			return -1;
	}
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -1;
	ok = EVP_CipherInit_ex2(ctx, *slot, key, mode == ORACLE_ECB ? NULL : iv,
				1, mode == ORACLE_CTS ? cts : NULL) == 1;
	ok = ok && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1;
	ok = ok && EVP_CipherUpdate(ctx, out, &l1, in, (int)len) == 1;
	ok = ok && EVP_CipherFinal_ex(ctx, out + l1, &l2) == 1;
	EVP_CIPHER_CTX_free(ctx);
	return ok && (size_t)(l1 + l2) == len ? 0 : -1;
}

/* T <- T * x in GF(2^128), little-endian bytes (IEEE 1619) */
static void mul_x(uint8_t t[BLOCK])
{
	uint8_t carry = 0;

	for (int i = 0; i < BLOCK; i++) {
		uint8_t c = t[i] >> 7;

		t[i] = (uint8_t)(t[i] << 1 | carry);
		carry = c;
	}
	if (carry)
		t[0] ^= 0x87;
}

/* one block E_K1(p ^ t) ^ t through OpenSSL's ECB */
static int xts_block(const char *family, const uint8_t *k1, size_t half,
		     const uint8_t *t, uint8_t *out, const uint8_t *p)
{
	uint8_t b[BLOCK];

	for (int i = 0; i < BLOCK; i++)
		b[i] = p[i] ^ t[i];
	if (evp_encrypt(family, ORACLE_ECB, k1, half, NULL, b, b, BLOCK))
		return -1;
	for (int i = 0; i < BLOCK; i++)
		out[i] = b[i] ^ t[i];
	return 0;
}

/* IEEE 1619-2007 5.3.1 with 5.3.2's stealing for a partial last block */
static int xts_composed(const char *family, const uint8_t *key, size_t keylen,
			const uint8_t *iv, uint8_t *out, const uint8_t *in,
			size_t len)
{
	size_t half = keylen / 2, tail = len % BLOCK, full;
	uint8_t t[BLOCK], cc[BLOCK], pp[BLOCK];

	if (len < BLOCK ||
	    evp_encrypt(family, ORACLE_ECB, key + half, half, NULL, t, iv, BLOCK))
		return -1;
	full = len / BLOCK - (tail ? 1 : 0);
	for (size_t i = 0; i < full; i++, mul_x(t))
		if (xts_block(family, key, half, t, out + BLOCK * i, in + BLOCK * i))
			return -1;
	if (tail) {
		const uint8_t *p = in + BLOCK * full;

		if (xts_block(family, key, half, t, cc, p))
			return -1;
		mul_x(t);
		memcpy(pp, p + BLOCK, tail);
		memcpy(pp + tail, cc + tail, BLOCK - tail);
		memcpy(out + BLOCK * full + BLOCK, cc, tail);
		if (xts_block(family, key, half, t, out + BLOCK * full, pp))
			return -1;
	}
	return 0;
}

int oracle_openssl_encrypt(const char *family, int compose_xts,
			   enum oracle_mode mode, const uint8_t *key,
			   size_t keylen, const uint8_t *iv, uint8_t *out,
			   const uint8_t *in, size_t len)
{
	if (mode == ORACLE_XTS && compose_xts)
		return xts_composed(family, key, keylen, iv, out, in, len);
	return evp_encrypt(family, mode, key, keylen, iv, out, in, len);
}
