/* SPDX-License-Identifier: MIT */
/* see readlease.h */
#include "fs/readlease.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "fs/filestate.h"
#include "fs/inode.h"

/* how often idle leases are looked for: a lease goes at most this long
 * after its idle time */
#define TICK_MS 20

struct readlease {
	struct inode_table *t;
	pthread_t thread;
	pthread_mutex_t lock;   /* guards what follows */
	pthread_cond_t cond;
	int stop;
	struct fs_inode **in;   /* pinned */
	size_t n, cap;
};

/* 1 if in's file still holds a lease (in's io not free: assume so) */
static int still_leased(struct fs_inode *in)
{
	int held = 0;

	if (pthread_rwlock_trywrlock(&in->io) != 0)
		return 1;
	pthread_mutex_lock(&in->lock);
	if (in->file && in->file->loaded)
		held = fileio_lease_idle(&in->file->cf);
	pthread_mutex_unlock(&in->lock);
	pthread_rwlock_unlock(&in->io);
	return held;
}

static void after_ms(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_nsec += ms * 1000000L;
	ts->tv_sec += ts->tv_nsec / 1000000000L;
	ts->tv_nsec %= 1000000000L;
}

static void *lease_main(void *arg)
{
	struct readlease *rl = arg;
	struct timespec until;

	pthread_mutex_lock(&rl->lock);
	while (!rl->stop) {
		size_t i = 0;

		if (rl->n == 0) {
			pthread_cond_wait(&rl->cond, &rl->lock);
			continue;
		}
		after_ms(&until, TICK_MS);
		pthread_cond_timedwait(&rl->cond, &rl->lock, &until);
		while (!rl->stop && i < rl->n) {
			struct fs_inode *in = rl->in[i];

			if (still_leased(in)) {
				i++;
				continue;
			}
			rl->in[i] = rl->in[--rl->n];
			/* unpinning may free in (and close its file): not
			 * under the list's lock, which READs take */
			pthread_mutex_unlock(&rl->lock);
			inode_unpin(rl->t, in);
			pthread_mutex_lock(&rl->lock);
		}
	}
	pthread_mutex_unlock(&rl->lock);
	return NULL;
}

struct readlease *readlease_start(struct inode_table *t, int *err)
{
	struct readlease *rl = calloc(1, sizeof(*rl));

	*err = -ENOMEM;
	if (!rl)
		return NULL;
	rl->t = t;
	if (pthread_mutex_init(&rl->lock, NULL) != 0)
		goto fail;
	if (pthread_cond_init(&rl->cond, NULL) != 0)
		goto fail_lock;
	*err = -pthread_create(&rl->thread, NULL, lease_main, rl);
	if (*err == 0)
		return rl;
	pthread_cond_destroy(&rl->cond);
fail_lock:
	pthread_mutex_destroy(&rl->lock);
fail:
	free(rl);
	return NULL;
}

void readlease_stop(struct readlease *rl)
{
	if (!rl)
		return;
	pthread_mutex_lock(&rl->lock);
	rl->stop = 1;
	pthread_cond_signal(&rl->cond);
	pthread_mutex_unlock(&rl->lock);
	pthread_join(rl->thread, NULL);
	while (rl->n)
		inode_unpin(rl->t, rl->in[--rl->n]);
	free(rl->in);
	pthread_cond_destroy(&rl->cond);
	pthread_mutex_destroy(&rl->lock);
	free(rl);
}

int readlease_add(struct readlease *rl, struct fs_inode *in)
{
	size_t i;

	pthread_mutex_lock(&rl->lock);
	for (i = 0; i < rl->n && rl->in[i] != in; i++)
		;
	if (i == rl->n) {
		if (rl->n == rl->cap) {
			size_t cap = rl->cap ? 2 * rl->cap : 8;
			struct fs_inode **more =
				realloc(rl->in, cap * sizeof(*more));

			if (!more) {
				pthread_mutex_unlock(&rl->lock);
				return -ENOMEM;
			}
			rl->in = more;
			rl->cap = cap;
		}
		inode_pin(rl->t, in);
		rl->in[rl->n++] = in;
		pthread_cond_signal(&rl->cond);
	}
	pthread_mutex_unlock(&rl->lock);
	return 0;
}
