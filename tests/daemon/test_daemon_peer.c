/* SPDX-License-Identifier: MIT */
/*
 * SO_PEERCRED access control, with real uids (needs root; skipped
 * otherwise):
 *  - a daemon running as root, its socket opened up to everyone by file
 *    mode, still refuses a client running as uid 65534;
 *  - a daemon running as uid 65534 refuses root by default, serves its own
 *    uid, and serves root with allow_root = true;
 *  - the client library refuses a daemon of another (non-root) user.
 */
#include "daemon/client.h"
#include "tests/crypto/testutil.h"
#include "tests/daemon/daemontest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static uint8_t secret_id[16], secret_key[32];

/* run fn as uid 65534 in a child; its exit code (0 = all as expected) */
static int as_nobody(int (*fn)(const struct test_daemon *), const struct test_daemon *d)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (td_drop_to(TD_NOBODY) != 0)
			_exit(100);
		_exit(fn(d));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* a raw request is answered with ERROR(EACCES) and the connection closes */
static int refused_raw(const char *sock)
{
	uint8_t buf[CLOAKFSD_FRAME_MAX];
	size_t len;
	int fd = td_connect(sock), type;

	if (fd < 0)
		return 1;
	td_send_frame(fd, CLOAKFSD_GET, secret_id, 16);
	type = td_recv_frame(fd, buf, sizeof(buf), &len, 5000);
	if (type != CLOAKFSD_ERROR || len != 4 || proto_load_u32(buf) != EACCES) {
		close(fd);
		return 2;
	}
	type = td_recv_frame(fd, buf, sizeof(buf), &len, 5000);
	close(fd);
	return type == -ECONNRESET ? 0 : 3;
}

static int nobody_is_refused(const struct test_daemon *d)
{
	struct cloakfsd_client *cl = NULL;
	uint8_t got[64];
	size_t got_len;
	int r = refused_raw(d->sock), err;

	if (r)
		return 10 + r;
	/* the client library accepts a root daemon, the daemon refuses us */
	err = cloakfsd_connect(d->sock, 0, 5000, &cl);
	if (err)
		return 20;
	err = cloakfsd_get(cl, secret_id, got, sizeof(got), &got_len, NULL);
	cloakfsd_close(cl);
	return err == -EACCES ? 0 : 30;
}

static void test_other_uid_refused(void)
{
	struct test_daemon d;
	struct cloakfsd_client *cl = NULL;
	uint8_t got[64];
	size_t got_len = 0;
	char expect[64];
	int r;

	CHECK(td_start(&d, NULL, -1) == 0, "start daemon as root");
	CHECK(cloakfsd_connect(d.sock, 0, 5000, &cl) == 0 &&
	      cloakfsd_add(cl, secret_id, "/secret", secret_key, 32, 0, NULL) == 0, "add as root");
	/* take file permissions out of the way: only SO_PEERCRED is left */
	CHECK(chmod(d.dir, 0711) == 0 && chmod(d.sock, 0666) == 0, "open up the socket");
	r = as_nobody(nobody_is_refused, &d);
	CHECK(r == 0, "uid 65534 refused by SO_PEERCRED (child code %d)", r);
	snprintf(expect, sizeof(expect), "uid %u (only uid 0", TD_NOBODY);
	CHECK(td_log_contains(&d, "refused connection from pid") && td_log_contains(&d, expect),
	      "refusal logged");
	CHECK(cl && cloakfsd_get(cl, secret_id, got, sizeof(got), &got_len, NULL) == 0 &&
	      got_len == 32 && !memcmp(got, secret_key, 32), "root still served");
	cloakfsd_close(cl);
	CHECK(td_stop(&d) == 0, "exit status");
}

static int nobody_is_served(const struct test_daemon *d)
{
	struct cloakfsd_client *cl = NULL;
	uint8_t got[64];
	size_t got_len = 0;
	int ret = 0;

	if (cloakfsd_connect(d->sock, 0, 5000, &cl) != 0)
		return 1;
	if (cloakfsd_add(cl, secret_id, "/secret", secret_key, 32, 0, NULL) != 0)
		ret = 2;
	else if (cloakfsd_get(cl, secret_id, got, sizeof(got), &got_len, NULL) != 0 ||
		 got_len != 32 || memcmp(got, secret_key, 32))
		ret = 3;
	cloakfsd_close(cl);
	return ret;
}

static uid_t proc_uid(pid_t pid)
{
	char path[64], line[256];
	unsigned int uid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return (uid_t)-1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u", &uid) == 1)
			break;
	fclose(f);
	return uid;
}

static void test_root_refused_by_default(void)
{
	struct test_daemon d;
	struct cloakfsd_client *cl = NULL;
	int r;

	CHECK(td_start(&d, NULL, TD_NOBODY) == 0, "start daemon as uid 65534");
	CHECK(proc_uid(d.pid) == TD_NOBODY, "daemon runs as 65534: %u", (unsigned)proc_uid(d.pid));
	r = refused_raw(d.sock);
	CHECK(r == 0, "root refused by the daemon (code %d)", r);
	CHECK(td_log_contains(&d, "uid 0 (only uid 65534; set allow_root"), "refusal logged");
	/* and the client library will not hand root's keys to another user */
	CHECK(cloakfsd_connect(d.sock, 0, 5000, &cl) == -EPERM, "client refuses foreign daemon");
	r = as_nobody(nobody_is_served, &d);
	CHECK(r == 0, "its own uid is served (code %d)", r);
	CHECK(td_stop(&d) == 0, "exit status");
}

static void test_root_allowed(void)
{
	struct test_daemon d;
	uint8_t buf[CLOAKFSD_FRAME_MAX];
	size_t len;
	int fd, type;

	CHECK(td_start(&d, "allow_root = true;\n", TD_NOBODY) == 0, "start with allow_root");
	CHECK(as_nobody(nobody_is_served, &d) == 0, "own uid served");
	fd = td_connect(d.sock);
	CHECK(fd >= 0 && td_send_frame(fd, CLOAKFSD_GET, secret_id, 16) == 0, "root GET");
	type = td_recv_frame(fd, buf, sizeof(buf), &len, 5000);
	CHECK(type == CLOAKFSD_KEY && buf[0] == 32 && !memcmp(buf + 1, secret_key, 32),
	      "root served with allow_root: type %d", type);
	if (fd >= 0)
		close(fd);
	CHECK(td_stop(&d) == 0, "exit status");
}

int main(int argc, char **argv)
{
	td_init(argc, argv);
	if (geteuid() != 0) {
		fprintf(stderr, "test_daemon_peer: needs root (to run processes as uid %d); skipped\n",
			TD_NOBODY);
		return TEST_SKIP;
	}
	test_seed();
	td_id(secret_id, 77);
	test_random_bytes(secret_key, sizeof(secret_key));
	test_other_uid_refused();
	test_root_refused_by_default();
	test_root_allowed();
	return test_finish("test_daemon_peer");
}
