/* SPDX-License-Identifier: MIT */
/* see secmem.h */
#include "crypto/secmem.h"

#include <errno.h>
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
	uint64_t pad[5];
};

_Static_assert(sizeof(struct secmem_record) == 64, "record is one cache line");

static atomic_ulong unlocked_count;

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
	r = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (r == MAP_FAILED)
		return NULL;
	if (mlock(r, maplen) != 0)
		atomic_fetch_add(&unlocked_count, 1);
	/* best effort: a kernel without it still gives a usable mapping */
	(void)madvise(r, maplen, MADV_DONTDUMP);
	r->magic = SECMEM_MAGIC;
	r->maplen = maplen;
	r->len = len;
	return (uint8_t *)r + 64;
}

void secmem_free(void *p)
{
	struct secmem_record *r;
	size_t maplen;

	if (!p)
		return;
	r = record_of(p);
	maplen = r->maplen;
	explicit_bzero(r, maplen);
	(void)munlock(r, maplen);
	if (munmap(r, maplen) != 0) {
		fprintf(stderr, "cloakfs: secmem: munmap failed\n");
		abort();
	}
}

size_t secmem_size(const void *p)
{
	return record_of(p)->len;
}

unsigned long secmem_unlocked_count(void)
{
	return atomic_load(&unlocked_count);
}
