/* SPDX-License-Identifier: MIT */
/*
 * The descriptor a request holds on an inode (docs/design.md,
 * "Descriptors"): the cached one (fdcache.h), or, when it was evicted,
 * one reopened through the inode's names, newest first, from its
 * parent's descriptor; the reopened file must be the same file (fileid.h).
 * Evicted ancestors are reopened from the nearest open one downwards,
 * without deep recursion. Failing every name, a privileged mount reopens
 * by file handle, and an open file lends its content descriptor.
 */
#ifndef CLOAKFS_FS_INODE_FD_H
#define CLOAKFS_FS_INODE_FD_H

struct inode_table;
struct fs_inode;

/*
 * in's O_PATH descriptor, reopened if it was evicted; it stays open until
 * the matching inode_fd_release. -ESTALE when in is gone from the
 * ciphertext tree (every name removed or replaced), other -errno.
 */
int inode_fd_hold(struct inode_table *t, struct fs_inode *in);
void inode_fd_release(struct inode_table *t, struct fs_inode *in);

#endif
