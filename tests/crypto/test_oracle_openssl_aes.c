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
#include "oracle.h"
#include "oracle_openssl.h"

static int ossl_encrypt(enum oracle_mode mode, const uint8_t *key,
			size_t keylen, const uint8_t *iv, uint8_t *out,
			const uint8_t *in, size_t len)
{
	return oracle_openssl_encrypt("AES", 0, mode, key, keylen, iv, out, in, len);
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
