/* SPDX-License-Identifier: MIT */
/*
 * Differential test against OpenSSL libcrypto (test-only dependency) for
 * every driver of aes, ecb(aes), cbc(aes), cfb(aes), ctr(aes), xts(aes)
 * and cts(cbc(aes)) this CPU can run, each forced by name, the
 * variable-time aes-table instances included; what runs is oracle.h's,
 * for each key size (AES-128/192/256; XTS with 32- and 64-byte keys).
 * The single-block drivers get random batches of 0..69 blocks (all tails
 * of the 4-block path).
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "oracle.h"
#include "testutil.h"

/* OpenSSL's name of each oracle mode: "AES-<bits>-<this>" */
static const char *const ossl_modes[ORACLE_NMODES] = {
	[ORACLE_ECB] = "ECB", [ORACLE_CBC] = "CBC", [ORACLE_CFB] = "CFB",
	[ORACLE_CTR] = "CTR", [ORACLE_XTS] = "XTS", [ORACLE_CTS] = "CBC-CTS",
};

/* OpenSSL's encryption of in[0..len); 0 on success */
static int ossl_encrypt(enum oracle_mode mode, const uint8_t *key,
			size_t keylen, const uint8_t *iv, uint8_t *out,
			const uint8_t *in, size_t len)
{
	static EVP_CIPHER *cache[ORACLE_NMODES][3];
	int bits = (int)(mode == ORACLE_XTS ? keylen / 2 : keylen) * 8;
	EVP_CIPHER **slot = &cache[mode][(bits - 128) / 64];
	OSSL_PARAM cts[2] = {
		OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE,
						 (char *)"CS3", 0),
		OSSL_PARAM_END,
	};
	EVP_CIPHER_CTX *ctx;
	int ok, l1 = 0, l2 = 0;

	if (!*slot) {
		char name[32];

		snprintf(name, sizeof(name), "AES-%d-%s", bits, ossl_modes[mode]);
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

int main(void)
{
	static const struct oracle_cipher aes = {
		.name = "aes", .reference = "OpenSSL",
		.keylens = { 16, 24, 32 }, .xts_keylens = { 32, 64 },
		.batch_below = 70, .encrypt = ossl_encrypt,
	};

	return oracle_run(&aes, "test_oracle_openssl_aes");
}
