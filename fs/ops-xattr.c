/* SPDX-License-Identifier: MIT */
/*
 * Extended attributes: user.*, trusted.*, security.* and the POSIX ACLs,
 * names and values sealed by volume/names/xattr.h on the ciphertext inode
 * (through xattrs.h; setting an access ACL goes through acl.h, which keeps
 * the mode in step); the root's state attribute (state.h) answered here.
 */
#include "fs/handlers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "base/log.h"
#include "crypto/secmem.h"
#include "fs/acl.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "fs/state.h"
#include "fs/where.h"
#include "fs/xattr-absent.h"
#include "fs/xattrs.h"
#include "volume/names/xattr.h"

/*
 * May attribute name of r's inode be stored? -EOPNOTSUPP for a namespace
 * not stored (the ACLs too when the kernel does not enforce them),
 * symlink_err on a symlink: the backing store keeps user.* attributes,
 * which Linux refuses on symlinks.
 */
static int check_name(struct request *r, const char *name, int symlink_err)
{
	if (!xattr_is_stored(name) ||
	    (!r->fs->posix_acl && strncmp(name, "system.", 7) == 0))
		return -EOPNOTSUPP;
	return r->in->type == S_IFLNK ? symlink_err : 0;
}

void fs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 const char *value, size_t size, int flags)
{
	struct request r;
	char path[PROCFD_LEN];
	int err;

	if (ino == FUSE_ROOT_ID && fs_state_is_name(name)) {
		/* the mount's state (state.h): read-only, not use */
		(void)request_begin(&r, req, ino, REQ_QUIET);
		request_reply(&r, -EPERM);
		return;
	}
	err = request_begin(&r, req, ino, REQ_FD);
	if (!err)
		err = check_name(&r, name, -EPERM);
	if (!err) {
		request_path(&r, path);
		err = strcmp(name, XATTR_ACL_ACCESS) == 0
			      ? acl_set_access(&r, path, value, size, flags)
			      : xattrs_set(r.fs, path, name, value, size, flags);
		xattr_absent_forget(r.in);
	}
	/* the plaintext value, in libfuse's receive buffer */
	explicit_bzero((char *)value, size);
	request_reply(&r, err);
}

void fs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 size_t size)
{
	struct request r;
	struct xattrs_value v = { 0 };
	char path[PROCFD_LEN];
	uint64_t seen = 0;
	int err;

	if (ino == FUSE_ROOT_ID && fs_state_is_name(name)) {
		/* the mount's state (state.h): not use for --idle */
		(void)request_begin(&r, req, ino, REQ_QUIET);
		fs_state_reply(req, r.fs, size);
		return;
	}
	err = request_begin(&r, req, ino, REQ_FD);
	if (!err)
		err = check_name(&r, name, -ENODATA);
	if (!err && xattr_absent_known(r.fs, r.in, name, &seen))
		err = -ENODATA;
	else if (!err) {
		request_path(&r, path);
		err = xattrs_get(r.fs, path, name, &v);
		if (err == -ENODATA)
			xattr_absent_note(r.fs, r.in, name, seen);
	}
	if (err == -EBADMSG && first_warning(r.in)) {
		char where[WHERE_MAX];

		/* in an authenticated volume: a value that fails its tag */
		where_inode(r.fs, r.in, -1, 1, where, sizeof(where));
		log_warn("%s: extended attribute %s is damaged (getxattr gave "
			 "EIO; run cloakfs-fsck)", where, name);
	}
	if (!err && size && v.len > size)
		err = -ERANGE;
	if (request_done(&r, err)) {
		if (size == 0)
			fuse_reply_xattr(req, v.len);
		else
			fuse_reply_buf(req, (const char *)v.value, v.len);
	}
	xattrs_value_free(&v);
}

/*
 * The plaintext name of stored attribute stored of path into plain: its
 * length, or -errno for one that is not ours (the dirnonce copy, another
 * tool's) or hidden from this caller (trusted.*, as the kernel hides it
 * on local filesystems from all but CAP_SYS_ADMIN: here from all but uid 0).
 */
static int list_name(struct request *r, const char *path, const char *stored,
		     char plain[256])
{
	char *val;
	ssize_t n;
	int len;

	if (!xattr_is_long(stored)) {
		len = xattr_name_decrypt(r->fs->vol.keyring, stored, plain);
	} else {
		/* the long form's name is in its value */
		n = getxattr(path, stored, NULL, 0);
		if (n < 0)
			return -errno;
		if (!(val = malloc((size_t)n + 1)))
			return -ENOMEM;
		n = getxattr(path, stored, val, (size_t)n);
		len = n < 0 ? -errno
			    : xattr_long_name_decrypt(r->fs->vol.keyring, stored,
						      (const uint8_t *)val,
						      (size_t)n, plain);
		free(val); /* the value stays sealed: nothing to wipe */
	}
	if (len >= 0 && xattr_is_trusted(plain) &&
	    fuse_req_ctx(r->req)->uid != 0)
		len = -EPERM;
	if (len >= 0 && !r->fs->posix_acl && strncmp(plain, "system.", 7) == 0)
		len = -EOPNOTSUPP; /* as the kernel would not ask for it */
	return len;
}

void fs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct request r;
	char path[PROCFD_LEN], *raw = NULL, *out = NULL;
	size_t pos = 0, names = 0;
	ssize_t n = 0;
	int err = request_begin(&r, req, ino, REQ_FD);

	if (!err && r.in->type != S_IFLNK) {
		request_path(&r, path);
		n = listxattr(path, NULL, 0);
		if (n < 0)
			err = -errno;
		else if (!(raw = malloc((size_t)n + 1)))
			err = -ENOMEM;
		else if ((n = listxattr(path, raw, (size_t)n)) < 0)
			err = errno == ERANGE ? -EAGAIN : -errno;
	}
	/* a long-form name is longer than its stored one: room for each */
	for (ssize_t i = 0; !err && i < n; i += (ssize_t)strlen(raw + i) + 1)
		names++;
	if (!err && names && !(out = malloc(names * (XATTR_NAME_LIMIT + 1))))
		err = -ENOMEM;
	for (ssize_t i = 0; !err && i < n; i += (ssize_t)strlen(raw + i) + 1) {
		char plain[256];
		int len = list_name(&r, path, raw + i, plain);

		if (len == -ENOMEM) {
			err = len; /* not the name's fault */
		} else if (len >= 0) {
			memcpy(out + pos, plain, (size_t)len + 1);
			pos += (size_t)len + 1;
		}
		explicit_bzero(plain, sizeof(plain));
	}
	if (!err && size && pos > size)
		err = -ERANGE;
	if (request_done(&r, err)) {
		if (size == 0)
			fuse_reply_xattr(req, pos);
		else
			fuse_reply_buf(req, out, pos);
	}
	free(raw);
	wipe_free(out, pos); /* plaintext names */
}

void fs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	struct request r;
	char path[PROCFD_LEN];
	int err = request_begin(&r, req, ino, REQ_FD);

	if (!err)
		err = check_name(&r, name, -ENODATA);
	if (!err) {
		request_path(&r, path);
		err = xattrs_remove(r.fs, path, name);
		xattr_absent_forget(r.in);
	}
	request_reply(&r, err);
}
