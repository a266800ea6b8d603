/* SPDX-License-Identifier: MIT */
/* see xattrs.h */
#include "fs/xattrs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "crypto/secmem.h"
#include "fs/fs.h"
#include "volume/names/xattr.h"

/*
 * The stored form of name (xattr_name_store), kept per thread for the
 * names asked for all the time: security.capability, which the kernel
 * asks for before every write (file_remove_privs), and the ACLs (the
 * kernel's for each inode, the mount's at every create); a long-form name
 * costs a CBC-CS3 and a SHA-512. These names are no secret, nor is a
 * stored form (it is on the backing store); it never changes for a mount,
 * so it may outlive a lock of the volume. Other names are not kept: they
 * would be plaintext left in memory.
 */
static int stored_form(struct cloakfs *fs, const char *name,
		       struct xattr_name *xn)
{
	static const char *const hot[] = { "security.capability",
					   XATTR_ACL_ACCESS, XATTR_ACL_DEFAULT };
	static _Thread_local struct {
		const struct cloakfs *fs;
		struct xattr_name xn;
	} cache[sizeof(hot) / sizeof(hot[0])];
	unsigned int i = 0;
	int err;

	while (i < sizeof(hot) / sizeof(hot[0]) && strcmp(name, hot[i]) != 0)
		i++;
	if (i < sizeof(hot) / sizeof(hot[0]) && cache[i].fs == fs) {
		*xn = cache[i].xn;
		return 0;
	}
	err = xattr_name_store(fs->keyring, name, xn);
	if (!err && i < sizeof(hot) / sizeof(hot[0])) {
		cache[i].xn = *xn;
		cache[i].fs = fs;
	}
	return err;
}

int xattrs_get(struct cloakfs *fs, const char *path, const char *name,
	       struct xattrs_value *v)
{
	struct xattr_name xn;
	ssize_t n;
	int err;

	memset(v, 0, sizeof(*v));
	err = stored_form(fs, name, &xn);
	if (err)
		return err == -ERANGE ? -ENODATA : err;
	n = getxattr(path, xn.stored, NULL, 0);
	if (n < 0)
		return -errno;
	v->cap = (size_t)n + 1;
	v->buf = malloc(v->cap);
	if (!v->buf)
		return -ENOMEM;
	n = getxattr(path, xn.stored, v->buf, (size_t)n);
	if (n < 0)
		return errno == ERANGE ? -EAGAIN : -errno; /* it grew */
	return xattr_load(fs->keyring, &xn, fs->cipher->blocksize, v->buf,
			  (size_t)n, &v->value, &v->len);
}

int xattrs_set(struct cloakfs *fs, const char *path, const char *name,
	       const void *value, size_t size, int flags)
{
	struct xattr_name xn;
	uint8_t *stored = NULL;
	size_t slen = 0;
	int err = stored_form(fs, name, &xn);

	if (!err) {
		slen = xattr_stored_size(&xn, fs->cipher->blocksize, size);
		stored = malloc(slen);
		err = stored ? xattr_store(fs->keyring, &xn,
					   fs->cipher->blocksize, value, size,
					   stored)
			     : -ENOMEM;
	}
	if (!err && setxattr(path, xn.stored, stored, slen, flags) != 0)
		err = -errno;
	wipe_free(stored, slen); /* plaintext if sealing failed half-way */
	return err;
}

int xattrs_remove(struct cloakfs *fs, const char *path, const char *name)
{
	struct xattr_name xn;
	int err = stored_form(fs, name, &xn);

	if (err)
		return err == -ERANGE ? -ENODATA : err;
	return removexattr(path, xn.stored) == 0 ? 0 : -errno;
}

void xattrs_value_free(struct xattrs_value *v)
{
	wipe_free(v->buf, v->cap); /* the value, decrypted in place */
	memset(v, 0, sizeof(*v));
}
