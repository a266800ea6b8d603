/* SPDX-License-Identifier: MIT */
/*
 * Constant-time check of every driver, run under valgrind memcheck.
 *
 * The key and the plaintext are marked undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED) before setkey and encryption; memcheck then
 * reports every conditional branch and every memory address computed from
 * them, through the whole driver (key schedule, cipher, mode, tails). The
 * outputs are marked defined again before they are compared. IVs, XTS
 * tweaks (the sector number), nonces, AAD and lengths are public and stay
 * defined. For the AEAD the received tag is marked undefined too, and both
 * the right and a wrong tag are tried: the tag comparison must not branch;
 * its verdict is made public by ct_declassify32() in the library.
 *
 * Verdict per driver, from VALGRIND_COUNT_ERRORS before and after:
 *  - drivers registered constant-time must cause no report;
 *  - variable-time drivers (the table ones) MUST cause reports: that proves
 *    the check sees table lookups; at least one must have been checked.
 * Drivers the CPU lacks, as valgrind presents it, are listed as skipped:
 * valgrind 3.19 emulates neither AVX-512 nor VAES, VPCLMULQDQ or GFNI and
 * hides them in CPUID.
 *
 * Without valgrind this exits 77 (skipped). tests/ct/meson.build runs it
 * under valgrind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "crypto/crypto.h"
#include "tests/crypto/testutil.h"

#define MAXLEN 8192
#define HMAC_MAX_KEY 200

static uint8_t *key, *plain, *work, *ct, *out;

static void mark_secret(void *p, size_t len)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, len);
}

static void mark_public(void *p, size_t len)
{
	VALGRIND_MAKE_MEM_DEFINED(p, len);
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* fresh random key (klen) and plaintext (len): both undefined in work/key */
static void fresh_secrets(size_t klen, size_t len)
{
	test_random_bytes(key, klen);
	test_random_bytes(plain, len);
	memcpy(work, plain, len);
	mark_secret(key, klen);
	mark_secret(work, len);
}

static int valid_len(struct crypto_tfm *t, size_t len)
{
	unsigned int bs = crypto_blocksize(t);

	if (len < crypto_min_len(t))
		return 0;
	return starts_with(crypto_tfm_alg_name(t), "xts(") || bs <= 1 ||
	       len % bs == 0;
}

/* encrypt work -> ct, decrypt ct -> out, with key and data undefined */
static void check_skcipher(struct crypto_tfm *t, const char *name)
{
	/* a whole number of blocks, SIMD widths and tails; odd ones for
	 * stealing and stream modes */
	static const size_t lens[] = { 16, 37, 128, 512 + 13, 4096 };
	const uint16_t *ks = crypto_keysizes(t);

	for (unsigned int k = 0; k < 4 && ks[k]; k++) {
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			size_t len = lens[l];
			uint8_t iv0[32], iv[32];
			int rc;

			if (!valid_len(t, len))
				continue;
			test_random_bytes(iv0, sizeof(iv0));
			fresh_secrets(ks[k], len);
			rc = crypto_setkey(t, key, ks[k]);
			CHECK(rc == 0, "%s: setkey %u: %d", name, ks[k], rc);
			memcpy(iv, iv0, sizeof(iv));
			rc = crypto_encrypt(t, iv, ct, work, len);
			CHECK(rc == 0, "%s: encrypt %zu: %d", name, len, rc);
			memcpy(iv, iv0, sizeof(iv));
			rc = crypto_decrypt(t, iv, out, ct, len);
			CHECK(rc == 0, "%s: decrypt %zu: %d", name, len, rc);
			mark_public(ct, len);
			mark_public(out, len);
			CHECK(!memcmp(out, plain, len) && memcmp(ct, plain, len),
			      "%s: round trip of %zu bytes", name, len);
		}
	}
}

/* single-block cipher: 17 blocks, past any SIMD width */
static void check_cipher(struct crypto_tfm *t, const char *name)
{
	const uint16_t *ks = crypto_keysizes(t);
	size_t nblocks = 17, len = nblocks * crypto_blocksize(t);

	for (unsigned int k = 0; k < 4 && ks[k]; k++) {
		fresh_secrets(ks[k], len);
		CHECK(crypto_setkey(t, key, ks[k]) == 0, "%s: setkey %u", name, ks[k]);
		CHECK(crypto_cipher_encrypt(t, ct, work, nblocks) == 0, "%s: encrypt", name);
		CHECK(crypto_cipher_decrypt(t, out, ct, nblocks) == 0, "%s: decrypt", name);
		mark_public(ct, len);
		mark_public(out, len);
		CHECK(!memcmp(out, plain, len) && memcmp(ct, plain, len),
		      "%s: round trip of %zu blocks", name, nblocks);
	}
}

/*
 * hash / hmac / keyed hash (ghash, polyval: its one key length) of
 * undefined data (and key) against the same over defined
 */
static void check_hash(struct crypto_tfm *t, const char *name, int hmac)
{
	static const size_t lens[] = { 0, 111, 112, 300 };
	size_t klens[] = { 32, HMAC_MAX_KEY }; /* < and > a block */
	uint8_t want[64], got[64];
	size_t dlen = crypto_digestsize(t), nkeys = hmac ? 2 : 0;
	int keyed = hmac || crypto_keysizes(t)[0];

	if (!hmac && keyed) {
		klens[0] = crypto_keysizes(t)[0];
		nkeys = 1;
	}
	for (size_t k = 0; k < (nkeys ? nkeys : 1); k++) {
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			size_t len = lens[l];

			fresh_secrets(klens[k], len);
			mark_public(key, klens[k]);
			if (keyed)
				CHECK(crypto_setkey(t, key, klens[k]) == 0, "%s: setkey", name);
			CHECK(crypto_hash_digest(t, plain, len, want) == 0, "%s: digest", name);
			if (keyed) {
				mark_secret(key, klens[k]);
				CHECK(crypto_setkey(t, key, klens[k]) == 0, "%s: setkey", name);
			}
			CHECK(crypto_hash_digest(t, work, len, got) == 0, "%s: digest", name);
			mark_public(got, dlen);
			CHECK(!memcmp(got, want, dlen), "%s: %zu bytes: digest differs",
			      name, len);
		}
	}
}

/* AEAD: key, plaintext and the received tag undefined; right and wrong tag */
static void check_aead(struct crypto_tfm *t, const char *name)
{
	static const size_t lens[] = { 0, 100, 600, 5000 };
	const uint16_t *ks = crypto_keysizes(t);
	uint8_t nonce[32], aad[20], tag[16], bad[16];
	size_t tlen = crypto_tagsize(t);

	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
		size_t len = lens[l];
		int rc;

		test_random_bytes(nonce, sizeof(nonce));
		test_random_bytes(aad, sizeof(aad));
		fresh_secrets(ks[0], len);
		CHECK(crypto_setkey(t, key, ks[0]) == 0, "%s: setkey", name);
		rc = crypto_aead_encrypt(t, nonce, aad, sizeof(aad), ct, work, len, tag);
		CHECK(rc == 0, "%s: encrypt %zu: %d", name, len, rc);
		memcpy(bad, tag, tlen);
		bad[tlen - 1] ^= 0x80;
		/* the tag and ciphertext as received: undefined, like the key */
		rc = crypto_aead_decrypt(t, nonce, aad, sizeof(aad), out, ct, len, tag);
		CHECK(rc == 0, "%s: decrypt %zu with its tag: %d", name, len, rc);
		mark_public(out, len);
		CHECK(!memcmp(out, plain, len), "%s: round trip of %zu bytes", name, len);
		rc = crypto_aead_decrypt(t, nonce, aad, sizeof(aad), out, ct, len, bad);
		CHECK(rc == -EBADMSG, "%s: decrypt %zu with a wrong tag: %d", name, len, rc);
		mark_public(ct, len);
	}
}

/* run one driver; returns the number of memcheck reports it caused */
static unsigned long check_driver(const struct crypto_driver_info *info)
{
	unsigned long before = VALGRIND_COUNT_ERRORS;
	struct crypto_tfm *t;
	int err;

	t = crypto_alloc(NULL, info->driver_name, &err);
	CHECK(t != NULL, "%s: alloc failed (%d)", info->driver_name, err);
	if (!t)
		return 0;
	/* allocation ran the self-test on defined data: count from here */
	before = VALGRIND_COUNT_ERRORS;
	switch (info->type) {
	case CRYPTO_TYPE_CIPHER:
		check_cipher(t, info->driver_name);
		break;
	case CRYPTO_TYPE_SKCIPHER:
		check_skcipher(t, info->driver_name);
		break;
	case CRYPTO_TYPE_HASH:
		check_hash(t, info->driver_name, starts_with(info->alg_name, "hmac("));
		break;
	case CRYPTO_TYPE_AEAD:
		check_aead(t, info->driver_name);
		break;
	}
	crypto_free(t);
	return VALGRIND_COUNT_ERRORS - before;
}

int main(void)
{
	unsigned int n, checked_ct = 0, checked_vt = 0, skipped = 0;
	struct crypto_driver_info info;

	if (!RUNNING_ON_VALGRIND) {
		fprintf(stderr, "ct_check: not running under valgrind: skipped\n");
		return TEST_SKIP;
	}
	test_seed();
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	key = malloc(CRYPTO_MAX_KEYLEN); /* nhpoly1305: 1088, past HMAC_MAX_KEY */
	plain = malloc(MAXLEN);
	work = malloc(MAXLEN);
	ct = malloc(MAXLEN);
	out = malloc(MAXLEN);
	if (!key || !plain || !work || !ct || !out)
		return 1;
	/*
	 * Constant-time drivers first, the table drivers last: their many
	 * reports come after every verdict that must be zero.
	 */
	n = crypto_driver_count();
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned int i = 0; i < n; i++) {
			unsigned long errors;

			if (crypto_driver_info(i, &info) ||
			    !info.const_time != (pass == 1))
				continue;
			if (!info.available || info.disabled) {
				skipped++;
				printf("  skip %-36s %s%s\n", info.driver_name,
				       info.disabled ? "disabled by policy" :
				       "CPU under valgrind lacks ",
				       info.disabled ? "" : info.missing);
				continue;
			}
			errors = check_driver(&info);
			if (info.const_time) {
				checked_ct++;
				CHECK(errors == 0, "%s: constant-time driver: %lu "
				      "secret-dependent branches or indexes",
				      info.driver_name, errors);
			} else {
				checked_vt++;
				CHECK(errors > 0, "%s: variable-time driver: no report "
				      "(the check does not see table lookups)",
				      info.driver_name);
			}
			printf("  %-4s %-36s %-13s %lu reports\n",
			       (errors == 0) == !!info.const_time ? "ok" : "FAIL",
			       info.driver_name,
			       info.const_time ? "ct" : "variable-time", errors);
		}
	}
	CHECK(checked_vt > 0, "no variable-time driver checked: the check is unproven");
	CHECK(checked_ct > 0, "no constant-time driver checked");
	printf("%u constant-time drivers clean, %u variable-time drivers caught, "
	       "%u skipped\n", checked_ct, checked_vt, skipped);
	free(key);
	free(plain);
	free(work);
	free(ct);
	free(out);
	return test_finish("ct_check");
}
