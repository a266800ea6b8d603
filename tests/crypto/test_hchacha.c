/* SPDX-License-Identifier: MIT */
/*
 * HChaCha (chacha.h's hchacha_fn), the subkey of XChaCha and Adiantum:
 *  - hchacha_generic against draft-irtf-cfrg-xchacha-03, section 2.2.1
 *    (the one published HChaCha20 vector);
 *  - the x86 SIMD HChaCha cores (chacha20-x86.h: hchacha_ssse3,
 *    hchacha_avx512), where built and this CPU runs them, against
 *    hchacha_generic with 20 and 12 rounds: random keys and nonces, the
 *    all-zero and all-ones ones (every add carries), and the output
 *    buffer unaligned;
 *  - the hchacha hook of every chacha20 driver this CPU runs (what the
 *    xchacha20poly1305 template calls: the x86 drivers', the NEON
 *    one's), against hchacha_generic, and on x86 with the cores built:
 *    each SIMD chacha20 driver has one.
 * The XChaCha skcipher drivers and AEAD instances over these are checked
 * end to end by test_drivers, test_aead_drivers and
 * test_oracle_sodium_xchacha.
 */
#include <string.h>

#include "crypto/chacha20poly1305/chacha.h"
#include "crypto/cpu.h"
#include "crypto/crypto.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/core.h"
#include "crypto/internal/registry.h"
#include "testutil.h"

#if defined(CLOAKFS_CHACHA_X86_CORES)
#include "crypto/arch/x86/chacha20-x86.h"
#endif

#define RANDOM_INPUTS 4000

static const struct {
	const char *name;
	hchacha_fn *fn;
	uint64_t features; /* CPU_FEAT_* it needs */
} impls[] = {
#if defined(CLOAKFS_CHACHA_X86_CORES)
	{ "hchacha_ssse3", hchacha_ssse3, CPU_FEAT_SSSE3 },
	{ "hchacha_avx512", hchacha_avx512, CPU_FEAT_AVX512F | CPU_FEAT_AVX512VL },
#endif
	{ NULL, NULL, 0 }, /* an array that is never empty */
};

static const unsigned int round_counts[] = { 20, 12 };

/* fn against hchacha_generic on one input, out at offset align */
static void check_one(const char *name, hchacha_fn *fn,
		      const struct chacha20_key *key, const uint8_t nonce[16],
		      unsigned int nrounds, size_t align)
{
	uint8_t want[CHACHA20_KEY_SIZE], buf[CHACHA20_KEY_SIZE + 16];

	hchacha_generic(want, key, nonce, nrounds);
	memset(buf, 0xa5, sizeof(buf));
	fn(buf + align, key, nonce, nrounds);
	CHECK(!memcmp(buf + align, want, sizeof(want)),
	      "%s, %u rounds, out +%zu: differs from hchacha_generic", name,
	      nrounds, align);
	/* nothing written around the 32 bytes */
	for (size_t i = 0; i < sizeof(buf); i++)
		if (i < align || i >= align + CHACHA20_KEY_SIZE)
			CHECK(buf[i] == 0xa5, "%s wrote byte %zu of out +%zu",
			      name, i, align);
}

/* fn on random, all-zero and all-ones keys and nonces */
static void check_fn(const char *name, hchacha_fn *fn)
{
	struct chacha20_key key;
	uint8_t nonce[HCHACHA20_NONCE_SIZE];

	for (size_t r = 0; r < sizeof(round_counts) / sizeof(round_counts[0]); r++) {
		unsigned int nr = round_counts[r];

		for (int fill = 0; fill < 2; fill++) {
			memset(&key, fill ? 0xff : 0, sizeof(key));
			memset(nonce, fill ? 0xff : 0, sizeof(nonce));
			check_one(name, fn, &key, nonce, nr, 0);
		}
		for (int i = 0; i < RANDOM_INPUTS; i++) {
			test_random_bytes(&key, sizeof(key));
			test_random_bytes(nonce, sizeof(nonce));
			check_one(name, fn, &key, nonce, nr, (size_t)i % 16);
		}
	}
}

/* draft-irtf-cfrg-xchacha-03, 2.2.1: key 00..1f, nonce, subkey */
static void check_draft_vector(void)
{
	static const uint8_t nonce[16] = {
		0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x4a,
		0x00, 0x00, 0x00, 0x00, 0x31, 0x41, 0x59, 0x27,
	};
	static const uint8_t want[32] = {
		0x82, 0x41, 0x3b, 0x42, 0x27, 0xb2, 0x7b, 0xfe,
		0xd3, 0x0e, 0x42, 0x50, 0x8a, 0x87, 0x7d, 0x73,
		0xa0, 0xf9, 0xe4, 0xd5, 0x8a, 0x74, 0xa8, 0x53,
		0xc1, 0x2e, 0xc4, 0x13, 0x26, 0xd3, 0xec, 0xdc,
	};
	uint8_t raw[32], got[32];
	struct chacha20_key key;

	for (int i = 0; i < 32; i++)
		raw[i] = (uint8_t)i;
	chacha20_setkey(&key, raw);
	hchacha_generic(got, &key, nonce, 20);
	CHECK(!memcmp(got, want, sizeof(want)),
	      "hchacha_generic: the draft's HChaCha20 vector differs");
}

/* the hooks of the chacha20 drivers this CPU runs */
static void check_driver_hooks(void)
{
	const char *names[32];
	unsigned int n = test_drivers_for("chacha20", names, 32), simd = 0;

	CHECK(n > 0, "no chacha20 driver runs");
	for (unsigned int i = 0; i < n; i++) {
		const struct crypto_driver *d = registry_find_driver(names[i]);
		const struct skcipher_alg *a = d ? d->u.skcipher : NULL;

		CHECK(a != NULL, "%s: not found", names[i]);
		if (!a || !a->hchacha)
			continue;
		simd++;
		check_fn(names[i], a->hchacha);
	}
#if defined(CLOAKFS_CHACHA_X86_CORES)
	/* chacha20-ssse3, -avx2 and -avx512 each with its HChaCha */
	unsigned int want = 0;

	for (unsigned int i = 0; i < n; i++)
		want += strstr(names[i], "generic") == NULL;
	CHECK(simd == want, "%u of the %u SIMD chacha20 drivers have an HChaCha",
	      simd, want);
#else
	(void)simd;
#endif
}

int main(void)
{
	unsigned int ran = 0;

	test_seed();
	if (crypto_init() != 0) {
		fprintf(stderr, "crypto_init: %s\n", crypto_init_error());
		return 1;
	}
	check_draft_vector();
	for (size_t i = 0; impls[i].fn; i++) {
		if (!cpu_has(impls[i].features)) {
			printf("%s: CPU lacks its features, not run\n", impls[i].name);
			continue;
		}
		check_fn(impls[i].name, impls[i].fn);
		ran++;
	}
	printf("%u SIMD HChaCha cores run\n", ran);
	check_driver_hooks();
	return test_finish("test_hchacha");
}
