/* SPDX-License-Identifier: MIT */
/*
 * A directory inode's entries: volume/direntry.h's calls with the
 * directory's nonce, read once per directory inode and kept there
 * (fs_inode.nonce), and the volume's keyring. -EACCES while the volume
 * is locked; -EIO when the directory's nonce is missing or damaged.
 */
#ifndef CLOAKFS_FS_ENTRY_H
#define CLOAKFS_FS_ENTRY_H

#include <stddef.h>

#include "volume/direntry.h"

struct cloakfs;
struct fs_inode;

/*
 * Every call takes dir and dfd, a descriptor of dir held by the caller
 * (inode_fd_hold) or another descriptor of the same directory.
 */

/* vdir_name_encrypt for dir */
int entry_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *name, struct vdir_name *out);
/* vdir_name_decrypt for ciphertext entry cname of dir */
int entry_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *cname, char out[NAMES_MAX_PLAIN + 1]);
/* vdir_target_encrypt / vdir_target_decrypt for dir */
int entry_symlink_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *target,
			  char out[NAMES_MAX_SYMLINK_ENCODED + 1]);
int entry_symlink_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *enc, size_t enclen,
			  char out[NAMES_MAX_SYMLINK_PLAIN + 1]);

#endif
