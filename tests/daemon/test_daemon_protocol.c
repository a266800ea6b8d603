/* SPDX-License-Identifier: MIT */
/*
 * cloakfsd on the wire: malformed frames (bad version, oversize or short
 * lengths, truncation, unknown types, garbage, bad field lengths) close
 * only the offending connection while another client keeps being served;
 * pipelining, half-close, back-pressure with bounded buffers, and many
 * clients at once (100 raw connections; 50 client processes).
 */
#include "daemon/client.h"
#include "tests/crypto/testutil.h"
#include "tests/daemon/daemontest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static struct test_daemon daemon_;
static uint8_t witness_id[16], witness_key[32];

/* the witness connection asks for the witness key and must get it */
static bool witness_served(int fd)
{
	uint8_t buf[CLOAKFSD_FRAME_MAX];
	size_t len = 0;
	int type;

	if (td_send_frame(fd, CLOAKFSD_GET, witness_id, 16) != 0)
		return false;
	type = td_recv_frame(fd, buf, sizeof(buf), &len, 5000);
	return type == CLOAKFSD_KEY && len == 1 + 32 + 4 && buf[0] == 32 &&
	       !memcmp(buf + 1, witness_key, 32);
}

static size_t frame(uint8_t *buf, uint32_t len_field, uint8_t version, uint8_t type,
		    const void *payload, size_t n)
{
	proto_store_u32(buf, len_field);
	buf[4] = version;
	buf[5] = type;
	if (n)
		memcpy(buf + 6, payload, n);
	return 6 + n;
}

/* payload of an ADD, with every length under the caller's control */
static size_t add_payload(uint8_t *p, uint8_t klen_field, size_t klen, uint16_t plen_field,
			  const char *path, size_t plen)
{
	size_t n = 0;

	memset(p, 0x33, 16);
	n += 16;
	proto_store_u32(p + n, 0);
	n += 4;
	p[n++] = klen_field;
	memset(p + n, 0x44, klen);
	n += klen;
	p[n++] = (uint8_t)(plen_field >> 8);
	p[n++] = (uint8_t)plen_field;
	memcpy(p + n, path, plen);
	return n + plen;
}

static void check_bad(int witness, const char *name, const uint8_t *bytes, size_t n,
		      bool half_close)
{
	int fd = td_connect(daemon_.sock);

	CHECK(fd >= 0, "%s: connect", name);
	if (fd < 0)
		return;
	CHECK(td_send(fd, bytes, n) == 0 || errno == EPIPE, "%s: send", name);
	if (half_close)
		shutdown(fd, SHUT_WR);
	CHECK(td_closed_by_daemon(fd, 5000), "%s: connection closed by the daemon", name);
	close(fd);
	CHECK(witness_served(witness), "%s: other client still served", name);
}

static void test_malformed(int witness)
{
	uint8_t buf[CLOAKFSD_WIRE_MAX + 64], pl[CLOAKFSD_WIRE_MAX];
	size_t n, pn;
	char path_nul[8] = "/a\0b";

	n = frame(buf, 18, CLOAKFSD_PROTO_VERSION + 1, CLOAKFSD_GET, witness_id, 16);
	check_bad(witness, "a version above the daemon's", buf, n, false);
	n = frame(buf, 18, 0, CLOAKFSD_GET, witness_id, 16);
	check_bad(witness, "version 0", buf, n, false);
	n = frame(buf, CLOAKFSD_FRAME_MAX + 1, 1, CLOAKFSD_GET, NULL, 0);
	check_bad(witness, "length max+1 (header only)", buf, 4, false);
	n = frame(buf, 0xffffffffu, 1, CLOAKFSD_GET, NULL, 0);
	check_bad(witness, "length 2^32-1", buf, n, false);
	n = frame(buf, 0, 1, 0, NULL, 0);
	check_bad(witness, "length 0", buf, 4, false);
	n = frame(buf, 1, 1, 0, NULL, 0);
	check_bad(witness, "length 1", buf, 5, false);
	n = frame(buf, 100, 1, CLOAKFSD_GET, witness_id, 16);
	check_bad(witness, "truncated body", buf, n, true);
	check_bad(witness, "truncated header", buf, 3, true);
	n = frame(buf, 2, 1, 0x7f, NULL, 0);
	check_bad(witness, "unknown type 0x7f", buf, n, false);
	n = frame(buf, 2, 1, 0x00, NULL, 0);
	check_bad(witness, "type 0", buf, n, false);
	n = frame(buf, 6, 1, CLOAKFSD_OK, "\0\0\0\0", 4);
	check_bad(witness, "a reply type as request", buf, n, false);
	test_random_bytes(buf, 64);
	buf[0] |= 0x80; /* a length far above the limit */
	check_bad(witness, "garbage", buf, 64, false);
	test_random_bytes(buf, 64);
	proto_store_u32(buf, 60);
	buf[4] = 1;
	buf[5] = 0x55;
	check_bad(witness, "garbage with a plausible header", buf, 64, false);

	n = frame(buf, 17, 1, CLOAKFSD_GET, witness_id, 15);
	check_bad(witness, "GET with a 15-byte id", buf, n, false);
	n = frame(buf, 19, 1, CLOAKFSD_GET, pl, 17);
	check_bad(witness, "GET with 17 bytes", buf, n, false);
	n = frame(buf, 17, 1, CLOAKFSD_REGISTER, witness_id, 15);
	check_bad(witness, "REGISTER with a 15-byte id", buf, n, false);
	n = frame(buf, 2, 1, CLOAKFSD_REGISTER, NULL, 0);
	check_bad(witness, "REGISTER without an id", buf, n, false);
	n = frame(buf, 3, 1, CLOAKFSD_LOCK_ALL, "x", 1);
	check_bad(witness, "LOCK_ALL with a payload", buf, n, false);
	n = frame(buf, 3, 1, CLOAKFSD_LIST, "x", 1);
	check_bad(witness, "LIST with a payload", buf, n, false);

	pn = add_payload(pl, 0, 0, 2, "/a", 2);
	n = frame(buf, (uint32_t)pn + 2, 1, CLOAKFSD_ADD, pl, pn);
	check_bad(witness, "ADD with an empty key", buf, n, false);
	pn = add_payload(pl, 65, 65, 2, "/a", 2);
	n = frame(buf, (uint32_t)pn + 2, 1, CLOAKFSD_ADD, pl, pn);
	check_bad(witness, "ADD with a 65-byte key", buf, n, false);
	pn = add_payload(pl, 32, 32, 2, "/a", 2);
	n = frame(buf, (uint32_t)pn + 3, 1, CLOAKFSD_ADD, pl, pn + 1);
	check_bad(witness, "ADD with a trailing byte", buf, n, false);
	pn = add_payload(pl, 32, 32, 9, "/a", 2);
	n = frame(buf, (uint32_t)pn + 2, 1, CLOAKFSD_ADD, pl, pn);
	check_bad(witness, "ADD with a path longer than the frame", buf, n, false);
	pn = add_payload(pl, 40, 32, 2, "/a", 2);
	n = frame(buf, (uint32_t)pn + 2, 1, CLOAKFSD_ADD, pl, pn);
	check_bad(witness, "ADD with a key longer than the frame", buf, n, false);
	pn = add_payload(pl, 32, 32, 4, path_nul, 4);
	n = frame(buf, (uint32_t)pn + 2, 1, CLOAKFSD_ADD, pl, pn);
	check_bad(witness, "ADD with a NUL in the path", buf, n, false);
	{
		char longpath[CLOAKFSD_PATH_MAX + 1];

		memset(longpath, 'p', sizeof(longpath));
		pn = add_payload(pl, 32, 32, sizeof(longpath), longpath, sizeof(longpath));
		n = frame(buf, (uint32_t)pn + 2, 1, CLOAKFSD_ADD, pl, pn);
		check_bad(witness, "ADD with a 4096-byte path", buf, n, false);
		/* one byte shorter is the longest valid path */
		pn = add_payload(pl, 32, 32, sizeof(longpath) - 1, longpath, sizeof(longpath) - 1);
		n = frame(buf, (uint32_t)pn + 2, 1, CLOAKFSD_ADD, pl, pn);
		{
			int fd = td_connect(daemon_.sock);
			size_t len;

			CHECK(fd >= 0 && td_send(fd, buf, n) == 0 &&
			      td_recv_frame(fd, pl, sizeof(pl), &len, 5000) == CLOAKFSD_OK,
			      "ADD with a 4095-byte path accepted");
			if (fd >= 0)
				close(fd);
		}
	}
	CHECK(td_log_contains(&daemon_, "truncated frame"), "truncation logged");
	CHECK(td_log_contains(&daemon_, "oversize frame"), "oversize logged");
	CHECK(td_log_contains(&daemon_, "unknown request type 0x7f"), "unknown type logged");
	CHECK(!td_log_contains(&daemon_, "locked all"), "LOCK_ALL with payload did nothing");
}

static void test_pipelining_and_half_close(void)
{
	uint8_t buf[20 * 32], reply[CLOAKFSD_FRAME_MAX];
	size_t n = 0, len;
	int fd = td_connect(daemon_.sock), ok = 0;

	for (int i = 0; i < 10; i++)
		n += frame(buf + n, 18, 1, CLOAKFSD_GET, witness_id, 16);
	CHECK(fd >= 0 && td_send(fd, buf, n) == 0, "send 10 pipelined GETs");
	shutdown(fd, SHUT_WR); /* half-close: replies must still come */
	for (int i = 0; i < 10; i++)
		if (td_recv_frame(fd, reply, sizeof(reply), &len, 5000) == CLOAKFSD_KEY &&
		    !memcmp(reply + 1, witness_key, 32))
			ok++;
	CHECK(ok == 10, "10 replies in order: %d", ok);
	CHECK(td_recv_frame(fd, reply, sizeof(reply), &len, 5000) == -ECONNRESET,
	      "EOF after the replies");
	close(fd);
}

/* a client that writes without reading is throttled, not buffered without end */
static void test_back_pressure(int witness)
{
	uint8_t req[32], reply[CLOAKFSD_FRAME_MAX];
	size_t n = frame(req, 18, 1, CLOAKFSD_GET, witness_id, 16), len;
	int fd = td_connect(daemon_.sock);
	long sent = 0, got = 0;

	if (fd < 0) {
		CHECK(0, "connect");
		return;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	/* push until both socket buffers and the daemon's are full */
	for (int stalls = 0; stalls < 20 && sent < 200000;) {
		ssize_t w = send(fd, req, n, MSG_NOSIGNAL);

		if (w == (ssize_t)n) {
			sent++;
			stalls = 0;
		} else {
			CHECK(w < 0 && errno == EAGAIN, "send: %zd %s", w, strerror(errno));
			if (w > 0) /* a partial frame: finish it blocking below */
				break;
			stalls++;
			td_sleep_ms(10);
		}
	}
	CHECK(sent > 100 && sent < 200000, "sender stalled after %ld requests", sent);
	CHECK(witness_served(witness), "others served while one client does not read");
	fcntl(fd, F_SETFL, 0);
	while (got < sent && td_recv_frame(fd, reply, sizeof(reply), &len, 5000) == CLOAKFSD_KEY)
		got++;
	CHECK(got == sent, "every pipelined request answered: %ld of %ld", got, sent);
	close(fd);
}

/* LIST output far larger than the daemon's buffers, read slowly */
static void test_big_list(int witness)
{
	struct cloakfsd_client *cl = NULL;
	uint8_t id[16], key[16] = { 9 }, reply[CLOAKFSD_FRAME_MAX];
	char path[CLOAKFSD_PATH_MAX + 1];
	size_t len;
	int fd, err = 0, entries = 0, type, held;

	CHECK(cloakfsd_connect(daemon_.sock, 0, 5000, &cl) == 0, "connect");
	if (!cl)
		return;
	memset(path, 'x', CLOAKFSD_PATH_MAX);
	path[0] = '/';
	path[CLOAKFSD_PATH_MAX] = '\0';
	held = cloakfsd_list(cl, NULL, NULL);
	CHECK(held >= 1 && held < 256, "keys held before: %d", held);
	for (int i = 0; i < 256 - held && !err; i++) {
		td_id(id, 7000 + (unsigned int)i);
		err = cloakfsd_add(cl, id, path, key, 16, 0, NULL);
	}
	CHECK(err == 0, "fill the store with 4095-byte paths");
	fd = td_connect(daemon_.sock);
	CHECK(fd >= 0 && td_send_frame(fd, CLOAKFSD_LIST, NULL, 0) == 0, "send LIST");
	td_sleep_ms(200);
	CHECK(witness_served(witness), "served while a big LIST waits");
	while ((type = td_recv_frame(fd, reply, sizeof(reply), &len, 5000)) == CLOAKFSD_LIST_ENTRY) {
		entries++;
		if (entries % 64 == 0)
			td_sleep_ms(20);
	}
	CHECK(type == CLOAKFSD_OK && proto_load_u32(reply) == 256 && entries == 256,
	      "LIST of 256 entries: type %d, %d entries", type, entries);
	close(fd);
	CHECK(cloakfsd_list(cl, NULL, NULL) == 256, "client library lists 256");
	for (int i = 0; i < 256 - held; i++) {
		td_id(id, 7000 + (unsigned int)i);
		cloakfsd_remove(cl, id);
	}
	cloakfsd_close(cl);
}

static void test_many_raw(void)
{
	enum { N = 100 };
	int fds[N], ok = 0;
	uint8_t reply[CLOAKFSD_FRAME_MAX];
	size_t len;

	for (int i = 0; i < N; i++)
		fds[i] = td_connect(daemon_.sock);
	for (int i = 0; i < N; i++)
		if (fds[i] >= 0)
			td_send_frame(fds[i], CLOAKFSD_GET, witness_id, 16);
	for (int i = 0; i < N; i++) {
		if (fds[i] >= 0 && td_recv_frame(fds[i], reply, sizeof(reply), &len, 5000) ==
		    CLOAKFSD_KEY)
			ok++;
	}
	CHECK(ok == N, "%d connections open at once, all served: %d", N, ok);
	for (int i = 0; i < N; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* one client process: its own keys, many round trips */
static int client_proc(int idx, int barrier)
{
	struct cloakfsd_client *cl = NULL;
	uint8_t id[16], key[64], got[64], wgot[64];
	size_t got_len;
	char byte;
	int bad = 0;

	if (cloakfsd_connect(daemon_.sock, 0, 20000, &cl) != 0)
		return 10;
	if (read(barrier, &byte, 1) < 0) /* EOF when the parent releases everyone */
		return 11;
	cloakfsd_set_timeout(cl, 20000);
	for (int round = 0; round < 20; round++) {
		td_id(id, 100000 + (unsigned int)idx * 100 + (unsigned int)round);
		memset(key, idx, sizeof(key));
		key[0] = (uint8_t)round;
		bad |= cloakfsd_add(cl, id, "/proc/vol", key, 64, 60, NULL) != 0;
		bad |= cloakfsd_get(cl, id, got, sizeof(got), &got_len, NULL) != 0 ||
		       got_len != 64 || memcmp(got, key, 64) != 0;
		bad |= cloakfsd_get(cl, witness_id, wgot, sizeof(wgot), &got_len, NULL) != 0 ||
		       memcmp(wgot, witness_key, 32) != 0;
		bad |= cloakfsd_list(cl, NULL, NULL) < 2;
		bad |= cloakfsd_remove(cl, id) != 0;
	}
	cloakfsd_close(cl);
	return bad ? 12 : 0;
}

static void test_many_processes(void)
{
	enum { N = 50 };
	pid_t pids[N];
	int barrier[2], ok = 0;

	if (pipe(barrier) != 0) {
		CHECK(0, "pipe");
		return;
	}
	for (int i = 0; i < N; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			close(barrier[1]);
			_exit(client_proc(i, barrier[0]));
		}
	}
	close(barrier[0]);
	td_sleep_ms(300); /* let all 50 connect before releasing them together */
	close(barrier[1]);
	for (int i = 0; i < N; i++) {
		int status;

		if (pids[i] > 0 && waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			ok++;
		else
			fprintf(stderr, "client %d: status 0x%x\n", i, status);
	}
	CHECK(ok == N, "%d concurrent client processes succeeded: %d", N, ok);
}

int main(int argc, char **argv)
{
	struct cloakfsd_client *cl = NULL;
	int witness;

	td_init(argc, argv);
	test_seed();
	if (td_start(&daemon_, NULL, -1) != 0) {
		CHECK(0, "start daemon");
		return test_finish("test_daemon_protocol");
	}
	td_id(witness_id, 42);
	test_random_bytes(witness_key, sizeof(witness_key));
	CHECK(cloakfsd_connect(daemon_.sock, 0, 5000, &cl) == 0 &&
	      cloakfsd_add(cl, witness_id, "/witness", witness_key, 32, 0, NULL) == 0,
	      "add the witness key");
	cloakfsd_close(cl);
	witness = td_connect(daemon_.sock);
	CHECK(witness >= 0 && witness_served(witness), "witness served");

	test_malformed(witness);
	test_pipelining_and_half_close();
	test_back_pressure(witness);
	test_big_list(witness);
	test_many_raw();
	test_many_processes();

	CHECK(witness_served(witness), "witness served at the end");
	close(witness);
	CHECK(td_stop(&daemon_) == 0, "SIGTERM exit status");
	return test_finish("test_daemon_protocol");
}
