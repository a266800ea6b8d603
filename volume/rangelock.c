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

long long rangelock_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int rangelock_writer_waits(int fd)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = RANGELOCK_INTENT;
	fl.l_len = 1;
	if (fcntl(fd, F_OFD_GETLK, &fl) != 0)
		return -errno;
	return fl.l_type != F_UNLCK;
}

/*
 * Polled rather than F_OFD_SETLKW, whose wait has no bound of its own
 * (only a signal ends it, and a FUSE worker thread has none to take).
 * The pause doubles from 1 ms to 64 ms, so a short hold costs little.
 * after_writers: a shared lock that waits while a writer waits; a
 * writer that has to wait says so on RANGELOCK_INTENT meanwhile.
 */
static int take(int fd, int exclusive, int after_writers, off_t start,
		off_t len)
{
	long long until = rangelock_now_ms() + RANGELOCK_WAIT_MS;
	struct timespec pause = { 0, 1000000 };
	int intent = 0, err;

	for (;;) {
		if (after_writers && rangelock_writer_waits(fd) == 1)
			err = -EAGAIN;
		else
			err = set(fd, exclusive ? F_WRLCK : F_RDLCK, start, len);
		if (err != -EAGAIN && err != -EACCES && err != -EINTR)
			break;
		if (rangelock_now_ms() >= until) {
			err = -ENOLCK;
			break;
		}
		/* shared: writers never wait for one another here */
		if (exclusive && !intent)
			intent = set(fd, F_RDLCK, RANGELOCK_INTENT, 1) == 0;
		nanosleep(&pause, NULL);
		if (pause.tv_nsec < 64000000)
			pause.tv_nsec *= 2;
	}
	if (intent)
		(void)set(fd, F_UNLCK, RANGELOCK_INTENT, 1);
	return err;
}

int rangelock_take(int fd, int exclusive, off_t start, off_t len)
{
	return take(fd, exclusive, 0, start, len);
}

int rangelock_take_after_writers(int fd, off_t start, off_t len)
{
	return take(fd, 0, 1, start, len);
}

void rangelock_drop(int fd, off_t start, off_t len)
{
	/* fails only for a bad descriptor; the lock then went with it */
	(void)set(fd, F_UNLCK, start, len);
}
