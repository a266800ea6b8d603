/* SPDX-License-Identifier: MIT */
/*
 * cloakfsd at its connection limit: 256 idle connections, or 256 that
 * each sent 5 bytes of a frame and stopped, must not keep "lock" (LOCK_ALL)
 * or "status" (LIST) out: at the limit the oldest idle or half-sent
 * connection is closed, never a subscriber; and a half-sent frame is
 * closed on its own once SERVER_FRAME_DEADLINE_MS have passed, logged.
 */
#include "daemon/client.h"
#include "daemon/server.h"
#include "tests/crypto/testutil.h"
#include "tests/daemon/daemontest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { FLOOD = SERVER_MAX_CONNS };

static struct test_daemon daemon_;
static uint8_t witness_id[16];

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* a mount's kind of connection: subscribed to the witness key */
static int subscriber(void)
{
	uint8_t buf[CLOAKFSD_FRAME_MAX];
	size_t len;
	int fd = td_connect(daemon_.sock);

	if (fd < 0 || td_send_frame(fd, CLOAKFSD_SUBSCRIBE, witness_id, 16) != 0 ||
	    td_recv_frame(fd, buf, sizeof(buf), &len, 5000) != CLOAKFSD_OK) {
		CHECK(0, "subscribe");
		return -1;
	}
	return fd;
}

static void add_witness(void)
{
	struct cloakfsd_client *cl = NULL;
	uint8_t key[32] = { 7 };

	CHECK(cloakfsd_connect(daemon_.sock, 0, 5000, &cl) == 0 &&
	      cloakfsd_add(cl, witness_id, "/witness", key, 32, 0, NULL) == 0,
	      "add the witness key");
	cloakfsd_close(cl);
}

/* what "cloakfs-keytool lock --all" and "status" do, each within 2 s */
static void lock_and_status(const char *what)
{
	struct cloakfsd_client *cl = NULL;
	uint32_t count = 99;
	long long t0 = mono_ms();
	int err = cloakfsd_connect(daemon_.sock, 0, 5000, &cl);

	if (!err)
		err = cloakfsd_lock_all(cl, &count);
	cloakfsd_close(cl);
	CHECK(err == 0 && count == 1, "%s: lock all: %s, %u key(s)", what,
	      strerror(-err), count);
	CHECK(mono_ms() - t0 < 2000, "%s: lock all took %lld ms", what, mono_ms() - t0);
	t0 = mono_ms();
	cl = NULL;
	err = cloakfsd_connect(daemon_.sock, 0, 5000, &cl);
	if (!err)
		err = cloakfsd_list(cl, NULL, NULL);
	cloakfsd_close(cl);
	CHECK(err == 0, "%s: list: %s", what, strerror(-err));
	CHECK(mono_ms() - t0 < 2000, "%s: list took %lld ms", what, mono_ms() - t0);
}

/* the subscriber was kept and told of the lock */
static void subscriber_told(int sub, const char *what)
{
	uint8_t buf[CLOAKFSD_FRAME_MAX];
	size_t len = 0;
	int type = td_recv_frame(sub, buf, sizeof(buf), &len, 3000);

	CHECK(type == CLOAKFSD_EVENT && len == 17 && buf[0] == CLOAKFSD_EV_LOCKED &&
	      !memcmp(buf + 1, witness_id, 16), "%s: subscriber kept and told "
	      "(frame type %d)", what, type);
}

static void flood(int *fds, size_t send_bytes)
{
	static const uint8_t part[5] = { 0, 0, 0, 18, CLOAKFSD_PROTO_VERSION };

	for (int i = 0; i < FLOOD; i++) {
		fds[i] = td_connect(daemon_.sock);
		if (fds[i] >= 0 && send_bytes)
			(void)td_send(fds[i], part, send_bytes);
	}
	td_sleep_ms(300); /* let the daemon accept them all */
}

static void close_all(int *fds)
{
	for (int i = 0; i < FLOOD; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * 256 connections that sent send_bytes (0: idle ones, which only closing
 * at the limit lets a new request pass; 5: half-sent frames), then lock
 * and status, while a subscriber is kept
 */
static void test_flood(size_t send_bytes, const char *what)
{
	int fds[FLOOD], sub;

	add_witness();
	sub = subscriber();
	flood(fds, send_bytes);
	lock_and_status(what);
	if (!send_bytes) {
		uint8_t buf[CLOAKFSD_FRAME_MAX];
		size_t len = 0;
		int type = fds[0] >= 0 ? td_recv_frame(fds[0], buf, sizeof(buf), &len, 2000) : -1;

		/* the oldest idle one went, told why */
		CHECK(type == CLOAKFSD_ERROR && len == 4 && proto_load_u32(buf) == EBUSY &&
		      td_closed_by_daemon(fds[0], 2000), "%s: the oldest closed with "
		      "ERROR 16 (frame type %d)", what, type);
	}
	if (sub >= 0) {
		subscriber_told(sub, what);
		close(sub);
	}
	close_all(fds);
}

/* below the limit, a half-sent frame is closed after its deadline */
static void test_frame_deadline(void)
{
	static const uint8_t part[5] = { 0, 0, 0, 18, CLOAKFSD_PROTO_VERSION };
	int fd = td_connect(daemon_.sock);
	long long t0 = mono_ms(), took;
	bool closed;

	CHECK(fd >= 0 && td_send(fd, part, sizeof(part)) == 0, "send 5 bytes");
	closed = fd >= 0 && td_closed_by_daemon(fd, SERVER_FRAME_DEADLINE_MS + 2500);
	took = mono_ms() - t0;
	CHECK(closed, "a half-sent frame is closed by the daemon");
	CHECK(took >= SERVER_FRAME_DEADLINE_MS - 100 && took < SERVER_FRAME_DEADLINE_MS + 2500,
	      "closed after %lld ms (deadline %d ms)", took, SERVER_FRAME_DEADLINE_MS);
	CHECK(td_log_contains(&daemon_, "frame not completed within"),
	      "the daemon logged the closed half frame");
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	td_init(argc, argv);
	test_seed();
	if (td_start(&daemon_, NULL, -1) != 0) {
		CHECK(0, "start daemon");
		return test_finish("test_daemon_limits");
	}
	td_id(witness_id, 42);
	test_flood(0, "256 idle connections");
	test_flood(5, "256 half-sent frames");
	test_frame_deadline();
	CHECK(td_log_contains(&daemon_, "at the connection limit"),
	      "the daemon logged the connections it closed at the limit");
	CHECK(td_stop(&daemon_) == 0, "SIGTERM exit status");
	return test_finish("test_daemon_limits");
}
