/* SPDX-License-Identifier: MIT */
/*
 * How cloakfsd keeps keys: locked memory (VmLck > 0 once a key is held),
 * a non-dumpable process without core files, and no copy of a key left in
 * its memory after remove, lock-all or expiry (scanned through
 * /proc/PID/mem, which needs root / CAP_SYS_PTRACE for a non-dumpable
 * process; that part is skipped without it).
 *
 * Non-dumpable is checked the way the kernel exposes it: the files of
 * /proc/PID of a non-dumpable process belong to root (proc(5)), and a
 * process of the daemon's own uid cannot open /proc/PID/mem. So the daemon
 * runs as uid 65534 when the test is root (as root it would own those
 * files either way).
 */
#include "daemon/client.h"
#include "tests/crypto/testutil.h"
#include "tests/daemon/daemontest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ADD over a raw connection (works whatever uid the daemon runs as) */
static int raw_add(const char *sock, const uint8_t *id, const uint8_t *key, size_t klen)
{
	uint8_t p[16 + 4 + 1 + 64 + 2 + 2], reply[64];
	size_t n = 0, len;
	int fd = td_connect(sock), type;

	if (fd < 0)
		return fd;
	memcpy(p, id, 16);
	n = 16;
	proto_store_u32(p + n, 0);
	n += 4;
	p[n++] = (uint8_t)klen;
	memcpy(p + n, key, klen);
	n += klen;
	p[n++] = 0;
	p[n++] = 2;
	memcpy(p + n, "/m", 2);
	n += 2;
	td_send_frame(fd, CLOAKFSD_ADD, p, n);
	explicit_bzero(p, sizeof(p));
	type = td_recv_frame(fd, reply, sizeof(reply), &len, 5000);
	close(fd);
	return type == CLOAKFSD_OK ? 0 : -EPROTO;
}

static bool core_limit_zero(pid_t pid)
{
	char path[64], line[256];
	bool zero = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/limits", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long soft, hard;

		if (sscanf(line, "Max core file size %lu %lu", &soft, &hard) == 2)
			zero = soft == 0 && hard == 0;
	}
	fclose(f);
	return zero;
}

/* 0 when a process of the daemon's uid cannot open /proc/PID/mem */
static int mem_closed_to(int uid, pid_t pid)
{
	char path[64];
	pid_t child;
	int status;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	if (uid < 0) {
		int fd = open(path, O_RDONLY);

		if (fd >= 0)
			close(fd);
		return fd < 0 && (errno == EACCES || errno == EPERM) ? 0 : 1;
	}
	child = fork();
	if (child == 0) {
		int fd;

		if (td_drop_to(uid) != 0)
			_exit(2);
		fd = open(path, O_RDONLY);
		_exit(fd < 0 && (errno == EACCES || errno == EPERM) ? 0 : 1);
	}
	if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_locked_and_not_dumpable(void)
{
	int as_uid = geteuid() == 0 ? TD_NOBODY : -1;
	struct test_daemon d;
	struct stat st;
	uint8_t id[16], key[64];
	long kb;

	CHECK(td_start(&d, as_uid >= 0 ? "allow_root = true;\n" : NULL, as_uid) == 0,
	      "start daemon");
	td_id(id, 1);
	test_random_bytes(key, sizeof(key));
	CHECK(raw_add(d.sock, id, key, sizeof(key)) == 0, "add a key");
	kb = test_vmlck_kb(d.pid);
	CHECK(kb > 0, "VmLck %ld kB after a key was added", kb);
	CHECK(core_limit_zero(d.pid), "RLIMIT_CORE is 0");
	{
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/status", (int)d.pid);
		CHECK(stat(path, &st) == 0 && st.st_uid == 0,
		      "/proc/PID files owned by root: not dumpable (owner %u)", (unsigned)st.st_uid);
	}
	CHECK(mem_closed_to(as_uid, d.pid) == 0, "same-uid process cannot read /proc/PID/mem");
	CHECK(td_stop(&d) == 0, "exit status");
	explicit_bzero(key, sizeof(key));
}

static long count_in(pid_t pid, const uint8_t *key, size_t n, bool *skip)
{
	long c = td_mem_count(pid, key, n);

	if (c == -EACCES || c == -EPERM) {
		fprintf(stderr, "cannot read /proc/%d/mem (%s): memory scan skipped\n", (int)pid,
			strerror((int)-c));
		*skip = true;
	}
	return c;
}

/*
 * The count once it settles on want (1 s at most): the daemon wipes its
 * send buffer right after send() returns, which may be just after the
 * client already has the reply.
 */
static long count_settled(pid_t pid, const uint8_t *key, size_t n, long want, bool *skip)
{
	long c = count_in(pid, key, n, skip);

	for (int i = 0; i < 50 && c != want && !*skip; i++) {
		td_sleep_ms(20);
		c = count_in(pid, key, n, skip);
	}
	return c;
}

static void test_wiped_from_memory(void)
{
	struct test_daemon d;
	struct cloakfsd_client *cl = NULL;
	uint8_t id1[16], id2[16], id3[16], k1[64], k2[64], k3[64], got[64];
	size_t got_len;
	bool skip = false;
	long c;

	CHECK(td_start(&d, NULL, -1) == 0, "start daemon");
	CHECK(cloakfsd_connect(d.sock, 0, 5000, &cl) == 0, "connect");
	if (!cl)
		goto out;
	td_id(id1, 1);
	td_id(id2, 2);
	td_id(id3, 3);
	test_random_bytes(k1, sizeof(k1));
	test_random_bytes(k2, sizeof(k2));
	test_random_bytes(k3, sizeof(k3));

	CHECK(cloakfsd_add(cl, id1, "/m1", k1, 64, 0, NULL) == 0, "add");
	c = count_in(d.pid, k1, 64, &skip);
	if (skip)
		goto out;
	/* the scan works: exactly the key store's copy, the request buffer is wiped */
	CHECK(c == 1, "one copy of the key while held: %ld", c);
	CHECK(cloakfsd_get(cl, id1, got, sizeof(got), &got_len, NULL) == 0 &&
	      !memcmp(got, k1, 64), "get");
	c = count_settled(d.pid, k1, 64, 1, &skip);
	CHECK(c == 1, "still one copy after GET (send buffer wiped): %ld", c);
	CHECK(cloakfsd_remove(cl, id1) == 0, "remove");
	c = count_in(d.pid, k1, 64, &skip);
	CHECK(c == 0, "no copy after remove: %ld", c);

	CHECK(cloakfsd_add(cl, id2, "/m2", k2, 64, 0, NULL) == 0, "add 2");
	CHECK(count_in(d.pid, k2, 64, &skip) == 1, "key 2 held");
	CHECK(cloakfsd_lock_all(cl, NULL) == 0, "lock all");
	c = count_in(d.pid, k2, 64, &skip);
	CHECK(c == 0, "no copy after lock-all: %ld", c);

	CHECK(cloakfsd_add(cl, id3, "/m3", k3, 64, 1, NULL) == 0, "add 3, ttl 1");
	CHECK(count_in(d.pid, k3, 64, &skip) == 1, "key 3 held");
	td_sleep_ms(1600); /* no request in between: the timer alone must wipe it */
	c = count_in(d.pid, k3, 64, &skip);
	CHECK(c == 0, "no copy after expiry: %ld", c);
out:
	cloakfsd_close(cl);
	explicit_bzero(got, sizeof(got));
	CHECK(td_stop(&d) == 0, "exit status");
}

int main(int argc, char **argv)
{
	td_init(argc, argv);
	test_seed();
	test_locked_and_not_dumpable();
	test_wiped_from_memory();
	return test_finish("test_daemon_memory");
}
