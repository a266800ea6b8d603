/* SPDX-License-Identifier: MIT */
/*
 * Differential test against OpenSSL libcrypto (test-only dependency) for
 * every driver of sha512, hmac(sha512), chacha20 and
 * rfc7539(chacha20,poly1305) this CPU can run, each forced by name, and
 * for HKDF-SHA512 (crypto/kdf) against EVP_KDF "HKDF".
 *
 * Inputs are random (seeded, see test_seed): every length 0..1024, then
 * random lengths up to 64 KiB; buffers at random offsets (unaligned);
 * hashes fed in random pieces; ciphers in place and out of place; AEAD
 * with random AAD lengths, and with one flipped bit of tag, ciphertext or
 * AAD, which must give -EBADMSG and leave dst all zero.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "crypto/crypto.h"
#include "crypto/kdf/hkdf.h"
#include "testutil.h"

#define MAX_LEN (64 * 1024)
#define SLACK 64 /* room for offsets and overrun guards */
#define RANDOM_LENGTHS 300
#define MAX_DRIVERS 16

static uint8_t *buf_src, *buf_dst, *buf_ref, *buf_aad;

/* lengths: 0..1024 each, then random ones up to MAX_LEN */
static size_t pick_len(unsigned int i)
{
	return i <= 1024 ? i : (size_t)test_rand_below(MAX_LEN + 1);
}

static unsigned int nlens(void)
{
	return 1025 + RANDOM_LENGTHS;
}

static size_t pick_off(void)
{
	return (size_t)test_rand_below(16);
}

static int ossl_digest(const uint8_t *p, size_t n, uint8_t out[64])
{
	unsigned int len = 0;

	return EVP_Digest(p, n, out, &len, EVP_sha512(), NULL) == 1 && len == 64;
}

/* hash p[0..n) through tfm in random pieces */
static int hash_pieces(struct crypto_tfm *tfm, const uint8_t *p, size_t n,
		       uint8_t *out)
{
	int err = crypto_hash_init(tfm);

	while (!err && n) {
		size_t k = (size_t)test_rand_below(n < 300 ? n + 1 : 300);

		if (test_rand_below(8) == 0)
			k = (size_t)test_rand_below(n + 1); /* sometimes big */
		err = crypto_hash_update(tfm, p, k);
		p += k;
		n -= k;
	}
	return err ? err : crypto_hash_final(tfm, out);
}

static void test_sha512_driver(const char *name)
{
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, name, &err);

	CHECK(tfm != NULL, "%s: alloc: %d", name, err);
	if (!tfm)
		return;
	for (unsigned int i = 0; i < nlens(); i++) {
		size_t n = pick_len(i), off = pick_off();
		uint8_t *src = buf_src + off, want[64], got[64], pieces[64];

		test_random_bytes(src, n);
		CHECK(ossl_digest(src, n, want), "openssl sha512");
		err = crypto_hash_digest(tfm, src, n, got);
		CHECK(err == 0 && !memcmp(got, want, 64), "%s: len %zu one shot",
		      name, n);
		err = hash_pieces(tfm, src, n, pieces);
		CHECK(err == 0 && !memcmp(pieces, want, 64), "%s: len %zu pieces",
		      name, n);
	}
	crypto_free(tfm);
}

static void test_hmac_driver(const char *name)
{
	/* RFC 4231 test case 5: output truncated to 128 bits */
	static const uint8_t case5_prefix[16] = {
		0x41, 0x5f, 0xad, 0x62, 0x71, 0x58, 0x0a, 0x53,
		0x1d, 0x41, 0x79, 0xbc, 0x89, 0x1d, 0x87, 0xa6,
	};
	uint8_t key[300], want[64], got[64], pieces[64];
	unsigned int wlen;
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, name, &err);

	CHECK(tfm != NULL, "%s: alloc: %d", name, err);
	if (!tfm)
		return;

	memset(key, 0x0c, 20);
	err = crypto_setkey(tfm, key, 20);
	if (!err)
		err = crypto_hash_digest(tfm, (const uint8_t *)"Test With Truncation",
					 20, got);
	CHECK(err == 0 && !memcmp(got, case5_prefix, 16),
	      "%s: RFC 4231 case 5 (first 128 bits)", name);

	for (unsigned int i = 0; i < nlens(); i++) {
		size_t n = pick_len(i), off = pick_off();
		size_t klen = (size_t)test_rand_below(sizeof(key) + 1);
		uint8_t *src = buf_src + off;

		test_random_bytes(key, klen);
		test_random_bytes(src, n);
		CHECK(HMAC(EVP_sha512(), key, (int)klen, src, n, want, &wlen) &&
		      wlen == 64, "openssl hmac");
		err = crypto_setkey(tfm, key, klen);
		CHECK(err == 0, "%s: setkey %zu: %d", name, klen, err);
		err = crypto_hash_digest(tfm, src, n, got);
		CHECK(err == 0 && !memcmp(got, want, 64),
		      "%s: key %zu len %zu one shot", name, klen, n);
		err = hash_pieces(tfm, src, n, pieces);
		CHECK(err == 0 && !memcmp(pieces, want, 64),
		      "%s: key %zu len %zu pieces", name, klen, n);
	}
	crypto_free(tfm);
}

static int ossl_chacha20(const uint8_t key[32], const uint8_t iv[16],
			 const uint8_t *src, size_t n, uint8_t *dst)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int ok, len = 0;

	ok = c && EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv) == 1 &&
	     EVP_EncryptUpdate(c, dst, &len, src, (int)n) == 1 && (size_t)len == n;
	EVP_CIPHER_CTX_free(c);
	return ok;
}

static void test_chacha20_driver(const char *name)
{
	uint8_t key[32], iv[16], iv2[16];
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, name, &err);

	CHECK(tfm != NULL, "%s: alloc: %d", name, err);
	if (!tfm)
		return;
	for (unsigned int i = 0; i < nlens(); i++) {
		size_t n = pick_len(i), soff = pick_off(), doff = pick_off();
		uint8_t *src = buf_src + soff, *dst = buf_dst + doff;
		uint32_t ctr, want_ctr;
		size_t split;

		test_random_bytes(key, sizeof(key));
		test_random_bytes(iv, sizeof(iv));
		/*
		 * Counter below 2^31: OpenSSL carries a wrapped counter into
		 * the nonce, the RFC and the kernel wrap modulo 2^32 (tested
		 * separately below).
		 */
		iv[3] &= 0x7f;
		ctr = (uint32_t)iv[0] | (uint32_t)iv[1] << 8 |
		      (uint32_t)iv[2] << 16 | (uint32_t)iv[3] << 24;
		want_ctr = ctr + (uint32_t)((n + 63) / 64);
		test_random_bytes(src, n);
		CHECK(ossl_chacha20(key, iv, src, n, buf_ref), "openssl chacha20");
		CHECK(crypto_setkey(tfm, key, 32) == 0, "%s: setkey", name);

		/* out of place, one call; iv advanced by the blocks started */
		memcpy(iv2, iv, 16);
		err = crypto_encrypt(tfm, iv2, dst, src, n);
		CHECK(err == 0 && !memcmp(dst, buf_ref, n), "%s: len %zu", name, n);
		CHECK(((uint32_t)iv2[0] | (uint32_t)iv2[1] << 8 |
		       (uint32_t)iv2[2] << 16 | (uint32_t)iv2[3] << 24) == want_ctr &&
		      !memcmp(iv2 + 4, iv + 4, 12), "%s: len %zu iv update", name, n);

		/* in place, in two pieces split at a multiple of 64 */
		split = n ? (size_t)test_rand_below(n + 1) & ~(size_t)63 : 0;
		memcpy(dst, src, n);
		memcpy(iv2, iv, 16);
		err = crypto_encrypt(tfm, iv2, dst, dst, split);
		if (!err)
			err = crypto_encrypt(tfm, iv2, dst + split, dst + split,
					     n - split);
		CHECK(err == 0 && !memcmp(dst, buf_ref, n),
		      "%s: len %zu in place, split %zu", name, n, split);

		/* decrypt is the inverse */
		memcpy(iv2, iv, 16);
		err = crypto_decrypt(tfm, iv2, dst, buf_ref, n);
		CHECK(err == 0 && !memcmp(dst, src, n), "%s: len %zu decrypt",
		      name, n);
	}

	/* 32-bit counter wraps to 0 within the nonce (RFC 8439, kernel) */
	memset(iv, 0xff, 4);
	memset(buf_src, 0, 128);
	CHECK(crypto_encrypt(tfm, iv, buf_dst, buf_src, 128) == 0, "wrap");
	CHECK(iv[0] == 1 && iv[1] == 0 && iv[2] == 0 && iv[3] == 0,
	      "%s: counter after wrap", name);
	memset(iv, 0, 4);
	CHECK(crypto_encrypt(tfm, iv, buf_ref, buf_src, 64) == 0, "wrap");
	CHECK(!memcmp(buf_dst + 64, buf_ref, 64), "%s: block after 2^32-1 is block 0",
	      name);
	crypto_free(tfm);
}

static int ossl_aead_encrypt(const uint8_t key[32], const uint8_t nonce[12],
			     const uint8_t *aad, size_t aadlen,
			     const uint8_t *src, size_t n, uint8_t *dst,
			     uint8_t tag[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int ok, len = 0, fin = 0;

	ok = c && EVP_EncryptInit_ex(c, EVP_chacha20_poly1305(), NULL, key, nonce) == 1 &&
	     (!aadlen || EVP_EncryptUpdate(c, NULL, &len, aad, (int)aadlen) == 1) &&
	     EVP_EncryptUpdate(c, dst, &len, src, (int)n) == 1 &&
	     EVP_EncryptFinal_ex(c, dst + len, &fin) == 1 &&
	     (size_t)(len + fin) == n &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
	EVP_CIPHER_CTX_free(c);
	return ok;
}

/* decrypt must fail with -EBADMSG and leave dst zero */
static void expect_badmsg(struct crypto_tfm *tfm, const char *name,
			  const char *what, const uint8_t *nonce,
			  const uint8_t *aad, size_t aadlen, uint8_t *dst,
			  const uint8_t *src, size_t n, const uint8_t *tag)
{
	uint8_t zero[64] = { 0 };
	int err, wiped = 1;

	if (dst != src)
		memset(dst, 0xa5, n);
	err = crypto_aead_decrypt(tfm, nonce, aad, aadlen, dst, src, n, tag);
	for (size_t i = 0; i < n; i += sizeof(zero))
		wiped &= !memcmp(dst + i, zero, n - i < sizeof(zero) ? n - i : sizeof(zero));
	CHECK(err == -EBADMSG, "%s: %s, len %zu: %d, want -EBADMSG", name, what, n, err);
	CHECK(wiped, "%s: %s, len %zu: dst not wiped", name, what, n);
}

static void test_aead_driver(const char *name)
{
	uint8_t key[32], nonce[12], tag[16], want_tag[16], bad_tag[16];
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, name, &err);

	CHECK(tfm != NULL, "%s: alloc: %d", name, err);
	if (!tfm)
		return;
	for (unsigned int i = 0; i < nlens(); i++) {
		size_t n = pick_len(i), soff = pick_off(), doff = pick_off();
		size_t aadlen = (size_t)test_rand_below(test_rand_below(8) ? 300 : 4097);
		uint8_t *src = buf_src + soff, *dst = buf_dst + doff;
		uint8_t *aad = buf_aad + pick_off();
		/* aad NULL when empty: the API allows it */
		const uint8_t *aadp = aadlen ? aad : NULL;

		test_random_bytes(key, sizeof(key));
		test_random_bytes(nonce, sizeof(nonce));
		test_random_bytes(aad, aadlen);
		test_random_bytes(src, n);
		CHECK(ossl_aead_encrypt(key, nonce, aad, aadlen, src, n, buf_ref,
					want_tag), "openssl aead");
		CHECK(crypto_setkey(tfm, key, 32) == 0, "%s: setkey", name);

		/* out of place */
		err = crypto_aead_encrypt(tfm, nonce, aadp, aadlen, dst, src, n, tag);
		CHECK(err == 0 && !memcmp(dst, buf_ref, n) &&
		      !memcmp(tag, want_tag, 16), "%s: len %zu aad %zu encrypt",
		      name, n, aadlen);
		/* in place */
		memcpy(dst, src, n);
		err = crypto_aead_encrypt(tfm, nonce, aadp, aadlen, dst, dst, n, tag);
		CHECK(err == 0 && !memcmp(dst, buf_ref, n) &&
		      !memcmp(tag, want_tag, 16), "%s: len %zu aad %zu in place",
		      name, n, aadlen);
		err = crypto_aead_decrypt(tfm, nonce, aadp, aadlen, dst, dst, n, tag);
		CHECK(err == 0 && !memcmp(dst, src, n),
		      "%s: len %zu decrypt in place: %d", name, n, err);
		err = crypto_aead_decrypt(tfm, nonce, aadp, aadlen, dst, buf_ref, n, tag);
		CHECK(err == 0 && !memcmp(dst, src, n),
		      "%s: len %zu decrypt: %d", name, n, err);

		/* one flipped bit anywhere must be caught (a few lengths each) */
		if (i % 4 && i <= 1024)
			continue;
		memcpy(bad_tag, tag, 16);
		bad_tag[test_rand_below(16)] ^= (uint8_t)(1u << test_rand_below(8));
		expect_badmsg(tfm, name, "flipped tag bit", nonce, aadp, aadlen,
			      dst, buf_ref, n, bad_tag);
		if (n) {
			size_t at = (size_t)test_rand_below(n);
			uint8_t bit = (uint8_t)(1u << test_rand_below(8));

			buf_ref[at] ^= bit;
			expect_badmsg(tfm, name, "flipped ciphertext bit", nonce,
				      aadp, aadlen, dst, buf_ref, n, tag);
			memcpy(dst, buf_ref, n);
			expect_badmsg(tfm, name, "flipped ciphertext bit, in place",
				      nonce, aadp, aadlen, dst, dst, n, tag);
			buf_ref[at] ^= bit;
		}
		if (aadlen) {
			size_t at = (size_t)test_rand_below(aadlen);

			aad[at] ^= 0x80;
			expect_badmsg(tfm, name, "flipped aad bit", nonce, aad,
				      aadlen, dst, buf_ref, n, tag);
			aad[at] ^= 0x80;
		}
		nonce[0] ^= 1;
		expect_badmsg(tfm, name, "other nonce", nonce, aadp, aadlen, dst,
			      buf_ref, n, tag);
	}
	crypto_free(tfm);
}

/* OpenSSL HKDF-SHA512 in one of its modes; 1 on success */
static int ossl_hkdf(int mode, const uint8_t *salt, size_t saltlen,
		     const uint8_t *key, size_t keylen, const uint8_t *info,
		     size_t infolen, uint8_t *out, size_t outlen)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM params[6], *p = params;
	int ok;

	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
						(char *)"SHA512", 0);
	*p++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
						 (void *)key, keylen);
	if (saltlen)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
							 (void *)salt, saltlen);
	if (infolen)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
							 (void *)info, infolen);
	*p = OSSL_PARAM_construct_end();
	ok = ctx && EVP_KDF_derive(ctx, out, outlen, params) == 1;
	EVP_KDF_CTX_free(ctx);
	EVP_KDF_free(kdf);
	return ok;
}

static void test_hkdf(void)
{
	uint8_t salt[200], ikm[200], info[200], prk[64], want_prk[64];
	uint8_t *out = buf_dst, *want = buf_ref;

	for (unsigned int i = 0; i < 400; i++) {
		size_t saltlen = (size_t)test_rand_below(sizeof(salt) + 1);
		size_t ikmlen = (size_t)test_rand_below(sizeof(ikm) + 1);
		size_t infolen = (size_t)test_rand_below(sizeof(info) + 1);
		size_t outlen = 1 + (size_t)test_rand_below(test_rand_below(8) ?
							  300 : HKDF_SHA512_MAX_OUT);
		int err;

		if (i % 10 == 0)
			saltlen = 0; /* "not provided": 64 zero bytes */
		if (i % 10 == 1)
			infolen = 0;
		if (i < 4)
			outlen = HKDF_SHA512_MAX_OUT - i;
		test_random_bytes(salt, saltlen);
		test_random_bytes(ikm, ikmlen);
		test_random_bytes(info, infolen);

		err = hkdf_sha512_extract(saltlen ? salt : NULL, saltlen, ikm,
					  ikmlen, prk);
		CHECK(err == 0, "hkdf extract: %d", err);
		CHECK(ossl_hkdf(EVP_KDF_HKDF_MODE_EXTRACT_ONLY, salt, saltlen, ikm,
				ikmlen, NULL, 0, want_prk, 64), "openssl extract");
		CHECK(!memcmp(prk, want_prk, 64), "hkdf extract salt %zu ikm %zu",
		      saltlen, ikmlen);

		err = hkdf_sha512_expand(prk, infolen ? info : NULL, infolen, out,
					 outlen);
		CHECK(err == 0, "hkdf expand: %d", err);
		CHECK(ossl_hkdf(EVP_KDF_HKDF_MODE_EXPAND_ONLY, NULL, 0, prk, 64,
				info, infolen, want, outlen), "openssl expand");
		CHECK(!memcmp(out, want, outlen), "hkdf expand info %zu out %zu",
		      infolen, outlen);

		/* and extract-and-expand in one OpenSSL call */
		CHECK(ossl_hkdf(EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, salt, saltlen,
				ikm, ikmlen, info, infolen, want, outlen),
		      "openssl hkdf");
		CHECK(!memcmp(out, want, outlen), "hkdf salt %zu ikm %zu info %zu out %zu",
		      saltlen, ikmlen, infolen, outlen);
	}
}

static void for_each_driver(const char *alg, void (*fn)(const char *))
{
	const char *names[MAX_DRIVERS];
	unsigned int n = test_drivers_for(alg, names, MAX_DRIVERS);

	CHECK(n > 0, "no driver for %s", alg);
	for (unsigned int i = 0; i < n; i++) {
		fprintf(stderr, "%s: %s\n", alg, names[i]);
		fn(names[i]);
	}
}

int main(void)
{
	int err = crypto_init();

	test_seed();
	CHECK(err == 0, "crypto_init: %d %s", err, crypto_init_error());
	if (err)
		return test_finish("test_oracle_openssl_chacha_sha");
	buf_src = malloc(MAX_LEN + SLACK);
	buf_dst = malloc(MAX_LEN + SLACK);
	buf_ref = malloc(MAX_LEN + SLACK);
	buf_aad = malloc(4096 + SLACK);
	if (!buf_src || !buf_dst || !buf_ref || !buf_aad) {
		CHECK(0, "out of memory");
		return test_finish("test_oracle_openssl_chacha_sha");
	}
	for_each_driver("sha512", test_sha512_driver);
	for_each_driver("hmac(sha512)", test_hmac_driver);
	for_each_driver("chacha20", test_chacha20_driver);
	for_each_driver("rfc7539(chacha20,poly1305)", test_aead_driver);
	test_hkdf();
	free(buf_src);
	free(buf_dst);
	free(buf_ref);
	free(buf_aad);
	return test_finish("test_oracle_openssl_chacha_sha");
}
