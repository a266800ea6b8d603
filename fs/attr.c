/* SPDX-License-Identifier: MIT */
/* see attr.h */
#include "fs/attr.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "fs/entry.h"
#include "fs/filestate.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "fs/where.h"

uint64_t attr_file_size(struct cloakfs *fs, struct fs_inode *in, int pathfd,
			uint64_t csize)
{
	int fd = in->file ? in->file->fd : -1;
	char where[WHERE_MAX];
	uint64_t plain;
	int err;

	if (in->file && in->file->loaded &&
	    fileio_size(&in->file->cf, &plain) == 0)
		return plain;
	err = fileio_plain_size(fd, pathfd, &fs->vol.geom, csize, &plain);
	if (err) {
		/* under in->lock: the ciphertext path only (where.h) */
		where_inode(fs, in, pathfd >= 0 ? pathfd : fd, 0, where,
			    sizeof(where));
		log_warn("%s: size %llu does not decode (%s)", where,
			 (unsigned long long)csize, strerror(-err));
	}
	return plain;
}

int attr_symlink_target(struct cloakfs *fs, struct fs_inode *in, int fd,
			char *out, size_t outlen)
{
	char enc[SYMLINK_MAX_STORED + 2];
	char plain[SYMLINK_MAX_PLAIN + 1];
	ssize_t n = readlinkat(fd, "", enc, sizeof(enc));
	int len;

	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(enc) - 1)
		return -EIO; /* no encoding is this long */
	enc[n] = '\0';
	len = entry_symlink_decode(fs, in, enc, (size_t)n, plain);
	if (len >= 0) {
		if ((size_t)len >= outlen)
			len = -ENAMETOOLONG;
		else
			memcpy(out, plain, (size_t)len + 1);
	}
	explicit_bzero(plain, sizeof(plain));
	if (len == -EBADMSG)
		len = -EIO;
	return len;
}

int attr_get(struct cloakfs *fs, struct fs_inode *in, struct stat *st)
{
	int fd = inode_fd_hold(&fs->inodes, in), err = 0;

	if (fd < 0)
		return fd;
	if (fstatat(fd, "", st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) {
		err = -errno;
	} else if (S_ISREG(st->st_mode)) {
		pthread_mutex_lock(&in->lock);
		st->st_size = (off_t)attr_file_size(fs, in, fd,
						    (uint64_t)st->st_size);
		pthread_mutex_unlock(&in->lock);
	} else if (S_ISLNK(st->st_mode)) {
		char target[SYMLINK_MAX_PLAIN + 1];
		int len = attr_symlink_target(fs, in, fd, target, sizeof(target));

		explicit_bzero(target, sizeof(target));
		if (len >= 0)
			st->st_size = len;
	}
	inode_fd_release(&fs->inodes, in);
	return err;
}
