/* SPDX-License-Identifier: MIT */
/*
 * The inode table, in the manner of libfuse's passthrough_hp: every inode
 * the kernel knows is one struct, found by the (st_dev, st_ino) of its
 * ciphertext inode, so hard links share one struct and one nodeid. The
 * nodeid given to the kernel is an entry of the export table (export.h),
 * which outlives the struct, so a file handle of a forgotten inode finds
 * its file again (inode_table_revive); the root's is INODE_ROOT_NODEID.
 *
 * An inode lives while the kernel holds lookups on it (nlookup, dropped by
 * forget) or something pins it: each of its children's names, and walks
 * and reopens in progress. It remembers its names (parent inode and
 * ciphertext name, learnt from LOOKUP, link and rename), from which
 * inode-fd.h reopens an evicted descriptor.
 *
 * Its O_PATH|O_NOFOLLOW descriptor is a slot of the table's descriptor
 * cache (fdcache.h, docs/design.md "Descriptors"), guarded by the table
 * lock; requests hold it through inode-fd.h. Its identity (fileid.h)
 * tells it from a file that took its inode number later; an inode whose
 * identity cannot be checked keeps its descriptor.
 */
#ifndef CLOAKFS_FS_INODE_H
#define CLOAKFS_FS_INODE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fs/export.h"
#include "fs/fdcache.h"
#include "fs/fileid.h"

struct file_state;
struct inode_link;

/* Lock order: see fs.h (keyring, then inode locks, then the table lock). */
struct fs_inode {
	/* fixed after creation, except that renaming a version-1 symlink to
	 * another directory re-creates it (inode_table_move: table lock) */
	dev_t dev;
	ino_t ino;
	mode_t type;    /* S_IFMT bits */
	struct fileid *ident;     /* NULL: cannot be told apart, keep fd */
	/* its nodeid and FUSE generation (export.h), set as it goes in the
	 * table; an export entry reclaimed and given to another file gets a
	 * new generation, so an old file handle gets ESTALE from the kernel
	 * instead of the newer file */
	uint64_t nodeid;
	uint64_t generation;

	/* guarded by the table lock */
	uint64_t nlookup;
	uint64_t pins;
	struct fs_inode *hnext;
	int unhashed;             /* a newer file has its inode number */
	struct fdcache_slot slot; /* its descriptor; kept: root, no identity */
	struct inode_link *links; /* newest first */

	/* content I/O of a regular file: READs hold it shared (and lock
	 * only while they check the file state), so they decrypt side by
	 * side; whatever changes file or its content holds it exclusively,
	 * taken before lock (filestate.h) */
	pthread_rwlock_t io;

	/* guarded by lock */
	pthread_mutex_t lock;
	uint8_t nonce[16];        /* directories: the name key's nonce, */
	int have_nonce;           /* read once (entry.c) */
	uint8_t other_nonce[16];  /* and a conflict copy of it, */
	int have_other;           /* read with it (noncecopy.h) */
	int names_warned;         /* undecodable entries (or, for a file,
				   * damaged sectors) logged once */
	struct file_state *file;  /* regular files with users (filestate.h) */

	/* attribute names known absent (xattr-absent.h), atomics */
	_Atomic uint64_t xattr_absent;
	_Atomic int64_t xattr_absent_since_ms;
};

struct inode_table {
	pthread_mutex_t lock;
	struct fs_inode **buckets;
	size_t nbuckets;
	size_t count;
	struct fs_inode *stale;   /* unhashed inodes, through hnext */
	/* dead inodes, through hnext: freed (their descriptors closed, which
	 * for a deleted file frees its data) once the lock is dropped */
	struct fs_inode *reap;
	/* the descriptor cache */
	struct fdcache fds;
	unsigned int max_fds;     /* open O_PATH descriptors kept, at most */
	struct fileid_opener handles; /* reopening by handle (privileged) */
	struct export_table exp;  /* nodeids (export.h), under lock */
	/* counters for tests and benchmarks (evictions, reopens, forgotten
	 * inodes brought back for a file handle) */
	unsigned long evictions, reopens, revived;
	const struct inode_file_ops *file;
};

/*
 * What the table does with an inode's open file (filestate.c provides
 * it), so the arrow runs filestate -> inode and never back.
 */
struct inode_file_ops {
	void (*free)(struct file_state *st); /* at inode free */
	int (*fd)(const struct file_state *st); /* its content descriptor */
};

/* max_fds: descriptors to keep open (at least 2) */
int inode_table_init(struct inode_table *t, unsigned int max_fds,
		     const struct inode_file_ops *file);
/* free every inode (at unmount) */
void inode_table_destroy(struct inode_table *t);

/*
 * Before the root goes in: can this process reopen inodes of rootfd's
 * filesystem by file handle (fileid_probe)? Then a descriptor of it is
 * kept for that.
 */
void inode_table_probe_handles(struct inode_table *t, int rootfd);

/* the root's nodeid (FUSE_ROOT_ID); it has no export entry */
#define INODE_ROOT_NODEID 1

/*
 * The inode of fd, an O_PATH descriptor of ciphertext entry cname in
 * parent (NULL, NULL: a name not known, as for a file handle's inode)
 * whose fstat is *st: an existing one gets one more lookup and learns the
 * name, else a new one takes fd with nlookup 1. fd is kept (in the cache)
 * or closed. 0 or -ENOMEM.
 */
int inode_table_get(struct inode_table *t, struct fs_inode *parent,
		    const char *cname, int fd, const struct stat *st,
		    struct fs_inode **out);
/* inode_table_get for the root (its descriptor is always kept) */
int inode_table_get_root(struct inode_table *t, int fd, const struct stat *st,
			 struct fs_inode **out);
/* one more kernel lookup on in */
void inode_table_ref(struct inode_table *t, struct fs_inode *in);

/* the live inode of a nodeid the kernel holds (not the root), or NULL */
struct fs_inode *inode_table_nodeid(struct inode_table *t, uint64_t nodeid);
/*
 * LOOKUP of "." on a nodeid (how the kernel decodes a file handle whose
 * inode it forgot): its inode with one more lookup, brought back by
 * handle (fileid.h) if it was forgotten. -ESTALE when the nodeid names
 * nothing, its file is gone or another, or this process cannot open by
 * handle (not privileged); -ENOMEM.
 */
int inode_table_revive(struct inode_table *t, uint64_t nodeid,
		       struct fs_inode **out);

/* drop n kernel lookups (forget); frees at zero lookups and pins */
void inode_table_forget(struct inode_table *t, struct fs_inode *in, uint64_t n);

void inode_pin(struct inode_table *t, struct fs_inode *in);
void inode_unpin(struct inode_table *t, struct fs_inode *in);

/*
 * Names learnt outside LOOKUP: rename moved in from (from, from_cname) to
 * (to, to_cname); the old name is forgotten, the new one remembered.
 */
void inode_link_move(struct inode_table *t, struct fs_inode *in,
		     struct fs_inode *from, const char *from_cname,
		     struct fs_inode *to, const char *to_cname);
/* (parent, cname) no longer leads to in: forget it */
void inode_link_drop(struct inode_table *t, struct fs_inode *in,
		     struct fs_inode *parent, const char *cname);

/*
 * The parent of in's newest name, pinned (inode_unpin), or NULL. For a
 * version-1 symlink, whose target is encrypted under that directory's
 * name key, and whose names all lie in one directory.
 */
struct fs_inode *inode_parent(struct inode_table *t, struct fs_inode *in);
/* inode_parent, and that name (the ciphertext name in the parent) in
 * cname (len bytes); NULL when there is none or it does not fit. The
 * newest name is the one to reopen in by (inode-fd.h). */
struct fs_inode *inode_parent_name(struct inode_table *t, struct fs_inode *in,
				   char *cname, size_t len);

/*
 * A version-1 symlink was re-created as fd (fstat *st) in to (name cname)
 * by a rename to another directory: the inode takes the new descriptor,
 * identity and name. fd is kept or closed.
 */
void inode_table_move(struct inode_table *t, struct fs_inode *in, int fd,
		      const struct stat *st, struct fs_inode *to,
		      const char *cname);

/* the inode with this (dev, ino), pinned, or NULL */
struct fs_inode *inode_table_find(struct inode_table *t, dev_t dev, ino_t ino);

/*
 * Call fn on every inode, the unhashed ones too, each pinned during its
 * call and the table unlocked (fn may take the inode's lock). 0 or
 * -ENOMEM.
 */
int inode_table_foreach(struct inode_table *t,
			void (*fn)(struct fs_inode *in, void *arg), void *arg);

#endif
