/* SPDX-License-Identifier: MIT */
/*
 * Known-answer vectors run on demand (cloakfs-enc --selftest): the
 * report of one vector. Apart from crypto.h so that the vector runner
 * (testmgr.c, below crypto.c) shares the type without reaching up.
 */
#ifndef CLOAKFS_CRYPTO_KAT_H
#define CLOAKFS_CRYPTO_KAT_H

#include <stddef.h>

/*
 * Run every known-answer vector registered for the algorithm of the
 * driver named driver (the published vectors its self-test uses)
 * through that driver, each on a fresh context, calling report once per
 * vector; a failing vector does not change the driver's self-test
 * state. 0 when every vector that ran passed, -EBADMSG when one failed,
 * -ENOENT for an unknown driver, -ENODEV when the CPU lacks its
 * features, -ENODATA when no vector set names its algorithm.
 */
struct crypto_kat_report {
	const char *alg_name;
	const char *source;  /* the vector set's source */
	unsigned int index;  /* the vector's index in its set, from 0 */
	size_t len;          /* message bytes (plaintext, or hashed message) */
	int status;          /* 1 passed, 0 skipped (a key size the driver
				does not take), -1 failed */
	const char *reason;  /* the failure, "" otherwise */
};
int crypto_kat_run(const char *driver,
		   void (*report)(void *arg, const struct crypto_kat_report *r),
		   void *arg);

#endif
