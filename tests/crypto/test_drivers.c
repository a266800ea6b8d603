/* SPDX-License-Identifier: MIT */
/*
 * Every driver of every length-preserving algorithm against the reference
 * driver of the same algorithm (its "-generic" instance), each forced by
 * name: every length to 1 KiB, random lengths to 64 KiB, random keys and
 * IVs (CTR counters near a wrap too), in place and out of place,
 * unaligned buffers, and messages split into random pieces with the
 * chaining value (XTS tweak, CBC/CFB IV, CTR counter) carried across.
 * A driver this CPU supports that is not exercised is a failure.
 * $TEST_SEED reproduces a run. TEST_QUICK=1 (set by scripts/test.sh
 * under qemu) keeps every length to 1 KiB for the largest key but takes
 * fewer random lengths and every 7th length for the other keys of every
 * driver.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "testutil.h"

#define MAXLEN 65536
#define MAX_DRIVERS 64 /* adiantum: 4 xchacha x 3 aes x 3 nhpoly1305 drivers on x86 */

static const char *const algs[] = {
	"adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)",
	"cbc(aes)", "cbc(camellia)", "cbc(sm4)", "cbc(speck128)", "cbc(speck64)",
	"cfb(aes)", "cfb(camellia)", "cfb(sm4)", "chacha12", "chacha20", "ctr(aes)",
	"ctr(camellia)", "ctr(sm4)", "ctr(speck128)", "cts(cbc(aes))",
	"cts(cbc(camellia))", "cts(cbc(sm4))", "cts(cbc(speck128))",
	"ecb(aes)", "ecb(camellia)", "ecb(sm4)", "ecb(speck128)", "ecb(speck64)",
	"hctr2(aes)", "hctr2(camellia)", "hctr2(sm4)",
	"xchacha12", "xchacha20",
	"xctr(aes)", "xts(aes)", "xts(camellia)", "xts(sm4)", "xts(speck128)",
	"xts(speck64)",
};

static uint8_t *src, *ref, *out, *key;
static int quick;

static int is_xts(struct crypto_tfm *t)
{
	return !strncmp(crypto_tfm_alg_name(t), "xts(", 4);
}

/* smallest unit a split piece must be a multiple of */
static size_t piece_unit(struct crypto_tfm *t)
{
	const char *a = crypto_tfm_alg_name(t);

	if (!strcmp(a, "chacha20") || !strcmp(a, "chacha12") ||
	    !strncmp(a, "xchacha", 7))
		return 64; /* the counter steps per 64-byte block started */
	if (!strncmp(a, "cts(", 4) || !strncmp(a, "xctr(", 5) ||
	    !strncmp(a, "hctr2(", 6) || !strncmp(a, "adiantum(", 9))
		return 0; /* no chaining across pieces */
	return crypto_ivsize(t) ? crypto_ivsize(t) : crypto_blocksize(t);
}

static int valid_len(struct crypto_tfm *t, size_t len)
{
	unsigned int bs = crypto_blocksize(t);

	if (len < crypto_min_len(t))
		return 0;
	return is_xts(t) || bs <= 1 || len % bs == 0;
}

static int crypt(struct crypto_tfm *t, int enc, const uint8_t *iv0,
		 uint8_t *d, const uint8_t *s, size_t len)
{
	uint8_t iv[32];

	memcpy(iv, iv0, sizeof(iv));
	return enc ? crypto_encrypt(t, iv, d, s, len) : crypto_decrypt(t, iv, d, s, len);
}

/* one message in random pieces, chaining carried; compare with ref */
static void check_split(struct crypto_tfm *t, int enc, const uint8_t *iv0,
			size_t len)
{
	size_t unit = piece_unit(t), off = 0;
	uint8_t iv[32];

	if (!unit || (is_xts(t) && len % crypto_blocksize(t)))
		return;
	memcpy(iv, iv0, sizeof(iv));
	if (is_xts(t))
		CHECK(crypto_xts_tweak(t, iv0, iv) == 0, "xts tweak");
	while (off < len) {
		size_t n = (test_rand_below(len / unit + 1) + 1) * unit;

		if (n > len - off)
			n = len - off;
		if (is_xts(t))
			CHECK(crypto_xts_crypt(t, enc, iv, out + off, src + off, n) == 0,
			      "xts piece");
		else if (enc)
			CHECK(crypto_encrypt(t, iv, out + off, src + off, n) == 0, "piece");
		else
			CHECK(crypto_decrypt(t, iv, out + off, src + off, n) == 0, "piece");
		off += n;
	}
	CHECK(!memcmp(out, ref, len), "%s %s: split message of %zu bytes differs",
	      crypto_tfm_driver_name(t), enc ? "enc" : "dec", len);
}

/*
 * A CTR counter a few blocks before its low 32, low 64 or all 128 bits
 * wrap, so the carry paths of every core are compared with the reference
 * (a random counter almost never carries out of its low word).
 */
static void ctr_near_wrap(struct crypto_tfm *t, uint8_t *iv)
{
	static const size_t widths[] = { 4, 8, 16 };
	size_t ivsize = crypto_ivsize(t), w = widths[test_rand_below(3)];

	if (w > ivsize)
		w = ivsize;
	memset(iv + ivsize - w, 0xff, w);
	iv[ivsize - 1] = (uint8_t)(0xff - test_rand_below(16));
}

static void check_len(struct crypto_tfm *t, struct crypto_tfm *rt, int enc,
		      size_t len, int split)
{
	uint8_t iv[32];
	size_t a = test_rand_below(16), b = test_rand_below(16);

	test_random_bytes(iv, sizeof(iv));
	if (!strncmp(crypto_tfm_alg_name(t), "ctr(", 4) && !test_rand_below(4))
		ctr_near_wrap(t, iv);
	test_random_bytes(src, len);
	CHECK(crypt(rt, enc, iv, ref, src, len) == 0, "reference failed");
	/* out of place, unaligned */
	memcpy(src + MAXLEN + 64 + a, src, len);
	CHECK(crypt(t, enc, iv, out + b, src + MAXLEN + 64 + a, len) == 0,
	      "%s failed at %zu", crypto_tfm_driver_name(t), len);
	CHECK(!memcmp(out + b, ref, len), "%s %s: %zu bytes (src+%zu dst+%zu) differ",
	      crypto_tfm_driver_name(t), enc ? "enc" : "dec", len, a, b);
	/* in place */
	memcpy(out + a, src, len);
	CHECK(crypt(t, enc, iv, out + a, out + a, len) == 0, "in place failed");
	CHECK(!memcmp(out + a, ref, len), "%s %s: in place %zu bytes differ",
	      crypto_tfm_driver_name(t), enc ? "enc" : "dec", len);
	/* round trip */
	CHECK(crypt(t, !enc, iv, out, ref, len) == 0 && !memcmp(out, src, len),
	      "%s: round trip of %zu bytes", crypto_tfm_driver_name(t), len);
	if (split)
		check_split(t, enc, iv, len);
}

static void test_alg(const char *alg, unsigned int *exercised)
{
	const char *names[MAX_DRIVERS];
	unsigned int n = test_drivers_for(alg, names, MAX_DRIVERS);
	char refname[96];
	struct crypto_tfm *rt;
	int err;

	snprintf(refname, sizeof(refname), "%s", crypto_best_driver(alg) ?
		 crypto_best_driver(alg) : "");
	/*
	 * the reference is the plain C instance over the generic cipher: the
	 * name with the most generic children (hctr2-aes-generic-polyval-
	 * generic, not hctr2-aes-aesni-polyval-generic)
	 */
	for (unsigned int i = 0, best = 0; i < n; i++) {
		unsigned int g = 0;

		for (const char *p = strstr(names[i], "-generic"); p;
		     p = strstr(p + 1, "-generic"))
			g++;
		if (g && g >= best && !strchr(names[i], '(') &&
		    strlen(names[i]) < sizeof(refname)) {
			best = g;
			snprintf(refname, sizeof(refname), "%s", names[i]);
		}
	}
	rt = crypto_alloc(NULL, refname, &err);
	CHECK(rt != NULL, "%s: reference driver '%s' unavailable", alg, refname);
	if (!rt)
		return;
	for (unsigned int d = 0; d < n; d++) {
		struct crypto_tfm *t = crypto_alloc(NULL, names[d], &err);
		const uint16_t *ks;
		unsigned int nks = 0;

		CHECK(t != NULL, "%s: alloc failed (%d)", names[d], err);
		if (!t)
			continue;
		ks = crypto_keysizes(t);
		while (nks < 4 && ks[nks])
			nks++;
		for (unsigned int k = 0; k < nks; k++) {
			size_t klen = ks[k];
			unsigned int step = (quick || strstr(names[d], "generic")) &&
					    nks > 1 && k + 1 < nks ? 7 : 1;
			int randoms = k + 1 == nks ? (quick ? 6 : 24) : (quick ? 1 : 4);

			test_random_bytes(key, klen);
			CHECK(crypto_setkey(t, key, klen) == 0, "%s setkey %zu",
			      names[d], klen);
			CHECK(crypto_setkey(rt, key, klen) == 0, "%s setkey %zu",
			      refname, klen);
			/* every length to 1 KiB (sparser for smaller keys) */
			for (size_t len = 0; len <= 1024; len += step)
				for (int enc = 0; enc < 2; enc++)
					if (valid_len(t, len))
						check_len(t, rt, enc, len, len % 61 == 0);
			for (int r = 0; r < randoms; r++) {
				size_t len = 1025 + test_rand_below(MAXLEN - 1025);

				if (!valid_len(t, len))
					len -= len % crypto_blocksize(t);
				for (int enc = 0; enc < 2; enc++)
					check_len(t, rt, enc, len, 1);
			}
			CHECK(crypto_setkey(t, key, klen + 1) != 0,
			      "%s accepted a %zu-byte key", names[d], klen + 1);
		}
		crypto_free(t);
		printf("  %-28s %-32s ok\n", alg, names[d]);
		(*exercised)++;
	}
	crypto_free(rt);
}

int main(void)
{
	unsigned int exercised = 0, supported;

	test_seed();
	quick = getenv("TEST_QUICK") && strcmp(getenv("TEST_QUICK"), "0");
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	src = malloc(2 * MAXLEN + 128);
	ref = malloc(MAXLEN + 64);
	out = malloc(MAXLEN + 64);
	key = malloc(128);
	if (!src || !ref || !out || !key)
		return 1;
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		test_alg(algs[i], &exercised);
	/* every driver of these algorithms that this CPU runs was exercised */
	supported = test_count_supported(algs, sizeof(algs) / sizeof(algs[0]));
	CHECK(exercised == supported, "exercised %u of %u supported drivers",
	      exercised, supported);
	printf("%u drivers exercised\n", exercised);
	free(src);
	free(ref);
	free(out);
	free(key);
	return test_finish("test_drivers");
}
