/* SPDX-License-Identifier: MIT */
/*
 * Every ghash driver against OpenSSL 3.0's AES-GCM (a test-only oracle):
 * for a random AES key, 96-bit IV, AAD A and plaintext P, OpenSSL gives
 * C and the tag; the tag is E_K(IV || 1) XOR GHASH(H, A, C) with H =
 * E_K(0^128) (SP 800-38D, 7.1), so our GHASH over A and C (each zero-
 * padded) and the length block, XOR E_K(IV || 1) from OpenSSL's AES-ECB,
 * must equal it. Lengths to 4 KiB, AAD to 300 bytes, the message fed in
 * random pieces; AES-128 and AES-256.
 */
#include <string.h>

#include <openssl/evp.h>

#include "crypto/crypto.h"
#include "oracle_openssl_gcm.h"
#include "testutil.h"

#define MAX_DRIVERS 8
#define MAXLEN 4096

static int aes_ecb_block(const uint8_t *key, size_t klen, const uint8_t in[16],
			 uint8_t out[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0, ok;

	ok = c && EVP_EncryptInit_ex(c, klen == 16 ? EVP_aes_128_ecb() :
				     EVP_aes_256_ecb(), NULL, key, NULL) == 1 &&
	     EVP_CIPHER_CTX_set_padding(c, 0) == 1 &&
	     EVP_EncryptUpdate(c, out, &n, in, 16) == 1 && n == 16;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -1;
}

/* GHASH(H, A, C) through t, fed in random pieces */
static void our_ghash(struct crypto_tfm *t, const uint8_t *a, size_t alen,
		      const uint8_t *c, size_t clen, uint8_t out[16])
{
	static const uint8_t zeros[16];
	uint8_t lens[16];
	size_t off = 0;

	crypto_hash_init(t);
	crypto_hash_update(t, a, alen);
	crypto_hash_update(t, zeros, (16 - alen % 16) % 16);
	while (off < clen) {
		size_t n = test_rand_below(clen - off + 1);

		crypto_hash_update(t, c + off, n);
		off += n;
	}
	crypto_hash_update(t, zeros, (16 - clen % 16) % 16);
	for (int i = 0; i < 8; i++) {
		lens[i] = (uint8_t)((uint64_t)alen * 8 >> (56 - 8 * i));
		lens[8 + i] = (uint8_t)((uint64_t)clen * 8 >> (56 - 8 * i));
	}
	crypto_hash_update(t, lens, 16);
	crypto_hash_final(t, out);
}

int main(void)
{
	static uint8_t a[300], p[MAXLEN], c[MAXLEN + 16];
	const char *names[MAX_DRIVERS];
	unsigned int n;
	int err;

	test_seed();
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	n = test_drivers_for("ghash", names, MAX_DRIVERS);
	CHECK(n >= 1, "no ghash driver");
	for (unsigned int d = 0; d < n; d++) {
		struct crypto_tfm *t = crypto_alloc(NULL, names[d], &err);

		CHECK(t != NULL, "%s: alloc failed (%d)", names[d], err);
		if (!t)
			continue;
		for (int i = 0; i < 400; i++) {
			uint8_t key[32], iv[16], zero[16] = { 0 }, h[16], ej0[16];
			uint8_t tag[16], ours[16];
			size_t klen = test_rand_below(2) ? 32 : 16;
			size_t alen = test_rand_below(4) ? test_rand_below(sizeof(a) + 1) : 0;
			size_t plen = i < 64 ? (size_t)i : test_rand_below(MAXLEN + 1);

			test_random_bytes(key, sizeof(key));
			test_random_bytes(iv, 12);
			test_random_bytes(a, alen);
			test_random_bytes(p, plen);
			iv[12] = iv[13] = iv[14] = 0;
			iv[15] = 1;
			if (aes_ecb_block(key, klen, zero, h) || aes_ecb_block(key, klen, iv, ej0) ||
			    oracle_openssl_aes_gcm(key, klen, iv, a, alen, p, plen, c, tag)) {
				CHECK(0, "OpenSSL failed");
				break;
			}
			CHECK(crypto_setkey(t, h, 16) == 0, "setkey");
			our_ghash(t, a, alen, c, plen, ours);
			for (int j = 0; j < 16; j++)
				ours[j] ^= ej0[j];
			CHECK(!memcmp(ours, tag, 16),
			      "%s: GCM tag differs (AES-%zu, |A| = %zu, |C| = %zu)",
			      names[d], klen * 8, alen, plen);
		}
		printf("  %-24s 400 AES-GCM tags ok\n", names[d]);
		crypto_free(t);
	}
	return test_finish("test_oracle_openssl_ghash");
}
