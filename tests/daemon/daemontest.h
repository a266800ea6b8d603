/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the cloakfsd tests: run real daemons on a socket in a fresh
 * temporary directory, speak raw frames, and look at /proc. The daemon
 * binary is the test's first argument (meson passes it).
 */
#ifndef CLOAKFS_TESTS_DAEMONTEST_H
#define CLOAKFS_TESTS_DAEMONTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon/protocol.h"

#define TD_NOBODY 65534

struct test_daemon {
	pid_t pid;
	char dir[64];   /* /tmp/cloakfsd-test.XXXXXX */
	char sock[96];  /* dir/sock */
	char conf[96];  /* dir/cloakfsd.conf */
	char errlog[96];/* dir/stderr: the daemon's stderr */
};

/* remember the cloakfsd path from argv (exits 77 when missing) */
void td_init(int argc, char **argv);
const char *td_program(void);

/*
 * Start "cloakfsd --foreground --socket D/sock --config D/cloakfsd.conf"
 * with conf_text (NULL: empty) in a new temp dir; as_uid >= 0 runs it as
 * that uid and gid (root only; the dir is chowned to it). Waits until the
 * socket accepts (5 s). 0 or -errno.
 */
int td_start(struct test_daemon *d, const char *conf_text, int as_uid);
/* SIGTERM, wait; the exit status, 128+signal, or -1. Removes the dir. */
int td_stop(struct test_daemon *d);
/* whether the daemon's stderr so far contains s */
bool td_log_contains(const struct test_daemon *d, const char *s);

/*
 * Run cloakfsd with args (NULL-terminated, argv[0] excluded), wait for it
 * (10 s) and return its exit status, with stderr into err (may be NULL).
 */
int td_run(const char *const *args, char *err, size_t err_len);

/* become uid (and gid = uid, no supplementary groups), like setpriv
 * --reuid --regid --clear-groups: 0 or -errno */
int td_drop_to(int uid);

/* raw connection (blocking): fd or -errno */
int td_connect(const char *sock);
int td_send(int fd, const void *buf, size_t len);
/* a whole frame of protocol version 1 (the payloads the tests build by
 * hand are version 1's, which the daemon still serves): 0 or -errno */
int td_send_frame(int fd, uint8_t type, const void *payload, size_t len);
/* the same in the given version */
int td_send_frame_v(int fd, uint8_t version, uint8_t type, const void *payload,
		    size_t len);
/*
 * Receive one frame (of any version the daemon speaks) within timeout_ms:
 * its type (>= 0) with the payload in
 * buf[0..*len), or -ETIMEDOUT, -ECONNRESET (EOF or reset), -EPROTO.
 */
int td_recv_frame(int fd, uint8_t *buf, size_t cap, size_t *len, int timeout_ms);
/* the daemon closes fd within timeout_ms (after at most one ERROR frame) */
bool td_closed_by_daemon(int fd, int timeout_ms);

/*
 * Occurrences of needle in the readable memory of pid (via /proc/PID/mem),
 * or -errno when that memory cannot be read.
 */
long td_mem_count(pid_t pid, const uint8_t *needle, size_t n);

/* a key id from a small number, for readable tests */
void td_id(uint8_t id[CLOAKFSD_KEY_ID_LEN], unsigned int n);

/* sleep milliseconds */
void td_sleep_ms(int ms);

#endif
