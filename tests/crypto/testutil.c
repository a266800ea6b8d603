/* SPDX-License-Identifier: MIT */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "crypto/hex.h"

unsigned long test_checks, test_failures;

size_t hex_decode(const char *hex, uint8_t *out, size_t max)
{
	long n = hex ? hex_decode_str(hex, out, max, NULL) : 0;

	return n < 0 ? (size_t)-1 : (size_t)n;
}

void hex_dump(const char *label, const uint8_t *p, size_t len)
{
	fprintf(stderr, "  %s (%zu):", label, len);
	for (size_t i = 0; i < len && i < 64; i++)
		fprintf(stderr, "%02x", p[i]);
	fprintf(stderr, "%s\n", len > 64 ? "..." : "");
}

static uint64_t rng_s[4];

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void test_seed(void)
{
	const char *env = getenv("TEST_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : 0x636c6f616b6673ull;

	fprintf(stderr, "TEST_SEED=%llu\n", (unsigned long long)seed);
	for (int i = 0; i < 4; i++)
		rng_s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t test_rand(void)
{
	uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;

	rng_s[2] ^= rng_s[0];
	rng_s[3] ^= rng_s[1];
	rng_s[1] ^= rng_s[2];
	rng_s[0] ^= rng_s[3];
	rng_s[2] ^= t;
	rng_s[3] = rotl(rng_s[3], 45);
	return r;
}

uint64_t test_rand_below(uint64_t n)
{
	return test_rand() % n;
}

void test_random_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		uint64_t r = test_rand();
		size_t n = len < 8 ? len : 8;

		memcpy(p, &r, n);
		p += n;
		len -= n;
	}
}

unsigned int test_drivers_for(const char *alg, const char **names,
			      unsigned int max)
{
	unsigned int n = 0, count = crypto_driver_count();
	struct crypto_driver_info info;

	for (unsigned int i = 0; i < count; i++) {
		if (crypto_driver_info(i, &info) || strcmp(info.alg_name, alg))
			continue;
		if (!info.available) {
			fprintf(stderr, "skip %s: CPU lacks %s\n",
				info.driver_name, info.missing);
			continue;
		}
		if (info.disabled) {
			fprintf(stderr, "skip %s: disabled by policy\n",
				info.driver_name);
			continue;
		}
		if (n < max)
			names[n] = info.driver_name;
		n++;
	}
	if (n > max) {
		/* a test that saw only some drivers would pass untested ones */
		fprintf(stderr, "%s: %u drivers run here, the test holds %u: "
			"raise its limit\n", alg, n, max);
		exit(1);
	}
	return n;
}

int test_mapping_locked(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	char line[512];
	int in = 0, locked = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perms[8];

		/* a mapping's first line: "lo-hi perms offset dev inode [path]" */
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3) {
			in = a >= lo && a < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			locked = strstr(line, " lo") != NULL;
			break;
		}
	}
	fclose(f);
	return locked;
}

int test_driver_runs(const char *alg, const char *driver)
{
	const char *names[64];
	unsigned int n = test_drivers_for(alg, names, 64);

	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(names[i], driver))
			return 1;
	return 0;
}

unsigned int test_count_supported(const char *const *algs, size_t n)
{
	unsigned int count = crypto_driver_count(), supported = 0;
	struct crypto_driver_info info;

	for (unsigned int i = 0; i < count; i++) {
		if (crypto_driver_info(i, &info))
			continue;
		for (size_t a = 0; a < n; a++)
			if (!strcmp(info.alg_name, algs[a]) && info.available &&
			    !info.disabled)
				supported++;
	}
	return supported;
}

int test_finish(const char *name)
{
	printf("%s: %lu checks, %lu failed\n", name, test_checks, test_failures);
	/* a test that checked nothing has not passed: a skip says why */
	if (!test_checks)
		printf("%s: FAIL: no check ran\n", name);
	return test_failures || !test_checks ? 1 : 0;
}

long test_vmlck_kb(int pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}
