/* SPDX-License-Identifier: MIT */
/*
 * POSIX ACLs under FUSE's POSIX ACL capability: the kernel enforces the
 * system.posix_acl_access / _default attributes (stored encrypted like
 * any other, volume/names/xattr.h) and checks permissions itself
 * (default_permissions); what is left to the filesystem is done here, as
 * the kernel's posix_acl.c does it for local filesystems:
 *
 * - setting an access ACL sets the mode's permission bits from it (owner,
 *   mask or else owning group, other); an ACL the mode says all of is not
 *   stored;
 * - chmod changes the stored access ACL's owner, mask (or owning group)
 *   and other entries with the mode;
 * - a new entry in a directory with a default ACL gets that ACL masked by
 *   its create mode, and a new directory the default ACL too; the umask
 *   applies only where the directory has none (the kernel sends the mode
 *   unmasked, FUSE_CAP_DONT_MASK).
 *
 * ACLs live in user.* attributes of the backing store, which Linux allows
 * on regular files and directories only: FIFOs, sockets and devices get
 * the masked mode but no ACL of their own.
 *
 * Every function is a no-op when the mount runs without the capability
 * (fs->posix_acl 0: an old kernel).
 */
#ifndef CLOAKFS_FS_ACL_H
#define CLOAKFS_FS_ACL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cloakfs;
struct fs_inode;
struct request;

/*
 * r's setxattr of system.posix_acl_access (value as the kernel sends it,
 * already checked by it) on the inode path names, with setxattr's flags:
 * 0 or -errno (-EINVAL for a value that is no ACL). As posix_acl.c does,
 * it clears the setgid bit unless the caller is in the file's group or
 * is uid 0 (the kernel's flag asking for that, FUSE_SETXATTR_ACL_KILL_SGID,
 * does not reach a libfuse 3.14 handler).
 */
int acl_set_access(struct request *r, const char *path, const void *value,
		   size_t size, int flags);

/* after chmod of path to mode: its access ACL follows. 0 or -errno */
int acl_chmod(struct cloakfs *fs, struct fs_inode *in, const char *path,
	      mode_t mode);

/* what a new entry inherits from its directory (acl_inherit_begin) */
struct acl_inherit {
	uint8_t *access; /* its access ACL, or NULL */
	size_t alen;
	uint8_t *deflt;  /* a directory's default ACL, or NULL */
	size_t dlen;
};

/*
 * Before r creates an entry of type (S_IFREG, S_IFDIR, ...) and *mode in r's
 * directory (r->fd): *mode becomes the mode to create it with, ai what
 * to give it after (acl_inherit_apply). 0 or -errno; ai is ready for
 * acl_inherit_free either way.
 */
int acl_inherit_begin(struct request *r, mode_t type, mode_t *mode,
		      struct acl_inherit *ai);
/* give the new entry cname of directory dfd what ai holds: 0 or -errno */
int acl_inherit_apply(struct request *r, int dfd, const char *cname,
		      const struct acl_inherit *ai);
void acl_inherit_free(struct acl_inherit *ai);

#endif
