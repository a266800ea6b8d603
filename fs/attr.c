/* SPDX-License-Identifier: MIT */
/* see attr.h */
#include "fs/attr.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/procfd.h"
#include "fs/entry.h"
#include "fs/filestate.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/header.h"

/* a 32 + block-size file: is it a padded tiny file? read its header */
static int read_header(struct fs_inode *in, int pathfd, struct file_header *h)
{
	uint8_t raw[HEADER_SIZE];
	char path[PROCFD_LEN];
	int fd = in->file ? in->file->fd : -1, own = 0, err = 0;
	ssize_t n;

	if (fd < 0) {
		if (pathfd < 0)
			return -ESTALE;
		procfd_path(pathfd, path);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		own = 1;
	}
	n = pread(fd, raw, sizeof(raw), 0);
	if (n < 0)
		err = -errno;
	else if (n != (ssize_t)sizeof(raw))
		err = -EBADMSG;
	else
		err = header_decode(raw, h, NULL);
	if (own)
		close(fd);
	return err;
}

uint64_t attr_file_size(struct cloakfs *fs, struct fs_inode *in, int pathfd,
			uint64_t csize)
{
	struct file_header h;
	uint64_t plain;
	int err = 0;

	if (in->file && in->file->loaded) {
		err = fileio_size(&in->file->cf, &plain);
	} else if (content_size_needs_header(&fs->geom, csize)) {
		err = read_header(in, pathfd, &h);
		if (!err)
			err = content_plain_size(&fs->geom, csize, &h, &plain);
	} else {
		err = content_plain_size(&fs->geom, csize, NULL, &plain);
	}
	if (err) {
		log_warn("%s: file inode %llu: size %llu does not decode (%s)",
			 fs->cipherdir, (unsigned long long)in->ino,
			 (unsigned long long)csize, strerror(-err));
		plain = csize > HEADER_SIZE ? csize - HEADER_SIZE : 0;
	}
	return plain;
}

int attr_symlink_target(struct cloakfs *fs, struct fs_inode *in, int fd,
			char *out, size_t outlen)
{
	char enc[NAMES_MAX_SYMLINK_ENCODED + 2];
	char plain[NAMES_MAX_SYMLINK_PLAIN + 1];
	struct fs_inode *parent;
	ssize_t n = readlinkat(fd, "", enc, sizeof(enc));
	int len, pfd;

	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(enc) - 1)
		return -EIO; /* no encoding is this long */
	enc[n] = '\0';
	/* a version-1 target is encrypted under its directory's name key */
	parent = inode_parent(&fs->inodes, in);
	if (!parent)
		return -EIO;
	pfd = inode_fd_hold(&fs->inodes, parent);
	len = pfd < 0 ? pfd
		      : entry_symlink_decrypt(fs, parent, pfd, enc, (size_t)n,
					      plain);
	if (pfd >= 0)
		inode_fd_release(&fs->inodes, parent);
	inode_unpin(&fs->inodes, parent);
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
		char target[NAMES_MAX_SYMLINK_PLAIN + 1];
		int len = attr_symlink_target(fs, in, fd, target, sizeof(target));

		explicit_bzero(target, sizeof(target));
		if (len >= 0)
			st->st_size = len;
	}
	inode_fd_release(&fs->inodes, in);
	return err;
}
