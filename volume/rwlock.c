/* SPDX-License-Identifier: MIT */
/* see rwlock.h */
#include "volume/rwlock.h"

int rwlock_init_writer_first(pthread_rwlock_t *lock)
{
	pthread_rwlockattr_t attr;
	int err = pthread_rwlockattr_init(&attr);

	if (err)
		return err;
	/* non-recursive: a thread that holds a read lock never takes it
	 * again, so a waiting writer cannot deadlock it */
	err = pthread_rwlockattr_setkind_np(&attr,
				PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	if (!err)
		err = pthread_rwlock_init(lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	return err;
}
