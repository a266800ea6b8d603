/* SPDX-License-Identifier: MIT */
/* see secmem.h */
#include "crypto/secmem.h"

#include "crypto/cpu.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Layout of one mapping: a 64-byte record at its start, the caller's bytes
 * after it. The record holds the mapping size so free needs no length.
 */
#define SECMEM_MAGIC 0x636c6b66736d656dULL /* "clkfsmem" */

struct secmem_record {
	uint64_t magic;
	uint64_t maplen; /* fixed width: the record is 64 bytes on 32-bit too */
	uint64_t len;
	/* the list of live allocations (fork re-locks them), under the pool
	 * lock; uint64_t, not pointers, so the size is the same everywhere */
	uint64_t next, prev;
	uint64_t pad[3];
};

_Static_assert(sizeof(struct secmem_record) == 64, "record is one cache line");

static atomic_ulong unlocked_count;

/*
 * Freed one-page mappings are kept (wiped, still locked and DONTDUMP) for
 * reuse: the mount allocates a transform per open file, and mmap + mlock +
 * madvise + munlock + munmap per open was five syscalls, mlock's LRU drain
 * an IPI to every CPU. At most SECMEM_POOL_PAGES stay locked.
 *
 * Memory locks are not inherited by fork(), and a forked child may live on
 * with the secrets (the mount goes to the background with fuse_daemonize()
 * after its keys are made): a fork handler makes the child lock every live
 * allocation again and drop the parent's pool rather than hand out
 * unlocked pages. Every live allocation is on one list for that.
 */
#define SECMEM_POOL_PAGES 64

static struct {
	atomic_flag busy;
	unsigned n;
	struct secmem_record *page[SECMEM_POOL_PAGES];
	struct secmem_record *live; /* head of the live list */
} pool = { ATOMIC_FLAG_INIT, 0, { NULL }, NULL };

static pthread_once_t pool_fork_once = PTHREAD_ONCE_INIT;
static int pool_usable; /* 0 when the fork handler could not be registered */

static void pool_lock(void)
{
	while (atomic_flag_test_and_set_explicit(&pool.busy, memory_order_acquire))
		; /* held for a few loads and stores */
}

static void pool_unlock(void)
{
	atomic_flag_clear_explicit(&pool.busy, memory_order_release);
}

static void unmap_or_die(void *r, size_t maplen)
{
	if (munmap(r, maplen) != 0) {
		fprintf(stderr, "cloakfs: secmem: munmap failed\n");
		abort();
	}
}

/* fork: hold the lock across it so the child never sees it taken */
static void pool_before_fork(void)
{
	pool_lock();
}

static void pool_after_fork_parent(void)
{
	pool_unlock();
}

/*
 * The child's copies of the pages are not locked: lock the live ones again
 * (for a private mapping this also gives the child its own copy of each
 * page, so nothing is shared copy-on-write with the parent any more) and
 * unmap the pool's (wiped).
 */
static void pool_after_fork_child(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (struct secmem_record *r = pool.live; r;
	     r = (struct secmem_record *)(uintptr_t)r->next)
		if (mlock(r, (size_t)r->maplen) != 0)
			atomic_fetch_add(&unlocked_count, 1);
	while (pool.n)
		unmap_or_die(pool.page[--pool.n], page);
	pool_unlock();
}

static void pool_register_fork_handler(void)
{
	pool_usable = pthread_atfork(pool_before_fork, pool_after_fork_parent,
				     pool_after_fork_child) == 0;
}

/* true once the fork handler is registered (before the first secret) */
static int fork_handler_ready(void)
{
	return pthread_once(&pool_fork_once, pool_register_fork_handler) == 0 &&
	       pool_usable;
}

/* a wiped, locked page from the pool, or NULL */
static struct secmem_record *pool_take(void)
{
	struct secmem_record *r = NULL;

	pool_lock();
	if (pool.n)
		r = pool.page[--pool.n];
	pool_unlock();
	return r;
}

static void live_add(struct secmem_record *r)
{
	pool_lock();
	r->prev = 0;
	r->next = (uint64_t)(uintptr_t)pool.live;
	if (pool.live)
		pool.live->prev = (uint64_t)(uintptr_t)r;
	pool.live = r;
	pool_unlock();
}

static void live_remove(struct secmem_record *r)
{
	struct secmem_record *next, *prev;

	pool_lock();
	next = (struct secmem_record *)(uintptr_t)r->next;
	prev = (struct secmem_record *)(uintptr_t)r->prev;
	if (prev)
		prev->next = r->next;
	else
		pool.live = next;
	if (next)
		next->prev = r->prev;
	pool_unlock();
}

/* keep a wiped, locked page for reuse; 0 when the pool is full */
static int pool_put(struct secmem_record *r)
{
	int kept = 0;

	if (!pool_usable)
		return 0;
	pool_lock();
	if (pool.n < SECMEM_POOL_PAGES) {
		pool.page[pool.n++] = r;
		kept = 1;
	}
	pool_unlock();
	return kept;
}

static struct secmem_record *record_of(const void *p)
{
	struct secmem_record *r = (struct secmem_record *)((uintptr_t)p - 64);

	if (r->magic != SECMEM_MAGIC) {
		fprintf(stderr, "cloakfs: secmem: pointer not from secmem_alloc\n");
		abort();
	}
	return r;
}

void *secmem_alloc(size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), maplen;
	struct secmem_record *r;

	if (len == 0)
		len = 1;
	if (len > SIZE_MAX - 64 - page) {
		errno = ENOMEM;
		return NULL;
	}
	maplen = (len + 64 + page - 1) / page * page;
	/* wiped by secmem_free when it comes from the pool */
	r = fork_handler_ready() && maplen == page ? pool_take() : NULL;
	if (!r) {
		r = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (r == MAP_FAILED)
			return NULL;
		if (mlock(r, maplen) != 0)
			atomic_fetch_add(&unlocked_count, 1);
		/* best effort: a kernel without it still gives a usable mapping */
		(void)madvise(r, maplen, MADV_DONTDUMP);
	}
	r->magic = SECMEM_MAGIC;
	r->maplen = maplen;
	r->len = len;
	live_add(r);
	return (uint8_t *)r + 64;
}

void secmem_free(void *p)
{
	struct secmem_record *r;
	size_t maplen;

	if (!p)
		return;
	r = record_of(p);
	live_remove(r);
	maplen = r->maplen;
	explicit_bzero(r, maplen);
	if (maplen == (size_t)sysconf(_SC_PAGESIZE) && pool_put(r))
		return;
	(void)munlock(r, maplen);
	unmap_or_die(r, maplen);
}

size_t secmem_size(const void *p)
{
	return record_of(p)->len;
}

unsigned long secmem_unlocked_count(void)
{
	return atomic_load(&unlocked_count);
}

void wipe_free(void *p, size_t len)
{
	if (p) {
		explicit_bzero(p, len);
		free(p);
	}
}

/*
 * SIMD cores return with round keys still in vector registers, and any
 * later XSAVE to user memory (a signal frame, the dynamic linker's lazy
 * binding trampoline) would copy them to the stack: zero the registers
 * the ABI lets us clobber. The compiler saves and restores the
 * callee-saved ones (none on x86-64 Linux; v8-v15 low halves on AArch64)
 * around this because they are listed as clobbered.
 */
static void clear_vector_registers(void)
{
#if defined(__x86_64__)
	if (cpu_features() & CPU_FEAT_AVX512F)
		__asm__ volatile(
			"vpxord %%zmm16, %%zmm16, %%zmm16\n\tvpxord %%zmm17, %%zmm17, %%zmm17\n\t"
			"vpxord %%zmm18, %%zmm18, %%zmm18\n\tvpxord %%zmm19, %%zmm19, %%zmm19\n\t"
			"vpxord %%zmm20, %%zmm20, %%zmm20\n\tvpxord %%zmm21, %%zmm21, %%zmm21\n\t"
			"vpxord %%zmm22, %%zmm22, %%zmm22\n\tvpxord %%zmm23, %%zmm23, %%zmm23\n\t"
			"vpxord %%zmm24, %%zmm24, %%zmm24\n\tvpxord %%zmm25, %%zmm25, %%zmm25\n\t"
			"vpxord %%zmm26, %%zmm26, %%zmm26\n\tvpxord %%zmm27, %%zmm27, %%zmm27\n\t"
			"vpxord %%zmm28, %%zmm28, %%zmm28\n\tvpxord %%zmm29, %%zmm29, %%zmm29\n\t"
			"vpxord %%zmm30, %%zmm30, %%zmm30\n\tvpxord %%zmm31, %%zmm31, %%zmm31"
			::: "memory");
	if (cpu_features() & CPU_FEAT_AVX)
		__asm__ volatile("vzeroall" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
				 "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
				 "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory");
	else
		__asm__ volatile(
			"pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
			"pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
			"pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\tpxor %%xmm8, %%xmm8\n\t"
			"pxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
			"pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\tpxor %%xmm14, %%xmm14\n\t"
			"pxor %%xmm15, %%xmm15"
			::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
			    "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
			    "xmm15", "memory");
#elif defined(__aarch64__)
	__asm__ volatile(
		"movi v0.16b, #0\n\tmovi v1.16b, #0\n\tmovi v2.16b, #0\n\tmovi v3.16b, #0\n\t"
		"movi v4.16b, #0\n\tmovi v5.16b, #0\n\tmovi v6.16b, #0\n\tmovi v7.16b, #0\n\t"
		"movi v16.16b, #0\n\tmovi v17.16b, #0\n\tmovi v18.16b, #0\n\tmovi v19.16b, #0\n\t"
		"movi v20.16b, #0\n\tmovi v21.16b, #0\n\tmovi v22.16b, #0\n\tmovi v23.16b, #0\n\t"
		"movi v24.16b, #0\n\tmovi v25.16b, #0\n\tmovi v26.16b, #0\n\tmovi v27.16b, #0\n\t"
		"movi v28.16b, #0\n\tmovi v29.16b, #0\n\tmovi v30.16b, #0\n\tmovi v31.16b, #0"
		::: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v17", "v18",
		    "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28",
		    "v29", "v30", "v31", "memory");
#endif
}

void __attribute__((noinline)) secmem_scrub_stack(void)
{
	uint8_t area[SECMEM_SCRUB_BYTES];

	clear_vector_registers();
	explicit_bzero(area, sizeof(area));
	/* keep the frame (and the call) from being optimised away */
	__asm__ volatile("" : : "r"(area) : "memory");
}
