/* SPDX-License-Identifier: MIT */
/* see rangelock.h */
#include "volume/rangelock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>

static int set(int fd, short type, off_t start, off_t len)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl)); /* l_pid must be 0 for OFD locks */
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = start;
	fl.l_len = len;
	return fcntl(fd, F_OFD_SETLK, &fl) == 0 ? 0 : -errno;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Polled rather than F_OFD_SETLKW, whose wait has no bound of its own
 * (only a signal ends it, and a FUSE worker thread has none to take).
 * The pause doubles from 1 ms to 64 ms, so a short hold costs little.
 */
int rangelock_take(int fd, int exclusive, off_t start, off_t len)
{
	long long until = now_ms() + RANGELOCK_WAIT_MS;
	struct timespec pause = { 0, 1000000 };

	for (;;) {
		int err = set(fd, exclusive ? F_WRLCK : F_RDLCK, start, len);

		if (err != -EAGAIN && err != -EACCES && err != -EINTR)
			return err;
		if (now_ms() >= until)
			return -ENOLCK;
		nanosleep(&pause, NULL);
		if (pause.tv_nsec < 64000000)
			pause.tv_nsec *= 2;
	}
}

void rangelock_drop(int fd, off_t start, off_t len)
{
	/* fails only for a bad descriptor; the lock then went with it */
	(void)set(fd, F_UNLCK, start, len);
}
