/* SPDX-License-Identifier: MIT */
/*
 * cloakfsd through its client library: add/get/list/remove/expire/lock-all
 * round trips, subscription events, TTL settings, SIGTERM, settings-file
 * errors, one daemon per socket, stale sockets, the default socket
 * directory checks, and auto-start of a detached daemon.
 */
#include "daemon/client.h"
#include "tests/crypto/testutil.h"
#include "tests/daemon/daemontest.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct cloakfsd_client *connect_to(const struct test_daemon *d)
{
	struct cloakfsd_client *cl = NULL;
	int err = cloakfsd_connect(d->sock, 0, 5000, &cl);

	CHECK(err == 0, "connect to %s: %s", d->sock, strerror(-err));
	return cl;
}

struct list_seen {
	unsigned int n;
	bool saw_a, saw_b;
	uint32_t left_b;
};

static int list_cb(const struct cloakfsd_key_info *info, void *arg)
{
	struct list_seen *s = arg;
	uint8_t id[CLOAKFSD_KEY_ID_LEN];

	s->n++;
	td_id(id, 1);
	if (!memcmp(info->id, id, sizeof(id)) && !strcmp(info->path, "/vol/one"))
		s->saw_a = info->seconds_left == CLOAKFSD_TTL_NONE;
	td_id(id, 2);
	if (!memcmp(info->id, id, sizeof(id)) && !strcmp(info->path, "/vol/two")) {
		s->saw_b = true;
		s->left_b = info->seconds_left;
	}
	return 0;
}

static void test_round_trips(void)
{
	struct test_daemon d;
	struct cloakfsd_client *cl;
	struct list_seen seen = { 0 };
	uint8_t id1[16], id2[16], id9[16], key[64], got[64], key2[32];
	size_t got_len = 0;
	uint32_t granted = 0, left = 0, count = 0;

	CHECK(td_start(&d, NULL, -1) == 0, "start daemon");
	cl = connect_to(&d);
	if (!cl)
		goto out;
	CHECK(cloakfsd_server_pid(cl) == d.pid, "SO_PEERCRED pid %d vs %d",
	      (int)cloakfsd_server_pid(cl), (int)d.pid);
	td_id(id1, 1);
	td_id(id2, 2);
	td_id(id9, 9);
	test_random_bytes(key, sizeof(key));
	test_random_bytes(key2, sizeof(key2));

	CHECK(cloakfsd_add(cl, id1, "/vol/one", key, 64, CLOAKFSD_TTL_NONE, &granted) == 0, "add");
	CHECK(granted == CLOAKFSD_TTL_NONE, "granted %u", granted);
	CHECK(cloakfsd_get(cl, id1, got, sizeof(got), &got_len, &left) == 0, "get");
	CHECK(got_len == 64 && !memcmp(got, key, 64), "key bytes round trip");
	CHECK(left == CLOAKFSD_TTL_NONE, "never expires: %u", left);
	CHECK(cloakfsd_get(cl, id1, got, 10, &got_len, NULL) == -ENOBUFS, "small buffer");

	CHECK(cloakfsd_add(cl, id2, "/vol/two", key2, 32, 100, &granted) == 0, "add ttl 100");
	CHECK(granted == 100, "granted %u", granted);
	CHECK(cloakfsd_get(cl, id2, got, sizeof(got), &got_len, &left) == 0, "get 2");
	CHECK(got_len == 32 && !memcmp(got, key2, 32), "key 2 bytes");
	CHECK(left >= 99 && left <= 100, "seconds left %u", left);

	CHECK(cloakfsd_list(cl, list_cb, &seen) == 2, "list count");
	CHECK(seen.n == 2 && seen.saw_a && seen.saw_b, "list entries %u", seen.n);
	CHECK(seen.left_b >= 99 && seen.left_b <= 100, "list seconds left %u", seen.left_b);

	CHECK(cloakfsd_get(cl, id9, got, sizeof(got), &got_len, NULL) == -ENOENT, "get unknown");
	CHECK(cloakfsd_remove(cl, id9) == -ENOENT, "remove unknown");
	CHECK(cloakfsd_remove(cl, id1) == 0, "remove");
	CHECK(cloakfsd_get(cl, id1, got, sizeof(got), &got_len, NULL) == -ENOENT, "gone");
	CHECK(cloakfsd_remove(cl, id1) == -ENOENT, "remove twice");
	CHECK(cloakfsd_list(cl, NULL, NULL) == 1, "list after remove");

	/* replacing keeps one entry and the new bytes */
	CHECK(cloakfsd_add(cl, id2, "/vol/two", key, 16, 0, &granted) == 0, "replace");
	CHECK(granted == CLOAKFSD_TTL_NONE, "default ttl 0 = none: %u", granted);
	CHECK(cloakfsd_get(cl, id2, got, sizeof(got), &got_len, NULL) == 0 && got_len == 16 &&
	      !memcmp(got, key, 16), "replaced bytes");
	CHECK(cloakfsd_list(cl, NULL, NULL) == 1, "one entry after replace");

	CHECK(cloakfsd_add(cl, id1, "/vol/one", key, 0, 0, NULL) == -EINVAL, "empty key");
	CHECK(cloakfsd_add(cl, id1, "/vol/one", key, 65, 0, NULL) == -EINVAL, "long key");

	for (unsigned int i = 0; i < 5; i++) {
		uint8_t id[16];

		td_id(id, 100 + i);
		CHECK(cloakfsd_add(cl, id, "/vol/many", key, 64, 0, NULL) == 0, "add %u", i);
	}
	CHECK(cloakfsd_lock_all(cl, &count) == 0 && count == 6, "lock all: %u", count);
	CHECK(cloakfsd_list(cl, NULL, NULL) == 0, "empty after lock-all");
	CHECK(cloakfsd_get(cl, id2, got, sizeof(got), &got_len, NULL) == -ENOENT, "locked");
	explicit_bzero(got, sizeof(got));
	cloakfsd_close(cl);
out:
	CHECK(td_stop(&d) == 0, "SIGTERM exit status");
}

static void test_store_full(void)
{
	struct test_daemon d;
	struct cloakfsd_client *cl;
	uint8_t id[16], key[64];
	int err = 0;
	unsigned int i;

	CHECK(td_start(&d, NULL, -1) == 0, "start daemon");
	cl = connect_to(&d);
	if (!cl)
		goto out;
	memset(key, 0x11, sizeof(key));
	for (i = 0; i < 256 && !err; i++) {
		td_id(id, 1000 + i);
		err = cloakfsd_add(cl, id, "/v", key, 64, 0, NULL);
	}
	CHECK(err == 0 && i == 256, "256 keys fit (%u: %d)", i, err);
	td_id(id, 5000);
	CHECK(cloakfsd_add(cl, id, "/v", key, 64, 0, NULL) == -ENOSPC, "257th: ENOSPC");
	td_id(id, 1000);
	CHECK(cloakfsd_add(cl, id, "/v", key, 32, 0, NULL) == 0, "replace in a full store");
	CHECK(cloakfsd_list(cl, NULL, NULL) == 256, "list 256");
	cloakfsd_close(cl);
out:
	CHECK(td_stop(&d) == 0, "exit status");
}

static void expect_event(struct cloakfsd_client *cl, uint8_t reason, const uint8_t *id,
			 int timeout_ms, const char *what)
{
	struct cloakfsd_event ev;
	int err = cloakfsd_wait_event(cl, timeout_ms, &ev);

	CHECK(err == 0, "%s: wait_event %s", what, strerror(-err));
	if (err)
		return;
	CHECK(ev.reason == reason, "%s: event %s, wanted %s", what,
	      cloakfsd_event_name(ev.reason), cloakfsd_event_name(reason));
	CHECK(!memcmp(ev.id, id, CLOAKFSD_KEY_ID_LEN), "%s: event key id", what);
}

static void test_events(void)
{
	struct test_daemon d;
	struct cloakfsd_client *a, *sub;
	struct cloakfsd_event ev;
	uint8_t id1[16], id2[16], key[32], got[64];
	size_t got_len;
	bool held = true;
	uint32_t granted;
	int status;

	CHECK(td_start(&d, NULL, -1) == 0, "start daemon");
	a = connect_to(&d);
	sub = connect_to(&d);
	if (!a || !sub)
		goto out;
	td_id(id1, 1);
	td_id(id2, 2);
	memset(key, 0x42, sizeof(key));

	CHECK(cloakfsd_subscribe(sub, id1, &held) == 0 && !held, "subscribe, not held");
	CHECK(cloakfsd_wait_event(sub, 0, &ev) == -ETIMEDOUT, "no event yet");
	CHECK(cloakfsd_add(a, id1, "/v1", key, 32, 0, NULL) == 0, "add");
	expect_event(sub, CLOAKFSD_EV_ADDED, id1, 2000, "added");
	CHECK(cloakfsd_add(a, id2, "/v2", key, 32, 0, NULL) == 0, "add other");
	CHECK(cloakfsd_remove(a, id2) == 0, "remove other");
	CHECK(cloakfsd_wait_event(sub, 200, &ev) == -ETIMEDOUT, "other keys: no event");
	CHECK(cloakfsd_remove(a, id1) == 0, "remove");
	expect_event(sub, CLOAKFSD_EV_REMOVED, id1, 2000, "removed");

	/* expiry: ttl 1 s */
	CHECK(cloakfsd_add(a, id1, "/v1", key, 32, 1, &granted) == 0 && granted == 1, "add ttl 1");
	expect_event(sub, CLOAKFSD_EV_ADDED, id1, 2000, "added again");
	CHECK(cloakfsd_get(a, id1, got, sizeof(got), &got_len, NULL) == 0, "alive before expiry");
	expect_event(sub, CLOAKFSD_EV_EXPIRED, id1, 3000, "expired");
	CHECK(cloakfsd_get(a, id1, got, sizeof(got), &got_len, NULL) == -ENOENT, "expired key gone");
	CHECK(cloakfsd_list(a, NULL, NULL) == 0, "expired key not listed");

	/* an expired key is gone even if the timer has not fired yet */
	CHECK(cloakfsd_add(a, id2, "/v2", key, 32, 1, NULL) == 0, "add ttl 1");
	td_sleep_ms(1100);
	CHECK(cloakfsd_get(a, id2, got, sizeof(got), &got_len, NULL) == -ENOENT, "expired at 1.1 s");

	/* lock-all; the subscriber can still make requests, events are queued */
	CHECK(cloakfsd_add(a, id1, "/v1", key, 32, 0, NULL) == 0, "add");
	CHECK(cloakfsd_lock_all(a, NULL) == 0, "lock all");
	CHECK(cloakfsd_subscribe(sub, id2, &held) == 0 && !held, "second subscription");
	expect_event(sub, CLOAKFSD_EV_ADDED, id1, 2000, "queued added");
	expect_event(sub, CLOAKFSD_EV_LOCKED, id1, 2000, "queued locked");

	/* SIGTERM: subscribers hear "shutdown", the daemon exits 0, socket gone */
	CHECK(cloakfsd_add(a, id1, "/v1", key, 32, 0, NULL) == 0, "add before exit");
	expect_event(sub, CLOAKFSD_EV_ADDED, id1, 2000, "added before exit");
	kill(d.pid, SIGTERM);
	expect_event(sub, CLOAKFSD_EV_SHUTDOWN, id1, 3000, "shutdown 1");
	expect_event(sub, CLOAKFSD_EV_SHUTDOWN, id2, 3000, "shutdown 2");
	CHECK(cloakfsd_wait_event(sub, 3000, &ev) == -ECONNRESET, "then EOF");
	CHECK(waitpid(d.pid, &status, 0) == d.pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "exit 0 after SIGTERM (0x%x)", status);
	d.pid = 0;
	CHECK(access(d.sock, F_OK) != 0 && errno == ENOENT, "socket removed");
	CHECK(td_log_contains(&d, "wiping 1 key(s)"), "exit logged");
out:
	cloakfsd_close(a);
	cloakfsd_close(sub);
	td_stop(&d);
}

/*
 * REGISTER: a mount that holds its key itself (passphrase) is told by
 * REMOVE and LOCK_ALL although the daemon never held the key; REMOVE
 * counts it and no longer says ENOENT; the daemon's own copy expiring
 * is an ordinary event; the registration ends with the connection; it
 * shares the 16 ids of SUBSCRIBE.
 */
static void test_register(void)
{
	struct test_daemon d;
	struct cloakfsd_client *kt, *mount, *other;
	struct cloakfsd_event ev;
	uint8_t id1[16], id2[16], key[32];
	bool held = true;
	uint32_t n = 99;

	CHECK(td_start(&d, NULL, -1) == 0, "start daemon");
	kt = connect_to(&d);
	mount = connect_to(&d);
	other = connect_to(&d);
	if (!kt || !mount || !other)
		goto out;
	td_id(id1, 1);
	td_id(id2, 2);
	memset(key, 0x42, sizeof(key));

	CHECK(cloakfsd_remove(kt, id1) == -ENOENT, "nothing to lock yet");
	CHECK(cloakfsd_register(mount, id1, &held) == 0 && !held, "register, not held");
	CHECK(cloakfsd_subscribe(other, id1, &held) == 0 && !held, "plain subscriber");
	CHECK(cloakfsd_remove(kt, id2) == -ENOENT, "another id: still ENOENT");
	CHECK(cloakfsd_remove(kt, id1) == 1, "REMOVE reaches the registered mount");
	expect_event(mount, CLOAKFSD_EV_REMOVED, id1, 2000, "holder hears removed");
	expect_event(other, CLOAKFSD_EV_REMOVED, id1, 2000, "subscriber too");
	CHECK(td_log_contains(&d, "1 mount(s) holding it told"), "logged");

	CHECK(cloakfsd_lock_all(kt, &n) == 0 && n == 0, "lock all: no key held");
	expect_event(mount, CLOAKFSD_EV_LOCKED, id1, 2000, "holder hears locked");
	CHECK(cloakfsd_wait_event(other, 200, &ev) == -ETIMEDOUT,
	      "a plain subscriber of an absent key hears nothing");

	/* the daemon holds a copy too: one event each, its expiry is just that */
	CHECK(cloakfsd_add(kt, id1, "/v1", key, 32, 1, NULL) == 0, "add ttl 1");
	expect_event(mount, CLOAKFSD_EV_ADDED, id1, 2000, "holder hears added");
	expect_event(mount, CLOAKFSD_EV_EXPIRED, id1, 3000, "holder hears expired");
	CHECK(cloakfsd_add(kt, id1, "/v1", key, 32, 0, NULL) == 0, "add again");
	expect_event(mount, CLOAKFSD_EV_ADDED, id1, 2000, "added again");
	CHECK(cloakfsd_lock_all(kt, &n) == 0 && n == 1, "lock all: one key");
	expect_event(mount, CLOAKFSD_EV_LOCKED, id1, 2000, "locked once");
	CHECK(cloakfsd_wait_event(mount, 200, &ev) == -ETIMEDOUT, "not twice");
	CHECK(cloakfsd_register(mount, id1, NULL) == 0, "registering twice is one id");

	/* 16 ids per connection, SUBSCRIBE and REGISTER together */
	for (int i = 2; i <= 16; i++) {
		uint8_t id[16];

		td_id(id, i);
		CHECK((i % 2 ? cloakfsd_subscribe(mount, id, NULL)
			     : cloakfsd_register(mount, id, NULL)) == 0, "id %d", i);
	}
	CHECK(cloakfsd_register(mount, (uint8_t[16]){ 0xee }, NULL) == -ENOSPC,
	      "the 17th id is refused");

	/* the registration ends with its connection */
	cloakfsd_close(mount);
	mount = NULL;
	td_sleep_ms(200);
	CHECK(cloakfsd_remove(kt, id1) == -ENOENT, "closed: nothing to lock");
out:
	cloakfsd_close(kt);
	cloakfsd_close(mount);
	cloakfsd_close(other);
	td_stop(&d);
}

static void test_ttl_settings(void)
{
	struct test_daemon d;
	struct cloakfsd_client *cl;
	uint8_t id[16], key[16] = { 1 };
	uint32_t g = 0;

	CHECK(td_start(&d, "# test\ndefault_ttl = 2;\nmax_ttl = 5;\nlog_level = \"debug\";\n",
		       -1) == 0, "start daemon");
	cl = connect_to(&d);
	if (!cl)
		goto out;
	td_id(id, 1);
	CHECK(cloakfsd_add(cl, id, "/v", key, 16, CLOAKFSD_TTL_DEFAULT, &g) == 0 && g == 2,
	      "default ttl: %u", g);
	CHECK(cloakfsd_add(cl, id, "/v", key, 16, 3, &g) == 0 && g == 3, "ttl 3: %u", g);
	CHECK(cloakfsd_add(cl, id, "/v", key, 16, 100, &g) == 0 && g == 5, "clamped: %u", g);
	CHECK(cloakfsd_add(cl, id, "/v", key, 16, CLOAKFSD_TTL_NONE, &g) == 0 && g == 5,
	      "none clamped: %u", g);
	cloakfsd_close(cl);
	CHECK(td_log_contains(&d, "connection from pid"), "debug log level applied");
out:
	CHECK(td_stop(&d) == 0, "exit status");
}

static void test_config_errors(void)
{
	static const struct {
		const char *text, *expect;
	} cases[] = {
		{ "default_ttl = 1;\nbogus = 3;\n", ":2: bogus: unknown setting" },
		{ "max_ttl = \"x\";\n", ":1: max_ttl: must be" },
		{ "default_ttl = -1;\n", ":1: default_ttl: must be" },
		{ "\n\ndefault_ttl = 10;\nmax_ttl = 5;\n", ":3: default_ttl (10) is above max_ttl" },
		{ "log_level = \"loud\";\n", ":1: log_level: must be" },
		{ "allow_root = 1;\n", ":1: allow_root: must be true or false" },
		{ "socket = \"relative\";\n", ":1: socket: must be an absolute path" },
		{ "default_ttl = ;\n", ":1: syntax error" },
		{ "a = { b = 1; };\n", ":1: a: unknown setting" },
		/* past 32 bits: refused at its value, not read as 100 */
		{ "default_ttl = 4294967396;\n", ":1: default_ttl: must be" },
		{ "max_ttl = 0x100000064;\n", ":1: max_ttl: must be" },
	};
	char dir[] = "/tmp/cloakfsd-conf.XXXXXX", conf[64], err[2048];

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(conf, sizeof(conf), "%s/c.conf", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[] = { "--foreground", "--socket", "/tmp/cloakfsd-never/s",
				       "--config", conf, NULL };
		FILE *f = fopen(conf, "w");
		int status;

		if (!f)
			continue;
		fputs(cases[i].text, f);
		fclose(f);
		status = td_run(args, err, sizeof(err));
		CHECK(status == 3, "case %zu: exit %d", i, status);
		CHECK(strstr(err, conf) && strstr(err, cases[i].expect),
		      "case %zu: message '%s' lacks '%s'", i, err, cases[i].expect);
	}
	{
		/* a FIFO where the file belongs: an error at once, no hang */
		const char *args[] = { "--foreground", "--socket", "/tmp/cloakfsd-never/s",
				       "--config", conf, NULL };

		unlink(conf);
		CHECK(mkfifo(conf, 0600) == 0, "mkfifo");
		CHECK(td_run(args, err, sizeof(err)) == 3 && strstr(err, "not a regular file"),
		      "a FIFO as --config: %s", err);
		unlink(conf);
	}
	{
		const char *args[] = { "--config", "/nonexistent/c.conf", NULL };

		CHECK(td_run(args, err, sizeof(err)) == 3 && strstr(err, "/nonexistent/c.conf"),
		      "missing --config file: %s", err);
	}
	{
		const char *args[] = { "--bogus", NULL };

		CHECK(td_run(args, err, sizeof(err)) == 3, "bad option");
	}
	{
		const char *args[] = { "--socket", "rel/sock", NULL };

		CHECK(td_run(args, err, sizeof(err)) == 3, "relative --socket");
	}
	{
		const char *args[] = { "--version", NULL };

		CHECK(td_run(args, err, sizeof(err)) == 0, "--version");
	}
	{
		const char *args[] = { "--help", NULL };

		CHECK(td_run(args, err, sizeof(err)) == 0, "--help");
	}
	unlink(conf);
	rmdir(dir);
	CHECK(access("/tmp/cloakfsd-never", F_OK) != 0, "no socket dir made on config errors");
}

static void test_single_instance_and_stale(void)
{
	struct test_daemon d;
	char err[1024];
	int status, fd;

	CHECK(td_start(&d, NULL, -1) == 0, "start daemon");
	{
		const char *args[] = { "--foreground", "--socket", d.sock, "--config", d.conf, NULL };

		status = td_run(args, err, sizeof(err));
		CHECK(status == 5 && strstr(err, "another cloakfsd is running"),
		      "second daemon refused: %d %s", status, err);
	}
	fd = td_connect(d.sock);
	CHECK(fd >= 0, "first daemon still answers");
	if (fd >= 0)
		close(fd);
	/* a crash leaves the socket file behind; the next daemon replaces it */
	kill(d.pid, SIGKILL);
	waitpid(d.pid, &status, 0);
	d.pid = 0;
	CHECK(access(d.sock, F_OK) == 0, "stale socket left by SIGKILL");
	CHECK(td_connect(d.sock) == -ECONNREFUSED, "stale socket refuses");
	{
		struct test_daemon d2 = d;
		const char *args[] = { "--socket", d.sock, "--config", d.conf, NULL };
		struct cloakfsd_client *cl = NULL;

		/* detached mode: returns 0 once ready */
		status = td_run(args, err, sizeof(err));
		CHECK(status == 0, "detached start over a stale socket: %d %s", status, err);
		CHECK(cloakfsd_connect(d.sock, 0, 2000, &cl) == 0, "detached daemon answers");
		if (cl) {
			d2.pid = cloakfsd_server_pid(cl);
			CHECK(d2.pid > 0 && d2.pid != getpid(), "daemon pid %d", (int)d2.pid);
			CHECK(getppid() != d2.pid, "not our parent");
			cloakfsd_close(cl);
			kill(d2.pid, SIGTERM);
			for (int i = 0; i < 250 && access(d.sock, F_OK) == 0; i++)
				td_sleep_ms(20);
			CHECK(access(d.sock, F_OK) != 0, "detached daemon removed its socket");
		}
	}
	td_stop(&d);
}

static void test_autostart(void)
{
	char dir[] = "/tmp/cloakfsd-auto.XXXXXX", sock[64], lock[72];
	struct cloakfsd_client *cl = NULL, *cl2 = NULL;
	uint8_t id[16], key[16] = { 7 }, got[16];
	size_t got_len = 0;
	pid_t pid;
	int err;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(sock, sizeof(sock), "%s/sub/sock", dir);
	snprintf(lock, sizeof(lock), "%s.lock", sock);
	setenv("CLOAKFSD_PROGRAM", td_program(), 1);
	CHECK(cloakfsd_connect(sock, 0, 1000, &cl) == -ENOENT, "no daemon, no autostart");
	err = cloakfsd_connect(sock, CLOAKFSD_AUTOSTART, 10000, &cl);
	CHECK(err == 0, "autostart: %s", strerror(-err));
	if (cl) {
		td_id(id, 3);
		pid = cloakfsd_server_pid(cl);
		CHECK(cloakfsd_add(cl, id, "/auto", key, 16, 0, NULL) == 0, "add via autostarted");
		/* a second autostarting client finds the running daemon */
		CHECK(cloakfsd_connect(sock, CLOAKFSD_AUTOSTART, 5000, &cl2) == 0, "second");
		if (cl2) {
			CHECK(cloakfsd_server_pid(cl2) == pid, "same daemon");
			CHECK(cloakfsd_get(cl2, id, got, sizeof(got), &got_len, NULL) == 0 &&
			      got_len == 16 && !memcmp(got, key, 16), "key via second client");
			cloakfsd_close(cl2);
		}
		cloakfsd_close(cl);
		kill(pid, SIGTERM);
		for (int i = 0; i < 250 && access(sock, F_OK) == 0; i++)
			td_sleep_ms(20);
		CHECK(access(sock, F_OK) != 0, "autostarted daemon exited");
	}
	setenv("CLOAKFSD_PROGRAM", "/nonexistent/cloakfsd", 1);
	CHECK(cloakfsd_connect(sock, CLOAKFSD_AUTOSTART, 2000, &cl) == -ENOENT,
	      "autostart without a program");
	unsetenv("CLOAKFSD_PROGRAM");
	unlink(lock);
	snprintf(lock, sizeof(lock), "%s/sub", dir);
	rmdir(lock);
	rmdir(dir);
}

/* the default location: $XDG_RUNTIME_DIR/cloakfs, 0700 and ours, or refusal */
static void test_default_dir(void)
{
	char dir[] = "/tmp/cloakfsd-xdg.XXXXXX", sub[64], path[160], err[1024], expect[128];
	struct cloakfsd_client *cl = NULL;
	int status;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(sub, sizeof(sub), "%s/cloakfs", dir);
	snprintf(expect, sizeof(expect), "%s/cloakfsd.sock", sub);
	setenv("XDG_RUNTIME_DIR", dir, 1);
	setenv("XDG_CONFIG_HOME", dir, 1); /* no settings file there */
	unsetenv("CLOAKFSD_SOCKET");
	CHECK(cloakfsd_socket_path(path, sizeof(path)) == 0 && !strcmp(path, expect),
	      "client resolves %s", path);
	CHECK(mkdir(sub, 0755) == 0, "mkdir");
	{
		const char *args[] = { NULL };

		status = td_run(args, err, sizeof(err));
		CHECK(status == 1 && strstr(err, "must be 0700"), "0755 dir refused: %d %s",
		      status, err);
	}
	{
		time_t t0 = time(NULL);

		setenv("CLOAKFSD_PROGRAM", td_program(), 1);
		CHECK(cloakfsd_connect(NULL, CLOAKFSD_AUTOSTART, 8000, &cl) == -ECONNREFUSED,
		      "autostart into a 0755 dir fails");
		CHECK(time(NULL) - t0 < 5, "and fails fast");
		unsetenv("CLOAKFSD_PROGRAM");
	}
	CHECK(chmod(sub, 0700) == 0, "chmod");
	{
		const char *args[] = { NULL };

		status = td_run(args, err, sizeof(err));
		CHECK(status == 0, "0700 dir accepted: %d %s", status, err);
	}
	CHECK(cloakfsd_connect(NULL, 0, 2000, &cl) == 0, "client finds the default socket");
	if (cl) {
		struct stat st;

		CHECK(stat(expect, &st) == 0 && (st.st_mode & 0777) == 0600, "socket mode 0600");
		kill(cloakfsd_server_pid(cl), SIGTERM);
		cloakfsd_close(cl);
		for (int i = 0; i < 250 && access(expect, F_OK) == 0; i++)
			td_sleep_ms(20);
	}
	snprintf(path, sizeof(path), "%s.lock", expect);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
	unsetenv("XDG_RUNTIME_DIR");
	unsetenv("XDG_CONFIG_HOME");
}

int main(int argc, char **argv)
{
	td_init(argc, argv);
	test_seed();
	test_round_trips();
	test_store_full();
	test_events();
	test_register();
	test_ttl_settings();
	test_config_errors();
	test_single_instance_and_stale();
	test_autostart();
	test_default_dir();
	return test_finish("test_daemon_basic");
}
