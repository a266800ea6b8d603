/* SPDX-License-Identifier: MIT */
/*
 * SM4 long-run known answers, for every "sm4" driver this CPU can run
 * (each forced by name, the variable-time sm4-table included):
 *  - GB/T 32907-2016 Appendix A example 1: one encryption of
 *    0123456789abcdeffedcba9876543210 under the same key;
 *  - example 2: that plaintext encrypted 1,000,000 times, one
 *    crypto_cipher_encrypt call per iteration, -> 595298c7...3f66;
 *    then decrypted 1,000,000 times back to the plaintext (TEST_QUICK=1,
 *    set by scripts/test.sh under qemu: 10,000 times back to the value
 *    the encryption chain had 10,000 steps before its end).
 * Also checks the bitsliced S-box circuit (sm4-sbox-bs.h) against the
 * standard S-box table for all 256 inputs.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/crypto.h"
#include "crypto/sm4/sm4-internal.h"
#include "crypto/sm4/sm4-sbox-bs.h"
#include "testutil.h"

#define ITERATIONS 1000000
#define QUICK_DECRYPTIONS 10000
#define MAX_DRIVERS 8

static const char *const KEY = "0123456789abcdeffedcba9876543210";
static const char *const EXAMPLE1 = "681edf34d206965e86b3e94f536e4246";
static const char *const EXAMPLE2 = "595298c7c6fd271f0402f804c33d3f66";

/* all 256 inputs: 64 lanes, the top two input bits fixed per pass */
static void check_sbox_circuit(void)
{
	unsigned int bad = 0;

	for (unsigned int hi = 0; hi < 4; hi++) {
		uint64_t x[8] = { 0 }, y[8];

		for (unsigned int lane = 0; lane < 64; lane++) {
			unsigned int v = (hi << 6 | lane) ^ SM4_SBOX_IN_XOR;

			for (unsigned int i = 0; i < 8; i++)
				x[i] |= (uint64_t)((v >> i) & 1) << lane;
		}
		sm4_sbox_bs(y, x);
		for (unsigned int lane = 0; lane < 64; lane++) {
			unsigned int in = hi << 6 | lane, out = 0;

			for (unsigned int i = 0; i < 8; i++)
				out |= (unsigned int)((y[i] >> lane) & 1) << i;
			out ^= SM4_SBOX_OUT_XOR;
			if (out != sm4_sbox[in])
				bad++;
			CHECK(out == sm4_sbox[in],
			      "S-box circuit: S(%02x) = %02x, want %02x", in,
			      out, sm4_sbox[in]);
		}
	}
	printf("S-box circuit: 256 inputs, %u wrong\n", bad);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static int quick;

static void test_driver(const char *name)
{
	long decryptions = quick ? QUICK_DECRYPTIONS : ITERATIONS;
	uint8_t key[16], pt[16], want1[16], want2[16], block[16], back[16];
	struct timespec t0;
	int err = 0;
	struct crypto_tfm *tfm = crypto_alloc(NULL, name, &err);

	CHECK(tfm != NULL, "crypto_alloc(%s): %d", name, err);
	if (!tfm)
		return;
	hex_decode(KEY, key, sizeof(key));
	hex_decode(KEY, pt, sizeof(pt));
	hex_decode(EXAMPLE1, want1, sizeof(want1));
	hex_decode(EXAMPLE2, want2, sizeof(want2));
	CHECK(crypto_setkey(tfm, key, sizeof(key)) == 0, "%s: setkey", name);

	CHECK(crypto_cipher_encrypt(tfm, block, pt, 1) == 0 &&
	      !memcmp(block, want1, 16), "%s: GB/T 32907 example 1", name);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memcpy(block, pt, 16);
	memcpy(back, pt, 16);
	for (long i = 0; i < ITERATIONS && !err; i++) {
		if (i == ITERATIONS - decryptions)
			memcpy(back, block, 16);
		err = crypto_cipher_encrypt(tfm, block, block, 1);
	}
	CHECK(!err && !memcmp(block, want2, 16),
	      "%s: GB/T 32907 example 2 (10^6 encryptions)", name);
	if (memcmp(block, want2, 16))
		hex_dump("got", block, 16);
	for (long i = 0; i < decryptions && !err; i++)
		err = crypto_cipher_decrypt(tfm, block, block, 1);
	CHECK(!err && !memcmp(block, back, 16),
	      "%s: %ld decryptions do not go back to the chain's value", name,
	      decryptions);
	printf("%s: %ld single blocks in %.2f s\n", name,
	       ITERATIONS + decryptions, seconds_since(&t0));
	crypto_free(tfm);
}

int main(void)
{
	const char *names[MAX_DRIVERS];
	unsigned int n;

	test_seed();
	quick = getenv("TEST_QUICK") && strcmp(getenv("TEST_QUICK"), "0");
	check_sbox_circuit();
	if (crypto_init()) {
		CHECK(0, "crypto_init: %s", crypto_init_error());
		return test_finish("test_sm4_million");
	}
	n = test_drivers_for("sm4", names, MAX_DRIVERS);
	CHECK(n > 0, "no driver for sm4");
	for (unsigned int i = 0; i < n; i++) {
		printf("sm4: %s\n", names[i]);
		fflush(stdout);
		test_driver(names[i]);
	}
	return test_finish("test_sm4_million");
}
