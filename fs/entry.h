/* SPDX-License-Identifier: MIT */
/*
 * Directory entries of the ciphertext tree: a plaintext name becomes its
 * ciphertext name under the parent directory's name key, which the
 * volume's keyring derives from the directory's nonce (read once per
 * directory inode and kept there, fs_inode.nonce). Each call encrypts or
 * decrypts in a key section of its own, after its I/O; -EACCES while the
 * volume is locked. The codec itself, long names and sidecars are
 * volume/names.h's.
 */
#ifndef CLOAKFS_FS_ENTRY_H
#define CLOAKFS_FS_ENTRY_H

#include <stddef.h>

#include "volume/names.h"

struct cloakfs;
struct fs_inode;

struct entry_name {
	char name[NAMES_MAX_ENCODED + 1]; /* in the ciphertext directory */
	char enc[NAMES_MAX_ENCODED + 1];  /* the whole encoding */
	size_t enclen;
	int is_long;                      /* name is cloakfs.long.X */
};

/*
 * Every call takes dir and dfd, a descriptor of dir held by the caller
 * (inode_fd_hold) or another descriptor of the same directory.
 *
 * Encrypt name (one component) for directory dir: 0, -ENAMETOOLONG,
 * -EINVAL, -EIO (the directory's nonce file is missing or damaged).
 */
int entry_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *name, struct entry_name *out);

/* before creating a long-named entry: write its sidecar (names.h) */
int entry_prepare(int dfd, const struct entry_name *e);
/* after the entry went away (or was never made): remove its sidecar when
 * no entry of that name exists */
void entry_forget_sidecar(int dfd, const struct entry_name *e);

/*
 * The plaintext name of ciphertext entry cname in dir (dirfd: an open
 * descriptor of dir, for sidecars). Returns 1 and fills out for a user
 * entry, 0 for entries cloakfs hides (its metadata, ".", "..", foreign
 * names), -EBADMSG for an undecodable one, other -errno.
 */
int entry_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dirfd,
		  const char *cname, char out[NAMES_MAX_PLAIN + 1]);

/* symlink targets under dir's name key (names_symlink_*) */
int entry_symlink_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *target,
			  char out[NAMES_MAX_SYMLINK_ENCODED + 1]);
int entry_symlink_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *enc, size_t enclen,
			  char out[NAMES_MAX_SYMLINK_PLAIN + 1]);

#endif
