/* SPDX-License-Identifier: MIT */
/* Attributes: getattr, setattr (mode, owner, size, times), access, statfs. */
#include "fs/handlers.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fs/acl.h"
#include "fs/attr.h"
#include "fs/filestate.h"
#include "fs/fs.h"
#include "fs/inode.h"

void fs_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct request r;
	struct stat st;
	int err = request_begin(&r, req, ino, REQ_POLL);

	(void)fi;
	if (!err)
		err = attr_get(r.fs, r.in, &st);
	if (request_done(&r, err))
		fuse_reply_attr(req, &st, r.fs->timeout);
}

static int set_times(struct request *r, const struct stat *attr, int to_set)
{
	struct timespec tv[2];
	char path[PROCFD_LEN];

	tv[0].tv_sec = 0;
	tv[1].tv_sec = 0;
	tv[0].tv_nsec = UTIME_OMIT;
	tv[1].tv_nsec = UTIME_OMIT;
	if (to_set & FUSE_SET_ATTR_ATIME_NOW)
		tv[0].tv_nsec = UTIME_NOW;
	else if (to_set & FUSE_SET_ATTR_ATIME)
		tv[0] = attr->st_atim;
	if (to_set & FUSE_SET_ATTR_MTIME_NOW)
		tv[1].tv_nsec = UTIME_NOW;
	else if (to_set & FUSE_SET_ATTR_MTIME)
		tv[1] = attr->st_mtim;
	if (r->in->type == S_IFLNK) {
		if (utimensat(r->fd, "", tv, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) == 0)
			return 0;
		return errno == EINVAL ? -EPERM : -errno;
	}
	request_path(r, path);
	return utimensat(AT_FDCWD, path, tv, 0) == 0 ? 0 : -errno;
}

/* set the plaintext size (truncate(2), ftruncate(2)) */
static int set_size(struct request *r, uint64_t size)
{
	struct fs_inode *in = r->in;
	int err;

	if (in->type != S_IFREG)
		return in->type == S_IFDIR ? -EISDIR : -EINVAL;
	if (!keyring_unlocked(r->fs->vol.keyring))
		return -EACCES; /* content changes wait for the key */
	filestate_lock(in);
	err = filestate_get(in, 1, -1, r->fd);
	if (!err) {
		err = filestate_load(r->fs, in);
		if (!err)
			err = fileio_truncate(&in->file->cf, size);
		filestate_put(in);
	}
	filestate_unlock(in);
	return err;
}

void fs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		int to_set, struct fuse_file_info *fi)
{
	struct request r;
	char path[PROCFD_LEN];
	struct stat st;
	int err = request_begin(&r, req, ino, REQ_FD);

	(void)fi;
	if (!err && (to_set & FUSE_SET_ATTR_MODE)) {
		request_path(&r, path);
		if (chmod(path, attr->st_mode & 07777) != 0)
			err = -errno;
		if (!err && (r.in->type == S_IFREG || r.in->type == S_IFDIR))
			err = acl_chmod(r.fs, r.in, path, attr->st_mode);
	}
	if (!err && (to_set & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID))) {
		uid_t uid = (to_set & FUSE_SET_ATTR_UID) ? attr->st_uid : (uid_t)-1;
		gid_t gid = (to_set & FUSE_SET_ATTR_GID) ? attr->st_gid : (gid_t)-1;

		if (fchownat(r.fd, "", uid, gid,
			     AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
			err = -errno;
	}
	if (!err && (to_set & FUSE_SET_ATTR_SIZE))
		err = set_size(&r, (uint64_t)attr->st_size);
	if (!err && (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME |
			       FUSE_SET_ATTR_ATIME_NOW | FUSE_SET_ATTR_MTIME_NOW)))
		err = set_times(&r, attr, to_set);
	if (!err)
		err = attr_get(r.fs, r.in, &st);
	if (request_done(&r, err))
		fuse_reply_attr(req, &st, r.fs->timeout);
}

void fs_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	struct request r;
	char path[PROCFD_LEN];
	int err = request_begin(&r, req, ino, REQ_FD);

	if (!err) {
		request_path(&r, path);
		if (faccessat(AT_FDCWD, path, mask, 0) != 0)
			err = -errno;
	}
	request_reply(&r, err);
}

void fs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct request r;
	struct statvfs sv;
	int err = request_begin(&r, req, ino, REQ_FD | REQ_POLL);

	if (!err && fstatvfs(r.fd, &sv) != 0)
		err = -errno;
	sv.f_namemax = VNAME_MAX_PLAIN; /* long names go to sidecars */
	if (request_done(&r, err))
		fuse_reply_statfs(req, &sv);
}
