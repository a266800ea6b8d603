/* SPDX-License-Identifier: MIT */
/* see xattrs.h */
#include "fs/xattrs.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "crypto/secmem.h"
#include "fs/fs.h"
#include "volume/names/xattr.h"

/*
 * The stored forms of the names asked for all the time, made once for the
 * mount (xattrs_warm) and never changed: security.capability, which the
 * kernel asks for before every write (file_remove_privs), and the ACLs,
 * the kernel's for each inode's permission checks (even while the volume
 * is locked: reading the root's state attribute needs one) and the
 * mount's at every create. A long-form name costs a CBC-CS3 and a
 * SHA-512; these names are no secret, nor is a stored form (it is on the
 * backing store). Other names are not kept: they would be plaintext left
 * in memory. One mount a process: the first fs to fill an entry owns it.
 */
static const char *const hot_names[] = { "security.capability",
					 XATTR_ACL_ACCESS, XATTR_ACL_DEFAULT };
#define HOT_COUNT (sizeof(hot_names) / sizeof(hot_names[0]))
static struct {
	const struct cloakfs *_Atomic fs; /* set once xn is complete */
	struct xattr_name xn;
} hot[HOT_COUNT];
static pthread_mutex_t hot_lock = PTHREAD_MUTEX_INITIALIZER;

static int stored_form(struct cloakfs *fs, const char *name,
		       struct xattr_name *xn)
{
	unsigned int i = 0;
	int err;

	while (i < HOT_COUNT && strcmp(name, hot_names[i]) != 0)
		i++;
	if (i < HOT_COUNT && atomic_load(&hot[i].fs) == fs) {
		*xn = hot[i].xn;
		return 0;
	}
	err = xattr_name_store(fs->vol.keyring, name, xn);
	if (!err && i < HOT_COUNT) {
		pthread_mutex_lock(&hot_lock);
		if (!atomic_load(&hot[i].fs)) {
			hot[i].xn = *xn;
			atomic_store(&hot[i].fs, fs);
		}
		pthread_mutex_unlock(&hot_lock);
	}
	return err;
}

void xattrs_warm(struct cloakfs *fs)
{
	struct xattr_name xn;

	for (unsigned int i = 0; i < HOT_COUNT; i++)
		(void)stored_form(fs, hot_names[i], &xn); /* locked: later */
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
	return xattr_load(fs->vol.keyring, fs->vol.cipher, &xn, name, v->buf,
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
		slen = xattr_stored_size(fs->vol.cipher, &xn, size);
		stored = malloc(slen);
		err = stored ? xattr_store(fs->vol.keyring, fs->vol.cipher, &xn,
					   name, value, size, stored)
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
