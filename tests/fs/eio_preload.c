/* SPDX-License-Identifier: MIT */
/*
 * Test helper (LD_PRELOAD into the cloakfs mount): make reads of chosen
 * backing files fail with EIO, as a failing disk would. The file named by
 * $CLOAKFS_EIO_CTL holds one substring per line; a read from an fd whose
 * /proc/self/fd path contains one of them returns -1/EIO. The control
 * file is re-read on every read, so a test switches faults on and off
 * while the filesystem stays mounted. No control file: no faults.
 */
/* define pread and pread64 each under its own name */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static int fd_is_faulty(int fd)
{
	const char *ctl = getenv("CLOAKFS_EIO_CTL");
	char link[64], path[4096], line[4096];
	ssize_t n;
	FILE *f;
	int hit = 0;

	if (!ctl)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	/* fopen would recurse into read(): use the raw syscall wrappers */
	int cfd = open(ctl, O_RDONLY | O_CLOEXEC);
	if (cfd < 0)
		return 0;
	f = fdopen(cfd, "r");
	if (!f) {
		close(cfd);
		return 0;
	}
	while (!hit && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (*line && strstr(path, line))
			hit = 1;
	}
	fclose(f);
	return hit;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	if (fd_is_faulty(fd)) {
		errno = EIO;
		return -1;
	}
	return REAL(pread)(fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off64_t off)
{
	if (fd_is_faulty(fd)) {
		errno = EIO;
		return -1;
	}
	return REAL(pread64)(fd, buf, len, off);
}

ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
	if (fd_is_faulty(fd)) {
		errno = EIO;
		return -1;
	}
	return REAL(preadv)(fd, iov, cnt, off);
}

ssize_t preadv64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
	if (fd_is_faulty(fd)) {
		errno = EIO;
		return -1;
	}
	return REAL(preadv64)(fd, iov, cnt, off);
}

ssize_t preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	if (fd_is_faulty(fd)) {
		errno = EIO;
		return -1;
	}
	return REAL(preadv2)(fd, iov, cnt, off, flags);
}
