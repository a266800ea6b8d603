/* SPDX-License-Identifier: MIT */
/* see dirlock.h */
#include "volume/dirlock.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

int dirlock_take(const char *dir, enum dirlock_mode mode,
		 void (*waiting)(void *arg), void *arg)
{
	int op = mode == DIRLOCK_SHARED ? LOCK_SH : LOCK_EX;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = flock(fd, op | LOCK_NB);
	if (rc != 0 && errno == EWOULDBLOCK && waiting) {
		waiting(arg); /* only when there is something to wait for */
		do
			rc = flock(fd, op);
		while (rc != 0 && errno == EINTR);
	}
	if (rc != 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}
