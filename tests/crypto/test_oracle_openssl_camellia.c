/* SPDX-License-Identifier: MIT */
/*
 * Differential test against OpenSSL libcrypto (test-only dependency) for
 * every driver of camellia, ecb(camellia), cbc, cfb, ctr, xts and
 * cts(cbc(camellia)) this CPU can run, each forced by name, the
 * variable-time camellia-table instances included; what runs is
 * oracle.h's, for each key size (Camellia-128/192/256; XTS with 32-, 48-
 * and 64-byte keys). OpenSSL has Camellia ECB, CBC, CFB, CTR and CBC-CTS
 * but no XTS: the XTS reference is IEEE 1619 composed over OpenSSL's
 * Camellia-ECB (oracle_openssl.c). The single-block drivers get random
 * batches of 0..150 blocks, which covers both layouts of the bitsliced
 * driver and whole and partial steps of the SIMD cores.
 */
#include "oracle.h"
#include "oracle_openssl.h"

static int ossl_encrypt(enum oracle_mode mode, const uint8_t *key,
			size_t keylen, const uint8_t *iv, uint8_t *out,
			const uint8_t *in, size_t len)
{
	return oracle_openssl_encrypt("CAMELLIA", 1, mode, key, keylen, iv, out,
				      in, len);
}

int main(void)
{
	static const struct oracle_cipher camellia = {
		.name = "camellia", .reference = "OpenSSL",
		.keylens = { 16, 24, 32 }, .xts_keylens = { 32, 48, 64 },
		.batch_below = 151, .encrypt = ossl_encrypt,
	};

	return oracle_run(&camellia, "test_oracle_openssl_camellia");
}
