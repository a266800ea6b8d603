/* SPDX-License-Identifier: MIT */
/* see acl.h */
#include "fs/acl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/procfd.h"
#include "crypto/secmem.h"
#include "fs/fs.h"
#include "fs/request.h"
#include "fs/xattr-absent.h"
#include "fs/xattrs.h"
#include "volume/names/xattr.h"

/* the kernel's xattr form of an ACL (linux/posix_acl_xattr.h): a u32le
 * version 2, then entries of u16le tag, u16le permissions, u32le id */
#define ACL_XATTR_VERSION 2
#define ACL_HEADER 4
#define ACL_ENTRY 8
enum {
	TAG_USER_OBJ = 0x01,
	TAG_USER = 0x02,
	TAG_GROUP_OBJ = 0x04,
	TAG_GROUP = 0x08,
	TAG_MASK = 0x10,
	TAG_OTHER = 0x20,
};

/* the number of entries of an ACL of len bytes, or -EINVAL */
static int acl_entries(const uint8_t *acl, size_t len)
{
	if (len < ACL_HEADER || (len - ACL_HEADER) % ACL_ENTRY != 0 ||
	    len > ACL_HEADER + (size_t)ACL_ENTRY * 65536 ||
	    (acl[0] | acl[1] << 8 | acl[2] << 16 | (uint32_t)acl[3] << 24) !=
		    ACL_XATTR_VERSION)
		return -EINVAL;
	return (int)((len - ACL_HEADER) / ACL_ENTRY);
}

/* how acl_sync makes an ACL and a mode agree */
enum acl_way {
	ACL_TO_MODE,  /* the mode takes the ACL's bits (setting an ACL) */
	MODE_TO_ACL,  /* the ACL takes the mode's (chmod) */
	ACL_AND_MODE, /* both take what both allow (a new entry) */
};

/*
 * Make the owner, group class (the mask entry, else the owning group) and
 * other entries of acl (n entries) agree with the permission bits of
 * *mode, the given way. 1 when the ACL says more than a mode can (named
 * entries or a mask), 0 when not, -EINVAL for an ACL without the three.
 */
static int acl_sync(uint8_t *acl, int n, mode_t *mode, enum acl_way way)
{
	uint8_t *cls[3] = { NULL, NULL, NULL }, *group = NULL;
	int more = 0;

	for (int i = 0; i < n; i++) {
		uint8_t *e = acl + ACL_HEADER + (size_t)i * ACL_ENTRY;
		unsigned int tag = e[0] | e[1] << 8;

		if (tag == TAG_USER_OBJ)
			cls[0] = e + 2;
		else if (tag == TAG_GROUP_OBJ)
			group = e + 2;
		else if (tag == TAG_OTHER)
			cls[2] = e + 2;
		else if (tag == TAG_MASK)
			cls[1] = e + 2;
		if (tag == TAG_MASK || tag == TAG_USER || tag == TAG_GROUP)
			more = 1;
	}
	if (!cls[1])
		cls[1] = group;
	if (!cls[0] || !cls[1] || !cls[2])
		return -EINVAL;
	for (int k = 0; k < 3; k++) {
		unsigned int shift = 6 - 3 * (unsigned int)k;
		mode_t bits = (*mode >> shift) & 7;
		unsigned int perm = cls[k][0] & 7;

		if (way == ACL_TO_MODE)
			bits = perm;
		else if (way == MODE_TO_ACL)
			perm = bits;
		else
			bits = perm &= bits;
		cls[k][0] = (uint8_t)perm;
		cls[k][1] = 0;
		*mode = (*mode & ~((mode_t)7 << shift)) | bits << shift;
	}
	return more;
}

/* a copy of acl (len bytes) in *out, its entries in *n: 0 or -errno */
static int acl_copy(const uint8_t *acl, size_t len, uint8_t **out, int *n)
{
	*n = acl_entries(acl, len);
	if (*n < 0)
		return *n;
	*out = malloc(len);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, acl, len);
	return 0;
}

/* may r's caller keep a setgid bit of group gid (in_group_or_capable)? */
static int may_keep_sgid(struct request *r, gid_t gid)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(r->req);
	gid_t groups[64];
	int n;

	if (ctx->uid == 0 || ctx->gid == gid)
		return 1;
	n = fuse_req_getgroups(r->req, 64, groups);
	for (int i = 0; i < n && i < 64; i++)
		if (groups[i] == gid)
			return 1;
	return 0;
}

int acl_set_access(struct request *r, const char *path, const void *value,
		   size_t size, int flags)
{
	struct cloakfs *fs = r->fs;
	uint8_t *acl = NULL;
	struct stat st;
	mode_t mode;
	int n, err = acl_copy(value, size, &acl, &n);

	if (!err && stat(path, &st) != 0)
		err = -errno;
	if (!err) {
		mode = st.st_mode;
		if ((mode & S_ISGID) && !may_keep_sgid(r, st.st_gid))
			mode &= ~(mode_t)S_ISGID;
		err = acl_sync(acl, n, &mode, ACL_TO_MODE);
	}
	if (err == 1) {
		err = xattrs_set(fs, path, XATTR_ACL_ACCESS, value, size, flags);
	} else if (err == 0) {
		/* the mode says it all: no ACL kept, as local filesystems do */
		err = xattrs_remove(fs, path, XATTR_ACL_ACCESS);
		if (err == -ENODATA)
			err = 0;
	}
	if (!err && mode != st.st_mode && chmod(path, mode & 07777) != 0)
		err = -errno;
	wipe_free(acl, size);
	return err;
}

/* name of in (at path) through the absences xattr-absent.h keeps */
static int acl_get(struct cloakfs *fs, struct fs_inode *in, const char *path,
		   const char *name, struct xattrs_value *v)
{
	uint64_t seen;
	int err;

	memset(v, 0, sizeof(*v)); /* as xattrs_get leaves it on an error */
	if (xattr_absent_known(fs, in, name, &seen))
		return -ENODATA;
	err = xattrs_get(fs, path, name, v);
	if (err == -ENODATA)
		xattr_absent_note(fs, in, name, seen);
	return err;
}

int acl_chmod(struct cloakfs *fs, struct fs_inode *in, const char *path,
	      mode_t mode)
{
	struct xattrs_value v;
	uint8_t *acl = NULL;
	int n, err;

	if (!fs->posix_acl)
		return 0;
	err = acl_get(fs, in, path, XATTR_ACL_ACCESS, &v);
	if (!err)
		err = acl_copy(v.value, v.len, &acl, &n);
	if (err == -EINVAL)
		err = -EBADMSG; /* stored, so damaged */
	if (!err && acl_sync(acl, n, &mode, MODE_TO_ACL) < 0)
		err = -EBADMSG;
	if (!err) {
		err = xattrs_set(fs, path, XATTR_ACL_ACCESS, acl, v.len, 0);
		xattr_absent_forget(in);
	}
	wipe_free(acl, v.len);
	xattrs_value_free(&v);
	return err == -ENODATA ? 0 : err;
}

int acl_inherit_begin(struct request *r, mode_t type, mode_t *mode,
		      struct acl_inherit *ai)
{
	char dir[PROCFD_LEN];
	struct xattrs_value v;
	int n, err;

	memset(ai, 0, sizeof(*ai));
	if (!r->fs->posix_acl)
		return 0;
	request_path(r, dir);
	err = acl_get(r->fs, r->in, dir, XATTR_ACL_DEFAULT, &v);
	if (err == -ENODATA) {
		/* no default ACL: the umask the kernel left to us */
		*mode &= ~(fuse_req_ctx(r->req)->umask & 0777);
		return 0;
	}
	if (!err)
		err = acl_copy(v.value, v.len, &ai->access, &n);
	if (!err) {
		ai->alen = v.len;
		err = acl_sync(ai->access, n, mode, ACL_AND_MODE);
	}
	/* only files and directories can hold user.* attributes (acl.h) */
	if (err <= 0 || !(S_ISREG(type) || S_ISDIR(type))) {
		wipe_free(ai->access, ai->alen);
		ai->access = NULL;
	}
	if (err >= 0 && S_ISDIR(type)) {
		err = acl_copy(v.value, v.len, &ai->deflt, &n);
		ai->dlen = v.len;
	}
	xattrs_value_free(&v);
	if (err < 0)
		acl_inherit_free(ai);
	return err == -EINVAL ? -EBADMSG : err < 0 ? err : 0;
}

int acl_inherit_apply(struct request *r, int dfd, const char *cname,
		      const struct acl_inherit *ai)
{
	char path[PROCFD_LEN];
	int fd, err = 0;

	if (!ai->access && !ai->deflt)
		return 0;
	fd = openat(dfd, cname, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	procfd_path(fd, path);
	if (ai->access)
		err = xattrs_set(r->fs, path, XATTR_ACL_ACCESS, ai->access,
				 ai->alen, 0);
	if (!err && ai->deflt)
		err = xattrs_set(r->fs, path, XATTR_ACL_DEFAULT, ai->deflt,
				 ai->dlen, 0);
	close(fd);
	return err;
}

void acl_inherit_free(struct acl_inherit *ai)
{
	wipe_free(ai->access, ai->alen);
	wipe_free(ai->deflt, ai->dlen);
	memset(ai, 0, sizeof(*ai));
}
