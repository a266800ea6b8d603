/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: cloakfs-enc's argument and input handling (tools/enc.c,
 * and through it the crypto layer's algorithm and driver lookup, key and
 * IV checks and every driver's handling of odd lengths). Input: one byte
 * n (taken mod 12) giving the argument count, then n NUL-terminated
 * arguments (argv[0] is "cloakfs-enc"), then the rest as stdin, fed
 * through a pipe. Output and messages go to /dev/null
 * (CLOAKFS_FUZZ_VERBOSE=1 shows the messages).
 *
 * Checked beyond "no crash": the exit code is one of cli/exitcodes.h.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/exitcodes.h"
#include "crypto/crypto.h"
#include "tools/enc.h"

#define FUZZ_MAX_ARGS 12
#define FUZZ_MAX_INPUT 16384 /* below the pipe's 64 KiB: one write fills it */

static int null_fd = -1;
static FILE *messages;

static void fuzz_fail(const char *what) __attribute__((noreturn));

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_enc: invariant broken: %s\n", what);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *v = getenv("CLOAKFS_FUZZ_VERBOSE");

	(void)argc;
	(void)argv;
	if (crypto_init())
		fuzz_fail(crypto_init_error());
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	messages = v && *v == '1' ? stderr : fdopen(dup(null_fd), "w");
	if (null_fd < 0 || !messages)
		fuzz_fail("open /dev/null");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char strings[FUZZ_MAX_INPUT + 1];
	char *argv[FUZZ_MAX_ARGS + 2];
	size_t nargs, off = 1;
	int argc = 1, pipefd[2], rc;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	nargs = data[0] % (FUZZ_MAX_ARGS + 1);
	memcpy(strings, data, size);
	strings[size] = '\0';
	argv[0] = (char *)"cloakfs-enc";
	while ((size_t)argc <= nargs && off < size) {
		size_t n = strnlen(strings + off, size - off);

		argv[argc++] = strings + off;
		strings[off + n] = '\0'; /* the last one may end at the input's end */
		off += n + 1;
	}
	if (off > size)
		off = size;
	argv[argc] = NULL;

	if (pipe2(pipefd, O_CLOEXEC))
		fuzz_fail("pipe");
	if (write(pipefd[1], data + off, size - off) != (ssize_t)(size - off))
		fuzz_fail("write to pipe");
	close(pipefd[1]);
	rc = cloakfs_enc_main(argc, argv, pipefd[0], null_fd, messages);
	close(pipefd[0]);
	fflush(messages);
	if (rc != CLOAKFS_EXIT_OK && rc != CLOAKFS_EXIT_ERROR && rc != CLOAKFS_EXIT_USAGE &&
	    rc != CLOAKFS_EXIT_AUTH)
		fuzz_fail("exit code outside cli/exitcodes.h");
	return 0;
}
