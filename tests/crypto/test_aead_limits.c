/* SPDX-License-Identifier: MIT */
/*
 * The AEADs' message length limits, past which a counter would wrap and
 * repeat keystream: programmer misuse, which aborts with the limit's
 * name before any byte is read or written.
 *  - gcm(aes), every driver: NIST SP 800-38D 5.2.1.1 allows 2^32 - 2
 *    blocks, 2^36 - 32 bytes; 2^36 - 31 aborts, encrypting and
 *    decrypting (the buffers passed are 16 bytes: an abort that came
 *    late would fault instead).
 *  - rfc7539(chacha20,poly1305), every driver: RFC 8439 2.8 allows
 *    2^38 - 64 bytes; 2^38 - 63 aborts.
 *  - the engine's check itself (crypto/templates/aead.h) at GCM's and
 *    RFC 8439's numbers: the last byte inside the limit passes, the next
 *    one aborts (a message at the limit is too long to run here).
 * Each abort runs in a child process. Skipped where size_t is 32 bits.
 */
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "crypto/templates/aead.h"
#include "crypto/tfm.h"
#include "testutil.h"

/* gcm(aes): 24 gcm_base instances and the fused cores on x86-64 */
#define MAX_DRIVERS 48

/* 1 when fn(arg) in a child process dies of SIGABRT, 0 when it returns */
static int aborts(void (*fn)(const void *arg), const void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* the abort's message is expected: keep the log to failures */
		if (!freopen("/dev/null", "w", stderr))
			_exit(2);
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT)
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

struct long_message {
	const char *driver;
	size_t len;
	int decrypt;
};

static void run_long_message(const void *arg)
{
	const struct long_message *m = arg;
	uint8_t key[32] = { 0 }, nonce[12] = { 0 }, buf[16] = { 0 }, tag[16] = { 0 };
	int err;
	struct crypto_tfm *t = crypto_alloc(NULL, m->driver, &err);

	if (!t || crypto_setkey(t, key, sizeof(key)))
		_exit(3);
	if (m->decrypt)
		crypto_aead_decrypt(t, nonce, NULL, 0, buf, buf, m->len, tag);
	else
		crypto_aead_encrypt(t, nonce, NULL, 0, buf, buf, m->len, tag);
}

static void check_alg(const char *alg, size_t too_long)
{
	const char *names[MAX_DRIVERS];
	unsigned int n = test_drivers_for(alg, names, MAX_DRIVERS);

	CHECK(n > 0 && n < MAX_DRIVERS, "%s: %u drivers (at most %d checked)", alg,
	      n, MAX_DRIVERS - 1);
	for (unsigned int d = 0; d < n; d++) {
		for (int dec = 0; dec < 2; dec++) {
			struct long_message m = { names[d], too_long, dec };

			CHECK(aborts(run_long_message, &m) == 1, "%s: %s of %zu bytes "
			      "did not abort", names[d], dec ? "decryption" : "encryption",
			      too_long);
		}
	}
}

struct limit_case {
	size_t len, block, max_blocks;
};

static void run_check_len(const void *arg)
{
	const struct limit_case *c = arg;
	static const struct crypto_driver drv = { .alg_name = "limit" };
	struct crypto_tfm tfm = { .drv = &drv };

	aead_check_len(&tfm, c->len, c->block, c->max_blocks, "test");
}

static void check_engine(const char *what, size_t block, size_t max_blocks)
{
	size_t limit = block * max_blocks;
	struct limit_case at = { limit, block, max_blocks };
	struct limit_case past = { limit + 1, block, max_blocks };

	CHECK(aborts(run_check_len, &at) == 0, "%s: %zu bytes refused", what, limit);
	CHECK(aborts(run_check_len, &past) == 1, "%s: %zu bytes allowed", what,
	      limit + 1);
}

int main(void)
{
	if (sizeof(size_t) < 8) {
		fprintf(stderr, "test_aead_limits: 32-bit size_t: skipped\n");
		return TEST_SKIP;
	}
	test_seed();
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	check_engine("GCM", 16, 0xfffffffeu);
	check_engine("RFC 8439", 64, 0xffffffffu);
	check_alg("gcm(aes)", (size_t)(UINT64_C(1) << 36) - 31);
	check_alg("rfc7539(chacha20,poly1305)", (size_t)(UINT64_C(1) << 38) - 63);
	return test_finish("test_aead_limits");
}
