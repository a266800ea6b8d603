/* SPDX-License-Identifier: MIT */
/*
 * Per-inode content state of a regular file: one ciphertext descriptor and
 * one struct content_file (volume/content/fileio.h) per inode, shared by every open
 * handle, so the file's key is derived once per open inode and the header
 * cache is never stale. All calls (and every use of ->cf) hold the inode's
 * lock; whatever changes the state or the content (open, release, write,
 * truncate, fallocate) also holds the inode's io lock exclusively
 * (filestate_lock), which serialises read-modify-write of partial sectors.
 * A READ holds io shared and the lock only while it loads the state and
 * reads the size; then it preads and decrypts with io alone, beside other
 * READs (the file's transform is shared read-only, crypto.h).
 */
#ifndef CLOAKFS_FS_FILESTATE_H
#define CLOAKFS_FS_FILESTATE_H

#include <stdint.h>

#include "volume/content/fileio.h"

struct cloakfs;
struct fs_inode;
struct inode_file_ops;

/* in's io lock exclusively, then its lock (fs.h lock order) */
void filestate_lock(struct fs_inode *in);
void filestate_unlock(struct fs_inode *in);

/*
 * A READ of plaintext [off, off + len): filestate_read_lock takes in's
 * io lock shared (exclusive with -o shared); then filestate_read_begin,
 * under its lock (briefly), loads the state and the plaintext size into
 * *plain (fileio_read_begin), 0 or -errno; either way io stays held
 * until filestate_read_end(in). Between the two the caller may list the
 * inode for the read-lease timer (readlease.h), which wants io held.
 */
void filestate_read_lock(struct cloakfs *fs, struct fs_inode *in);
int filestate_read_begin(struct cloakfs *fs, struct fs_inode *in,
			 uint64_t off, uint64_t len, uint64_t *plain);
void filestate_read_end(struct fs_inode *in);

struct file_state {
	int fd;             /* the ciphertext file, O_RDWR once anyone writes */
	int writable;
	unsigned int users; /* open handles, plus short-lived users (truncate) */
	int loaded;         /* cf is open: its header read and checked */
	struct content_file cf;
};

/*
 * One more user of in's content; opens the ciphertext file through
 * pathfd, in's held O_PATH descriptor (O_RDWR when want_write, since
 * writes read back partial sectors) or upgrades a read-only descriptor.
 * fd >= 0 is a ciphertext descriptor already open O_RDWR (create) that is
 * used or closed; pathfd may be -1 then. 0 or -errno.
 */
int filestate_get(struct fs_inode *in, int want_write, int fd, int pathfd);
/* one user less; the last one closes the file */
void filestate_put(struct fs_inode *in);

/* read and check the file's header (once; no key needed): 0 or -errno */
int filestate_load(struct cloakfs *fs, struct fs_inode *in);

/* at inode free; NULL is a no-op */
void filestate_free(struct file_state *st);

/* for the inode table: filestate_free and the content descriptor */
extern const struct inode_file_ops filestate_ops;

#endif
