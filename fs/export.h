/* SPDX-License-Identifier: MIT */
/*
 * The nodeids given to the kernel, and what each named, kept past the
 * kernel's forget so that a file handle (name_to_handle_at, NFS) of a
 * forgotten inode still finds its file (docs/design.md, "File handles of
 * the mount"). A nodeid is an entry's index (plus 2: 0 is no nodeid, 1
 * the root's); the entry holds the inode's (st_dev, st_ino), identity
 * (fileid.h), type and FUSE generation, and the live inode while there is
 * one. An inode looked up again after a forget takes its old entry back
 * (same nodeid, same generation), when its identity is the same.
 *
 * Forgotten entries are kept only where the mount can reopen a file by
 * handle (root), and at most EXPORT_MAX_FORGOTTEN of them (the oldest
 * found by a clock hand goes first); a reclaimed entry's index is given
 * again under a new generation, so an old handle gets ESTALE.
 *
 * Every call but export_live is made with the inode table's lock held
 * (inode.h); export_live reads an entry's live inode without it.
 */
#ifndef CLOAKFS_FS_EXPORT_H
#define CLOAKFS_FS_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct fs_inode;
struct fileid;
struct export_entry;

#define EXPORT_MAX_FORGOTTEN (1u << 18)

struct export_table {
	_Atomic(struct export_entry *) *chunks; /* EXPORT_CHUNKS of them */
	uint32_t used;        /* indexes handed out so far */
	uint32_t free_head;   /* reclaimed entries, index + 1, or 0 */
	uint32_t *buckets;    /* (dev, ino) -> index + 1, through hnext */
	size_t nbuckets, hashed;
	size_t forgotten, max_forgotten;
	uint32_t hand;        /* the clock over forgotten entries */
	int keep;             /* forgotten entries are kept (by handle) */
};

/* 0 or -ENOMEM */
int export_init(struct export_table *x);
/* CLOAKFS_EXPORT_KEEP=N keeps at most N forgotten entries instead (tests
 * use a few, so that reclaiming happens); 0, or -EINVAL when it is not a
 * number of at least 1 */
int export_keep_from_env(struct export_table *x);
void export_destroy(struct export_table *x);

/* the backing file an entry names (ident NULL: it cannot be reopened by
 * handle, so its entry is not kept once forgotten) */
struct export_file {
	dev_t dev;
	ino_t ino;
	mode_t type;
	const struct fileid *ident;
};

/*
 * The live inode in, of file f, takes a nodeid and generation (*nodeid,
 * *generation): the forgotten entry of the same file, or a new one. 0 or
 * -ENOMEM.
 */
int export_attach(struct export_table *x, const struct export_file *f,
		  struct fs_inode *in, uint64_t *nodeid, uint64_t *generation);
/* the inode of nodeid is freed: its entry is forgotten (or reclaimed);
 * nothing for the root's */
void export_detach(struct export_table *x, uint64_t nodeid);
/* nodeid's file changed to f (a version-1 symlink re-created): its entry
 * follows. 0 or -ENOMEM */
int export_moved(struct export_table *x, uint64_t nodeid,
		 const struct export_file *f);

/* the live inode of nodeid (a nodeid the kernel holds), or NULL */
struct fs_inode *export_live(struct export_table *x, uint64_t nodeid);

/*
 * What nodeid names: its live inode (*live), or, when forgotten, its file
 * (*dev, *ino and a copy of its identity in *id, free() it). 0, or
 * -ESTALE when the nodeid names nothing (never given, or reclaimed),
 * -ENOMEM.
 */
int export_find(struct export_table *x, uint64_t nodeid,
		struct fs_inode **live, dev_t *dev, ino_t *ino,
		struct fileid **id);

/* nodeid's file is gone (its handle gave ESTALE): a forgotten entry of
 * it is reclaimed, so deleted files do not keep theirs */
void export_gone(struct export_table *x, uint64_t nodeid);

#endif
