/* SPDX-License-Identifier: MIT */
/*
 * One extended attribute of a ciphertext inode, named by its plaintext
 * name, read, written or removed through its stored form
 * (volume/names/xattr.h): what the xattr handlers and the POSIX ACL
 * rules (acl.h) share. path names the inode (a /proc/self/fd path).
 */
#ifndef CLOAKFS_FS_XATTRS_H
#define CLOAKFS_FS_XATTRS_H

#include <stddef.h>
#include <stdint.h>

struct cloakfs;

/* a value read: *value (len bytes) points into buf, which the caller
 * wipes and frees (wipe_free(buf, cap)) */
struct xattrs_value {
	uint8_t *buf;
	size_t cap;
	const uint8_t *value;
	size_t len;
};

/* 0, -ENODATA, -EOPNOTSUPP (a name not stored), -EBADMSG (damaged) or
 * -errno */
int xattrs_get(struct cloakfs *fs, const char *path, const char *name,
	       struct xattrs_value *v);
/* setxattr(2)'s flags; 0 or -errno. The plaintext value stays the
 * caller's to wipe. */
int xattrs_set(struct cloakfs *fs, const char *path, const char *name,
	       const void *value, size_t size, int flags);
int xattrs_remove(struct cloakfs *fs, const char *path, const char *name);
/*
 * Make the stored forms of the names asked for all the time (before every
 * write, at every permission check), so that they are at hand even while
 * the volume is locked: called once the keys are in (FUSE init).
 */
void xattrs_warm(struct cloakfs *fs);
/* wipe and free what xattrs_get gave */
void xattrs_value_free(struct xattrs_value *v);

#endif
