/* SPDX-License-Identifier: MIT */
/*
 * Attributes as the mount shows them: the ciphertext inode's, with
 * st_size turned into the plaintext size (docs/format.md section 6; the
 * length of the decrypted target for a symlink).
 */
#ifndef CLOAKFS_FS_ATTR_H
#define CLOAKFS_FS_ATTR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>


struct cloakfs;
struct fs_inode;

/*
 * Fill *st for in. While the volume is locked a symlink shows its
 * ciphertext length. Holds in's descriptor and takes in's lock; the
 * caller holds no inode lock.
 */
int attr_get(struct cloakfs *fs, struct fs_inode *in, struct stat *st);

/*
 * The plaintext size of regular file in, whose ciphertext size is csize;
 * the caller holds in's lock, and pathfd (in's held descriptor) unless
 * in has a file state (in->file). A damaged size is logged and shown as
 * its ciphertext size less the header.
 */
uint64_t attr_file_size(struct cloakfs *fs, struct fs_inode *in, int pathfd,
			uint64_t csize);

/* the decrypted target of symlink in, whose held descriptor is fd (no
 * inode lock held); length or -errno (-EACCES while locked) */
int attr_symlink_target(struct cloakfs *fs, struct fs_inode *in, int fd,
			char *out, size_t outlen);

#endif
