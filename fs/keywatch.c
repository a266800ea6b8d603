/* SPDX-License-Identifier: MIT */
/* see keywatch.h */
#include "fs/keywatch.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "crypto/secmem.h"
#include "daemon/client.h"
#include "fs/fs.h"
#include "fs/ops.h"
#include "fs/request.h"

_Static_assert(CLOAKFSD_KEY_ID_LEN == VOLCONF_KEY_ID_SIZE, "key id sizes");

#define WATCH_POLL_MS 500
#define WATCH_RECONNECT_MS 2000
#define WATCH_TIMEOUT_MS 5000

struct keywatch {
	struct cloakfs *fs;
	struct fuse_session *se;
	struct cloakfsd_client *holder; /* own_key: the registered connection */
	int own_key; /* the keys came from a passphrase, not from the daemon */
	pthread_t thread;
	atomic_int stop;
};

/*
 * subscribe (or register, holder) naming the cipherdir both ways, so that
 * cloakfs-keytool lock DIR reaches this mount without reading DIR
 */
static int follow(struct cloakfs *fs, struct cloakfsd_client *cl, bool holder,
		  bool *held)
{
	const char *view = fs->cipherdir_view;

	return cloakfsd_subscribe_at(cl, fs->vol.cfg.key_id, fs->cipherdir,
				     view && strcmp(view, fs->cipherdir) ? view : NULL,
				     holder, held);
}

/* get the key over an open connection and unlock the volume with it */
static int fetch_on(struct cloakfs *fs, struct cloakfsd_client *cl)
{
	uint8_t *vmk = secmem_alloc(CLOAKFSD_KEY_MAX);
	struct volume_key key = { .source = VOLUME_KEY_MASTER };
	size_t len = 0;
	int err;

	if (!vmk)
		return -ENOMEM;
	err = cloakfsd_get(cl, fs->vol.cfg.key_id, vmk, CLOAKFSD_KEY_MAX, &len,
			   NULL);
	if (!err && len != KEYS_VMK_SIZE)
		err = -EBADMSG;
	key.vmk = vmk;
	if (!err)
		err = volume_unlock(&fs->vol, &key, NULL, 0);
	secmem_free(vmk);
	return err;
}

int keywatch_fetch(struct cloakfs *fs)
{
	struct cloakfsd_client *cl;
	int err = cloakfsd_connect(NULL, 0, WATCH_TIMEOUT_MS, &cl);

	if (err)
		return err;
	err = fetch_on(fs, cl);
	cloakfsd_close(cl);
	return err;
}

static void drop_pages(struct fs_inode *in, void *arg)
{
	struct keywatch *w = arg;

	if (in->type == S_IFREG)
		(void)fuse_lowlevel_notify_inval_inode(
			w->se, request_nodeid(w->fs, in), 0, 0);
}

static void lock_volume(struct keywatch *w, const char *why)
{
	if (!keyring_unlocked(w->fs->vol.keyring))
		return;
	keyring_lock(w->fs->vol.keyring);
	/* plaintext pages in the kernel's cache would outlive the key;
	 * outside every lock, as the kernel may wait on reads in flight */
	(void)inode_table_foreach(&w->fs->inodes, drop_pages, w);
	log_info("%s: locked (%s): keys wiped", w->fs->cipherdir, why);
}

static void unlock_volume(struct keywatch *w, struct cloakfsd_client *cl)
{
	int err = fetch_on(w->fs, cl);

	if (err)
		log_warn("%s: cloakfsd holds the key again, but it could not be "
			 "used: %s", w->fs->cipherdir, strerror(-err));
	else
		log_info("%s: unlocked again by cloakfsd", w->fs->cipherdir);
}

static void nap(struct keywatch *w, int ms)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	for (int i = 0; i < ms / 100 && !atomic_load(&w->stop); i++)
		nanosleep(&ts, NULL);
}

/* connect and subscribe; bring the keys in line with the daemon's */
static struct cloakfsd_client *resubscribe(struct keywatch *w)
{
	struct cloakfsd_client *cl;
	bool held = false;
	int err = cloakfsd_connect(NULL, 0, WATCH_TIMEOUT_MS, &cl);

	if (err)
		return NULL;
	err = follow(w->fs, cl, false, &held);
	if (err) {
		cloakfsd_close(cl);
		return NULL;
	}
	if (held)
		unlock_volume(w, cl);
	else
		lock_volume(w, "the key daemon does not hold the key");
	return cl;
}

int keywatch_register(struct cloakfs *fs, struct cloakfsd_client **out)
{
	struct cloakfsd_client *cl;
	int err = cloakfsd_connect(NULL, 0, WATCH_TIMEOUT_MS, &cl);

	if (err)
		return err;
	err = follow(fs, cl, true, NULL);
	if (err) {
		cloakfsd_close(cl);
		return err;
	}
	*out = cl;
	return 0;
}

/* a passphrase mount's connection, registered; NULL when no daemon runs */
static struct cloakfsd_client *reregister(struct keywatch *w)
{
	struct cloakfsd_client *cl;

	return keywatch_register(w->fs, &cl) == 0 ? cl : NULL;
}

/*
 * Two ways to follow the daemon. With the daemon's key: any loss of the
 * key or of the daemon locks. With its own key (own_key), the mount stays
 * registered while a daemon runs and locks on REMOVE ("removed") or
 * LOCK_ALL ("locked") only: the daemon's own copy coming, expiring or
 * going with the daemon changes nothing. Once locked that way it is a
 * holder no more and follows the daemon like the first kind.
 */
static void *watch(void *arg)
{
	struct keywatch *w = arg;
	struct cloakfsd_client *cl = w->holder;
	bool held = false;
	int err;

	w->holder = NULL;
	/* the key was just fetched: subscribe without fetching again */
	if (!w->own_key && cloakfsd_connect(NULL, 0, WATCH_TIMEOUT_MS, &cl) == 0 &&
	    (follow(w->fs, cl, false, &held) != 0 || !held)) {
		if (!held)
			lock_volume(w, "the key left the key daemon");
		cloakfsd_close(cl);
		cl = NULL;
	}
	while (!atomic_load(&w->stop)) {
		struct cloakfsd_event ev;

		if (!cl) {
			cl = w->own_key ? reregister(w) : resubscribe(w);
			if (!cl) {
				if (!w->own_key)
					lock_volume(w, "the key daemon is gone");
				nap(w, WATCH_RECONNECT_MS);
			}
			continue;
		}
		err = cloakfsd_wait_event(cl, WATCH_POLL_MS, &ev);
		if (err == -ETIMEDOUT)
			continue;
		if (err) {
			cloakfsd_close(cl);
			cl = NULL;
			if (!w->own_key)
				lock_volume(w, "lost the key daemon");
			continue;
		}
		if (memcmp(ev.id, w->fs->vol.cfg.key_id, CLOAKFSD_KEY_ID_LEN) != 0)
			continue;
		if (w->own_key) {
			if (ev.reason != CLOAKFSD_EV_REMOVED &&
			    ev.reason != CLOAKFSD_EV_LOCKED)
				continue; /* the daemon's copy, not ours */
			lock_volume(w, cloakfsd_event_name(ev.reason));
			/* a holder no more: a later lock must not count us */
			w->own_key = 0;
			cloakfsd_close(cl);
			cl = NULL;
		} else if (ev.reason == CLOAKFSD_EV_ADDED) {
			unlock_volume(w, cl);
		} else {
			lock_volume(w, cloakfsd_event_name(ev.reason));
		}
	}
	cloakfsd_close(cl);
	return NULL;
}

int keywatch_start(struct cloakfs *fs, struct fuse_session *se, int own_key,
		   struct cloakfsd_client *holder, struct keywatch **out)
{
	struct keywatch *w = calloc(1, sizeof(*w));
	int err;

	if (!w) {
		cloakfsd_close(holder);
		return -ENOMEM;
	}
	w->fs = fs;
	w->se = se;
	w->own_key = own_key;
	w->holder = holder;
	err = pthread_create(&w->thread, NULL, watch, w);
	if (err) {
		cloakfsd_close(holder);
		free(w);
		return -err;
	}
	*out = w;
	return 0;
}

void keywatch_stop(struct keywatch *w)
{
	if (!w)
		return;
	atomic_store(&w->stop, 1);
	pthread_join(w->thread, NULL);
	free(w);
}
