/* SPDX-License-Identifier: MIT */
/*
 * Protocol version 2's lock by path: LOCK_PATH locks every key added
 * under the path (ADD's path or alias) and every key id a connection
 * subscribed or registered under it, each id once, and tells the
 * subscribers "removed"; nothing named: ENOENT. Version 1 clients are
 * still served in version 1 (and have no LOCK_PATH); a connection keeps
 * its version; a client of version 2 reads a daemon that closes at its
 * first frame (an older daemon) as -EPROTONOSUPPORT.
 */
#include "daemon/client.h"
#include "tests/crypto/testutil.h"
#include "tests/daemon/daemontest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static struct test_daemon daemon_;
static struct cloakfsd_locked last; /* of the last lockp() */

/* lock by path: the number of key ids locked, or -errno */
static int lockp(struct cloakfsd_client *cl, const char *path)
{
	int err = cloakfsd_lock_path(cl, path, &last);

	return err ? err : (int)last.keys;
}

static struct cloakfsd_client *client(void)
{
	struct cloakfsd_client *cl = NULL;

	CHECK(cloakfsd_connect(daemon_.sock, 0, 5000, &cl) == 0, "connect");
	return cl;
}

static bool held(struct cloakfsd_client *cl, unsigned int n)
{
	uint8_t id[16], key[64];
	size_t len;

	td_id(id, n);
	return cloakfsd_get(cl, id, key, sizeof(key), &len, NULL) == 0;
}

/* the next frame on a raw subscriber is "removed" for id n */
static bool told_removed(int fd, unsigned int n, int timeout_ms)
{
	uint8_t buf[CLOAKFSD_FRAME_MAX], id[16];
	size_t len = 0;
	int type = td_recv_frame(fd, buf, sizeof(buf), &len, timeout_ms);

	td_id(id, n);
	return type == CLOAKFSD_EVENT && len == 17 && buf[0] == CLOAKFSD_EV_REMOVED &&
	       !memcmp(buf + 1, id, 16);
}

static void test_keys_by_path_and_alias(void)
{
	struct cloakfsd_client *cl = client(), *sub = client();
	uint8_t id[16], key[32] = { 1 };
	struct cloakfsd_event ev;

	if (!cl || !sub)
		goto out;
	td_id(id, 1);
	CHECK(cloakfsd_add_at(cl, id, "/real/vol", "/home/u/vol", key, 32, 0, NULL) == 0,
	      "add under a path and an alias");
	td_id(id, 2);
	CHECK(cloakfsd_add_at(cl, id, "/real/other", NULL, key, 32, 0, NULL) == 0,
	      "add another volume");
	td_id(id, 1);
	CHECK(cloakfsd_subscribe(sub, id, NULL) == 0, "subscribe to key 1");
	CHECK(lockp(cl, "/real") == -ENOENT, "a parent path names nothing");
	CHECK(lockp(cl, "/real/vol/") == -ENOENT,
	      "compared as bytes: the caller normalises");
	CHECK(lockp(cl, "relative") == -EINVAL, "a relative path is refused");
	CHECK(lockp(cl, "/home/u/vol") == 1, "lock by the alias: one key");
	CHECK(last.n == 1 && !memcmp(last.ids[0], id, 16) && last.holders == 0,
	      "the reply names that key id, no holder");
	CHECK(!held(cl, 1) && held(cl, 2), "key 1 wiped, key 2 kept");
	CHECK(cloakfsd_wait_event(sub, 3000, &ev) == 0 && ev.reason == CLOAKFSD_EV_REMOVED &&
	      !memcmp(ev.id, id, 16), "the subscriber is told 'removed'");
	CHECK(lockp(cl, "/real/vol") == -ENOENT, "locked: nothing left there");
	CHECK(lockp(cl, "/real/other") == 1, "lock by the path");
	CHECK(!held(cl, 2), "key 2 wiped");
	CHECK(td_log_contains(&daemon_, "by path /home/u/vol"), "logged with its path");
out:
	cloakfsd_close(cl);
	cloakfsd_close(sub);
}

/*
 * mounts: one that took the key (subscribed under its paths) and one
 * that holds its own key (registered); a key held under another path
 * with the same id is wiped too, and each id counts once
 */
static void test_mounts_by_path(void)
{
	struct cloakfsd_client *cl = client(), *m1 = client(), *m2 = client(),
			       *other = client();
	uint8_t id[16], key[32] = { 2 };
	struct cloakfsd_event ev;
	bool h = true;

	if (!cl || !m1 || !m2 || !other)
		goto out;
	td_id(id, 3);
	CHECK(cloakfsd_add(cl, id, "/where/unlock/saw/it", key, 32, 0, NULL) == 0, "add");
	CHECK(cloakfsd_subscribe_at(m1, id, "/mnt/real", "/mnt/given", false, &h) == 0 && h,
	      "a mount subscribes under its two paths");
	CHECK(cloakfsd_subscribe_at(m2, id, "/mnt/real", NULL, true, NULL) == 0,
	      "a passphrase mount registers under one path");
	td_id(id, 4);
	CHECK(cloakfsd_subscribe_at(other, id, "/mnt/elsewhere", NULL, true, NULL) == 0,
	      "another volume's mount");
	CHECK(lockp(cl, "/mnt/real") == 1, "two mounts, one id: counted once");
	CHECK(last.holders == 1, "one passphrase mount told: %u", last.holders);
	CHECK(!held(cl, 3), "the daemon's copy of that id wiped as well");
	td_id(id, 3);
	CHECK(cloakfsd_wait_event(m1, 3000, &ev) == 0 && ev.reason == CLOAKFSD_EV_REMOVED &&
	      !memcmp(ev.id, id, 16), "mount 1 told");
	CHECK(cloakfsd_wait_event(m2, 3000, &ev) == 0 && ev.reason == CLOAKFSD_EV_REMOVED,
	      "mount 2 told");
	CHECK(cloakfsd_wait_event(m1, 300, &ev) == -ETIMEDOUT, "told once");
	CHECK(cloakfsd_wait_event(other, 300, &ev) == -ETIMEDOUT, "another volume untouched");
	CHECK(lockp(cl, "/mnt/given") == 1, "by the mount's own view");
	CHECK(cloakfsd_wait_event(m1, 3000, &ev) == 0, "mount 1 told again");
	/* a second subscribe of the same id replaces its paths */
	CHECK(cloakfsd_subscribe_at(m1, id, "/mnt/moved", NULL, false, NULL) == 0, "resubscribe");
	CHECK(lockp(cl, "/mnt/given") == -ENOENT, "m1's old paths replaced");
	CHECK(lockp(cl, "/mnt/elsewhere") == 1, "the other volume by its path");
	CHECK(cloakfsd_wait_event(other, 3000, &ev) == 0 && ev.reason == CLOAKFSD_EV_REMOVED,
	      "the other mount told");
out:
	cloakfsd_close(cl);
	cloakfsd_close(m1);
	cloakfsd_close(m2);
	cloakfsd_close(other);
}

static void test_versions(void)
{
	uint8_t buf[CLOAKFSD_FRAME_MAX], pl[32], id[16];
	size_t len = 0;
	int fd = td_connect(daemon_.sock), sub = td_connect(daemon_.sock);

	/* version 1: served in version 1, LOCK_PATH unknown */
	td_id(id, 5);
	CHECK(fd >= 0 && td_send_frame(fd, CLOAKFSD_LIST, NULL, 0) == 0 &&
	      td_recv_frame(fd, buf, sizeof(buf), &len, 3000) == CLOAKFSD_OK,
	      "a version 1 LIST is answered");
	pl[0] = 0;
	pl[1] = 2;
	memcpy(pl + 2, "/x", 2);
	CHECK(fd >= 0 && td_send_frame(fd, CLOAKFSD_LOCK_PATH, pl, 4) == 0 &&
	      td_closed_by_daemon(fd, 3000), "version 1 has no LOCK_PATH");
	if (fd >= 0)
		close(fd);
	/* a raw version 2 subscriber under a path, then a switch to version 1 */
	memcpy(pl, id, 16);
	pl[16] = 0;
	pl[17] = 3;
	memcpy(pl + 18, "/v5", 3);
	pl[21] = 0;
	pl[22] = 0;
	CHECK(sub >= 0 && td_send_frame_v(sub, 2, CLOAKFSD_SUBSCRIBE, pl, 23) == 0 &&
	      td_recv_frame(sub, buf, sizeof(buf), &len, 3000) == CLOAKFSD_OK,
	      "a raw version 2 SUBSCRIBE with a path");
	fd = td_connect(daemon_.sock);
	pl[0] = 0;
	pl[1] = 3;
	memcpy(pl + 2, "/v5", 3);
	CHECK(fd >= 0 && td_send_frame_v(fd, 2, CLOAKFSD_LOCK_PATH, pl, 5) == 0 &&
	      td_recv_frame(fd, buf, sizeof(buf), &len, 3000) == CLOAKFSD_LOCKED &&
	      len == 5 + 16 && buf[1] == 1 && buf[3] == 0 && buf[4] == 1 &&
	      !memcmp(buf + 5, id, 16), "a raw LOCK_PATH: LOCKED, 1 id, 0 holders");
	CHECK(sub >= 0 && told_removed(sub, 5, 3000), "the raw subscriber told");
	CHECK(fd >= 0 && td_send_frame(fd, CLOAKFSD_LIST, NULL, 0) == 0 &&
	      td_closed_by_daemon(fd, 3000), "a connection keeps its version");
	CHECK(td_log_contains(&daemon_, "protocol version changed"), "version switch logged");
	if (fd >= 0)
		close(fd);
	if (sub >= 0)
		close(sub);
}

/* a daemon of an older protocol: reads the first bytes and hangs up */
static void test_older_daemon(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct cloakfsd_client *cl = NULL;
	int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), cfd, err = 0;
	uint8_t buf[8];

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/old.sock", daemon_.dir);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
	    listen(lfd, 4) != 0) {
		CHECK(0, "fake old daemon socket");
		goto out;
	}
	CHECK(cloakfsd_connect(addr.sun_path, 0, 3000, &cl) == 0, "connect to it");
	cfd = accept(lfd, NULL, NULL);
	if (cl && cfd >= 0) {
		/* the frame goes out before the answer is awaited */
		pid_t pid = fork();

		if (pid == 0) {
			(void)!recv(cfd, buf, 5, MSG_WAITALL);
			_exit(0);
		}
		close(cfd);
		err = cloakfsd_lock_path(cl, "/v", &last);
		CHECK(err == -EPROTONOSUPPORT, "closed at the first frame: %s", strerror(-err));
	}
out:
	cloakfsd_close(cl);
	if (lfd >= 0)
		close(lfd);
	unlink(addr.sun_path);
}

int main(int argc, char **argv)
{
	td_init(argc, argv);
	test_seed();
	if (td_start(&daemon_, NULL, -1) != 0) {
		CHECK(0, "start daemon");
		return test_finish("test_daemon_lockpath");
	}
	test_keys_by_path_and_alias();
	test_mounts_by_path();
	test_versions();
	test_older_daemon();
	CHECK(td_stop(&daemon_) == 0, "SIGTERM exit status");
	return test_finish("test_daemon_lockpath");
}
