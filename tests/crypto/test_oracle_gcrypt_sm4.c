/* SPDX-License-Identifier: MIT */
/*
 * Differential test against libgcrypt 1.10 (test-only dependency) for
 * every driver of sm4, ecb(sm4), cbc(sm4), cfb(sm4), ctr(sm4), xts(sm4)
 * and cts(cbc(sm4)) this CPU can run, each forced by name, the
 * variable-time sm4-table instances included. libgcrypt's CFB is
 * full-block CFB, its CTR a 128-bit big-endian counter, its XTS IEEE
 * 1619 with stealing and its CBC_CTS flag CBC-CS3 as the kernel's.
 *
 * Per driver: every length 0..1024 valid for the mode (ECB/CBC: the
 * multiples of 16; XTS/CTS: 16..1024, so every stealing tail), then
 * RANDOM_LENGTHS random lengths up to 64 KiB, each with a fresh random
 * key and IV, buffers at random offsets 0..15 (mostly unaligned), in
 * place or out of place at random, guard bytes around the output.
 * Encryption must equal libgcrypt's; decrypting it must give the
 * plaintext back. CBC/CFB/CTR also run in two pieces with the IV carried
 * (XTS: xts_tweak + two xts_crypt calls), which must give the same bytes
 * and the same final IV. CTR IVs are sometimes near a 64- or 128-bit
 * wrap. The single-block drivers get random batches of 0..150 blocks,
 * which covers each of the bitsliced driver's three layouts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

#include "crypto/crypto.h"
#include "testutil.h"

#define MAX_LEN (64 * 1024)
#define SLACK 64 /* room for offsets and overrun guards */
#define GUARD 16
#define RANDOM_LENGTHS 300
#define MAX_DRIVERS 16
#define BLOCK 16
#define KEYLEN 16

enum mode { MODE_ECB, MODE_CBC, MODE_CFB, MODE_CTR, MODE_XTS, MODE_CTS };

struct mode_desc {
	enum mode mode;
	const char *alg;
	int gcry_mode;
	unsigned int gcry_flags;
	int whole_blocks; /* length must be a multiple of 16 */
	int min_len;
	int chains;       /* IV carries across calls */
};

static const struct mode_desc modes[] = {
	{ MODE_ECB, "ecb(sm4)", GCRY_CIPHER_MODE_ECB, 0, 1, 0, 0 },
	{ MODE_CBC, "cbc(sm4)", GCRY_CIPHER_MODE_CBC, 0, 1, 0, 1 },
	{ MODE_CFB, "cfb(sm4)", GCRY_CIPHER_MODE_CFB, 0, 0, 0, 1 },
	{ MODE_CTR, "ctr(sm4)", GCRY_CIPHER_MODE_CTR, 0, 0, 0, 1 },
	{ MODE_XTS, "xts(sm4)", GCRY_CIPHER_MODE_XTS, 0, 0, BLOCK, 0 },
	{ MODE_CTS, "cts(cbc(sm4))", GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_CTS,
	  0, BLOCK, 0 },
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

static size_t key_len(const struct mode_desc *m)
{
	return m->mode == MODE_XTS ? 2 * KEYLEN : KEYLEN;
}

/* libgcrypt's encryption of in[0..len); 0 on success */
static int gcry_encrypt(const struct mode_desc *m, const uint8_t *key,
			const uint8_t *iv, uint8_t *out, const uint8_t *in,
			size_t len)
{
	gcry_cipher_hd_t h;
	gcry_error_t e;

	e = gcry_cipher_open(&h, GCRY_CIPHER_SM4, m->gcry_mode, m->gcry_flags);
	if (e)
		return -1;
	e = gcry_cipher_setkey(h, key, key_len(m));
	if (!e && m->mode == MODE_CTR)
		e = gcry_cipher_setctr(h, iv, BLOCK);
	else if (!e && m->mode != MODE_ECB)
		e = gcry_cipher_setiv(h, iv, BLOCK);
	if (!e && len)
		e = gcry_cipher_encrypt(h, out, len, in, len);
	gcry_cipher_close(h);
	if (e)
		fprintf(stderr, "libgcrypt %s len %zu: %s\n", m->alg, len,
			gcry_strerror(e));
	return e ? -1 : 0;
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
	if (m->mode == MODE_CTR && test_rand_below(4) == 0) {
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
	if (m->mode == MODE_XTS) {
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

static void test_mode_driver(const struct mode_desc *m, const char *drv)
{
	unsigned long failures = test_failures;
	unsigned int n = fixed_count(m) + RANDOM_LENGTHS;
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, drv, &err);

	CHECK(tfm != NULL, "crypto_alloc(%s): %d", drv, err);
	if (!tfm)
		return;
	for (unsigned int i = 0; i < n; i++) {
		size_t len = pick_len(m, i);
		uint8_t key[2 * KEYLEN], iv0[BLOCK], iv[BLOCK], iv_enc[BLOCK];
		uint8_t *pt = buf_pt + SLACK / 2;
		uint8_t *ref = buf_ref + SLACK / 2;
		uint8_t *out = buf_tmp + SLACK / 2;

		if (test_failures - failures >= 20)
			break; /* enough said about this driver */
		test_random_bytes(key, key_len(m));
		if (m->mode == MODE_XTS && !memcmp(key, key + KEYLEN, KEYLEN))
			key[0] ^= 1; /* libgcrypt refuses K1 == K2 */
		random_iv(m, iv0);
		test_random_bytes(pt, len);
		CHECK(crypto_setkey(tfm, key, key_len(m)) == 0, "%s: setkey",
		      drv);
		if (gcry_encrypt(m, key, iv0, ref, pt, len)) {
			CHECK(0, "libgcrypt %s len %zu failed", m->alg, len);
			continue;
		}

		memcpy(iv, iv0, BLOCK);
		err = our_crypt(tfm, 1, iv, out, pt, len, drv);
		CHECK(!err && !memcmp(out, ref, len),
		      "%s: encrypt len %zu differs from libgcrypt (err %d)", drv,
		      len, err);
		if (m->mode == MODE_XTS)
			CHECK(!memcmp(iv, iv0, BLOCK), "%s: XTS changed the IV",
			      drv);
		if (m->mode == MODE_CBC && len)
			CHECK(!memcmp(iv, ref + len - BLOCK, BLOCK),
			      "%s: CBC IV out is not the last block", drv);
		memcpy(iv_enc, iv, BLOCK);

		memcpy(iv, iv0, BLOCK);
		err = our_crypt(tfm, 0, iv, out, ref, len, drv);
		CHECK(!err && !memcmp(out, pt, len),
		      "%s: decrypt len %zu does not give the plaintext (err %d)",
		      drv, len, err);

		if (m->chains || m->mode == MODE_XTS) {
			check_chain(tfm, m, 1, iv0, pt, ref, iv_enc, len, drv);
			check_chain(tfm, m, 0, iv0, ref, pt, iv, len, drv);
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

/* single-block drivers: random batches against libgcrypt ECB */
static void test_cipher_driver(const char *drv)
{
	int err;
	struct crypto_tfm *tfm = crypto_alloc(NULL, drv, &err);

	CHECK(tfm != NULL, "crypto_alloc(%s): %d", drv, err);
	if (!tfm)
		return;
	for (unsigned int i = 0; i < 600; i++) {
		size_t nblocks = (size_t)test_rand_below(151);
		size_t len = nblocks * BLOCK;
		uint8_t key[KEYLEN], *pt = buf_pt + SLACK / 2 + pick_off();
		uint8_t *ref = buf_ref + SLACK / 2;
		uint8_t *dst = buf_dst + SLACK / 2 + pick_off();

		test_random_bytes(key, KEYLEN);
		test_random_bytes(pt, len);
		CHECK(crypto_setkey(tfm, key, KEYLEN) == 0, "%s: setkey", drv);
		if (gcry_encrypt(&modes[MODE_ECB], key, NULL, ref, pt, len)) {
			CHECK(0, "libgcrypt ECB failed");
			continue;
		}
		guard_fill(dst, len);
		err = crypto_cipher_encrypt(tfm, dst, pt, nblocks);
		CHECK(!err && !memcmp(dst, ref, len) && guard_ok(dst, len),
		      "%s: %zu blocks differ from libgcrypt", drv, nblocks);
		/* and back, in place */
		err = crypto_cipher_decrypt(tfm, dst, dst, nblocks);
		CHECK(!err && !memcmp(dst, pt, len) && guard_ok(dst, len),
		      "%s: %zu blocks do not decrypt back", drv, nblocks);
		bytes_done += 2 * len;
	}
	crypto_free(tfm);
}

int main(void)
{
	const char *names[MAX_DRIVERS];
	unsigned int n;

	test_seed();
	if (!gcry_check_version("1.10.0")) {
		fprintf(stderr, "libgcrypt >= 1.10 needed\n");
		return TEST_SKIP;
	}
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	printf("oracle: libgcrypt %s\n", gcry_check_version(NULL));
	if (crypto_init()) {
		CHECK(0, "crypto_init: %s", crypto_init_error());
		return test_finish("test_oracle_gcrypt_sm4");
	}
	buf_pt = alloc_buf();
	buf_src = alloc_buf();
	buf_dst = alloc_buf();
	buf_ref = alloc_buf();
	buf_tmp = alloc_buf();

	n = test_drivers_for("sm4", names, MAX_DRIVERS);
	CHECK(n > 0, "no driver for sm4");
	for (unsigned int d = 0; d < n; d++) {
		printf("sm4: %s\n", names[d]);
		fflush(stdout);
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
	return test_finish("test_oracle_gcrypt_sm4");
}
