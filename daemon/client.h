/* SPDX-License-Identifier: MIT */
/*
 * Client library for cloakfsd (used by cloakfs-keytool and the mount).
 *
 * Every function returns 0 (or a count) on success and a negative errno on
 * failure: -ENOENT no such key, -EACCES the daemon refused us (wrong uid),
 * -EPERM the daemon runs as another user, -ETIMEDOUT no answer in time,
 * -ECONNRESET the daemon closed the connection, -EPROTONOSUPPORT it closed
 * the connection before any answer (what a daemon of an older protocol
 * version does at a newer frame), -EPROTO a malformed reply,
 * -ENOTCONN the connection is unusable after an earlier timeout or
 * protocol error (close it and connect again).
 *
 * A client is one connection and is not thread-safe. Key bytes pass only
 * through the caller's buffers and the client's own buffers, which are
 * wiped as soon as a frame is handled; the caller wipes its copies
 * (explicit_bzero) when done.
 */
#ifndef CLOAKFS_DAEMON_CLIENT_H
#define CLOAKFS_DAEMON_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon/protocol.h"

struct cloakfsd_client;

/* cloakfsd_connect flags */
#define CLOAKFSD_AUTOSTART 1u /* start cloakfsd when no daemon answers */

#define CLOAKFSD_TIMEOUT_DEFAULT_MS 5000

/*
 * The socket clients use: $CLOAKFSD_SOCKET, else the "socket" setting of
 * the daemon's settings file, else sockpath_default(). 0 or -errno.
 */
int cloakfsd_socket_path(char *buf, size_t len);

/*
 * Connect to the daemon at socket_path (NULL: cloakfsd_socket_path()).
 * With CLOAKFSD_AUTOSTART, a missing daemon is started: $CLOAKFSD_PROGRAM,
 * else cloakfsd next to the calling program (or in ../daemon/ of a build
 * tree), else the first cloakfsd in $PATH; it is run without --foreground
 * (it returns once its socket is ready), with --socket when socket_path is
 * given. timeout_ms bounds the whole call and becomes the client's request
 * timeout (<= 0: CLOAKFSD_TIMEOUT_DEFAULT_MS). The daemon's uid must be
 * ours or root, else -EPERM. Without a daemon: -ENOENT or -ECONNREFUSED
 * (also when an auto-started daemon failed; it printed why on stderr),
 * -ENOENT too when there is no cloakfsd program to start.
 */
int cloakfsd_connect(const char *socket_path, unsigned int flags, int timeout_ms,
		     struct cloakfsd_client **out);
/* close and wipe; NULL is a no-op */
void cloakfsd_close(struct cloakfsd_client *cl);

/* per-request timeout (<= 0: the default) */
void cloakfsd_set_timeout(struct cloakfsd_client *cl, int timeout_ms);
/* the daemon's pid (SO_PEERCRED) */
pid_t cloakfsd_server_pid(const struct cloakfsd_client *cl);

/*
 * Hand a key (1..CLOAKFSD_KEY_MAX bytes) to the daemon under its 16-byte
 * id, with the volume path for listings (at most CLOAKFSD_PATH_MAX bytes).
 * ttl: seconds, CLOAKFSD_TTL_DEFAULT (0) for the daemon's default, or
 * CLOAKFSD_TTL_NONE for no expiry; the daemon may shorten it to its
 * max_ttl. *granted (may be NULL) gets the ttl applied (CLOAKFSD_TTL_NONE:
 * never expires). A key with the same id is replaced.
 */
int cloakfsd_add(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		 const char *path, const uint8_t *key, size_t key_len, uint32_t ttl,
		 uint32_t *granted);
/*
 * The same, with alias (may be NULL) a second name of the volume's path
 * (as the user gave it, lexically absolute): cloakfsd_lock_path of path or
 * of alias then locks the key without anyone reading the volume.
 */
int cloakfsd_add_at(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		    const char *path, const char *alias, const uint8_t *key,
		    size_t key_len, uint32_t ttl, uint32_t *granted);

/*
 * Copy the key into key[0..key_cap) and its length into *key_len;
 * -ENOBUFS (nothing copied) when key_cap is too small. *seconds_left (may
 * be NULL): time until expiry, CLOAKFSD_TTL_NONE for never.
 */
int cloakfsd_get(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		 uint8_t *key, size_t key_cap, size_t *key_len, uint32_t *seconds_left);

/*
 * Wipe one key in the daemon and tell the mounts that hold it themselves
 * (cloakfsd_register) to lock: the number of such mounts (0 or more), or
 * -ENOENT when the daemon holds no such key and no mount registered it.
 */
int cloakfsd_remove(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN]);

struct cloakfsd_key_info {
	uint8_t id[CLOAKFSD_KEY_ID_LEN];
	uint32_t seconds_left; /* CLOAKFSD_TTL_NONE: never expires */
	const char *path;      /* valid during the callback only */
};

/*
 * Call fn for every key the daemon holds (no key bytes); a nonzero return
 * from fn stops the calls (the rest of the list is still read) and is
 * returned. Otherwise returns the number of keys.
 */
int cloakfsd_list(struct cloakfsd_client *cl,
		  int (*fn)(const struct cloakfsd_key_info *info, void *arg), void *arg);

/*
 * Wipe every key in the daemon; *count (may be NULL) gets how many. Every
 * mount registered as holding a key itself is told to lock as well.
 */
int cloakfsd_lock_all(struct cloakfsd_client *cl, uint32_t *count);

/*
 * Ask to be told (cloakfsd_wait_event) whenever the key with this id is
 * added, removed, expires, is locked, or the daemon exits. Lasts for the
 * connection's life; a connection holds up to 16 ids. *held (may be NULL)
 * says whether the daemon holds that key now.
 */
int cloakfsd_subscribe(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		       bool *held);

/*
 * For a mount that unlocked with a passphrase (the daemon does not hold
 * its key, and is not given it): subscribe to id as cloakfsd_subscribe
 * does, and be counted as a holder of that key, so that REMOVE of id
 * (cloakfs-keytool lock) and LOCK_ALL send this connection "removed" or
 * "locked" even when the daemon holds no such key. Shares the 16 ids.
 */
int cloakfsd_register(struct cloakfsd_client *cl, const uint8_t id[CLOAKFSD_KEY_ID_LEN],
		      bool *held);

/*
 * cloakfsd_subscribe (holder false) or cloakfsd_register (holder true),
 * naming the volume's directory by up to two paths (either may be NULL;
 * the mount's resolved one and its lexically absolute one as given), so
 * that cloakfsd_lock_path of either reaches this connection. A second
 * call for the same id replaces its paths.
 */
int cloakfsd_subscribe_at(struct cloakfsd_client *cl,
			  const uint8_t id[CLOAKFSD_KEY_ID_LEN], const char *path,
			  const char *alias, bool holder, bool *held);

/* what cloakfsd_lock_path locked */
struct cloakfsd_locked {
	unsigned int keys;    /* key ids locked, 1 or more */
	unsigned int holders; /* passphrase mounts (cloakfsd_register) told */
	unsigned int n;       /* ids below: min(keys, CLOAKFSD_LOCKED_IDS) */
	uint8_t ids[CLOAKFSD_LOCKED_IDS][CLOAKFSD_KEY_ID_LEN];
};

/*
 * Lock by path (an absolute path, compared byte for byte; the daemon
 * never looks at the filesystem): every key added under path (its path or
 * alias) is wiped, and every key id a connection subscribed or registered
 * under path is locked as cloakfsd_remove locks it. 0 and *out, or
 * -ENOENT when nothing names path.
 */
int cloakfsd_lock_path(struct cloakfsd_client *cl, const char *path,
		       struct cloakfsd_locked *out);

struct cloakfsd_event {
	uint8_t reason; /* enum cloakfsd_event_reason */
	uint8_t id[CLOAKFSD_KEY_ID_LEN];
};

/*
 * Wait up to timeout_ms (0: just check, < 0: forever) for the next event:
 * 0, -ETIMEDOUT, or -ECONNRESET when the daemon went away. Events that
 * arrive during other requests are queued (the oldest are dropped past
 * 64).
 */
int cloakfsd_wait_event(struct cloakfsd_client *cl, int timeout_ms,
			struct cloakfsd_event *ev);

/* "removed", "expired", "locked", "shutdown", "added" or "unknown" */
const char *cloakfsd_event_name(uint8_t reason);

#endif
