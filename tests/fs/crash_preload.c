/* SPDX-License-Identifier: MIT */
/*
 * Test helper (LD_PRELOAD into the cloakfs mount): a backing store that
 * loses what was not synced when the machine "crashes". Every write of a
 * regular file below $CLOAKFS_CRASH_DIR (write, pwrite, pwritev, ftruncate,
 * fallocate, in all their forms) first marks the file dirty in
 * $CLOAKFS_CRASH_SHADOW ("DEV-INO.dirty"); every fsync or fdatasync of
 * such a file copies its content, as it is when the call returns, to
 * "DEV-INO.data" there. After the mount is killed, the test puts each
 * dirty file back to its last copy, or empties it when it was never
 * synced (tests/fs/test_faults.py, crash_restore): what a power cut
 * leaves of file content on a disk that keeps only what was flushed.
 * Names and directories are kept as they are (the model is about file
 * content). Writes and syncs of the tracked files are serialized, so a
 * copy never holds half a write.
 */
/* define each of pwrite and pwrite64 (and the others) under its own name */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "preload_fdpath.h"

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static pthread_mutex_t crash_lock = PTHREAD_MUTEX_INITIALIZER;

/* the shadow name of fd's file ("DIR/DEV-INO"), if fd is a regular file
 * below the crash directory; 1 then, else 0 */
static int tracked(int fd, char *base, size_t cap)
{
	const char *dir = getenv("CLOAKFS_CRASH_DIR");
	const char *shadow = getenv("CLOAKFS_CRASH_SHADOW");
	char path[PATH_MAX];
	size_t dlen;
	struct stat st;

	if (!dir || !shadow || !*dir || !*shadow ||
	    preload_fd_path(fd, path, sizeof(path)) != 0)
		return 0;
	dlen = strlen(dir);
	if (strncmp(path, dir, dlen) != 0 || path[dlen] != '/')
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	snprintf(base, cap, "%s/%llu-%llu", shadow, (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	return 1;
}

/* say the file changes before it does: a kill between the two leaves it
 * marked, never changed unmarked */
static void mark_dirty(const char *base)
{
	char path[PATH_MAX + 8];
	int fd;

	snprintf(path, sizeof(path), "%s.dirty", base);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror("crash_preload: cannot mark a file dirty");
		abort();
	}
	close(fd);
}

/* copy fd's whole content to base.data (through a temporary and a rename,
 * so a kill in the middle keeps the previous copy) */
static void snapshot(int fd, const char *base)
{
	ssize_t (*real_write)(int, const void *, size_t) = REAL(write);
	char tmp[PATH_MAX + 8], data[PATH_MAX + 8], buf[65536], self[64];
	int in, out;

	snprintf(tmp, sizeof(tmp), "%s.tmp", base);
	snprintf(data, sizeof(data), "%s.data", base);
	/* fd may be write-only (a directory nonce) */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	in = open(self, O_RDONLY | O_CLOEXEC);
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (in < 0 || out < 0)
		goto fail;
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		if (real_write(out, buf, (size_t)n) != n)
			goto fail;
	}
	if (close(in) != 0 || close(out) != 0 || rename(tmp, data) != 0)
		goto fail;
	return;
fail:
	/* a copy that cannot be made would turn into a lost file later */
	perror("crash_preload: cannot copy a synced file");
	abort();
}

/* a write-like call: mark, then do it, serialized with the syncs */
#define TRACKED_WRITE(fd, call)                                             \
	do {                                                                \
		char base_[PATH_MAX];                                       \
		__typeof__(call) r_;                                        \
		int saved_;                                                 \
		if (!tracked(fd, base_, sizeof(base_)))                     \
			return call;                                        \
		pthread_mutex_lock(&crash_lock);                            \
		mark_dirty(base_);                                          \
		r_ = call;                                                  \
		saved_ = errno;                                             \
		pthread_mutex_unlock(&crash_lock);                          \
		errno = saved_;                                             \
		return r_;                                                  \
	} while (0)

ssize_t write(int fd, const void *buf, size_t len)
{
	TRACKED_WRITE(fd, REAL(write)(fd, buf, len));
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	TRACKED_WRITE(fd, REAL(pwrite)(fd, buf, len, off));
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off64_t off)
{
	TRACKED_WRITE(fd, REAL(pwrite64)(fd, buf, len, off));
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	TRACKED_WRITE(fd, REAL(writev)(fd, iov, cnt));
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	TRACKED_WRITE(fd, REAL(pwritev)(fd, iov, cnt, off));
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
	TRACKED_WRITE(fd, REAL(pwritev64)(fd, iov, cnt, off));
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	TRACKED_WRITE(fd, REAL(pwritev2)(fd, iov, cnt, off, flags));
}

int ftruncate(int fd, off_t len)
{
	TRACKED_WRITE(fd, REAL(ftruncate)(fd, len));
}

int ftruncate64(int fd, off64_t len)
{
	TRACKED_WRITE(fd, REAL(ftruncate64)(fd, len));
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	TRACKED_WRITE(fd, REAL(fallocate)(fd, mode, off, len));
}

int fallocate64(int fd, int mode, off64_t off, off64_t len)
{
	TRACKED_WRITE(fd, REAL(fallocate64)(fd, mode, off, len));
}

/* a sync that succeeded makes the file's content as it is now durable */
#define TRACKED_SYNC(fd, call)                                              \
	do {                                                                \
		char base_[PATH_MAX];                                       \
		int r_, saved_;                                             \
		if (!tracked(fd, base_, sizeof(base_)))                     \
			return call;                                        \
		pthread_mutex_lock(&crash_lock);                            \
		r_ = call;                                                  \
		saved_ = errno;                                             \
		if (r_ == 0)                                                \
			snapshot(fd, base_);                                \
		pthread_mutex_unlock(&crash_lock);                          \
		errno = saved_;                                             \
		return r_;                                                  \
	} while (0)

int fsync(int fd)
{
	TRACKED_SYNC(fd, REAL(fsync)(fd));
}

int fdatasync(int fd)
{
	TRACKED_SYNC(fd, REAL(fdatasync)(fd));
}
