/* SPDX-License-Identifier: MIT */
/*
 * Extended attributes: user.* names and values sealed by volume/names/xattr.h
 * on the ciphertext inode; the root's state attribute (state.h) answered
 * here.
 */
#include "fs/handlers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "crypto/secmem.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "fs/state.h"
#include "volume/names/xattr.h"

/*
 * The stored name of attribute name of an existing attribute (get,
 * remove): -EOPNOTSUPP outside user.*, -ENODATA where none can exist (a
 * symlink, a name too long to have been stored).
 */
static int stored_name(struct request *r, const char *name, char stored[256])
{
	int err;

	if (!xattr_is_user(name))
		return -EOPNOTSUPP;
	if (r->in->type == S_IFLNK)
		return -ENODATA;
	err = xattr_name_encrypt(r->fs->keyring, name, stored);
	return err == -ERANGE ? -ENODATA : err;
}

void fs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 const char *value, size_t size, int flags)
{
	struct request r;
	char stored[256], path[PROCFD_LEN];
	uint8_t *sealed = NULL;
	size_t slen = 0;
	int err;

	if (ino == FUSE_ROOT_ID && fs_state_is_name(name)) {
		/* the mount's state (state.h): read-only, not use */
		(void)request_begin(&r, req, ino, REQ_QUIET);
		request_reply(&r, -EPERM);
		return;
	}
	err = request_begin(&r, req, ino, REQ_FD);
	if (!err && !xattr_is_user(name))
		err = -EOPNOTSUPP;
	if (!err && r.in->type == S_IFLNK)
		err = -EPERM; /* as Linux: no user.* on symlinks */
	if (!err)
		err = xattr_name_encrypt(r.fs->keyring, name, stored);
	if (!err) {
		slen = xattr_sealed_size(r.fs->cipher->blocksize, size);
		sealed = malloc(slen);
		err = sealed ? xattr_seal(r.fs->keyring, r.fs->cipher->blocksize,
					  value, size, sealed)
			     : -ENOMEM;
	}
	if (!err) {
		request_path(&r, path);
		if (setxattr(path, stored, sealed, slen, flags) != 0)
			err = -errno;
	}
	wipe_free(sealed, slen); /* plaintext if sealing failed half-way */
	/* the plaintext value, in libfuse's receive buffer */
	explicit_bzero((char *)value, size);
	request_reply(&r, err);
}

void fs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 size_t size)
{
	struct request r;
	char stored[256], path[PROCFD_LEN];
	const uint8_t *value = NULL;
	uint8_t *sealed = NULL;
	size_t vlen = 0, cap = 0;
	ssize_t n;
	int err;

	if (ino == FUSE_ROOT_ID && fs_state_is_name(name)) {
		/* the mount's state (state.h): not use for --idle */
		(void)request_begin(&r, req, ino, REQ_QUIET);
		fs_state_reply(req, r.fs, size);
		return;
	}
	err = request_begin(&r, req, ino, REQ_FD);
	if (!err)
		err = stored_name(&r, name, stored);
	if (!err) {
		request_path(&r, path);
		n = getxattr(path, stored, NULL, 0);
		if (n < 0)
			err = -errno;
		else if (!(sealed = malloc(cap = (size_t)n + 1)))
			err = -ENOMEM;
		else if ((n = getxattr(path, stored, sealed, (size_t)n)) < 0)
			err = errno == ERANGE ? -EAGAIN : -errno; /* it grew */
		if (!err)
			err = xattr_open(r.fs->keyring, r.fs->cipher->blocksize,
					 sealed, (size_t)n, &value, &vlen);
	}
	if (!err && size && vlen > size)
		err = -ERANGE;
	if (request_done(&r, err)) {
		if (size == 0)
			fuse_reply_xattr(req, vlen);
		else
			fuse_reply_buf(req, (const char *)value, vlen);
	}
	wipe_free(sealed, cap); /* the value, decrypted in place */
}

void fs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct request r;
	char path[PROCFD_LEN], *raw = NULL, *out = NULL;
	size_t pos = 0;
	ssize_t n = 0;
	int err = request_begin(&r, req, ino, REQ_FD);

	if (!err && r.in->type != S_IFLNK) {
		request_path(&r, path);
		n = listxattr(path, NULL, 0);
		if (n < 0)
			err = -errno;
		else if (!(raw = malloc((size_t)n + 1)) ||
			 !(out = malloc((size_t)n + 1)))
			err = -ENOMEM;
		else if ((n = listxattr(path, raw, (size_t)n)) < 0)
			err = errno == ERANGE ? -EAGAIN : -errno;
	}
	/* a plaintext name is never longer than its stored form */
	for (ssize_t i = 0; !err && i < n; i += (ssize_t)strlen(raw + i) + 1) {
		char plain[256];
		int len = xattr_name_decrypt(r.fs->keyring, raw + i, plain);

		if (len < 0)
			continue; /* not ours (e.g. security.*): hidden */
		memcpy(out + pos, plain, (size_t)len + 1);
		pos += (size_t)len + 1;
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
	char stored[256], path[PROCFD_LEN];
	int err = request_begin(&r, req, ino, REQ_FD);

	if (!err)
		err = stored_name(&r, name, stored);
	if (!err) {
		request_path(&r, path);
		if (removexattr(path, stored) != 0)
			err = -errno;
	}
	request_reply(&r, err);
}
