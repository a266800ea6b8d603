/* SPDX-License-Identifier: MIT */
/*
 * Every driver of the AEADs (rfc7539(chacha20,poly1305),
 * xchacha20poly1305, gcm(aes)) against the generic instance of the same
 * algorithm, each forced by name, under each key size it lists: every
 * length to 1 KiB (the stream child's crypt_ks0 takes block 0 and a
 * short message in one pass, and longer ones another way; the ctr(aes)
 * cores take 128- to 512-byte chunks, the GHASH cores 8 or 16 blocks, so
 * each boundary is crossed), every length within 17 bytes of the
 * engine's 4 KiB pieces and of twice that, random lengths to 64 KiB,
 * random keys, nonces and AAD of 0 to 320 bytes (past the fused cores'
 * 128- and 256-byte GHASH steps), in place and out of place at unaligned
 * offsets: the same ciphertext and tag. Then the driver opens the
 * reference's output, out of place and in place, and refuses it with one
 * bit of the tag or the ciphertext flipped (-EBADMSG, dst zeroed). A driver this
 * CPU runs that is not exercised is a failure. $TEST_SEED reproduces a
 * run; TEST_QUICK=1 takes every 3rd length and fewer random ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "testutil.h"

#define MAXLEN 65536
#define MAXAAD 320
#define MAX_DRIVERS 32
/* the AEAD engine's encryption piece (crypto/templates/aead.h) */
#define PIECE 4096
#define TAG 16

static const char *const algs[] = {
	"rfc7539(chacha20,poly1305)", "xchacha20poly1305", "gcm(aes)",
};

static uint8_t *src, *ref, *out;
static int quick;

/* the instance with the most generic children: the plain C one */
static const char *reference(const char *const *names, unsigned int n)
{
	const char *best = NULL;
	unsigned int most = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int g = 0;

		for (const char *p = strstr(names[i], "generic"); p;
		     p = strstr(p + 1, "generic"))
			g++;
		if (g > most) {
			most = g;
			best = names[i];
		}
	}
	return best;
}

static void check_len(struct crypto_tfm *t, struct crypto_tfm *rt, size_t len)
{
	uint8_t nonce[32], aad[MAXAAD], tag_ref[TAG], tag[TAG];
	size_t aadlen = test_rand_below(MAXAAD + 1);
	size_t a = test_rand_below(16), b = test_rand_below(16);
	const char *name = crypto_tfm_driver_name(t);
	size_t flip;

	test_random_bytes(nonce, sizeof(nonce));
	test_random_bytes(aad, aadlen);
	test_random_bytes(src, len);
	CHECK(crypto_aead_encrypt(rt, nonce, aad, aadlen, ref, src, len,
				  tag_ref) == 0, "reference failed at %zu", len);
	/* out of place, unaligned */
	memcpy(src + MAXLEN + 64 + a, src, len);
	CHECK(crypto_aead_encrypt(t, nonce, aad, aadlen, out + b,
				  src + MAXLEN + 64 + a, len, tag) == 0,
	      "%s failed at %zu", name, len);
	CHECK(!memcmp(out + b, ref, len) && !memcmp(tag, tag_ref, TAG),
	      "%s: %zu bytes (aad %zu, src+%zu dst+%zu) differ", name, len,
	      aadlen, a, b);
	/* in place */
	memcpy(out + a, src, len);
	CHECK(crypto_aead_encrypt(t, nonce, aad, aadlen, out + a, out + a, len,
				  tag) == 0 &&
	      !memcmp(out + a, ref, len) && !memcmp(tag, tag_ref, TAG),
	      "%s: in place %zu bytes differ", name, len);
	/* it opens the reference's ciphertext */
	CHECK(crypto_aead_decrypt(t, nonce, aad, aadlen, out, ref, len,
				  tag_ref) == 0 && !memcmp(out, src, len),
	      "%s: open of %zu bytes", name, len);
	/* in place too (a core that hashed dst after writing it passes above) */
	memcpy(out + b, ref, len);
	CHECK(crypto_aead_decrypt(t, nonce, aad, aadlen, out + b, out + b, len,
				  tag_ref) == 0 && !memcmp(out + b, src, len),
	      "%s: in-place open of %zu bytes", name, len);
	/* and refuses it with one bit flipped in the tag or the ciphertext */
	flip = test_rand_below(8 * (TAG + len));
	memcpy(tag, tag_ref, TAG);
	if (flip < 8 * TAG)
		tag[flip / 8] ^= (uint8_t)(1u << (flip % 8));
	else
		ref[flip / 8 - TAG] ^= (uint8_t)(1u << (flip % 8));
	memset(out, 0xa5, len);
	CHECK(crypto_aead_decrypt(t, nonce, aad, aadlen, out, ref, len, tag) ==
		      -EBADMSG,
	      "%s: forged %zu bytes (bit %zu) accepted", name, len, flip);
	for (size_t i = 0; i < len; i++)
		if (out[i]) {
			CHECK(0, "%s: forged %zu bytes: dst not zeroed", name, len);
			break;
		}
}

static void test_alg(const char *alg, unsigned int *exercised)
{
	const char *names[MAX_DRIVERS];
	unsigned int n = test_drivers_for(alg, names, MAX_DRIVERS);
	const char *refname = reference(names, n);
	uint8_t key[64];
	struct crypto_tfm *rt;
	int err;

	CHECK(refname != NULL, "%s: no generic driver", alg);
	if (!refname)
		return;
	rt = crypto_alloc(NULL, refname, &err);
	CHECK(rt != NULL, "%s: reference '%s' unavailable (%d)", alg, refname, err);
	if (!rt)
		return;
	for (unsigned int d = 0; d < n; d++) {
		struct crypto_tfm *t = crypto_alloc(NULL, names[d], &err);
		const uint16_t *ks;
		unsigned int nk = 0;

		CHECK(t != NULL, "%s: alloc failed (%d)", names[d], err);
		if (!t)
			continue;
		ks = crypto_keysizes(t);
		for (; nk < 4 && ks[nk]; nk++) {
			size_t klen = ks[nk];

			test_random_bytes(key, klen);
			CHECK(crypto_setkey(t, key, klen) == 0 &&
			      crypto_setkey(rt, key, klen) == 0, "%s setkey %zu",
			      names[d], klen);
			for (size_t len = 0; len <= 1024; len += quick ? 3 : 1)
				check_len(t, rt, len);
			for (size_t p = PIECE; p <= 2 * PIECE; p += PIECE)
				for (size_t len = p - 17; len <= p + 17; len += quick ? 5 : 1)
					check_len(t, rt, len);
			for (int r = 0; r < (quick ? 4 : 16); r++)
				check_len(t, rt, 1025 + test_rand_below(MAXLEN - 1025));
		}
		CHECK(nk > 0, "%s lists no key size", names[d]);
		crypto_free(t);
		printf("  %-28s %-42s %u key sizes ok\n", alg, names[d], nk);
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
	if (!src || !ref || !out)
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
	return test_finish("test_aead_drivers");
}
