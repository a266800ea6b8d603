/* SPDX-License-Identifier: MIT */
/* see server.h */
#include "daemon/server.h"

#include "base/log.h"
#include "daemon/listener.h"
#include "daemon/protocol.h"
#include "daemon/request.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/*
 * Output room: a reply is only built while a whole maximal frame plus the
 * event reserve still fit, so replies never overflow; events may use the
 * reserve, and a subscriber that lets even that fill up is dropped.
 */
#define EVENT_RESERVE (64 * CLOAKFSD_EVENT_WIRE)
#define IN_CAP CLOAKFSD_WIRE_MAX
#define OUT_CAP (2 * CLOAKFSD_REPLY_WIRE_MAX + EVENT_RESERVE)

struct conn {
	int fd;
	pid_t pid;
	uid_t uid;
	bool eof;  /* the peer shut down its side; finish replies, then close */
	uint64_t partial_since; /* ms when an unfinished frame began; 0 none */
	uint64_t active_ms; /* accept, or the last request answered */
	bool dead; /* close at the end of this loop turn */
	uint8_t version; /* of the first frame: every frame after it, both ways */
	int list_cursor; /* next key slot for LIST, or -1 */
	uint32_t list_count;
	unsigned int nsubs;
	uint8_t subs[SERVER_MAX_SUBS][CLOAKFSD_KEY_ID_LEN];
	bool holds[SERVER_MAX_SUBS]; /* REGISTER: the peer holds that key itself */
	/* the volume's paths as the subscriber names them (NULL: none), for
	 * LOCK_PATH; and the LOCK_PATH that last told it (server.lock_gen) */
	char *sub_paths[SERVER_MAX_SUBS][CLOAKFSD_SUB_PATHS];
	uint32_t told[SERVER_MAX_SUBS];
	size_t in_len, out_len;
	uint8_t in[IN_CAP];   /* may hold key bytes (ADD): wiped as consumed */
	uint8_t out[OUT_CAP]; /* may hold key bytes (KEY): wiped as sent */
};

enum { PFD_LISTEN, PFD_SIGNAL, PFD_TIMER, PFD_CONNS };

struct server {
	int listen_fd, signal_fd, timer_fd;
	uid_t self;
	uint64_t armed_ms; /* expiry the timer is set for; 0 none or unknown */
	uint32_t lock_gen; /* counts LOCK_PATH requests (conn.told) */
	struct daemon_config cfg;
	struct keystore *ks;
	struct conn *conns[SERVER_MAX_CONNS];
	unsigned int nconns;
	struct pollfd pfds[PFD_CONNS + SERVER_MAX_CONNS];
};

struct gone_ctx {
	struct server *srv;
	uint8_t reason;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void id_hex(const uint8_t *id, char out[2 * CLOAKFSD_KEY_ID_LEN + 1])
{
	for (int i = 0; i < CLOAKFSD_KEY_ID_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
}

/* a client's path for a log line: control bytes as '?', long ones cut */
static void printable_path(const char *path, size_t len, char *out, size_t out_len)
{
	size_t n = len < out_len - 1 ? len : out_len - 1;

	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)path[i] < 0x20 || path[i] == 0x7f ? '?' : path[i];
	out[n] = '\0';
	if (n < len && n >= 3)
		memcpy(out + n - 3, "...", 3);
}

/* ---- buffers ---- */

static void consume_input(struct conn *c, size_t n)
{
	memmove(c->in, c->in + n, c->in_len - n);
	explicit_bzero(c->in + c->in_len - n, n);
	c->in_len -= n;
}

static void consume_output(struct conn *c, size_t n)
{
	memmove(c->out, c->out + n, c->out_len - n);
	explicit_bzero(c->out + c->out_len - n, n);
	c->out_len -= n;
}

static bool reply_room(const struct conn *c)
{
	return c->out_len + CLOAKFSD_REPLY_WIRE_MAX + EVENT_RESERVE <= OUT_CAP;
}

static void conn_free(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	for (unsigned int s = 0; s < c->nsubs; s++)
		for (unsigned int p = 0; p < CLOAKFSD_SUB_PATHS; p++)
			free(c->sub_paths[s][p]);
	explicit_bzero(c, sizeof(*c));
	free(c);
}

static void protocol_error(struct conn *c, const char *what)
{
	log_warn("closing connection of pid %d: %s", (int)c->pid, what);
	c->dead = true;
}

/* append a reply; room was checked by the caller (reply_room) */
static void reply_value(struct conn *c, uint8_t type, uint32_t value)
{
	struct proto_writer w;

	proto_begin_v(&w, c->out + c->out_len, OUT_CAP - c->out_len, c->version, type);
	proto_put_u32(&w, value);
	c->out_len += proto_end(&w);
}

/* ---- events ---- */

static void queue_event(struct conn *c, uint8_t reason, const uint8_t *id)
{
	struct proto_writer w;
	size_t n;

	if (c->dead)
		return;
	proto_begin_v(&w, c->out + c->out_len, OUT_CAP - c->out_len, c->version,
		      CLOAKFSD_EVENT);
	proto_put_u8(&w, reason);
	proto_put_bytes(&w, id, CLOAKFSD_KEY_ID_LEN);
	n = proto_end(&w);
	if (!n)
		protocol_error(c, "subscriber does not read its events");
	c->out_len += n;
}

static void notify(struct server *srv, const uint8_t *id, uint8_t reason)
{
	for (unsigned int i = 0; i < srv->nconns; i++) {
		struct conn *c = srv->conns[i];

		for (unsigned int s = 0; s < c->nsubs; s++) {
			if (!memcmp(c->subs[s], id, CLOAKFSD_KEY_ID_LEN)) {
				queue_event(c, reason, id);
				c->told[s] = srv->lock_gen;
			}
		}
	}
}

static void key_gone(const uint8_t *id, void *arg)
{
	struct gone_ctx *g = arg;
	char hex[2 * CLOAKFSD_KEY_ID_LEN + 1];

	id_hex(id, hex);
	log_info("key %s %s", hex, g->reason == CLOAKFSD_EV_EXPIRED ? "expired" :
		 g->reason == CLOAKFSD_EV_LOCKED ? "locked" : "wiped");
	notify(g->srv, id, g->reason);
}

static void expire_keys(struct server *srv)
{
	struct gone_ctx g = { srv, CLOAKFSD_EV_EXPIRED };

	keystore_expire(srv->ks, now_ms(), key_gone, &g);
}

static void arm_timer(struct server *srv)
{
	uint64_t next = keystore_next_expiry(srv->ks);
	struct itimerspec its = { 0 };

	if (next == srv->armed_ms)
		return;
	srv->armed_ms = next;
	if (next) {
		its.it_value.tv_sec = (time_t)(next / 1000);
		its.it_value.tv_nsec = (long)(next % 1000) * 1000000;
	}
	/* an absolute time already past fires at once */
	if (timerfd_settime(srv->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) != 0)
		log_error("timerfd_settime: %s", strerror(errno));
}

/* ---- requests ---- */

static uint32_t effective_ttl(const struct server *srv, uint32_t asked)
{
	uint32_t ttl = asked == CLOAKFSD_TTL_DEFAULT ? srv->cfg.default_ttl : asked;

	if (ttl == CLOAKFSD_TTL_NONE)
		ttl = 0;
	if (srv->cfg.max_ttl && (ttl == 0 || ttl > srv->cfg.max_ttl))
		ttl = srv->cfg.max_ttl;
	return ttl; /* 0: never expires */
}

static uint32_t seconds_left(uint64_t expires, uint64_t now)
{
	uint64_t s;

	if (!expires)
		return CLOAKFSD_TTL_NONE;
	if (expires <= now)
		return 0;
	s = (expires - now + 999) / 1000;
	return s >= CLOAKFSD_TTL_NONE ? CLOAKFSD_TTL_NONE - 1 : (uint32_t)s;
}

static void handle_add(struct server *srv, struct conn *c, const struct proto_request *q)
{
	char hex[2 * CLOAKFSD_KEY_ID_LEN + 1], shown[256];
	uint32_t ttl = effective_ttl(srv, q->ttl);
	bool replaced;
	int err;

	err = keystore_add(srv->ks, q->id, q->path, q->path_len, q->alias,
			   q->alias_len, q->key, q->key_len,
			   ttl ? now_ms() + (uint64_t)ttl * 1000 : 0, &replaced);
	id_hex(q->id, hex);
	if (err) {
		log_warn("cannot add key %s for pid %d: %s", hex, (int)c->pid, strerror(-err));
		reply_value(c, CLOAKFSD_ERROR, (uint32_t)-err);
		return;
	}
	printable_path(q->path, q->path_len, shown, sizeof(shown));
	if (ttl)
		log_info("%s key %s (%s), ttl %u s, for pid %d", replaced ? "replaced" : "added",
			 hex, shown, ttl, (int)c->pid);
	else
		log_info("%s key %s (%s), no expiry, for pid %d", replaced ? "replaced" : "added",
			 hex, shown, (int)c->pid);
	reply_value(c, CLOAKFSD_OK, ttl ? ttl : CLOAKFSD_TTL_NONE);
	notify(srv, q->id, CLOAKFSD_EV_ADDED);
}

static void handle_get(struct server *srv, struct conn *c, const uint8_t *id)
{
	const struct keystore_entry *e = keystore_find(srv->ks, id);
	struct proto_writer w;

	if (!e) {
		reply_value(c, CLOAKFSD_ERROR, ENOENT);
		return;
	}
	proto_begin_v(&w, c->out + c->out_len, OUT_CAP - c->out_len, c->version,
		      CLOAKFSD_KEY);
	proto_put_u8(&w, e->key_len);
	proto_put_bytes(&w, keystore_key(srv->ks, e), e->key_len);
	proto_put_u32(&w, seconds_left(e->expires_ms, now_ms()));
	c->out_len += proto_end(&w);
}

/* connections registered (REGISTER) as holding the key id themselves */
static unsigned int count_holders(const struct server *srv, const uint8_t *id)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < srv->nconns; i++) {
		const struct conn *c = srv->conns[i];

		for (unsigned int s = 0; s < c->nsubs; s++)
			n += c->holds[s] && !c->dead &&
			     !memcmp(c->subs[s], id, CLOAKFSD_KEY_ID_LEN);
	}
	return n;
}

/*
 * Wipe the key if held and tell every subscriber, the mounts that hold it
 * themselves included; reply with how many of those there are. ENOENT
 * only when there is neither a key nor such a mount.
 */
static void handle_remove(struct server *srv, struct conn *c, const uint8_t *id)
{
	char hex[2 * CLOAKFSD_KEY_ID_LEN + 1];
	bool held = keystore_remove(srv->ks, id) == 0;
	unsigned int holders = count_holders(srv, id);

	if (!held && !holders) {
		reply_value(c, CLOAKFSD_ERROR, ENOENT);
		return;
	}
	id_hex(id, hex);
	log_info("%s key %s (%u mount(s) holding it told), for pid %d",
		 held ? "removed" : "locked", hex, holders, (int)c->pid);
	reply_value(c, CLOAKFSD_OK, holders);
	notify(srv, id, CLOAKFSD_EV_REMOVED);
}

/* LOCK_ALL: mounts holding a key the daemon does not hold get "locked" too */
static void lock_holders_of_absent_keys(struct server *srv)
{
	for (unsigned int i = 0; i < srv->nconns; i++) {
		struct conn *c = srv->conns[i];

		for (unsigned int s = 0; s < c->nsubs; s++)
			if (c->holds[s] && !keystore_find(srv->ks, c->subs[s]))
				queue_event(c, CLOAKFSD_EV_LOCKED, c->subs[s]);
	}
}

static void handle_lock_all(struct server *srv, struct conn *c)
{
	struct gone_ctx g = { srv, CLOAKFSD_EV_LOCKED };
	unsigned int n;

	lock_holders_of_absent_keys(srv);
	n = keystore_clear(srv->ks, key_gone, &g);
	log_info("locked all: %u key(s) wiped, for pid %d", n, (int)c->pid);
	reply_value(c, CLOAKFSD_OK, n);
}

/* the subscription's paths become the request's (version 2); false: no memory */
static bool set_sub_paths(struct conn *c, unsigned int s, const struct proto_request *q)
{
	const char *given[CLOAKFSD_SUB_PATHS] = { q->path, q->alias };
	size_t len[CLOAKFSD_SUB_PATHS] = { q->path_len, q->alias_len };
	char *copy[CLOAKFSD_SUB_PATHS] = { NULL };

	if (q->version < 2)
		return true;
	for (unsigned int p = 0; p < CLOAKFSD_SUB_PATHS; p++) {
		if (!len[p])
			continue;
		copy[p] = strndup(given[p], len[p]);
		if (!copy[p]) {
			for (unsigned int k = 0; k < p; k++)
				free(copy[k]);
			return false;
		}
	}
	for (unsigned int p = 0; p < CLOAKFSD_SUB_PATHS; p++) {
		free(c->sub_paths[s][p]);
		c->sub_paths[s][p] = copy[p];
	}
	return true;
}

/* SUBSCRIBE, or REGISTER (holder): reply whether the key is held now */
static void handle_subscribe(struct server *srv, struct conn *c,
			     const struct proto_request *q, bool holder)
{
	uint32_t held = keystore_find(srv->ks, q->id) != NULL;
	unsigned int s;

	for (s = 0; s < c->nsubs; s++)
		if (!memcmp(c->subs[s], q->id, CLOAKFSD_KEY_ID_LEN))
			break;
	if (s == SERVER_MAX_SUBS) {
		reply_value(c, CLOAKFSD_ERROR, ENOSPC);
		return;
	}
	if (!set_sub_paths(c, s, q)) {
		reply_value(c, CLOAKFSD_ERROR, ENOMEM);
		return;
	}
	if (s == c->nsubs) {
		c->holds[s] = false;
		c->told[s] = 0;
		memcpy(c->subs[c->nsubs++], q->id, CLOAKFSD_KEY_ID_LEN);
	}
	c->holds[s] |= holder;
	reply_value(c, CLOAKFSD_OK, held);
}

static bool sub_names_path(const struct conn *c, unsigned int s, const char *path,
			   size_t len)
{
	for (unsigned int p = 0; p < CLOAKFSD_SUB_PATHS; p++) {
		const char *have = c->sub_paths[s][p];

		if (have && strlen(have) == len && !memcmp(have, path, len))
			return true;
	}
	return false;
}

/* what LOCK_PATH found so far, for its LOCKED reply */
struct locked {
	unsigned int keys, holders;
	uint8_t ids[CLOAKFSD_LOCKED_IDS][CLOAKFSD_KEY_ID_LEN];
};

/* what REMOVE does to one id, for LOCK_PATH */
static void lock_id(struct server *srv, struct conn *c, const uint8_t *id,
		    const char *shown, struct locked *l)
{
	char hex[2 * CLOAKFSD_KEY_ID_LEN + 1];
	bool held = keystore_remove(srv->ks, id) == 0;
	unsigned int holders = count_holders(srv, id);

	id_hex(id, hex);
	log_info("%s key %s by path %s (%u mount(s) holding it told), for pid %d",
		 held ? "removed" : "locked", hex, shown, holders, (int)c->pid);
	if (l->keys < CLOAKFSD_LOCKED_IDS)
		memcpy(l->ids[l->keys], id, CLOAKFSD_KEY_ID_LEN);
	l->keys++;
	l->holders += holders;
	notify(srv, id, CLOAKFSD_EV_REMOVED);
}

/*
 * LOCK_PATH: every key registered under the path (ADD's path or alias)
 * and every key id a subscriber registered under it is locked as REMOVE
 * locks it. Paths are compared as bytes: the daemon never looks at the
 * filesystem, so a hung or swapped directory cannot stop a lock. Replies
 * LOCKED (how many ids, how many holders told, the first ids), or ENOENT
 * for none.
 */
static void handle_lock_path(struct server *srv, struct conn *c,
			     const struct proto_request *q)
{
	struct locked l = { 0 };
	struct proto_writer w;
	char shown[256];
	unsigned int n;

	printable_path(q->path, q->path_len, shown, sizeof(shown));
	srv->lock_gen++;
	for (unsigned int i = 0; i < KEYSTORE_MAX_KEYS; i++) {
		const struct keystore_entry *e = keystore_slot(srv->ks, i);
		uint8_t id[CLOAKFSD_KEY_ID_LEN];

		if (e && keystore_names_path(e, q->path, q->path_len)) {
			memcpy(id, e->id, sizeof(id));
			lock_id(srv, c, id, shown, &l);
		}
	}
	/* mounts whose key is not (or no longer) held, told once per id */
	for (unsigned int i = 0; i < srv->nconns; i++) {
		struct conn *m = srv->conns[i];

		for (unsigned int s = 0; s < m->nsubs; s++)
			if (m->told[s] != srv->lock_gen &&
			    sub_names_path(m, s, q->path, q->path_len))
				lock_id(srv, c, m->subs[s], shown, &l);
	}
	if (!l.keys) {
		log_info("lock by path %s: nothing registered under it, for pid %d",
			 shown, (int)c->pid);
		reply_value(c, CLOAKFSD_ERROR, ENOENT);
		return;
	}
	/* at most 256 + 256 * 16 ids, each with at most 256 holders */
	n = l.keys < CLOAKFSD_LOCKED_IDS ? l.keys : CLOAKFSD_LOCKED_IDS;
	proto_begin_v(&w, c->out + c->out_len, OUT_CAP - c->out_len, c->version,
		      CLOAKFSD_LOCKED);
	proto_put_u16(&w, (uint16_t)(l.keys > UINT16_MAX ? UINT16_MAX : l.keys));
	proto_put_u16(&w, (uint16_t)(l.holders > UINT16_MAX ? UINT16_MAX : l.holders));
	proto_put_u8(&w, (uint8_t)n);
	proto_put_bytes(&w, l.ids, n * CLOAKFSD_KEY_ID_LEN);
	c->out_len += proto_end(&w);
}

/* one LIST_ENTRY (or the closing OK) per call, so output stays bounded */
static void list_step(struct server *srv, struct conn *c)
{
	const struct keystore_entry *e = NULL;
	struct proto_writer w;
	size_t path_len;

	while (c->list_cursor < KEYSTORE_MAX_KEYS &&
	       !(e = keystore_slot(srv->ks, (unsigned int)c->list_cursor)))
		c->list_cursor++;
	if (!e) {
		reply_value(c, CLOAKFSD_OK, c->list_count);
		c->list_cursor = -1;
		return;
	}
	path_len = strlen(e->path);
	proto_begin_v(&w, c->out + c->out_len, OUT_CAP - c->out_len, c->version,
		      CLOAKFSD_LIST_ENTRY);
	proto_put_bytes(&w, e->id, CLOAKFSD_KEY_ID_LEN);
	proto_put_u32(&w, seconds_left(e->expires_ms, now_ms()));
	proto_put_u16(&w, (uint16_t)path_len);
	proto_put_bytes(&w, e->path, path_len);
	c->out_len += proto_end(&w);
	c->list_count++;
	c->list_cursor++;
}

static void dispatch(struct server *srv, struct conn *c, const struct proto_frame *f)
{
	struct proto_request q;
	const char *why;
	char why_buf[48];

	if (proto_decode_request(f, &q, &why, why_buf, sizeof(why_buf)) != 0) {
		protocol_error(c, why);
		return;
	}
	/* a key whose time is up is gone before anyone can ask for it */
	expire_keys(srv);
	switch (q.type) {
	case CLOAKFSD_ADD:
		handle_add(srv, c, &q);
		return;
	case CLOAKFSD_LOCK_ALL:
		handle_lock_all(srv, c);
		return;
	case CLOAKFSD_LIST:
		c->list_cursor = 0;
		c->list_count = 0;
		return;
	case CLOAKFSD_GET:
		handle_get(srv, c, q.id);
		return;
	case CLOAKFSD_REMOVE:
		handle_remove(srv, c, q.id);
		return;
	case CLOAKFSD_SUBSCRIBE:
		handle_subscribe(srv, c, &q, false);
		return;
	case CLOAKFSD_REGISTER:
		handle_subscribe(srv, c, &q, true);
		return;
	case CLOAKFSD_LOCK_PATH:
		handle_lock_path(srv, c, &q);
		return;
	}
}

/* handle whatever input and pending LIST output the buffers allow */
static void pump(struct server *srv, struct conn *c)
{
	struct proto_frame f;
	int r;

	while (!c->dead && reply_room(c)) {
		if (c->list_cursor >= 0) {
			list_step(srv, c);
			continue;
		}
		r = proto_parse(c->in, c->in_len, &f);
		if (r < 0) {
			protocol_error(c, r == -EMSGSIZE ? "oversize frame" :
				       "bad frame length or protocol version");
			return;
		}
		if (r == 0) {
			if (c->eof && c->in_len) {
				protocol_error(c, "truncated frame");
				return;
			}
			break;
		}
		/* a client speaks one version; replies and events follow it */
		if (!c->version)
			c->version = f.version;
		if (f.version != c->version) {
			protocol_error(c, "protocol version changed on the connection");
			return;
		}
		dispatch(srv, c, &f);
		consume_input(c, f.wire_len);
		c->active_ms = now_ms();
		c->partial_since = 0;
	}
	if (c->eof && !c->in_len && c->list_cursor < 0 && !c->out_len)
		c->dead = true; /* peer done and everything answered */
	/* the clock of an unfinished frame starts with its first byte */
	if (!c->in_len || proto_parse(c->in, c->in_len, &f) != 0)
		c->partial_since = 0;
	else if (!c->partial_since)
		c->partial_since = now_ms();
}

/* ---- connections ---- */

static void sweep_dead(struct server *srv);

/* best-effort ERROR frame, for a peer we will not serve (further) */
static void send_error(int fd, uint8_t version, uint32_t code)
{
	uint8_t buf[16];
	struct proto_writer w;
	size_t n;

	proto_begin_v(&w, buf, sizeof(buf), version, CLOAKFSD_ERROR);
	proto_put_u32(&w, code);
	n = proto_end(&w);
	(void)!send(fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void refuse(int fd, uint32_t code)
{
	send_error(fd, CLOAKFSD_PROTO_VERSION, code);
	close(fd);
}

/*
 * At the connection limit: close the connection that has waited longest
 * without work in hand (no subscription, nothing to send, no whole
 * request waiting), so that idle or half-sent connections never keep a
 * new request out. Subscribers (mounts) are kept. Whether one was closed.
 */
static bool evict_idle(struct server *srv)
{
	struct conn *oldest = NULL;
	struct proto_frame f;

	for (unsigned int i = 0; i < srv->nconns; i++) {
		struct conn *c = srv->conns[i];

		if (c->nsubs || c->out_len || c->list_cursor >= 0 ||
		    (c->in_len && proto_parse(c->in, c->in_len, &f) != 0))
			continue;
		if (!oldest || c->active_ms < oldest->active_ms)
			oldest = c;
	}
	if (!oldest)
		return false;
	log_warn("closing connection of pid %d: idle for %llu ms at the "
		 "connection limit (%d)", (int)oldest->pid,
		 (unsigned long long)(now_ms() - oldest->active_ms), SERVER_MAX_CONNS);
	/* an answer for its next (or half-sent) request: "busy", not a mystery */
	send_error(oldest->fd, oldest->version ? oldest->version : CLOAKFSD_PROTO_VERSION,
		   EBUSY);
	oldest->dead = true;
	sweep_dead(srv);
	return true;
}

static void accept_clients(struct server *srv)
{
	for (;;) {
		struct ucred cred;
		struct conn *c;
		int fd = accept4(srv->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
				log_warn("accept: %s", strerror(errno));
			return;
		}
		if (peer_credentials(fd, &cred) != 0) {
			log_warn("cannot read peer credentials; connection closed");
			close(fd);
			continue;
		}
		if (!peer_allowed(&cred, srv->self, srv->cfg.allow_root)) {
			log_warn("refused connection from pid %d uid %u (only uid %u%s)",
				 (int)cred.pid, (unsigned)cred.uid, (unsigned)srv->self,
				 srv->self ? "; set allow_root to admit root" : "");
			refuse(fd, EACCES);
			continue;
		}
		if (srv->nconns == SERVER_MAX_CONNS && !evict_idle(srv)) {
			log_warn("too many busy connections (%d); refused pid %d",
				 SERVER_MAX_CONNS, (int)cred.pid);
			refuse(fd, EBUSY);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			log_error("out of memory for a connection");
			refuse(fd, ENOMEM);
			continue;
		}
		c->fd = fd;
		c->pid = cred.pid;
		c->uid = cred.uid;
		c->list_cursor = -1;
		c->active_ms = now_ms();
		srv->conns[srv->nconns++] = c;
		log_debug("connection from pid %d", (int)cred.pid);
	}
}

static void conn_read(struct server *srv, struct conn *c)
{
	ssize_t n;

	if (c->in_len == IN_CAP)
		return; /* a whole frame is waiting for output room */
	n = recv(c->fd, c->in + c->in_len, IN_CAP - c->in_len, 0);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR) {
			log_debug("recv from pid %d: %s", (int)c->pid, strerror(errno));
			c->dead = true;
		}
		return;
	}
	if (n == 0)
		c->eof = true;
	c->in_len += (size_t)n;
	pump(srv, c);
}

static void conn_write(struct server *srv, struct conn *c)
{
	ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);

	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR) {
			log_debug("send to pid %d: %s", (int)c->pid, strerror(errno));
			c->dead = true;
		}
		return;
	}
	consume_output(c, (size_t)n);
	pump(srv, c);
}

/*
 * Close every connection whose unfinished frame is older than
 * SERVER_FRAME_DEADLINE_MS; return the ms until the next such deadline
 * (-1: none), for poll().
 */
static int expire_partial(struct server *srv)
{
	uint64_t now = now_ms();
	int wait = -1;

	for (unsigned int i = 0; i < srv->nconns; i++) {
		struct conn *c = srv->conns[i];
		uint64_t due = c->partial_since + SERVER_FRAME_DEADLINE_MS;

		if (!c->partial_since || c->dead)
			continue;
		if (due <= now) {
			char why[64];

			snprintf(why, sizeof(why), "frame not completed within %d ms",
				 SERVER_FRAME_DEADLINE_MS);
			protocol_error(c, why);
			continue;
		}
		if (wait < 0 || due - now < (uint64_t)wait)
			wait = (int)(due - now);
	}
	return wait;
}

static void sweep_dead(struct server *srv)
{
	unsigned int j = 0;

	for (unsigned int i = 0; i < srv->nconns; i++) {
		if (srv->conns[i]->dead) {
			log_debug("connection of pid %d closed", (int)srv->conns[i]->pid);
			conn_free(srv->conns[i]);
		} else {
			srv->conns[j++] = srv->conns[i];
		}
	}
	srv->nconns = j;
}

/* ---- the loop ---- */

int server_create(struct server **out, int listen_fd, struct keystore *ks,
		  const struct daemon_config *cfg)
{
	struct server *srv = calloc(1, sizeof(*srv));
	sigset_t mask;
	int err;

	if (!srv)
		return -ENOMEM;
	srv->listen_fd = listen_fd;
	srv->ks = ks;
	srv->cfg = *cfg;
	srv->self = getuid();
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) != 0)
		goto err;
	srv->signal_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (srv->signal_fd < 0)
		goto err;
	srv->timer_fd = timerfd_create(CLOCK_BOOTTIME, TFD_NONBLOCK | TFD_CLOEXEC);
	if (srv->timer_fd < 0)
		goto err_signal;
	*out = srv;
	return 0;

err_signal:
	err = -errno;
	close(srv->signal_fd);
	free(srv);
	return err;
err:
	err = -errno;
	free(srv);
	return err;
}

static int take_signal(struct server *srv)
{
	struct signalfd_siginfo si;

	if (read(srv->signal_fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return 0;
	return (int)si.ssi_signo;
}

int server_run(struct server *srv)
{
	for (;;) {
		uint64_t expirations;
		unsigned int n;
		int sig, wait;

		wait = expire_partial(srv);
		sweep_dead(srv);
		n = srv->nconns;
		arm_timer(srv);
		srv->pfds[PFD_LISTEN] = (struct pollfd){ srv->listen_fd, POLLIN, 0 };
		srv->pfds[PFD_SIGNAL] = (struct pollfd){ srv->signal_fd, POLLIN, 0 };
		srv->pfds[PFD_TIMER] = (struct pollfd){ srv->timer_fd, POLLIN, 0 };
		for (unsigned int i = 0; i < n; i++) {
			struct conn *c = srv->conns[i];
			short ev = 0;

			if (!c->eof && reply_room(c) && c->list_cursor < 0)
				ev |= POLLIN;
			if (c->out_len)
				ev |= POLLOUT;
			srv->pfds[PFD_CONNS + i] = (struct pollfd){ c->fd, ev, 0 };
		}
		if (poll(srv->pfds, PFD_CONNS + n, wait) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (srv->pfds[PFD_SIGNAL].revents && (sig = take_signal(srv)))
			return sig;
		if (srv->pfds[PFD_TIMER].revents) {
			(void)!read(srv->timer_fd, &expirations, sizeof(expirations));
			srv->armed_ms = 0; /* fired: one-shot, so re-arm whatever is next */
			expire_keys(srv);
		}
		for (unsigned int i = 0; i < n; i++) {
			struct conn *c = srv->conns[i];
			short rev = srv->pfds[PFD_CONNS + i].revents;

			if (c->dead || !rev)
				continue;
			if (rev & POLLOUT)
				conn_write(srv, c);
			if (!c->dead && (rev & (POLLIN | POLLHUP | POLLERR)))
				conn_read(srv, c);
			/* POLLHUP with nothing left to read: the read saw EOF */
		}
		sweep_dead(srv);
		if (srv->pfds[PFD_LISTEN].revents)
			accept_clients(srv);
	}
}

void server_destroy(struct server *srv)
{
	if (!srv)
		return;
	for (unsigned int i = 0; i < srv->nconns; i++) {
		struct conn *c = srv->conns[i];

		for (unsigned int s = 0; s < c->nsubs; s++)
			queue_event(c, CLOAKFSD_EV_SHUTDOWN, c->subs[s]);
		if (c->out_len && !c->dead)
			(void)!send(c->fd, c->out, c->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
		conn_free(c);
	}
	srv->nconns = 0;
	close(srv->signal_fd);
	close(srv->timer_fd);
	explicit_bzero(srv, sizeof(*srv));
	free(srv);
}
