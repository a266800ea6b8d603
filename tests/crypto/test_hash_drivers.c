/* SPDX-License-Identifier: MIT */
/*
 * Every driver of every hash algorithm (ghash, hmac(sha512), nhpoly1305,
 * poly1305, polyval, sha512) against the
 * generic driver of the same algorithm, each forced by name: every length
 * to 1 KiB in one call and in random pieces, every two-piece split of the
 * lengths to two blocks and one (poly1305: 49 blocks and one), random
 * lengths to 64 KiB in random pieces (empty pieces too), unaligned data,
 * random keys of every length the algorithm takes, and a transform
 * reused after its final (which must start the next message afresh). A
 * driver this CPU supports that is not exercised is a failure. $TEST_SEED
 * reproduces a run; TEST_QUICK=1 (scripts/test.sh under qemu) takes every
 * 5th length past 256 bytes and fewer random lengths.
 *
 * Also: hmac(sha512) and HKDF take the best sha512 driver through the
 * registry (a planted, correct sha512 driver of the highest priority
 * counts the blocks it is given: HKDF must give it some).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/registry.h"
#include "crypto/kdf/hkdf.h"
#include "crypto/sha512/sha512.h"
#include "testutil.h"

#define MAXLEN 65536
#define MAX_DRIVERS 16

struct hash_algo {
	const char *name;
	size_t blocksize;
	int keyed;          /* 0 unkeyed, 1 any key length (hmac), 2 fixed */
	size_t splits_to;   /* every split of lengths to this; 0: 2 blocks + 1 */
};

/*
 * poly1305: every split to 49 blocks, past the 48 (AArch64; 20 on ARMv7)
 * from which poly1305-neon hands a run to its core (any run length, any
 * tail)
 */
static const struct hash_algo algs[] = {
	{ "ghash", 16, 2, 0 },
	{ "hmac(sha512)", 128, 1, 0 },
	/* random pieces of random lengths to 64 KiB cross its 1 KiB chunks */
	{ "nhpoly1305", 16, 2, 0 },
	{ "poly1305", 16, 2, 49 * 16 + 1 },
	{ "polyval", 16, 2, 0 },
	{ "sha512", 128, 0, 0 },
};

static uint8_t *msg, *key;
static int quick;

/* the digest of msg[0..len) fed in random pieces (some empty) */
static void digest_pieces(struct crypto_tfm *t, const uint8_t *m, size_t len,
			  uint8_t *out)
{
	size_t off = 0;

	CHECK(crypto_hash_init(t) == 0, "init");
	while (off < len) {
		size_t n = test_rand_below(4) == 0 ? 0 : test_rand_below(len - off + 1);

		if (test_rand_below(3) == 0 && n > 200)
			n = test_rand_below(200);
		CHECK(crypto_hash_update(t, m + off, n) == 0, "update");
		off += n;
	}
	CHECK(crypto_hash_final(t, out) == 0, "final");
}

static void check_len(const struct hash_algo *a, struct crypto_tfm *t,
		      struct crypto_tfm *rt, size_t len, int all_splits)
{
	uint8_t ref[64], out[64];
	size_t ds = crypto_digestsize(rt), off = test_rand_below(16);
	uint8_t *m = msg + off;

	test_random_bytes(m, len);
	CHECK(crypto_hash_digest(rt, m, len, ref) == 0, "reference digest");
	CHECK(crypto_hash_digest(t, m, len, out) == 0, "digest");
	CHECK(!memcmp(out, ref, ds), "%s: %zu bytes (data+%zu) differ",
	      crypto_tfm_driver_name(t), len, off);
	memset(out, 0, sizeof(out));
	digest_pieces(t, m, len, out);
	CHECK(!memcmp(out, ref, ds), "%s: %zu bytes in pieces differ",
	      crypto_tfm_driver_name(t), len);
	if (!all_splits)
		return;
	for (size_t cut = 0; cut <= len; cut++) {
		crypto_hash_init(t);
		crypto_hash_update(t, m, cut);
		crypto_hash_update(t, m + cut, len - cut);
		crypto_hash_final(t, out);
		CHECK(!memcmp(out, ref, ds), "%s: %zu bytes split at %zu differ",
		      crypto_tfm_driver_name(t), len, cut);
	}
	(void)a;
}

static void set_keys(const struct hash_algo *a, struct crypto_tfm *t,
		     struct crypto_tfm *rt)
{
	size_t klen = 0;

	if (!a->keyed)
		return;
	if (a->keyed == 2)
		klen = crypto_keysizes(t)[0];
	else
		klen = test_rand_below(4) ? test_rand_below(a->blocksize + 1) :
					    test_rand_below(3 * a->blocksize);
	test_random_bytes(key, klen);
	CHECK(crypto_setkey(t, key, klen) == 0, "%s setkey %zu",
	      crypto_tfm_driver_name(t), klen);
	CHECK(crypto_setkey(rt, key, klen) == 0, "%s setkey %zu",
	      crypto_tfm_driver_name(rt), klen);
}

static void test_alg(const struct hash_algo *a, unsigned int *exercised)
{
	const char *names[MAX_DRIVERS];
	unsigned int n = test_drivers_for(a->name, names, MAX_DRIVERS);
	const char *refname = NULL;
	struct crypto_tfm *rt;
	int err;

	for (unsigned int i = 0; i < n; i++)
		if (strstr(names[i], "-generic"))
			refname = names[i];
	CHECK(refname != NULL, "%s: no generic driver", a->name);
	if (!refname)
		return;
	rt = crypto_alloc(NULL, refname, &err);
	CHECK(rt != NULL, "%s: reference %s unavailable (%d)", a->name, refname, err);
	if (!rt)
		return;
	for (unsigned int d = 0; d < n; d++) {
		struct crypto_tfm *t = crypto_alloc(NULL, names[d], &err);
		size_t splits_to = a->splits_to ? a->splits_to : 2 * a->blocksize + 1;

		CHECK(t != NULL, "%s: alloc failed (%d)", names[d], err);
		if (!t)
			continue;
		if (a->keyed == 2) /* one key length: others refused */
			CHECK(crypto_setkey(t, key, crypto_keysizes(t)[0] + 1) == -EINVAL &&
			      crypto_setkey(t, key, crypto_keysizes(t)[0] - 1) == -EINVAL,
			      "%s accepted a key of the wrong length", names[d]);
		set_keys(a, t, rt);
		for (size_t len = 0; len <= 1024; len++) {
			if (quick && len > 256 && len % 5)
				continue;
			if (len % 97 == 0)
				set_keys(a, t, rt);
			check_len(a, t, rt, len, len <= splits_to);
		}
		for (int r = 0; r < (quick ? 6 : 40); r++) {
			set_keys(a, t, rt);
			check_len(a, t, rt, test_rand_below(MAXLEN - 15), 0);
		}
		crypto_free(t);
		printf("  %-16s %-28s ok\n", a->name, names[d]);
		(*exercised)++;
	}
	crypto_free(rt);
}

/* ---- the registry gives hmac(sha512) and HKDF the best sha512 ------- */

static unsigned long counted_blocks;

static void counting_blocks(uint64_t h[8], const uint8_t *data, size_t nblocks)
{
	counted_blocks += nblocks;
	sha512_blocks_generic(h, data, nblocks);
}

static void counting_init(void *state)
{
	sha512_init_with(state, counting_blocks);
}

static const struct hash_alg counting_alg = {
	.digestsize = SHA512_DIGEST_SIZE,
	.blocksize = SHA512_BLOCK_SIZE,
	.statesize = sizeof(struct sha512_state),
	.init = counting_init,
	.update = sha512_hash_update,
	.final = sha512_hash_final,
};

static int register_counting(struct crypto_registry *reg)
{
	const struct crypto_driver d = {
		.alg_name = "sha512",
		.driver_name = "sha512-counting-test",
		.priority = 5000,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_HASH,
		.u.hash = &counting_alg,
	};

	return crypto_register_driver(reg, &d);
}

static void test_best_sha512_everywhere(void)
{
	uint8_t prk[HKDF_SHA512_PRK_SIZE], okm[100];
	const char *best = crypto_best_driver("sha512");
	const char *best_hmac = crypto_best_driver("hmac(sha512)");
	unsigned long before;

	CHECK(best && !strcmp(best, "sha512-counting-test"),
	      "best sha512 is %s, not the planted driver", best ? best : "none");
	CHECK(best_hmac && !strcmp(best_hmac, "hmac-sha512-counting-test"),
	      "best hmac(sha512) is %s", best_hmac ? best_hmac : "none");
	before = counted_blocks;
	CHECK(hkdf_sha512_extract((const uint8_t *)"salt", 4,
				  (const uint8_t *)"input key", 9, prk) == 0,
	      "hkdf extract");
	CHECK(counted_blocks > before,
	      "HKDF-Extract did not use the best sha512 driver");
	before = counted_blocks;
	CHECK(hkdf_sha512_expand(prk, (const uint8_t *)"info", 4, okm,
				 sizeof(okm)) == 0, "hkdf expand");
	CHECK(counted_blocks > before,
	      "HKDF-Expand did not use the best sha512 driver");
}

int main(void)
{
	unsigned int exercised = 0, supported = 0, n;
	struct crypto_driver_info info;

	test_seed();
	quick = getenv("TEST_QUICK") && strcmp(getenv("TEST_QUICK"), "0");
	CHECK(crypto_add_registrar(register_counting) == 0, "add registrar");
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	msg = malloc(MAXLEN + 16);
	key = malloc(CRYPTO_MAX_KEYLEN);
	if (!msg || !key)
		return 1;
	test_best_sha512_everywhere();
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		test_alg(&algs[i], &exercised);
	n = crypto_driver_count();
	for (unsigned int i = 0; i < n; i++) {
		crypto_driver_info(i, &info);
		for (size_t a = 0; a < sizeof(algs) / sizeof(algs[0]); a++)
			if (!strcmp(info.alg_name, algs[a].name) && info.available &&
			    !info.disabled)
				supported++;
	}
	CHECK(exercised == supported, "exercised %u of %u supported drivers",
	      exercised, supported);
	printf("%u drivers exercised\n", exercised);
	free(msg);
	free(key);
	return test_finish("test_hash_drivers");
}
