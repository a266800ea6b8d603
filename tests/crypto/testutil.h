/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the crypto tests. */
#ifndef CLOAKFS_TESTS_TESTUTIL_H
#define CLOAKFS_TESTS_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern unsigned long test_checks, test_failures;

/* Count a check; on failure print where and why (printf-style). */
#define CHECK(cond, ...)                                                     \
	do {                                                                 \
		test_checks++;                                               \
		if (!(cond)) {                                               \
			test_failures++;                                     \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                        \
			fputc('\n', stderr);                                 \
		}                                                            \
	} while (0)

/* exit code meson reads as "skipped" */
#define TEST_SKIP 77

/* hex -> bytes; returns the length, or (size_t)-1 on bad hex / too long */
size_t hex_decode(const char *hex, uint8_t *out, size_t max);
/* print a labelled hex dump of at most 64 bytes to stderr */
void hex_dump(const char *label, const uint8_t *p, size_t len);

/*
 * Deterministic PRNG (xoshiro256**), seeded from $TEST_SEED or a fixed
 * value; the seed is printed so a failure can be reproduced.
 */
void test_seed(void);
uint64_t test_rand(void);
/* uniform in [0, n) for n > 0 */
uint64_t test_rand_below(uint64_t n);
void test_random_bytes(void *buf, size_t len);

/*
 * Drivers of alg that this CPU can run and the policy allows (variable-
 * time ones included: tests force them by name). Returns the count and
 * fills names[0..count); more than max ends the test (exit 1), so that
 * no driver goes untested because a list was short.
 */
unsigned int test_drivers_for(const char *alg, const char **names,
			      unsigned int max);

/* 1 if driver (of alg) is among test_drivers_for(alg), else 0 */
int test_driver_runs(const char *alg, const char *driver);

/*
 * Drivers of the algorithms algs[0..n) that this CPU has the features of
 * and the policy leaves enabled: what a test that forces each by name
 * must have exercised.
 */
unsigned int test_count_supported(const char *const *algs, size_t n);

/* VmLck (locked memory) of process pid, 0 for this one, in kB; -1 when
 * /proc cannot tell */
long test_vmlck_kb(int pid);
/*
 * Whether the mapping of this process that holds address p is mlock'ed
 * (VmFlags "lo" in /proc/self/smaps): 1, 0, or -1 when it is not found.
 * VmLck counts the whole process; this names one mapping.
 */
int test_mapping_locked(const void *p);

/* print "<name>: N checks, N failed" and return the exit code: 1 when a
 * check failed or none ran */
int test_finish(const char *name);

#endif
