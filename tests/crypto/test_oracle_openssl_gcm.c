/* SPDX-License-Identifier: MIT */
/*
 * Every gcm(aes) driver against OpenSSL 3.0's AES-GCM (a test-only
 * oracle): random AES-128, -192 and -256 keys, 96-bit nonces, plaintext
 * of 0 to 5,000 bytes (every length to 64 first, then random) and AAD of
 * 0 to 700 (the fused cores hash AAD in 256-byte steps of their own):
 * the same ciphertext and tag. Each driver then opens
 * OpenSSL's output and refuses it with one bit of the AAD, the
 * ciphertext or the tag flipped (-EBADMSG, dst zeroed). $TEST_SEED
 * reproduces a run.
 */
#include <errno.h>
#include <string.h>

#include "crypto/crypto.h"
#include "oracle_openssl_gcm.h"
#include "testutil.h"

#define MAX_DRIVERS 32
#define MAXLEN 5000
#define MAXAAD 700
#define ROUNDS 300

static uint8_t p[MAXLEN], c[MAXLEN], ours[MAXLEN], a[MAXAAD];

static int all_zero(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

/* one message through driver t (keyed with key), checked against OpenSSL */
static void check_one(struct crypto_tfm *t, const char *name, const uint8_t *key,
		      size_t klen, size_t plen, size_t alen)
{
	uint8_t nonce[12], tag[16], tag_ours[16];
	size_t flip;

	test_random_bytes(nonce, sizeof(nonce));
	test_random_bytes(a, alen);
	test_random_bytes(p, plen);
	if (oracle_openssl_aes_gcm(key, klen, nonce, a, alen, p, plen, c, tag)) {
		CHECK(0, "OpenSSL failed");
		return;
	}
	CHECK(crypto_aead_encrypt(t, nonce, a, alen, ours, p, plen, tag_ours) == 0 &&
	      !memcmp(ours, c, plen) && !memcmp(tag_ours, tag, 16),
	      "%s: AES-%zu, |P| = %zu, |A| = %zu: differs from OpenSSL", name,
	      klen * 8, plen, alen);
	CHECK(crypto_aead_decrypt(t, nonce, a, alen, ours, c, plen, tag) == 0 &&
	      !memcmp(ours, p, plen),
	      "%s: AES-%zu, |P| = %zu, |A| = %zu: OpenSSL's output not opened",
	      name, klen * 8, plen, alen);
	/* one bit flipped in the AAD, the ciphertext or the tag */
	flip = test_rand_below(8 * (alen + plen + 16));
	if (flip < 8 * alen)
		a[flip / 8] ^= (uint8_t)(1u << (flip % 8));
	else if (flip < 8 * (alen + plen))
		c[flip / 8 - alen] ^= (uint8_t)(1u << (flip % 8));
	else
		tag[flip / 8 - alen - plen] ^= (uint8_t)(1u << (flip % 8));
	memset(ours, 0xa5, plen);
	CHECK(crypto_aead_decrypt(t, nonce, a, alen, ours, c, plen, tag) == -EBADMSG &&
	      all_zero(ours, plen),
	      "%s: |P| = %zu, |A| = %zu: forgery (bit %zu) accepted or dst kept",
	      name, plen, alen, flip);
}

int main(void)
{
	static const size_t klens[] = { 16, 24, 32 };
	const char *names[MAX_DRIVERS];
	unsigned int n;
	int err;

	test_seed();
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	n = test_drivers_for("gcm(aes)", names, MAX_DRIVERS);
	CHECK(n >= 1, "no gcm(aes) driver");
	for (unsigned int d = 0; d < n; d++) {
		struct crypto_tfm *t = crypto_alloc(NULL, names[d], &err);

		CHECK(t != NULL, "%s: alloc failed (%d)", names[d], err);
		if (!t)
			continue;
		for (int i = 0; i < ROUNDS; i++) {
			uint8_t key[32];
			size_t klen = klens[i % 3];
			size_t plen = i < 65 ? (size_t)i : test_rand_below(MAXLEN + 1);
			size_t alen = test_rand_below(4) ? test_rand_below(MAXAAD + 1) : 0;

			test_random_bytes(key, klen);
			if (crypto_setkey(t, key, klen)) {
				CHECK(0, "%s: setkey of %zu bytes", names[d], klen);
				break;
			}
			check_one(t, names[d], key, klen, plen, alen);
		}
		printf("  %-42s %d messages as OpenSSL\n", names[d], ROUNDS);
		crypto_free(t);
	}
	return test_finish("test_oracle_openssl_gcm");
}
