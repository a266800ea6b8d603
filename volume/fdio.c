/* SPDX-License-Identifier: MIT */
/* see fdio.h */
#include "volume/fdio.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/procfd.h"

int fdio_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t fdio_read_upto(int fd, void *buf, size_t max)
{
	size_t got = 0;

	while (got < max) {
		ssize_t n = read(fd, (char *)buf + got, max - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int fdio_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int fdio_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* -VOLUME_ENOTREG with the type, or 0 for a regular file */
static int want_regular(const struct stat *st, mode_t *type)
{
	if (S_ISREG(st->st_mode))
		return 0;
	if (type)
		*type = st->st_mode & S_IFMT;
	return -VOLUME_ENOTREG;
}

int fdio_open_regular(int dirfd, const char *name, mode_t *type)
{
	struct stat st;
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), err, fl;

	if (fd < 0)
		return -errno;
	err = fstat(fd, &st) == 0 ? want_regular(&st, type) : -errno;
	close(fd);
	if (err)
		return err;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
				 O_CLOEXEC);
	if (fd < 0) {
		/* a symlink swapped in since the look */
		if (errno == ELOOP && type)
			*type = S_IFLNK;
		return errno == ELOOP ? -VOLUME_ENOTREG : -errno;
	}
	err = fstat(fd, &st) == 0 ? want_regular(&st, type) : -errno;
	/* O_NONBLOCK was for the open; reads of the file block as usual */
	if (!err && ((fl = fcntl(fd, F_GETFL)) < 0 ||
		     fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

ssize_t fdio_read_file(int dirfd, const char *name, void *buf, size_t max,
			 mode_t *type)
{
	int fd = fdio_open_regular(dirfd, name, type);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = fdio_read_upto(fd, buf, max);
	close(fd);
	return n;
}

const char *volume_type_name(mode_t type)
{
	switch (type & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFLNK: return "a symlink";
	case S_IFIFO: return "a FIFO";
	case S_IFSOCK: return "a socket";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	default: return "an unknown file type";
	}
}

int fdio_path(int fd, char *buf, size_t len)
{
	char link[PROCFD_LEN];
	ssize_t n;

	if (len == 0)
		return -ENOSPC;
	buf[0] = '\0';
	procfd_path(fd, link);
	n = readlink(link, buf, len - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

int fdio_opendir(int dfd, DIR **dp)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	*dp = fdopendir(fd);
	if (!*dp) {
		int err = -errno;

		close(fd);
		return err;
	}
	return 0;
}
