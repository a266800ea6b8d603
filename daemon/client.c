/* SPDX-License-Identifier: MIT */
/* see client.h */
#include "daemon/client.h"

#include "daemon/autostart.h"
#include "daemon/config.h"
#include "daemon/sockpath.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define EVENT_QUEUE 64

struct cloakfsd_client {
	int fd;
	int timeout_ms;
	pid_t server_pid;
	bool broken; /* a reply may be missing or half read: unusable */
	bool answered; /* a frame came: the daemon speaks our version */
	unsigned int ev_head, ev_count;
	struct cloakfsd_event events[EVENT_QUEUE];
	size_t in_len;
	uint8_t in[CLOAKFSD_WIRE_MAX];  /* wiped as frames are consumed */
	uint8_t out[CLOAKFSD_WIRE_MAX]; /* wiped after each send */
};

/* ---- time ---- */

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* a deadline from a timeout; < 0 means none */
static int64_t deadline_after(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : mono_ms() + timeout_ms;
}

static int ms_left(int64_t deadline)
{
	int64_t left;

	if (deadline < 0)
		return -1;
	left = deadline - mono_ms();
	return left <= 0 ? 0 : left > 60 * 60 * 1000 ? 60 * 60 * 1000 : (int)left;
}

/* ---- socket path and connecting ---- */

int cloakfsd_socket_path(char *buf, size_t len)
{
	const char *env = getenv("CLOAKFSD_SOCKET");
	struct daemon_config cfg;
	char conf[4096], err[256];

	if (env && env[0] == '/') {
		if (strlen(env) >= len || strlen(env) >= DAEMON_CONFIG_SOCKET_MAX)
			return -ENAMETOOLONG;
		memcpy(buf, env, strlen(env) + 1);
		return 0;
	}
	daemon_config_defaults(&cfg);
	/* a broken settings file is the daemon's to report; use the default */
	if (daemon_config_default_path(conf, sizeof(conf)) == 0 &&
	    daemon_config_load(conf, true, &cfg, err, sizeof(err)) == 0 && cfg.socket[0]) {
		if (strlen(cfg.socket) >= len)
			return -ENAMETOOLONG;
		memcpy(buf, cfg.socket, strlen(cfg.socket) + 1);
		return 0;
	}
	return sockpath_default(buf, len);
}

static int connect_once(const char *path, struct cloakfsd_client *cl)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct ucred cred;
	socklen_t cred_len = sizeof(cred);
	int fd, err;

	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
		goto err;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) != 0)
		goto err;
	/* whoever answers gets our keys: only ourselves or root */
	if (cred.uid != getuid() && cred.uid != 0) {
		close(fd);
		return -EPERM;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0)
		goto err;
	cl->fd = fd;
	cl->server_pid = cred.pid;
	return 0;
err:
	err = -errno;
	close(fd);
	return err;
}

int cloakfsd_connect(const char *socket_path, unsigned int flags, int timeout_ms,
		     struct cloakfsd_client **out)
{
	struct cloakfsd_client *cl;
	char path[DAEMON_CONFIG_SOCKET_MAX];
	int64_t deadline;
	bool started = false;
	int err;

	if (timeout_ms <= 0)
		timeout_ms = CLOAKFSD_TIMEOUT_DEFAULT_MS;
	deadline = deadline_after(timeout_ms);
	if (socket_path) {
		if (strlen(socket_path) >= sizeof(path))
			return -ENAMETOOLONG;
		memcpy(path, socket_path, strlen(socket_path) + 1);
	} else if ((err = cloakfsd_socket_path(path, sizeof(path))) != 0) {
		return err;
	}
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return -ENOMEM;
	cl->fd = -1;
	cl->timeout_ms = timeout_ms;
	for (;;) {
		err = connect_once(path, cl);
		if (err != -ENOENT && err != -ECONNREFUSED)
			break;
		if (!(flags & CLOAKFSD_AUTOSTART))
			break;
		if (!started) {
			int status = autostart_run(socket_path, ms_left(deadline));

			started = true;
			if (status < 0) {
				err = status;
				break;
			}
			if (status == 127) {
				err = -ENOENT; /* no cloakfsd to run */
				break;
			}
			if (status != 0 && status != 3) {
				/* it could not start and told stderr why */
				err = connect_once(path, cl);
				if (err == -ENOENT)
					err = -ECONNREFUSED;
				break;
			}
			continue; /* ready, or another instance won the race */
		}
		if (ms_left(deadline) == 0) {
			err = -ETIMEDOUT;
			break;
		}
		/* the daemon that won a start race may still be binding */
		nanosleep(&(struct timespec){ 0, 20 * 1000000 }, NULL);
	}
	if (err) {
		free(cl);
		return err;
	}
	*out = cl;
	return 0;
}

void cloakfsd_close(struct cloakfsd_client *cl)
{
	if (!cl)
		return;
	if (cl->fd >= 0)
		close(cl->fd);
	explicit_bzero(cl, sizeof(*cl));
	free(cl);
}

void cloakfsd_set_timeout(struct cloakfsd_client *cl, int timeout_ms)
{
	cl->timeout_ms = timeout_ms > 0 ? timeout_ms : CLOAKFSD_TIMEOUT_DEFAULT_MS;
}

pid_t cloakfsd_server_pid(const struct cloakfsd_client *cl)
{
	return cl->server_pid;
}

/* ---- frames ---- */

static int send_frame(struct cloakfsd_client *cl, size_t len, int64_t deadline)
{
	size_t off = 0;
	int err = 0;

	while (off < len) {
		struct pollfd p = { cl->fd, POLLOUT, 0 };
		ssize_t n = send(cl->fd, cl->out + off, len - off, MSG_NOSIGNAL);

		if (n >= 0) {
			off += (size_t)n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			err = -errno;
			break;
		}
		n = poll(&p, 1, ms_left(deadline));
		if (n == 0) {
			err = -ETIMEDOUT;
			break;
		}
		if (n < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
	}
	explicit_bzero(cl->out, len);
	return err;
}

static void consume(struct cloakfsd_client *cl, size_t n)
{
	memmove(cl->in, cl->in + n, cl->in_len - n);
	explicit_bzero(cl->in + cl->in_len - n, n);
	cl->in_len -= n;
}

/*
 * Read until one whole frame sits at cl->in (not consumed): 0, -ETIMEDOUT,
 * -ECONNRESET, -EPROTO.
 */
static int read_frame(struct cloakfsd_client *cl, int64_t deadline, struct proto_frame *f)
{
	for (;;) {
		struct pollfd p = { cl->fd, POLLIN, 0 };
		int r = proto_parse(cl->in, cl->in_len, f);
		ssize_t n;

		if (r > 0 && f->version != CLOAKFSD_PROTO_VERSION)
			return -EPROTONOSUPPORT;
		if (r > 0) {
			cl->answered = true;
			return 0;
		}
		if (r < 0)
			return -EPROTO;
		n = recv(cl->fd, cl->in + cl->in_len, sizeof(cl->in) - cl->in_len, 0);
		if (n > 0) {
			cl->in_len += (size_t)n;
			continue;
		}
		/* a daemon of an older protocol closes at our first frame */
		if (n == 0 || (n < 0 && (errno == EPIPE || errno == ECONNRESET)))
			return cl->answered ? -ECONNRESET : -EPROTONOSUPPORT;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -errno;
		n = poll(&p, 1, ms_left(deadline));
		if (n == 0)
			return -ETIMEDOUT;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

static int queue_event(struct cloakfsd_client *cl, const struct proto_frame *f)
{
	struct proto_reader r = { f->payload, f->payload_len, false };
	struct cloakfsd_event *ev;
	uint8_t reason = proto_get_u8(&r);
	const uint8_t *id = proto_get_bytes(&r, CLOAKFSD_KEY_ID_LEN);

	if (!proto_done(&r))
		return -EPROTO;
	if (cl->ev_count == EVENT_QUEUE) {
		cl->ev_head = (cl->ev_head + 1) % EVENT_QUEUE;
		cl->ev_count--;
	}
	ev = &cl->events[(cl->ev_head + cl->ev_count++) % EVENT_QUEUE];
	ev->reason = reason;
	memcpy(ev->id, id, CLOAKFSD_KEY_ID_LEN);
	return 0;
}

/* the next frame that is not an event (events are queued on the way) */
static int read_reply(struct cloakfsd_client *cl, int64_t deadline, struct proto_frame *f)
{
	for (;;) {
		int err = read_frame(cl, deadline, f);

		if (!err && f->type == CLOAKFSD_EVENT) {
			err = queue_event(cl, f);
			consume(cl, f->wire_len);
			if (!err)
				continue;
		}
		if (err)
			cl->broken = true;
		return err;
	}
}

/*
 * Send the request built in cl->out, then read its reply. A failed send
 * still reads: a refusing daemon has written its ERROR before closing.
 */
static int transact(struct cloakfsd_client *cl, size_t len, struct proto_frame *f)
{
	int64_t deadline = deadline_after(cl->timeout_ms);
	int err;

	if (cl->broken) {
		explicit_bzero(cl->out, sizeof(cl->out));
		return -ENOTCONN;
	}
	if (!len) {
		explicit_bzero(cl->out, sizeof(cl->out));
		return -EINVAL;
	}
	err = send_frame(cl, len, deadline);
	if (err == -ETIMEDOUT) {
		cl->broken = true;
		return err;
	}
	return read_reply(cl, deadline, f);
}

/* an OK or ERROR reply: the OK value, or -code */
static int simple_reply(struct cloakfsd_client *cl, const struct proto_frame *f,
			uint32_t *value)
{
	struct proto_reader r = { f->payload, f->payload_len, false };
	uint32_t v = proto_get_u32(&r);
	int ret;

	if (!proto_done(&r) || (f->type != CLOAKFSD_OK && f->type != CLOAKFSD_ERROR)) {
		cl->broken = true;
		ret = -EPROTO;
	} else if (f->type == CLOAKFSD_ERROR) {
		ret = v && v < 4096 ? -(int)v : -EPROTO;
	} else {
		if (value)
			*value = v;
		ret = 0;
	}
	consume(cl, f->wire_len);
	return ret;
}

/*
 * A request that is answered by a frame of its own type: 0 when f is one,
 * else ERROR's -code (f consumed), or -EPROTO for an OK (no such answer)
 */
static int reply_of_type(struct cloakfsd_client *cl, const struct proto_frame *f,
			 uint8_t type)
{
	int err;

	if (f->type == type)
		return 0;
	err = simple_reply(cl, f, NULL);
	if (!err) {
		cl->broken = true;
		err = -EPROTO;
	}
	return err;
}

static int request_by_id(struct cloakfsd_client *cl, uint8_t type, const uint8_t *id,
			 uint32_t *value)
{
	struct proto_writer w;
	struct proto_frame f;
	int err;

	proto_begin(&w, cl->out, sizeof(cl->out), type);
	if (id)
		proto_put_bytes(&w, id, CLOAKFSD_KEY_ID_LEN);
	err = transact(cl, proto_end(&w), &f);
	return err ? err : simple_reply(cl, &f, value);
}

/* ---- requests ---- */

/* plen:u16 path[plen] from a C string (NULL: empty) */
static void put_path(struct proto_writer *w, const char *path)
{
	size_t len = path ? strlen(path) : 0;

	proto_put_u16(w, (uint16_t)len);
	proto_put_bytes(w, path, len);
}

static bool path_ok(const char *path)
{
	return !path || strlen(path) <= CLOAKFSD_PATH_MAX;
}

int cloakfsd_add_at(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		    const char *path, const char *alias, const uint8_t *key,
		    size_t key_len, uint32_t ttl, uint32_t *granted)
{
	struct proto_writer w;
	struct proto_frame f;
	int err;

	if (key_len == 0 || key_len > CLOAKFSD_KEY_MAX || !path_ok(path) || !path_ok(alias))
		return -EINVAL;
	proto_begin(&w, cl->out, sizeof(cl->out), CLOAKFSD_ADD);
	proto_put_bytes(&w, id, CLOAKFSD_KEY_ID_LEN);
	proto_put_u32(&w, ttl);
	proto_put_u8(&w, (uint8_t)key_len);
	proto_put_bytes(&w, key, key_len);
	put_path(&w, path);
	put_path(&w, alias);
	err = transact(cl, proto_end(&w), &f);
	return err ? err : simple_reply(cl, &f, granted);
}

int cloakfsd_add(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		 const char *path, const uint8_t *key, size_t key_len, uint32_t ttl,
		 uint32_t *granted)
{
	return cloakfsd_add_at(cl, id, path, NULL, key, key_len, ttl, granted);
}

int cloakfsd_get(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		 uint8_t *key, size_t key_cap, size_t *key_len, uint32_t *seconds_left)
{
	struct proto_writer w;
	struct proto_frame f;
	struct proto_reader r;
	const uint8_t *bytes;
	uint8_t len;
	uint32_t left;
	int err;

	proto_begin(&w, cl->out, sizeof(cl->out), CLOAKFSD_GET);
	proto_put_bytes(&w, id, CLOAKFSD_KEY_ID_LEN);
	err = transact(cl, proto_end(&w), &f);
	if (!err)
		err = reply_of_type(cl, &f, CLOAKFSD_KEY);
	if (err)
		return err;
	r = (struct proto_reader){ f.payload, f.payload_len, false };
	len = proto_get_u8(&r);
	bytes = proto_get_bytes(&r, len);
	left = proto_get_u32(&r);
	if (!proto_done(&r) || len == 0 || len > CLOAKFSD_KEY_MAX) {
		cl->broken = true;
		err = -EPROTO;
	} else if (len > key_cap) {
		err = -ENOBUFS;
	} else {
		memcpy(key, bytes, len);
		*key_len = len;
		if (seconds_left)
			*seconds_left = left;
	}
	consume(cl, f.wire_len);
	return err;
}

int cloakfsd_remove(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN])
{
	uint32_t holders = 0;
	int err = request_by_id(cl, CLOAKFSD_REMOVE, id, &holders);

	if (err)
		return err;
	/* SERVER_MAX_CONNS * SERVER_MAX_SUBS at most; a bigger one is broken */
	return holders > 65536 ? -EPROTO : (int)holders;
}

int cloakfsd_lock_all(struct cloakfsd_client *cl, uint32_t *count)
{
	return request_by_id(cl, CLOAKFSD_LOCK_ALL, NULL, count);
}

int cloakfsd_subscribe_at(struct cloakfsd_client *cl,
			  const uint8_t id[CLOAKFSD_KEY_ID_LEN], const char *path,
			  const char *alias, bool holder, bool *held)
{
	struct proto_writer w;
	struct proto_frame f;
	uint32_t v = 0;
	int err;

	if (!path_ok(path) || !path_ok(alias))
		return -EINVAL;
	proto_begin(&w, cl->out, sizeof(cl->out),
		    holder ? CLOAKFSD_REGISTER : CLOAKFSD_SUBSCRIBE);
	proto_put_bytes(&w, id, CLOAKFSD_KEY_ID_LEN);
	put_path(&w, path);
	put_path(&w, alias);
	err = transact(cl, proto_end(&w), &f);
	if (!err)
		err = simple_reply(cl, &f, &v);
	if (!err && held)
		*held = v != 0;
	return err;
}

int cloakfsd_subscribe(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		       bool *held)
{
	return cloakfsd_subscribe_at(cl, id, NULL, NULL, false, held);
}

int cloakfsd_register(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		      bool *held)
{
	return cloakfsd_subscribe_at(cl, id, NULL, NULL, true, held);
}

int cloakfsd_lock_path(struct cloakfsd_client *cl, const char *path,
		       struct cloakfsd_locked *out)
{
	struct proto_writer w;
	struct proto_frame f;
	struct proto_reader r;
	const uint8_t *ids;
	int err;

	if (!path || path[0] != '/' || !path_ok(path))
		return -EINVAL;
	proto_begin(&w, cl->out, sizeof(cl->out), CLOAKFSD_LOCK_PATH);
	put_path(&w, path);
	err = transact(cl, proto_end(&w), &f);
	if (!err)
		err = reply_of_type(cl, &f, CLOAKFSD_LOCKED);
	if (err)
		return err;
	r = (struct proto_reader){ f.payload, f.payload_len, false };
	out->keys = proto_get_u16(&r);
	out->holders = proto_get_u16(&r);
	out->n = proto_get_u8(&r);
	ids = proto_get_bytes(&r, (size_t)out->n * CLOAKFSD_KEY_ID_LEN);
	if (!proto_done(&r) || !out->keys || out->n > CLOAKFSD_LOCKED_IDS ||
	    out->n > out->keys || (out->n < out->keys && out->n < CLOAKFSD_LOCKED_IDS)) {
		cl->broken = true;
		err = -EPROTO;
	} else {
		memcpy(out->ids, ids, (size_t)out->n * CLOAKFSD_KEY_ID_LEN);
	}
	consume(cl, f.wire_len);
	return err;
}

int cloakfsd_list(struct cloakfsd_client *cl,
		  int (*fn)(const struct cloakfsd_key_info *info, void *arg), void *arg)
{
	struct proto_writer w;
	struct proto_frame f;
	int64_t deadline;
	int err, stop = 0;
	uint32_t count = 0, total;

	proto_begin(&w, cl->out, sizeof(cl->out), CLOAKFSD_LIST);
	err = transact(cl, proto_end(&w), &f);
	deadline = deadline_after(cl->timeout_ms);
	while (!err && f.type == CLOAKFSD_LIST_ENTRY) {
		struct proto_reader r = { f.payload, f.payload_len, false };
		struct cloakfsd_key_info info;
		const uint8_t *id = proto_get_bytes(&r, CLOAKFSD_KEY_ID_LEN);
		uint16_t path_len;
		const uint8_t *path;
		char path_buf[CLOAKFSD_PATH_MAX + 1];

		info.seconds_left = proto_get_u32(&r);
		path_len = proto_get_u16(&r);
		path = proto_get_bytes(&r, path_len);
		if (!proto_done(&r) || path_len > CLOAKFSD_PATH_MAX) {
			cl->broken = true;
			return -EPROTO;
		}
		memcpy(info.id, id, CLOAKFSD_KEY_ID_LEN);
		memcpy(path_buf, path, path_len);
		path_buf[path_len] = '\0';
		info.path = path_buf;
		consume(cl, f.wire_len);
		count++;
		if (!stop && fn)
			stop = fn(&info, arg);
		err = read_reply(cl, deadline, &f);
	}
	if (err)
		return err;
	err = simple_reply(cl, &f, &total);
	if (err)
		return err;
	if (total != count) {
		cl->broken = true;
		return -EPROTO;
	}
	return stop ? stop : (int)count;
}

int cloakfsd_wait_event(struct cloakfsd_client *cl, int timeout_ms, struct cloakfsd_event *ev)
{
	int64_t deadline = deadline_after(timeout_ms);
	struct proto_frame f;
	int err;

	while (!cl->ev_count) {
		if (cl->broken)
			return -ENOTCONN;
		err = read_frame(cl, deadline, &f);
		if (err == -ETIMEDOUT)
			return err;
		if (!err && f.type == CLOAKFSD_EVENT)
			err = queue_event(cl, &f);
		else if (!err)
			err = -EPROTO; /* a reply nobody asked for */
		if (err) {
			cl->broken = true;
			return err;
		}
		consume(cl, f.wire_len);
	}
	*ev = cl->events[cl->ev_head];
	cl->ev_head = (cl->ev_head + 1) % EVENT_QUEUE;
	cl->ev_count--;
	return 0;
}

const char *cloakfsd_event_name(uint8_t reason)
{
	switch (reason) {
	case CLOAKFSD_EV_REMOVED:
		return "removed";
	case CLOAKFSD_EV_EXPIRED:
		return "expired";
	case CLOAKFSD_EV_LOCKED:
		return "locked";
	case CLOAKFSD_EV_SHUTDOWN:
		return "shutdown";
	case CLOAKFSD_EV_ADDED:
		return "added";
	default:
		return "unknown";
	}
}
