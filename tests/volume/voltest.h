/* SPDX-License-Identifier: MIT */
/* Helpers shared by the volume tests (header-only, static). */
#ifndef CLOAKFS_TESTS_VOLTEST_H
#define CLOAKFS_TESTS_VOLTEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "tests/crypto/testutil.h"
#include "volume/cipher.h"

/*
 * A fresh empty directory under $TMPDIR (or /tmp); aborts on failure.
 * The tests leave it behind only when a check failed.
 */
static inline char *voltest_tmpdir(const char *tag)
{
	const char *base = getenv("TMPDIR");
	char *path = malloc(4096);

	if (!path)
		abort();
	snprintf(path, 4096, "%s/cloakfs-%s-XXXXXX", base && *base ? base : "/tmp",
		 tag);
	if (!mkdtemp(path)) {
		perror(path);
		abort();
	}
	return path;
}

static inline void voltest_rmtree(const char *path)
{
	char cmd[4200];

	if (test_failures)
		return; /* keep it for a look */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", path);
}

/*
 * The volume cipher's transform, or NULL (with a note) when this build
 * or the policy does not offer it; the test then skips that cipher.
 */
static inline struct crypto_tfm *voltest_alloc(const char *alg)
{
	int err;
	struct crypto_tfm *tfm = crypto_alloc(alg, NULL, &err);

	if (!tfm)
		fprintf(stderr, "note: %s unavailable (%s), skipped\n", alg,
			strerror(-err));
	return tfm;
}

/* the end of a test over ciphers in dir: skip when none was tested */
static inline int voltest_done(char *dir, int tested, const char *name)
{
	voltest_rmtree(dir);
	free(dir);
	return tested ? test_finish(name) : TEST_SKIP;
}

static inline int voltest_all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

#endif
