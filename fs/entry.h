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
#include "volume/symlink.h"

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
#include "volume/symlink.h"
int entry_symlink_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *target,
			  char out[VSYMLINK_MAX_STORED + 1]);
void entry_symlink_discard(struct cloakfs *fs, const char *text);
/* does text (len chars) decode only with its directory's key? */
int entry_symlink_needs_dir(struct cloakfs *fs, const char *text, size_t len);
/* the target's length, or -errno (-EBADMSG: damaged); dir and dfd only
 * when entry_symlink_needs_dir (else NULL, -1) */
int entry_symlink_decode(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			 const char *text, size_t len,
			 char out[VSYMLINK_MAX_PLAIN + 1]);

/*
 * A stored target lives as long as its symlink inode: pin before a call
 * that may remove the inode's last name (unlink, rename over it), unpin
 * after it (volume/symlink.h). pin: a descriptor, or -1 for nothing.
 */
int entry_target_pin(struct cloakfs *fs, int dfd, const char *cname);
void entry_target_unpin(struct cloakfs *fs, int pin);

#endif
