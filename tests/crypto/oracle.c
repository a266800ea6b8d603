/* SPDX-License-Identifier: MIT */
/* The block-cipher oracle harness. See oracle.h. */
#include "oracle.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "testutil.h"

#define MAX_LEN (64 * 1024)
#define SLACK 64 /* room for offsets and overrun guards */
#define GUARD 16
#define RANDOM_LENGTHS 300
#define MAX_DRIVERS 16
#define BLOCK 16
#define MAX_KEYLEN 64

struct mode_desc {
	enum oracle_mode mode;
	const char *alg_fmt; /* over the cipher's name */
	int whole_blocks;    /* length must be a multiple of 16 */
	int min_len;
	int chains;          /* IV carries across calls */
};

static const struct mode_desc modes[ORACLE_NMODES] = {
	{ ORACLE_ECB, "ecb(%s)", 1, 0, 0 },
	{ ORACLE_CBC, "cbc(%s)", 1, 0, 1 },
	{ ORACLE_CFB, "cfb(%s)", 0, 0, 1 },
	{ ORACLE_CTR, "ctr(%s)", 0, 0, 1 },
	{ ORACLE_XTS, "xts(%s)", 0, BLOCK, 0 },
	{ ORACLE_CTS, "cts(cbc(%s))", 0, BLOCK, 0 },
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

/* lengths tried in order: 0..1024 (ECB/CBC: multiples of 16, XTS/CTS: 16..) */
static unsigned int fixed_count(const struct mode_desc *m)
{
	if (m->whole_blocks)
		return 1024 / BLOCK + 1;
	return 1025 - (unsigned int)m->min_len;
}

static size_t pick_len(const struct mode_desc *m, unsigned int i)
{
	size_t len;

	if (i < fixed_count(m))
		return m->whole_blocks ? (size_t)i * BLOCK :
					 (size_t)m->min_len + i;
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
	if (m->mode == ORACLE_CTR && test_rand_below(4) == 0) {
		/* a few blocks before the low 64 bits (or all 128) wrap */
		memset(iv + 8, 0xff, 8);
		iv[15] = (uint8_t)(0xff - test_rand_below(8));
		if (test_rand_below(2))
			memset(iv, 0xff, 8);
	}
}

/* dst with guard bytes either side; checked afterwards */
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
 * One crypto_encrypt/decrypt of in[0..len) into a buffer at a random
 * offset, in place or not; the result is copied to out.
 */
static int our_crypt(struct crypto_tfm *tfm, int enc, uint8_t *iv,
		     uint8_t *out, const uint8_t *in, size_t len,
		     const char *drv)
{
	int in_place = (int)test_rand_below(2), err;
	uint8_t *dst = buf_dst + SLACK / 2 + pick_off();
	const uint8_t *src;

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
	      enc ? "encrypt" : "decrypt", len,
	      in_place ? "in place" : "out of place");
	memcpy(out, dst, len);
	bytes_done += len;
	return err;
}

/* the same request in two pieces split at a block boundary, IV carried */
static void check_chain(struct crypto_tfm *tfm, const struct mode_desc *m,
			int enc, const uint8_t *iv0, const uint8_t *in,
			const uint8_t *want, const uint8_t *want_iv,
			size_t len, const char *drv)
{
	size_t first = BLOCK * (size_t)test_rand_below(len / BLOCK + 1);
	uint8_t iv[BLOCK], *out = buf_tmp + SLACK / 2;
	int err;

	memcpy(iv, iv0, BLOCK);
	if (m->mode == ORACLE_XTS) {
		uint8_t tweak[BLOCK];

		if (len % BLOCK)
			return; /* stealing needs the one-shot call */
		memcpy(out, in, len);
		err = crypto_xts_tweak(tfm, iv, tweak);
		err = err ? err : crypto_xts_crypt(tfm, enc, tweak, out, out,
						   first);
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

/* how many key sizes keys[] lists */
static size_t count_keylens(const size_t keys[ORACLE_MAX_KEYLENS])
{
	size_t n = 0;

	while (n < ORACLE_MAX_KEYLENS && keys[n])
		n++;
	return n;
}

/* one random request of pick_len(m, i) bytes with a fresh key and IV */
static void check_request(const struct oracle_cipher *c,
			  const struct mode_desc *m, const char *alg,
			  struct crypto_tfm *tfm, size_t keylen, unsigned int i,
			  const char *drv)
{
	size_t len = pick_len(m, i);
	uint8_t key[MAX_KEYLEN], iv0[BLOCK], iv[BLOCK], iv_enc[BLOCK];
	uint8_t *pt = buf_pt + SLACK / 2;
	uint8_t *ref = buf_ref + SLACK / 2;
	uint8_t *out = buf_tmp + SLACK / 2;
	int err;

	test_random_bytes(key, keylen);
	if (m->mode == ORACLE_XTS &&
	    !memcmp(key, key + keylen / 2, keylen / 2))
		key[0] ^= 1; /* references refuse K1 == K2 */
	random_iv(m, iv0);
	test_random_bytes(pt, len);
	CHECK(crypto_setkey(tfm, key, keylen) == 0, "%s: setkey %zu", drv,
	      keylen);
	if (c->encrypt(m->mode, key, keylen, iv0, ref, pt, len)) {
		CHECK(0, "%s %s key %zu len %zu failed", c->reference, alg,
		      keylen, len);
		return;
	}

	memcpy(iv, iv0, BLOCK);
	err = our_crypt(tfm, 1, iv, out, pt, len, drv);
	CHECK(!err && !memcmp(out, ref, len),
	      "%s: encrypt key %zu len %zu differs from %s (err %d)", drv,
	      keylen, len, c->reference, err);
	if (m->mode == ORACLE_XTS)
		CHECK(!memcmp(iv, iv0, BLOCK), "%s: XTS changed the IV", drv);
	if (m->mode == ORACLE_CBC && len)
		CHECK(!memcmp(iv, ref + len - BLOCK, BLOCK),
		      "%s: CBC IV out is not the last block", drv);
	memcpy(iv_enc, iv, BLOCK);

	memcpy(iv, iv0, BLOCK);
	err = our_crypt(tfm, 0, iv, out, ref, len, drv);
	CHECK(!err && !memcmp(out, pt, len),
	      "%s: decrypt key %zu len %zu does not give the plaintext (err %d)",
	      drv, keylen, len, err);

	if (m->chains || m->mode == ORACLE_XTS) {
		check_chain(tfm, m, 1, iv0, pt, ref, iv_enc, len, drv);
		check_chain(tfm, m, 0, iv0, ref, pt, iv, len, drv);
	}
}

static void test_mode_driver(const struct oracle_cipher *c,
			     const struct mode_desc *m, const char *alg,
			     const char *drv)
{
	const size_t *keys = m->mode == ORACLE_XTS ? c->xts_keylens : c->keylens;
	size_t nkeys = count_keylens(keys);
	unsigned int n = fixed_count(m) + RANDOM_LENGTHS;
	unsigned long failures = test_failures;
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, drv, &err);

	CHECK(tfm != NULL, "crypto_alloc(%s): %d", drv, err);
	if (!tfm)
		return;
	for (size_t k = 0; k < nkeys; k++)
		for (unsigned int i = 0; i < n; i++) {
			if (test_failures - failures >= 20)
				break; /* enough said about this driver */
			check_request(c, m, alg, tfm, keys[k], i, drv);
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

/* single-block drivers: random batches against the reference's ECB */
static void test_cipher_driver(const struct oracle_cipher *c, const char *drv)
{
	size_t nkeys = count_keylens(c->keylens);
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, drv, &err);

	CHECK(tfm != NULL, "crypto_alloc(%s): %d", drv, err);
	if (!tfm)
		return;
	for (unsigned int i = 0; i < 600; i++) {
		size_t keylen = c->keylens[i % nkeys];
		size_t nblocks = (size_t)test_rand_below(c->batch_below);
		size_t len = nblocks * BLOCK;
		uint8_t key[MAX_KEYLEN], *pt = buf_pt + SLACK / 2 + pick_off();
		uint8_t *ref = buf_ref + SLACK / 2;
		uint8_t *dst = buf_dst + SLACK / 2 + pick_off();

		test_random_bytes(key, keylen);
		test_random_bytes(pt, len);
		CHECK(crypto_setkey(tfm, key, keylen) == 0, "%s: setkey", drv);
		if (c->encrypt(ORACLE_ECB, key, keylen, NULL, ref, pt, len)) {
			CHECK(0, "%s ECB failed", c->reference);
			continue;
		}
		guard_fill(dst, len);
		err = crypto_cipher_encrypt(tfm, dst, pt, nblocks);
		CHECK(!err && !memcmp(dst, ref, len) && guard_ok(dst, len),
		      "%s: %zu blocks, key %zu differ from %s", drv, nblocks,
		      keylen, c->reference);
		/* and back, in place */
		err = crypto_cipher_decrypt(tfm, dst, dst, nblocks);
		CHECK(!err && !memcmp(dst, pt, len) && guard_ok(dst, len),
		      "%s: %zu blocks, key %zu do not decrypt back", drv,
		      nblocks, keylen);
		bytes_done += 2 * len;
	}
	crypto_free(tfm);
}

int oracle_run(const struct oracle_cipher *c, const char *test_name)
{
	const char *names[MAX_DRIVERS];
	char alg[32];
	unsigned int n;

	test_seed();
	if (crypto_init()) {
		CHECK(0, "crypto_init: %s", crypto_init_error());
		return test_finish(test_name);
	}
	buf_pt = alloc_buf();
	buf_src = alloc_buf();
	buf_dst = alloc_buf();
	buf_ref = alloc_buf();
	buf_tmp = alloc_buf();

	n = test_drivers_for(c->name, names, MAX_DRIVERS);
	CHECK(n > 0, "no driver for %s", c->name);
	for (unsigned int d = 0; d < n; d++) {
		printf("%s: %s\n", c->name, names[d]);
		fflush(stdout);
		test_cipher_driver(c, names[d]);
	}
	for (size_t i = 0; i < ORACLE_NMODES; i++) {
		snprintf(alg, sizeof(alg), modes[i].alg_fmt, c->name);
		n = test_drivers_for(alg, names, MAX_DRIVERS);
		CHECK(n > 0, "no driver for %s", alg);
		for (unsigned int d = 0; d < n; d++) {
			printf("%s: %s\n", alg, names[d]);
			fflush(stdout);
			test_mode_driver(c, &modes[i], alg, names[d]);
		}
	}
	printf("%lu MiB through the drivers\n", bytes_done >> 20);
	free(buf_pt);
	free(buf_src);
	free(buf_dst);
	free(buf_ref);
	free(buf_tmp);
	return test_finish(test_name);
}
