/* SPDX-License-Identifier: MIT */
/*
 * Camellia iterated known answers, for every "camellia" driver this CPU
 * can run (each forced by name, the variable-time camellia-table
 * included): the NESSIE vectors Camellia-128-128, -192-128, -256-128
 * .verified.test-vectors, Set 1 vector 0 (key bit 0 set, zero plaintext)
 * and Set 2 vector 0 (zero key, plaintext bit 0 set) for each key size:
 * one encryption, the plaintext encrypted 100 times (one
 * crypto_cipher_encrypt per iteration), 1000 times for Set 1 vector 0 of
 * the 128-bit key, and the 100-fold result decrypted 100 times back.
 * Single blocks chained through the driver: every encryption depends on
 * the one before, so one wrong round key shows even where a single
 * vector would come out right.
 */
#include <string.h>

#include "crypto/crypto.h"
#include "testutil.h"

#define MAX_DRIVERS 8

struct nessie_vec {
	const char *what, *key, *pt, *once, *times100, *times1000;
};

#define BIT0_16 "80000000000000000000000000000000"
#define ZERO_16 "00000000000000000000000000000000"

static const struct nessie_vec vecs[] = {
	{ "128 set 1 #0", BIT0_16, ZERO_16, "6c227f749319a3aa7da235a9bba05a2c",
	  "f77aec22a6043fe27a3bcb861c4bb0ac", "89d3d322736f0c50b994120738d08782" },
	{ "128 set 2 #0", ZERO_16, BIT0_16, "07923a39eb0a817d1c4d87bdb82d1f1c",
	  "b2046f50d9d08a1b17468d44886033df", NULL },
	{ "192 set 1 #0", BIT0_16 "0000000000000000", ZERO_16,
	  "1b6220d365c2176c1d41a5826520fca1", "b3697e31ed3bbcee279682c24921a42b",
	  NULL },
	{ "192 set 2 #0", ZERO_16 "0000000000000000", BIT0_16,
	  "3eb6cc5618efc98455b5992050d474e7", "e0054a4e717e07fe41dd6489c252eec9",
	  NULL },
	{ "256 set 1 #0", BIT0_16 ZERO_16, ZERO_16,
	  "2136fabda091dfb5171b94b8efbb5d08", "6187e967eebf74ff17e158c8fd9fdf25",
	  NULL },
	{ "256 set 2 #0", ZERO_16 ZERO_16, BIT0_16,
	  "b0c6b88aea518ab09e847248e91b1b9d", "b4a2dadb0315aca6d91564b3f44a1d50",
	  NULL },
};

/* encrypt (or decrypt) b in place n times, one call each */
static int iterate(struct crypto_tfm *t, int enc, uint8_t b[16], int n)
{
	for (int i = 0; i < n; i++) {
		int err = enc ? crypto_cipher_encrypt(t, b, b, 1) :
				crypto_cipher_decrypt(t, b, b, 1);

		if (err)
			return err;
	}
	return 0;
}

static void test_vec(struct crypto_tfm *t, const char *drv,
		     const struct nessie_vec *v)
{
	uint8_t key[32], pt[16], want[16], b[16];
	size_t klen = hex_decode(v->key, key, sizeof(key));

	CHECK(hex_decode(v->pt, pt, 16) == 16, "bad vector");
	CHECK(crypto_setkey(t, key, klen) == 0, "%s: setkey %zu", drv, klen);
	memcpy(b, pt, 16);
	hex_decode(v->once, want, 16);
	CHECK(iterate(t, 1, b, 1) == 0 && !memcmp(b, want, 16),
	      "%s: %s: encrypted once differs", drv, v->what);
	hex_decode(v->times100, want, 16);
	CHECK(iterate(t, 1, b, 99) == 0 && !memcmp(b, want, 16),
	      "%s: %s: encrypted 100 times differs", drv, v->what);
	if (v->times1000) {
		uint8_t c[16];

		memcpy(c, b, 16);
		hex_decode(v->times1000, want, 16);
		CHECK(iterate(t, 1, c, 900) == 0 && !memcmp(c, want, 16),
		      "%s: %s: encrypted 1000 times differs", drv, v->what);
	}
	CHECK(iterate(t, 0, b, 100) == 0 && !memcmp(b, pt, 16),
	      "%s: %s: 100 decryptions do not give the plaintext", drv, v->what);
}

int main(void)
{
	const char *names[MAX_DRIVERS];
	unsigned int n;

	test_seed();
	if (crypto_init()) {
		CHECK(0, "crypto_init: %s", crypto_init_error());
		return test_finish("test_camellia_nessie");
	}
	n = test_drivers_for("camellia", names, MAX_DRIVERS);
	CHECK(n > 0, "no camellia driver");
	for (unsigned int d = 0; d < n; d++) {
		int err;
		struct crypto_tfm *t = crypto_alloc(NULL, names[d], &err);

		CHECK(t != NULL, "crypto_alloc(%s): %d", names[d], err);
		if (!t)
			continue;
		for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++)
			test_vec(t, names[d], &vecs[i]);
		crypto_free(t);
		printf("%s: %zu NESSIE vectors\n", names[d],
		       sizeof(vecs) / sizeof(vecs[0]));
	}
	return test_finish("test_camellia_nessie");
}
