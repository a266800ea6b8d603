/* SPDX-License-Identifier: MIT */
/*
 * Known-answer tests: every driver this CPU can run passes the vectors
 * registered for its algorithm (the registry's self-test runs them, each
 * driver forced by name), every algorithm the design names has vectors
 * and a usable driver, and a driver that fails its self-test is disabled
 * with a reason while lookup falls back to the next one. Every xctr(aes)
 * and hctr2(aes) driver lists 16-, 24- and 32-byte keys: both have
 * AES-128, -192 and -256 vectors, and the self-test skips the vectors of
 * a key length a driver does not list, so one that dropped a length
 * would pass without them.
 */
#include <errno.h>
#include <string.h>

#include "crypto/crypto.h"
#include "crypto/internal/registry.h"
#include "testutil.h"

static const char *const required_algs[] = {
	"adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)", "aes", "camellia",
	"cbc(aes)", "cbc(camellia)", "cbc(sm4)", "cfb(aes)",
	"cfb(camellia)", "cfb(sm4)", "chacha12", "chacha20", "ctr(aes)", "ctr(camellia)",
	"ctr(sm4)", "cts(cbc(aes))", "cts(cbc(camellia))", "ecb(aes)",
	"ecb(camellia)", "ecb(sm4)", "gcm(aes)", "ghash", "hctr2(aes)", "hmac(sha512)",
	"nhpoly1305", "poly1305",
	"polyval",
	"rfc7539(chacha20,poly1305)", "sha512", "sm4", "speck128", "speck64",
	"xchacha12", "xchacha20", "xchacha20poly1305",
	"xctr(aes)", "xts(aes)", "xts(camellia)", "xts(sm4)", "xts(speck128)",
	"xts(speck64)",
};

/* the algorithms whose every driver must take all three AES key lengths */
static const char *const all_aes_keys_algs[] = { "xctr(aes)", "hctr2(aes)", "gcm(aes)" };

/* index in all_aes_keys_algs, or -1 */
static int all_aes_keys_index(const char *alg)
{
	for (size_t i = 0; i < ARRAY_SIZE(all_aes_keys_algs); i++)
		if (!strcmp(alg, all_aes_keys_algs[i]))
			return (int)i;
	return -1;
}

/* the transform lists 16, 24 and 32 among its key sizes */
static int lists_aes_keys(const struct crypto_tfm *tfm)
{
	const uint16_t *ks = crypto_keysizes(tfm);
	unsigned int found = 0;

	for (int i = 0; i < CRYPTO_MAX_KEYSIZES && ks[i]; i++)
		found |= ks[i] == 16 ? 1u : ks[i] == 24 ? 2u : ks[i] == 32 ? 4u : 0u;
	return found == 7;
}

/* a planted AES driver whose output is wrong in one bit */
static void broken_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	(void)ctx;
	memcpy(dst, src, 16);
	dst[0] ^= 1;
}

static int broken_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	(void)ctx, (void)key, (void)keylen;
	return 0;
}

static const struct cipher_alg broken_alg = {
	.blocksize = 16,
	.keysizes = { 16, 24, 32 },
	.ctxsize = 16,
	.setkey = broken_setkey,
	.encrypt = broken_encrypt,
	.decrypt = broken_encrypt,
};

static int register_broken(struct crypto_registry *reg)
{
	const struct crypto_driver d = {
		.alg_name = "aes",
		.driver_name = "aes-broken-test",
		.priority = 5000,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &broken_alg,
	};

	return crypto_register_driver(reg, &d);
}

int main(void)
{
	struct crypto_driver_info info;
	const struct crypto_testvecs *sets[8];
	unsigned int n, tested = 0;
	unsigned int aes_keys_checked[ARRAY_SIZE(all_aes_keys_algs)] = { 0 };
	int err;

	CHECK(crypto_add_registrar(register_broken) == 0, "add registrar");
	err = crypto_init();
	CHECK(err == 0, "crypto_init: %s", crypto_init_error());
	if (err)
		return test_finish("test_kat");
	CHECK(crypto_add_registrar(register_broken) == -EBUSY,
	      "registrar accepted after init");

	for (size_t i = 0; i < ARRAY_SIZE(required_algs); i++) {
		const char *best = crypto_best_driver(required_algs[i]);

		CHECK(crypto_find_testvecs(required_algs[i], sets, 8) > 0,
		      "%s has no known-answer vectors", required_algs[i]);
		CHECK(best != NULL, "%s has no usable driver", required_algs[i]);
	}

	n = crypto_driver_count();
	for (unsigned int i = 0; i < n; i++) {
		struct crypto_tfm *tfm;

		crypto_driver_info(i, &info);
		if (!info.available) {
			printf("skip %s: CPU lacks %s\n", info.driver_name, info.missing);
			continue;
		}
		err = crypto_driver_selftest(i);
		crypto_driver_info(i, &info);
		/* the broken driver and every instance over it, however deep
		 * (hctr2-aes-broken-test-polyval-*: its xctr child's child) */
		if (strstr(info.driver_name, "aes-broken-test")) {
			CHECK(err == -ELIBBAD && !strcmp(info.selftest, "failed") &&
			      info.selftest_reason[0],
			      "%s: planted broken driver passed its self-test",
			      info.driver_name);
			tfm = crypto_alloc(NULL, info.driver_name, &err);
			CHECK(!tfm && err == -ELIBBAD, "%s: broken driver allocated",
			      info.driver_name);
			continue;
		}
		CHECK(err == 0 && !strcmp(info.selftest, "passed"),
		      "%s (%s): self-test %s: %s", info.driver_name, info.alg_name,
		      info.selftest, info.selftest_reason);
		/* forced by name it must allocate */
		tfm = crypto_alloc(NULL, info.driver_name, &err);
		CHECK(tfm != NULL, "%s: alloc by name failed: %d", info.driver_name, err);
		if (tfm && all_aes_keys_index(info.alg_name) >= 0) {
			CHECK(lists_aes_keys(tfm),
			      "%s (%s) does not list 16-, 24- and 32-byte keys: "
			      "its AES vectors of the missing length are skipped",
			      info.driver_name, info.alg_name);
			aes_keys_checked[all_aes_keys_index(info.alg_name)]++;
		}
		crypto_free(tfm);
		tested++;
	}
	printf("%u drivers passed their known-answer vectors\n", tested);
	for (size_t i = 0; i < ARRAY_SIZE(all_aes_keys_algs); i++) {
		CHECK(aes_keys_checked[i] > 0, "no %s driver was checked for its key sizes",
		      all_aes_keys_algs[i]);
		printf("%u %s drivers checked for 16-, 24- and 32-byte keys\n",
		       aes_keys_checked[i], all_aes_keys_algs[i]);
	}

	/* lookup skipped the broken driver despite its priority */
	{
		const char *best = crypto_best_driver("aes");
		const char *best_xts = crypto_best_driver("xts(aes)");

		CHECK(best && strcmp(best, "aes-broken-test"),
		      "lookup returned the broken driver");
		CHECK(best_xts && !strstr(best_xts, "broken"),
		      "xts lookup returned %s", best_xts ? best_xts : "nothing");
	}
	return test_finish("test_kat");
}
