/* SPDX-License-Identifier: MIT */
/*
 * The state of one cloakfs mount, shared by every FUSE worker thread.
 *
 * Lock order (outermost first); never take an earlier lock while holding
 * a later one:
 *   0. descriptor holds (inode_fd_hold, inode-fd.h): taken before any inode
 *      lock, since reopening an evicted descriptor may lend an open
 *      file's content descriptor under that file's lock
 *   1. a regular file's io lock (fs_inode.io: shared by READs, exclusive
 *      for changes of its content; filestate.h), never two at once
 *   2. an inode's lock (fs_inode.lock); two at once only for rename and
 *      link, in address order
 *   3. a key section of fs->vol.keyring (volume/keys/keyring.h): CPU work only,
 *      never nested, never around I/O on the backing store, so a lock or
 *      expiry of the volume waits for no disk
 *   4. fs->inodes.lock (the table, and its export table of nodeids,
 *      export.h; held only for short table updates, never over I/O)
 */
#ifndef CLOAKFS_FS_FS_H
#define CLOAKFS_FS_FS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "fs/inode.h"
#include "fs/inode-fd.h"
#include "volume/cipher.h"
#include "volume/keys/volconf.h"
#include "volume/content/content.h"
#include "volume/keys/keyring.h"
#include "volume/volume.h"

struct fuse_session;
struct readlease;

struct dir_handle;

struct cloakfs {
	/* the volume (volume/volume.h): config, keys, root, lock; the mount
	 * opens, unlocks and closes it */
	struct volume vol;
	const char *cipherdir;     /* as given (messages) */
	const char *cipherdir_view; /* as given, lexically absolute; or NULL */
	const char *mountpoint;    /* absolute */

	/* the kernel's read-ahead window in KiB, still to set: taken (and
	 * zeroed) by the first open, since the FUSE INIT reply would undo a
	 * setting made before it (readahead.h); 0 when nothing is left to do */
	atomic_uint readahead_kb;

	struct inode_table inodes;
	struct fuse_session *se;   /* for notifications (-o shared's opens) */
	struct fs_inode *root;
	struct readlease *leases;  /* -o shared's read leases' timer
				    * (readlease.h); NULL without */

	double timeout;            /* entry and attribute cache, seconds */
	int show_undecodable;      /* --show-undecodable (fs/entry.h) */
	int chown_new;             /* running as root: new entries get the
				    * caller's uid/gid */
	int want_acl;              /* -o acl, or allow_other without
				    * -o noacl */
	int posix_acl;             /* the kernel enforces POSIX ACLs we
				    * store (fs/acl.h); set at FUSE init
				    * when wanted and the kernel can */
	int test_skip_fsync;       /* test-only: $CLOAKFS_TEST_SKIP_FSYNC=1
				    * makes fsync, fdatasync and O_SYNC
				    * writes skip their sync, to show that
				    * the durability test sees it */

	/* directory handles not yet released: closed at exit, since the
	 * kernel drops a RELEASEDIR still queued when the mount goes */
	struct dir_handle *open_dirs;
	pthread_mutex_t open_dirs_lock;

	/* for --idle: last request time and open handles */
	atomic_llong last_use;     /* CLOCK_MONOTONIC seconds */
	atomic_int open_handles;
};

/* mark activity for --idle (cheap; called by every request) */
static inline void fs_touch(struct cloakfs *fs)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	atomic_store_explicit(&fs->last_use, (long long)ts.tv_sec,
			      memory_order_relaxed);
}

#endif
