// SPDX-License-Identifier: MIT
/* see parallel.h */
#include "volume/parallel.h"

#include <pthread.h>

struct parallel_job {
	void (*fn)(void *arg, unsigned int part, unsigned int nparts);
	void *arg;
	unsigned int nparts;
	unsigned int remaining; /* helpers' parts not yet done; pool.lock */
};

struct helper {
	pthread_t thread;
	pthread_cond_t wake;
	struct parallel_job *job; /* set by a caller; NULL when idle */
	unsigned int part;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t done; /* a helper finished its part */
	unsigned int n;      /* started helpers */
	int stopping;
	struct helper h[PARALLEL_MAX_HELPERS];
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER, .done = PTHREAD_COND_INITIALIZER };

static void *helper_main(void *p)
{
	struct helper *h = p;

	pthread_mutex_lock(&pool.lock);
	for (;;) {
		struct parallel_job *job;

		while (!h->job && !pool.stopping)
			pthread_cond_wait(&h->wake, &pool.lock);
		if (!h->job)
			break; /* stopping, and nothing left to do */
		job = h->job;
		pthread_mutex_unlock(&pool.lock);
		job->fn(job->arg, h->part, job->nparts);
		pthread_mutex_lock(&pool.lock);
		h->job = NULL;
		job->remaining--;
		pthread_cond_broadcast(&pool.done);
	}
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

int parallel_start(unsigned int helpers)
{
	int err = 0;

	if (helpers > PARALLEL_MAX_HELPERS)
		helpers = PARALLEL_MAX_HELPERS;
	pthread_mutex_lock(&pool.lock);
	pool.stopping = 0;
	while (pool.n < helpers) {
		struct helper *h = &pool.h[pool.n];

		err = -pthread_cond_init(&h->wake, NULL);
		if (err)
			break;
		h->job = NULL;
		err = -pthread_create(&h->thread, NULL, helper_main, h);
		if (err) {
			pthread_cond_destroy(&h->wake);
			break;
		}
		pool.n++;
	}
	pthread_mutex_unlock(&pool.lock);
	return err;
}

void parallel_stop(void)
{
	unsigned int n;

	pthread_mutex_lock(&pool.lock);
	pool.stopping = 1;
	n = pool.n;
	for (unsigned int i = 0; i < n; i++)
		pthread_cond_signal(&pool.h[i].wake);
	pool.n = 0; /* no new parts go to them */
	pthread_mutex_unlock(&pool.lock);
	for (unsigned int i = 0; i < n; i++) {
		pthread_join(pool.h[i].thread, NULL);
		pthread_cond_destroy(&pool.h[i].wake);
	}
}

void parallel_run(void (*fn)(void *arg, unsigned int part, unsigned int nparts),
		  void *arg, unsigned int max_parts)
{
	struct parallel_job job = { fn, arg, 1, 0 };
	struct helper *claimed[PARALLEL_MAX_HELPERS];

	pthread_mutex_lock(&pool.lock);
	for (unsigned int i = 0; i < pool.n && job.nparts < max_parts; i++)
		if (!pool.h[i].job) {
			claimed[job.nparts - 1] = &pool.h[i];
			job.nparts++;
		}
	job.remaining = job.nparts - 1;
	for (unsigned int p = 1; p < job.nparts; p++) {
		claimed[p - 1]->job = &job;
		claimed[p - 1]->part = p;
		pthread_cond_signal(&claimed[p - 1]->wake);
	}
	pthread_mutex_unlock(&pool.lock);

	fn(arg, 0, job.nparts);

	if (job.nparts > 1) {
		pthread_mutex_lock(&pool.lock);
		while (job.remaining)
			pthread_cond_wait(&pool.done, &pool.lock);
		pthread_mutex_unlock(&pool.lock);
	}
}
