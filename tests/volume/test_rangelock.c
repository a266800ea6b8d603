/* SPDX-License-Identifier: MIT */
/*
 * volume/rangelock.h between descriptors of one local file (OFD locks
 * conflict between descriptors as they do between machines): a writer
 * that finds its range free leaves no "writer waiting" mark behind; one
 * that has to wait holds the mark while it waits and gives it back; and
 * a reader that keeps taking whole-file read leases one after another
 * (as -o shared's busy readers do) lets a waiting writer in within a
 * short bound instead of holding it off until RANGELOCK_WAIT_MS.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/rangelock.h"

/* a busy reader's lease is held this long, then taken again at once */
#define LEASE_HOLD_MS 20
/* a waiting writer gets in within this (its polls pause up to 64 ms) */
#define WRITER_BOUND_MS 3000
/* a writer's range short of the mark (one to the end covers it) */
#define WRITE_LEN 4096

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

struct side {
	int fd;
	atomic_int stop;
	atomic_int ret;       /* the writer's rangelock_take, while -1000 */
	int leases, failures;
};

static void *busy_reader(void *arg)
{
	struct side *s = arg;

	while (!atomic_load(&s->stop)) {
		if (rangelock_take_after_writers(s->fd, 0, RANGELOCK_INTENT)) {
			s->failures++;
			continue;
		}
		s->leases++;
		sleep_ms(LEASE_HOLD_MS);
		rangelock_drop(s->fd, 0, RANGELOCK_INTENT);
	}
	return NULL;
}

static void *writer(void *arg)
{
	struct side *s = arg;

	atomic_store(&s->ret, rangelock_take(s->fd, 1, 0, WRITE_LEN));
	return NULL;
}

static void test_uncontended(int a, int b)
{
	CHECK(rangelock_take(a, 1, 0, WRITE_LEN) == 0, "free range: taken");
	CHECK(rangelock_writer_waits(b) == 0, "free range: no writer-waiting mark");
	rangelock_drop(a, 0, WRITE_LEN);
	CHECK(rangelock_take_after_writers(b, 0, RANGELOCK_INTENT) == 0,
	      "lease with no writer waiting: taken");
	rangelock_drop(b, 0, RANGELOCK_INTENT);
}

static void test_waiting_writer_marks(int a, int b, int c)
{
	struct side w = { .fd = a };
	pthread_t t;

	atomic_store(&w.ret, -1000);
	CHECK(rangelock_take(b, 0, 0, RANGELOCK_INTENT) == 0, "lease taken");
	if (pthread_create(&t, NULL, writer, &w) != 0) {
		CHECK(0, "pthread_create");
		return;
	}
	sleep_ms(200);
	CHECK(atomic_load(&w.ret) == -1000, "writer waits for the lease");
	CHECK(rangelock_writer_waits(c) == 1, "a waiting writer holds the mark");
	rangelock_drop(b, 0, RANGELOCK_INTENT);
	pthread_join(t, NULL);
	CHECK(atomic_load(&w.ret) == 0, "writer in once the lease went: %d",
	      atomic_load(&w.ret));
	CHECK(rangelock_writer_waits(c) == 0, "the mark given back by the writer");
	rangelock_drop(a, 0, WRITE_LEN);
}

static void test_busy_reader_lets_writer_in(int a, int b)
{
	struct side r = { .fd = b };
	long long t0, took;
	pthread_t t;

	if (pthread_create(&t, NULL, busy_reader, &r) != 0) {
		CHECK(0, "pthread_create");
		return;
	}
	sleep_ms(100);
	t0 = rangelock_now_ms();
	CHECK(rangelock_take(a, 1, 0, 0) == 0, "writer in beside busy reads");
	took = rangelock_now_ms() - t0;
	CHECK(took < WRITER_BOUND_MS,
	      "writer waited %lld ms beside leases of %d ms (bound %d)", took,
	      LEASE_HOLD_MS, WRITER_BOUND_MS);
	rangelock_drop(a, 0, 0);
	atomic_store(&r.stop, 1);
	pthread_join(t, NULL);
	CHECK(r.leases > 0 && r.failures == 0,
	      "reader leases: %d taken, %d failed", r.leases, r.failures);
}

int main(void)
{
	char *dir = voltest_tmpdir("rangelock");
	char path[4200];
	int a, b, c;

	snprintf(path, sizeof(path), "%s/f", dir);
	a = open(path, O_RDWR | O_CREAT, 0600);
	b = open(path, O_RDWR);
	c = open(path, O_RDWR);
	if (a < 0 || b < 0 || c < 0) {
		perror(path);
		return 1;
	}
	test_uncontended(a, b);
	test_waiting_writer_marks(a, b, c);
	test_busy_reader_lets_writer_in(a, b);
	close(a);
	close(b);
	close(c);
	voltest_rmtree(dir);
	free(dir);
	return test_finish("test_rangelock");
}
