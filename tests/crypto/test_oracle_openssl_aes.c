/* SPDX-License-Identifier: MIT */
/*
 * Differential test against OpenSSL libcrypto (test-only dependency) for
 * every driver of aes, ecb(aes), cbc(aes), cfb(aes), ctr(aes), xts(aes)
 * and cts(cbc(aes)) this CPU can run, each forced by name, the
 * variable-time aes-table instances included.
 *
 * For each driver and key size (AES-128/192/256; XTS with 32- and 64-byte
 * keys): every length 0..1024 (ECB/CBC: the multiples of 16; XTS/CTS:
 * 16..1024, so every ciphertext-stealing tail), then RANDOM_LENGTHS random
 * lengths up to 64 KiB. Each with a fresh random key and IV, buffers at
 * random offsets 0..15, in place or out of place at random, guard bytes
 * around the output. Encryption must equal OpenSSL's; decryption of that
 * ciphertext must give the plaintext back. CBC/CFB/CTR are also run in two
 * pieces with the IV carried (XTS: xts_tweak + two xts_crypt calls), which
 * must give the same bytes and the same final IV. CTR IVs are sometimes
 * close to a 64- or 128-bit wrap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "crypto/crypto.h"
#include "testutil.h"

#define MAX_LEN (64 * 1024)
#define SLACK 64 /* room for offsets and overrun guards */
#define GUARD 16
#define RANDOM_LENGTHS 300
#define MAX_DRIVERS 16
#define BLOCK 16

enum mode { MODE_ECB, MODE_CBC, MODE_CFB, MODE_CTR, MODE_XTS, MODE_CTS };

struct mode_desc {
	enum mode mode;
	const char *alg;
	const char *ossl; /* "AES-%d-<this>" */
	int whole_blocks; /* length must be a multiple of 16 */
	int min_len;
	int chains;       /* IV carries across calls */
};

static const struct mode_desc modes[] = {
	{ MODE_ECB, "ecb(aes)", "ECB", 1, 0, 0 },
	{ MODE_CBC, "cbc(aes)", "CBC", 1, 0, 1 },
	{ MODE_CFB, "cfb(aes)", "CFB", 0, 0, 1 },
	{ MODE_CTR, "ctr(aes)", "CTR", 0, 0, 1 },
	{ MODE_XTS, "xts(aes)", "XTS", 0, BLOCK, 0 },
	{ MODE_CTS, "cts(cbc(aes))", "CBC-CTS", 0, BLOCK, 0 },
};

static uint8_t *buf_pt, *buf_src, *buf_dst, *buf_ref, *buf_tmp;
static unsigned long bytes_done;

static uint8_t *alloc_buf(void)
{
	uint8_t *p = malloc(MAX_LEN + 2 * SLACK);

	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

/* offset 0..15, mostly unaligned */
static size_t pick_off(void)
{
	return (size_t)test_rand_below(16);
}

/* OpenSSL's result; 0 on success */
static int ossl_crypt(const struct mode_desc *m, size_t keylen, int enc,
		      const uint8_t *key, const uint8_t *iv, uint8_t *out,
		      const uint8_t *in, size_t len)
{
	static EVP_CIPHER *cache[6][3];
	int bits = (int)(m->mode == MODE_XTS ? keylen / 2 : keylen) * 8;
	EVP_CIPHER **slot = &cache[m->mode][(bits - 128) / 64];
	OSSL_PARAM cts[2] = {
		OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE,
						 (char *)"CS3", 0),
		OSSL_PARAM_END,
	};
	EVP_CIPHER_CTX *ctx;
	int ok, l1 = 0, l2 = 0;

	if (!*slot) {
		char name[32];

		snprintf(name, sizeof(name), "AES-%d-%s", bits, m->ossl);
		*slot = EVP_CIPHER_fetch(NULL, name, NULL);
		if (!*slot)
			return -1;
	}
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -1;
	ok = EVP_CipherInit_ex2(ctx, *slot, key, m->mode == MODE_ECB ? NULL : iv,
				enc, m->mode == MODE_CTS ? cts : NULL) == 1;
	ok = ok && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1;
	ok = ok && EVP_CipherUpdate(ctx, out, &l1, in, (int)len) == 1;
	ok = ok && EVP_CipherFinal_ex(ctx, out + l1, &l2) == 1;
	EVP_CIPHER_CTX_free(ctx);
	return ok && (size_t)(l1 + l2) == len ? 0 : -1;
}

static int ossl_ecb(size_t keylen, const uint8_t *key, uint8_t *out,
		    const uint8_t *in, size_t len)
{
	return ossl_crypt(&modes[MODE_ECB], keylen, 1, key, NULL, out, in, len);
}

/* lengths tested exhaustively: 0..1024 (ECB/CBC: multiples of 16; XTS/CTS: 16..1024) */
static unsigned int fixed_count(const struct mode_desc *m)
{
	return m->whole_blocks ? 1024 / BLOCK + 1 : 1025 - (unsigned int)m->min_len;
}

static unsigned int nlens(const struct mode_desc *m)
{
	return fixed_count(m) + RANDOM_LENGTHS;
}

static size_t pick_len(const struct mode_desc *m, unsigned int i)
{
	size_t len;

	if (i < fixed_count(m))
		return m->whole_blocks ? (size_t)i * BLOCK : m->min_len + (size_t)i;
	len = (size_t)test_rand_below(MAX_LEN + 1);
	if (m->whole_blocks)
		len -= len % BLOCK;
	if (len < (size_t)m->min_len)
		len = m->min_len;
	return len;
}

static void random_iv(const struct mode_desc *m, uint8_t *iv)
{
	test_random_bytes(iv, BLOCK);
	if (m->mode == MODE_CTR && test_rand_below(4) == 0) {
		/* a few blocks before the low 64 bits (or all 128) wrap */
		memset(iv + 8, 0xff, 8);
		iv[15] = (uint8_t)(0xff - test_rand_below(8));
		if (test_rand_below(2))
			memset(iv, 0xff, 8);
	}
}

/* dst with guard bytes either side; checks them afterwards */
static void guard_fill(uint8_t *dst, size_t len)
{
	memset(dst - GUARD, 0xa5, GUARD);
	memset(dst + len, 0x5a, GUARD);
}

static int guard_ok(const uint8_t *dst, size_t len)
{
	for (size_t i = 0; i < GUARD; i++)
		if (dst[-1 - (long)i] != 0xa5 || dst[len + i] != 0x5a)
			return 0;
	return 1;
}

/*
 * One crypto_encrypt/decrypt through tfm of in[0..len) into a buffer at a
 * random offset, in place or not; the result is copied to out.
 */
static int our_crypt(struct crypto_tfm *tfm, int enc, uint8_t *iv,
		     uint8_t *out, const uint8_t *in, size_t len,
		     const char *drv)
{
	int in_place = (int)test_rand_below(2), err;
	uint8_t *dst = buf_dst + SLACK / 2 + pick_off();
	const uint8_t *src = in;

	guard_fill(dst, len);
	if (in_place) {
		memcpy(dst, in, len);
		src = dst;
	} else {
		uint8_t *s = buf_src + SLACK / 2 + pick_off();

		memcpy(s, in, len);
		src = s;
	}
	err = enc ? crypto_encrypt(tfm, iv, dst, src, len) :
		    crypto_decrypt(tfm, iv, dst, src, len);
	CHECK(guard_ok(dst, len), "%s: %s len %zu (%s) wrote outside dst", drv,
	      enc ? "encrypt" : "decrypt", len, in_place ? "in place" : "out of place");
	memcpy(out, dst, len);
	bytes_done += len;
	return err;
}

/* process in two pieces, split at a block boundary, carrying the IV */
static void check_chain(struct crypto_tfm *tfm, const struct mode_desc *m,
			int enc, const uint8_t *iv0, const uint8_t *in,
			const uint8_t *want, const uint8_t *want_iv,
			size_t len, const char *drv)
{
	size_t first = BLOCK * (size_t)test_rand_below(len / BLOCK + 1);
	uint8_t iv[BLOCK], *out = buf_tmp + SLACK / 2;
	int err;

	memcpy(iv, iv0, BLOCK);
	if (m->mode == MODE_XTS) {
		uint8_t tweak[BLOCK];

		if (len % BLOCK)
			return; /* stealing needs the one-shot call */
		memcpy(out, in, len);
		err = crypto_xts_tweak(tfm, iv, tweak);
		err = err ? err : crypto_xts_crypt(tfm, enc, tweak, out, out, first);
		err = err ? err : crypto_xts_crypt(tfm, enc, tweak, out + first,
						   out + first, len - first);
		CHECK(!err && !memcmp(out, want, len),
		      "%s: xts_crypt in pieces %zu+%zu (%s) differs", drv, first,
		      len - first, enc ? "enc" : "dec");
		return;
	}
	err = our_crypt(tfm, enc, iv, out, in, first, drv);
	err = err ? err : our_crypt(tfm, enc, iv, out + first, in + first,
				    len - first, drv);
	CHECK(!err && !memcmp(out, want, len),
	      "%s: %s in pieces %zu+%zu differs from one call", drv,
	      enc ? "encrypt" : "decrypt", first, len - first);
	CHECK(!memcmp(iv, want_iv, BLOCK),
	      "%s: %s in pieces %zu+%zu: final IV differs", drv,
	      enc ? "encrypt" : "decrypt", first, len - first);
}

static void test_mode_driver(const struct mode_desc *m, const char *drv)
{
	static const size_t aes_keys[] = { 16, 24, 32 }, xts_keys[] = { 32, 64 };
	const size_t *keys = m->mode == MODE_XTS ? xts_keys : aes_keys;
	size_t nkeys = m->mode == MODE_XTS ? 2 : 3;
	unsigned long failures = test_failures;
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, drv, &err);

	CHECK(tfm != NULL, "crypto_alloc(%s): %d", drv, err);
	if (!tfm)
		return;
	for (size_t k = 0; k < nkeys && test_failures - failures < 20; k++) {
		size_t keylen = keys[k];

		for (unsigned int i = 0; i < nlens(m); i++) {
			size_t len = pick_len(m, i);
			uint8_t key[64], iv0[BLOCK], iv[BLOCK], iv_enc[BLOCK];
			uint8_t *pt = buf_pt + SLACK / 2;
			uint8_t *ref = buf_ref + SLACK / 2;
			uint8_t *out = buf_tmp + SLACK / 2;

			if (test_failures - failures >= 20)
				break; /* enough said about this driver */
			test_random_bytes(key, keylen);
			random_iv(m, iv0);
			test_random_bytes(pt, len);
			CHECK(crypto_setkey(tfm, key, keylen) == 0, "%s: setkey %zu",
			      drv, keylen);
			if (ossl_crypt(m, keylen, 1, key, iv0, ref, pt, len)) {
				CHECK(0, "OpenSSL %s-%zu len %zu failed", m->ossl,
				      keylen, len);
				continue;
			}

			memcpy(iv, iv0, BLOCK);
			err = our_crypt(tfm, 1, iv, out, pt, len, drv);
			CHECK(!err && !memcmp(out, ref, len),
			      "%s: encrypt key %zu len %zu differs from OpenSSL (err %d)",
			      drv, keylen, len, err);
			if (m->mode == MODE_XTS)
				CHECK(!memcmp(iv, iv0, BLOCK), "%s: XTS changed the IV", drv);
			if (m->mode == MODE_CBC && len)
				CHECK(!memcmp(iv, ref + len - BLOCK, BLOCK),
				      "%s: CBC IV out is not the last block", drv);
			memcpy(iv_enc, iv, BLOCK);

			memcpy(iv, iv0, BLOCK);
			err = our_crypt(tfm, 0, iv, out, ref, len, drv);
			CHECK(!err && !memcmp(out, pt, len),
			      "%s: decrypt key %zu len %zu does not give the plaintext (err %d)",
			      drv, keylen, len, err);

			if (m->chains || m->mode == MODE_XTS) {
				check_chain(tfm, m, 1, iv0, pt, ref, iv_enc, len, drv);
				check_chain(tfm, m, 0, iv0, ref, pt, iv, len, drv);
			}
		}
	}

	/* lengths the mode must refuse */
	if (m->whole_blocks || m->min_len) {
		uint8_t *p = buf_tmp + SLACK / 2, iv[BLOCK] = { 0 };
		size_t bad = m->whole_blocks ? BLOCK + 1 : BLOCK - 1;

		CHECK(crypto_encrypt(tfm, iv, p, p, bad) == -EINVAL,
		      "%s: length %zu accepted", drv, bad);
	}
	crypto_free(tfm);
}

/* the single-block drivers: random batches (all tails of the 4-block path) */
static void test_cipher_driver(const char *drv)
{
	static const size_t keys[] = { 16, 24, 32 };
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, drv, &err);

	CHECK(tfm != NULL, "crypto_alloc(%s): %d", drv, err);
	if (!tfm)
		return;
	for (unsigned int i = 0; i < 600; i++) {
		size_t keylen = keys[i % 3], nblocks = (size_t)test_rand_below(70);
		size_t len = nblocks * BLOCK;
		uint8_t key[32], *pt = buf_pt + SLACK / 2 + pick_off();
		uint8_t *ref = buf_ref + SLACK / 2;
		uint8_t *dst = buf_dst + SLACK / 2 + pick_off();

		test_random_bytes(key, keylen);
		test_random_bytes(pt, len);
		CHECK(crypto_setkey(tfm, key, keylen) == 0, "%s: setkey", drv);
		if (ossl_ecb(keylen, key, ref, pt, len)) {
			CHECK(0, "OpenSSL ECB failed");
			continue;
		}
		guard_fill(dst, len);
		err = crypto_cipher_encrypt(tfm, dst, pt, nblocks);
		CHECK(!err && !memcmp(dst, ref, len) && guard_ok(dst, len),
		      "%s: %zu blocks, key %zu differ from OpenSSL", drv, nblocks,
		      keylen);
		/* decrypt in place */
		err = crypto_cipher_decrypt(tfm, dst, dst, nblocks);
		CHECK(!err && !memcmp(dst, pt, len) && guard_ok(dst, len),
		      "%s: %zu blocks, key %zu do not decrypt back", drv, nblocks,
		      keylen);
		bytes_done += 2 * len;
	}
	crypto_free(tfm);
}

int main(void)
{
	const char *names[MAX_DRIVERS];
	unsigned int n;

	test_seed();
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	buf_pt = alloc_buf();
	buf_src = alloc_buf();
	buf_dst = alloc_buf();
	buf_ref = alloc_buf();
	buf_tmp = alloc_buf();

	n = test_drivers_for("aes", names, MAX_DRIVERS);
	CHECK(n > 0, "no driver for aes");
	for (unsigned int d = 0; d < n; d++) {
		printf("aes: %s\n", names[d]);
		test_cipher_driver(names[d]);
	}
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		n = test_drivers_for(modes[i].alg, names, MAX_DRIVERS);
		CHECK(n > 0, "no driver for %s", modes[i].alg);
		for (unsigned int d = 0; d < n; d++) {
			printf("%s: %s\n", modes[i].alg, names[d]);
			fflush(stdout);
			test_mode_driver(&modes[i], names[d]);
		}
	}
	printf("%lu MiB through the drivers\n", bytes_done >> 20);
	free(buf_pt);
	free(buf_src);
	free(buf_dst);
	free(buf_ref);
	free(buf_tmp);
	return test_finish("test_oracle_openssl_aes");
}
