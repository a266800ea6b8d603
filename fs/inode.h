/* SPDX-License-Identifier: MIT */
/*
 * The inode table, in the manner of libfuse's passthrough_hp: every inode
 * the kernel knows is one O_PATH|O_NOFOLLOW descriptor into the ciphertext
 * directory, found by its (st_dev, st_ino), so hard links share one
 * struct and one nodeid. The nodeid given to the kernel is the struct's
 * address (FUSE_ROOT_ID stands for the root).
 *
 * An inode lives while the kernel holds lookups on it (nlookup, dropped by
 * forget) or the filesystem pins it (a symlink pins the directory whose
 * name key encrypts its target; bulk walks pin what they visit).
 */
#ifndef CLOAKFS_FS_INODE_H
#define CLOAKFS_FS_INODE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "crypto/crypto.h"

struct file_state;

/* Lock order: see fs.h (keyring, then inode locks, then the table lock). */
struct fs_inode {
	/* fixed after creation, except that renaming a symlink to another
	 * directory re-creates it (inode_table_move: table lock + lock) */
	int fd;         /* O_PATH | O_NOFOLLOW */
	dev_t dev;
	ino_t ino;
	mode_t type;    /* S_IFMT bits */

	/* guarded by the table lock */
	uint64_t nlookup;
	uint64_t pins;
	struct fs_inode *hnext;

	/* content I/O of a regular file: READs hold it shared (and lock
	 * only while they check the file state), so they decrypt side by
	 * side; whatever changes file or its content holds it exclusively,
	 * taken before lock (filestate.h) */
	pthread_rwlock_t io;

	/* guarded by lock */
	pthread_mutex_t lock;
	struct fs_inode *parent;  /* symlinks: pinned, see above */
	struct crypto_tfm *names; /* directories: keyed name transform */
	int names_warned;         /* undecodable entries (or, for a file,
				   * damaged sectors) logged once */
	struct file_state *file;  /* regular files with users (filestate.h) */
};

struct inode_table {
	pthread_mutex_t lock;
	struct fs_inode **buckets;
	size_t nbuckets;
	size_t count;
};

int inode_table_init(struct inode_table *t);
/* free every inode (at unmount) */
void inode_table_destroy(struct inode_table *t);

/*
 * The inode of fd (an O_PATH descriptor whose fstat is *st): an existing
 * one gets one more lookup and fd is closed, else a new one takes fd with
 * nlookup 1. 0 or -ENOMEM (fd is closed then too).
 */
int inode_table_get(struct inode_table *t, int fd, const struct stat *st,
		    struct fs_inode **out);

/* drop n kernel lookups (forget); frees at zero lookups and pins */
void inode_table_forget(struct inode_table *t, struct fs_inode *in, uint64_t n);

void inode_pin(struct inode_table *t, struct fs_inode *in);
void inode_unpin(struct inode_table *t, struct fs_inode *in);

/* set a symlink's parent (pinning it, unpinning the old); caller holds
 * in->lock */
void inode_set_parent(struct inode_table *t, struct fs_inode *in,
		      struct fs_inode *parent);

/*
 * A symlink was re-created as fd (fstat *st) by a rename to another
 * directory: give the inode the new descriptor and key. The old fd is
 * closed. Caller holds in->lock.
 */
void inode_table_move(struct inode_table *t, struct fs_inode *in, int fd,
		      const struct stat *st);

/* the inode with this (dev, ino), pinned, or NULL */
struct fs_inode *inode_table_find(struct inode_table *t, dev_t dev, ino_t ino);

/*
 * Call fn on every inode, each pinned during its call and the table
 * unlocked (fn may take the inode's lock). 0 or -ENOMEM.
 */
int inode_table_foreach(struct inode_table *t,
			void (*fn)(struct fs_inode *in, void *arg), void *arg);

#endif
