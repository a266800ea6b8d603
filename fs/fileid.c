/* SPDX-License-Identifier: MIT */
/* see fileid.h */
#include "fs/fileid.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum fileid_kind { FILEID_HANDLE, FILEID_BTIME };

struct fileid {
	enum fileid_kind kind;
	int handle_type;
	unsigned int len;
	unsigned char bytes[];
};

union handle_space {
	struct file_handle fh;
	unsigned char space[sizeof(struct file_handle) + MAX_HANDLE_SZ];
};

struct fileid *fileid_of(int fd)
{
	union handle_space h;
	struct fileid *id;
	struct statx sx;
	int mount_id;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(fd, "", &h.fh, &mount_id, AT_EMPTY_PATH) == 0) {
		id = malloc(sizeof(*id) + h.fh.handle_bytes);
		if (!id)
			return NULL;
		id->kind = FILEID_HANDLE;
		id->handle_type = h.fh.handle_type;
		id->len = h.fh.handle_bytes;
		memcpy(id->bytes, h.fh.f_handle, id->len);
		return id;
	}
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_BTIME,
		  &sx) != 0 || !(sx.stx_mask & STATX_BTIME))
		return NULL;
	id = malloc(sizeof(*id) + sizeof(sx.stx_btime));
	if (!id)
		return NULL;
	id->kind = FILEID_BTIME;
	id->handle_type = 0;
	id->len = sizeof(sx.stx_btime);
	memcpy(id->bytes, &sx.stx_btime, id->len);
	return id;
}

struct fileid *fileid_dup(const struct fileid *id)
{
	struct fileid *d = malloc(sizeof(*id) + id->len);

	if (d)
		memcpy(d, id, sizeof(*id) + id->len);
	return d;
}

int fileid_equal(const struct fileid *a, const struct fileid *b)
{
	return a && b && a->kind == b->kind && a->handle_type == b->handle_type &&
	       a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
}

/* open_by_handle_at of id (a handle) in mount_fd; -1 if it is none */
static int open_handle(int mount_fd, const struct fileid *id, int flags)
{
	union handle_space h;

	if (!id || id->kind != FILEID_HANDLE || id->len > MAX_HANDLE_SZ) {
		errno = ESTALE;
		return -1;
	}
	h.fh.handle_bytes = id->len;
	h.fh.handle_type = id->handle_type;
	memcpy(h.fh.f_handle, id->bytes, id->len);
	return open_by_handle_at(mount_fd, &h.fh, flags);
}

void fileid_probe(struct fileid_opener *o, int rootfd)
{
	struct fileid *id = fileid_of(rootfd);
	struct stat st;
	int fd, mfd = -1;

	o->mount_fd = -1;
	/* open_by_handle_at wants a real descriptor, not an O_PATH one */
	if (id && id->kind == FILEID_HANDLE && fstat(rootfd, &st) == 0)
		mfd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = mfd >= 0 ? open_handle(mfd, id, O_PATH | O_CLOEXEC) : -1;
	free(id);
	if (fd < 0) {
		if (mfd >= 0)
			close(mfd); /* EPERM: not privileged */
		return;
	}
	close(fd);
	o->mount_fd = mfd;
	o->dev = st.st_dev;
}

int fileid_open(const struct fileid_opener *o, const struct fileid *id,
		dev_t dev, ino_t ino)
{
	struct stat st;
	int fd, err;

	if (o->mount_fd < 0 || dev != o->dev)
		return -EPERM;
	if (!id || id->kind != FILEID_HANDLE)
		return -ESTALE; /* nothing to open it by */
	fd = open_handle(o->mount_fd, id, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESTALE : -errno;
	if (fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if (st.st_dev != dev || st.st_ino != ino || st.st_nlink == 0) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}
