/* SPDX-License-Identifier: MIT */
/*
 * XChaCha20-Poly1305 against libsodium (test-only dependency), every
 * "xchacha20poly1305" driver this CPU runs, each forced by name: the
 * ciphertext and tag of crypto_aead_xchacha20poly1305_ietf_encrypt_detached
 * for every length 0..1024 and random lengths to 64 KiB, random keys,
 * 24-byte nonces and AAD, buffers at random offsets; libsodium's
 * ciphertext decrypts, in place too; a flipped bit of tag, ciphertext,
 * AAD or nonce gives -EBADMSG and a zeroed dst. Also HChaCha20 against
 * crypto_core_hchacha20 on random inputs, and every "xchacha20" skcipher
 * driver against crypto_stream_xchacha20_xor_ic, across 2^32 blocks too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/crypto.h"
#include "crypto/internal/util.h"
#include "testutil.h"

#define MAX_LEN (64 * 1024)
#define SLACK 64
#define RANDOM_LENGTHS 200
#define MAX_DRIVERS 8

static uint8_t *buf_src, *buf_dst, *buf_ref, *buf_aad;

static size_t pick_off(void)
{
	return (size_t)test_rand_below(SLACK / 2);
}

/* decrypt must fail with -EBADMSG and leave dst zero */
static void expect_badmsg(struct crypto_tfm *t, const char *name, const char *what,
			  const uint8_t *nonce, const uint8_t *aad, size_t aadlen,
			  uint8_t *dst, const uint8_t *src, size_t n, const uint8_t *tag)
{
	int err, zero = 1;

	if (dst != src)
		memset(dst, 0xa5, n);
	err = crypto_aead_decrypt(t, nonce, aad, aadlen, dst, src, n, tag);
	for (size_t i = 0; i < n; i++)
		zero &= dst[i] == 0;
	CHECK(err == -EBADMSG && zero, "%s: %s, len %zu: %d, dst %s", name, what, n,
	      err, zero ? "zeroed" : "not zeroed");
}

static void test_driver(const char *name)
{
	uint8_t key[32], nonce[24], tag[16], want[16];
	int err;
	struct crypto_tfm *t = crypto_alloc(NULL, name, &err);

	CHECK(t != NULL, "%s: alloc: %d", name, err);
	if (!t)
		return;
	for (unsigned int i = 0; i <= 1024 + RANDOM_LENGTHS; i++) {
		size_t n = i <= 1024 ? i : (size_t)test_rand_below(MAX_LEN + 1);
		size_t aadlen = (size_t)test_rand_below(test_rand_below(8) ? 100 : 2000);
		uint8_t *src = buf_src + pick_off(), *dst = buf_dst + pick_off();
		uint8_t *aad = buf_aad + pick_off();
		unsigned long long maclen = 0;

		test_random_bytes(key, sizeof(key));
		test_random_bytes(nonce, sizeof(nonce));
		test_random_bytes(aad, aadlen);
		test_random_bytes(src, n);
		CHECK(crypto_aead_xchacha20poly1305_ietf_encrypt_detached(buf_ref, want,
			&maclen, src, n, aad, aadlen, NULL, nonce, key) == 0 &&
		      maclen == 16, "libsodium encrypt");
		CHECK(crypto_setkey(t, key, sizeof(key)) == 0, "%s: setkey", name);
		err = crypto_aead_encrypt(t, nonce, aad, aadlen, dst, src, n, tag);
		CHECK(err == 0 && !memcmp(dst, buf_ref, n) && !memcmp(tag, want, 16),
		      "%s: len %zu aad %zu: not libsodium's ciphertext and tag", name,
		      n, aadlen);
		err = crypto_aead_decrypt(t, nonce, aad, aadlen, dst, buf_ref, n, want);
		CHECK(err == 0 && !memcmp(dst, src, n), "%s: len %zu: decrypt %d",
		      name, n, err);
		memcpy(dst, buf_ref, n);
		err = crypto_aead_decrypt(t, nonce, aad, aadlen, dst, dst, n, want);
		CHECK(err == 0 && !memcmp(dst, src, n), "%s: len %zu: in place %d",
		      name, n, err);
		if (i % 8 && i <= 1024)
			continue;
		want[test_rand_below(16)] ^= (uint8_t)(1u << test_rand_below(8));
		expect_badmsg(t, name, "flipped tag bit", nonce, aad, aadlen, dst,
			      buf_ref, n, want);
		CHECK(crypto_aead_encrypt(t, nonce, aad, aadlen, dst, src, n, tag) == 0,
		      "re-encrypt");
		nonce[test_rand_below(24)] ^= 0x40;
		expect_badmsg(t, name, "flipped nonce bit", nonce, aad, aadlen, dst,
			      buf_ref, n, tag);
	}
	crypto_free(t);
}

/* HChaCha20 against libsodium's crypto_core_hchacha20 */
static void test_hchacha20(void)
{
	for (int i = 0; i < 1000; i++) {
		uint8_t key[32], nonce[16], want[32], got[32];
		struct chacha20_key k;

		test_random_bytes(key, sizeof(key));
		test_random_bytes(nonce, sizeof(nonce));
		CHECK(crypto_core_hchacha20(want, nonce, key, NULL) == 0, "libsodium");
		chacha20_setkey(&k, key);
		hchacha20(got, &k, nonce);
		CHECK(!memcmp(got, want, sizeof(got)), "hchacha20 differs (%d)", i);
	}
}

/*
 * The xchacha20 skcipher driver name against
 * crypto_stream_xchacha20_xor_ic: lengths 0..300 and random ones to
 * 64 KiB, random 64-bit starting positions, a third of them within a few
 * blocks below 2^32 or 2^33 so that the message crosses them (libsodium
 * carries into the high word), buffers at random offsets
 */
static void test_stream_driver(const char *name)
{
	uint8_t key[32], iv[32];
	int err;
	struct crypto_tfm *t = crypto_alloc(NULL, name, &err);

	CHECK(t != NULL, "%s: alloc: %d", name, err);
	if (!t)
		return;
	for (unsigned int i = 0; i <= 300 + RANDOM_LENGTHS; i++) {
		size_t n = i <= 300 ? i : (size_t)test_rand_below(MAX_LEN + 1);
		uint64_t pos = test_rand();
		uint8_t *src = buf_src + pick_off(), *dst = buf_dst + pick_off();
		uint8_t *ref = buf_ref + pick_off();

		if (i % 3 == 0) /* up to 8 blocks below 2^32 or 2^33 */
			pos = ((uint64_t)1 << (32 + i % 2)) - 1 - test_rand_below(8);
		test_random_bytes(key, sizeof(key));
		test_random_bytes(iv, 24);
		store_le64(iv + 24, pos);
		test_random_bytes(src, n);
		CHECK(crypto_stream_xchacha20_xor_ic(ref, src, n, iv, pos, key) == 0,
		      "libsodium");
		CHECK(crypto_setkey(t, key, sizeof(key)) == 0 &&
		      crypto_encrypt(t, iv, dst, src, n) == 0, "%s: encrypt", name);
		CHECK(!memcmp(dst, ref, n), "%s: %zu bytes from block %#llx differ",
		      name, n, (unsigned long long)pos);
		CHECK(load_le64(iv + 24) == pos + (n + 63) / 64, "%s: %zu bytes from "
		      "block %#llx: position %#llx written back", name, n,
		      (unsigned long long)pos, (unsigned long long)load_le64(iv + 24));
	}
	crypto_free(t);
}

int main(void)
{
	const char *names[MAX_DRIVERS];
	unsigned int n;

	test_seed();
	CHECK(sodium_init() >= 0, "sodium_init");
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	buf_src = malloc(MAX_LEN + SLACK);
	buf_dst = malloc(MAX_LEN + SLACK);
	buf_ref = malloc(MAX_LEN + SLACK);
	buf_aad = malloc(2000 + SLACK);
	if (!buf_src || !buf_dst || !buf_ref || !buf_aad)
		return 1;
	test_hchacha20();
	n = test_drivers_for("xchacha20poly1305", names, MAX_DRIVERS);
	CHECK(n > 0, "no xchacha20poly1305 driver");
	for (unsigned int i = 0; i < n; i++) {
		fprintf(stderr, "xchacha20poly1305: %s\n", names[i]);
		test_driver(names[i]);
	}
	n = test_drivers_for("xchacha20", names, MAX_DRIVERS);
	CHECK(n > 0, "no xchacha20 driver");
	for (unsigned int i = 0; i < n; i++) {
		fprintf(stderr, "xchacha20: %s\n", names[i]);
		test_stream_driver(names[i]);
	}
	free(buf_src);
	free(buf_dst);
	free(buf_ref);
	free(buf_aad);
	return test_finish("test_oracle_sodium_xchacha");
}
