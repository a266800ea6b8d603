/* SPDX-License-Identifier: MIT */
/*
 * volume/parallel.c through content.h: a large batch of units split over
 * helper threads gives byte for byte what the serial code gives, for
 * batch sizes around the split threshold and up to 2 MiB, every cipher;
 * holes and errors in any part come back; several callers at once (more
 * than there are helpers) get their own results; stop and restart.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tests/volume/voltest.h"
#include "volume/content.h"
#include "volume/parallel.h"

#define MAXUNITS 512 /* 2 MiB of 4 KiB sectors */
#define SECTOR 4096
#define CALLERS 3

struct caller {
	struct crypto_tfm *tfm;
	const struct content_geom *g;
	uint64_t nunits, plain;
	const uint8_t *src, *expect;
	uint8_t *out;
	int rounds, mismatches;
};

/* many encryptions at once from several threads; results checked later */
static void *caller_main(void *p)
{
	struct caller *c = p;
	size_t len = (size_t)(c->nunits * SECTOR);

	for (int r = 0; r < c->rounds; r++) {
		memset(c->out, 0, len);
		if (content_encrypt_units(c->tfm, c->g, c->plain, 0, c->nunits,
					  c->out, c->src) != 0 ||
		    memcmp(c->out, c->expect, len) != 0)
			c->mismatches++;
	}
	return NULL;
}

static void check_concurrent(struct crypto_tfm *tfm, const struct content_geom *g,
			     const uint8_t *src, const uint8_t *expect)
{
	struct caller c[CALLERS];
	pthread_t t[CALLERS];

	for (int i = 0; i < CALLERS; i++) {
		c[i] = (struct caller){ tfm, g, 64 + 32 * (uint64_t)i, 0, src, NULL,
					malloc(MAXUNITS * SECTOR), 20, 0 };
		c[i].plain = c[i].nunits * SECTOR;
		c[i].expect = expect; /* units 0.. are the same for any length */
		CHECK(c[i].out && pthread_create(&t[i], NULL, caller_main, &c[i]) == 0,
		      "caller %d", i);
	}
	for (int i = 0; i < CALLERS; i++) {
		pthread_join(t[i], NULL);
		CHECK(c[i].mismatches == 0, "caller %d: %d of %d encryptions differ",
		      i, c[i].mismatches, c[i].rounds);
		free(c[i].out);
	}
}

static void check_cipher(struct crypto_tfm *tfm, const struct content_geom *g,
			 uint8_t *plain, uint8_t *ref, uint8_t *ct, uint8_t *back)
{
	static const uint64_t fixed[] = { 1, 15, 16, 17, 31, 32, 33, 63, 64, 65,
					   127, 128, 129, 255, 256, MAXUNITS };
	uint8_t iv[16] = { 0 };

	for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]) + 12; k++) {
		uint64_t n = k < sizeof(fixed) / sizeof(fixed[0])
				     ? fixed[k] : 1 + test_rand_below(MAXUNITS);
		/* a short last unit too, now and then */
		uint64_t p = n * SECTOR - (k % 3 ? 0 : test_rand_below(SECTOR - 16));
		size_t len = (size_t)p;

		test_random_bytes(plain, len);
		parallel_stop();
		CHECK(content_encrypt_units(tfm, g, p, 0, n, ref, plain) == 0,
		      "serial encrypt of %llu units", (unsigned long long)n);
		CHECK(parallel_start(3) == 0, "start");
		CHECK(content_encrypt_units(tfm, g, p, 0, n, ct, plain) == 0 &&
			      memcmp(ct, ref, len) == 0,
		      "%llu units: split encryption differs from serial",
		      (unsigned long long)n);
		memcpy(back, ct, len);
		/* a hole in the last part reads as zeros, the rest decrypts */
		if (n > 2)
			memset(back + (n - 2) * SECTOR, 0, SECTOR);
		CHECK(content_decrypt_units(tfm, g, p, 0, n, back, back) == 0,
		      "decrypt %llu units", (unsigned long long)n);
		if (n > 2) {
			CHECK(voltest_all_zero(back + (n - 2) * SECTOR, SECTOR),
			      "hole in a helper's part");
			memset(plain + (n - 2) * SECTOR, 0, SECTOR);
		}
		CHECK(memcmp(back, plain, len) == 0, "%llu units round trip",
		      (unsigned long long)n);
	}

	/* an error in the last unit (a helper's part) is returned: plaintext
	 * whose ciphertext would be all zero (content.h, -EILSEQ) */
	memset(plain, 0, MAXUNITS * SECTOR);
	for (int b = 0; b < 8; b++)
		iv[b] = (uint8_t)((uint64_t)(MAXUNITS - 1) >> (8 * b));
	test_random_bytes(plain, (MAXUNITS - 1) * SECTOR);
	CHECK(crypto_decrypt(tfm, iv, plain + (MAXUNITS - 1) * SECTOR,
			     plain + (MAXUNITS - 1) * SECTOR, SECTOR) == 0, "D(0)");
	CHECK(content_encrypt_units(tfm, g, MAXUNITS * SECTOR, 0, MAXUNITS, ct,
				    plain) == -EILSEQ,
	      "error in the last part returned");

	test_random_bytes(plain, MAXUNITS * SECTOR);
	parallel_stop();
	CHECK(content_encrypt_units(tfm, g, MAXUNITS * SECTOR, 0, MAXUNITS, ref,
				    plain) == 0, "reference");
	CHECK(parallel_start(1) == 0, "start one helper");
	check_concurrent(tfm, g, plain, ref);
	CHECK(parallel_start(3) == 0, "three helpers");
	check_concurrent(tfm, g, plain, ref);
}

int main(void)
{
	static const enum volume_cipher ciphers[] = {
		VOLUME_CIPHER_SPECK128_XTS, VOLUME_CIPHER_SPECK64_XTS,
		VOLUME_CIPHER_AES256_XTS, VOLUME_CIPHER_SM4_XTS
	};
	uint8_t *plain = malloc(MAXUNITS * SECTOR), *ref = malloc(MAXUNITS * SECTOR);
	uint8_t *ct = malloc(MAXUNITS * SECTOR), *back = malloc(MAXUNITS * SECTOR);
	int tested = 0;

	if (!plain || !ref || !ct || !back)
		return 1;
	test_seed();
	for (size_t c = 0; c < 4; c++) {
		const struct volume_cipher_info *ci = volume_cipher_info(ciphers[c]);
		struct crypto_tfm *tfm = voltest_alloc(ci->xts_alg);
		struct content_geom g;
		uint8_t key[64];

		if (!tfm)
			continue;
		test_random_bytes(key, sizeof(key));
		CHECK(crypto_setkey(tfm, key, ci->xts_keysize) == 0 &&
			      content_geom_init(&g, SECTOR, ci->blocksize) == 0,
		      "setkey, geometry %s", ci->name);
		check_cipher(tfm, &g, plain, ref, ct, back);
		parallel_stop();
		crypto_free(tfm);
		tested++;
	}
	free(plain);
	free(ref);
	free(ct);
	free(back);
	if (!tested)
		return TEST_SKIP;
	return test_finish("test_parallel");
}
