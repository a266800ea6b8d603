/* SPDX-License-Identifier: MIT */
/*
 * Where something is, for the mount's log: a damaged file or directory
 * named by its ciphertext path and, where the mount can tell, its
 * plaintext path, never by an inode number alone (a user runs
 * cloakfs-fsck, or copies the file out, knowing which one it is).
 */
#ifndef CLOAKFS_FS_WHERE_H
#define CLOAKFS_FS_WHERE_H

#include <stddef.h>

struct cloakfs;
struct fs_inode;

#define WHERE_MAX 8400 /* two paths and their words */

/*
 * "<ciphertext path> (plaintext <path>)" of inode in whose descriptor
 * (any, or -1: then in's own is held, with plain) is fd. plain: also
 * decode the plaintext path, from in's
 * names up to the root (descriptor holds and key sections: only where
 * the caller holds no inode lock, fs.h); it is left out where a name
 * does not decode, the keys are locked, or the mount never learnt a
 * name. Without a ciphertext path: "<cipherdir>: inode N".
 */
void where_inode(struct cloakfs *fs, struct fs_inode *in, int fd, int plain,
		 char *buf, size_t len);

#endif
