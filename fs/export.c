/* SPDX-License-Identifier: MIT */
/* see export.h */
#include "fs/export.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "cli/decimal.h"

#include "fs/fileid.h"

/* entries come in chunks that never move, so export_live reads one
 * without the table lock while another chunk is added */
#define EXPORT_CHUNK_BITS 12
#define EXPORT_CHUNK (1u << EXPORT_CHUNK_BITS)
#define EXPORT_CHUNKS (1u << 16)
#define EXPORT_MIN_BUCKETS 1024u
#define NODEID_BASE 2 /* nodeid = index + 2: 0 is none, 1 the root */

enum entry_state { ENTRY_FREE, ENTRY_LIVE, ENTRY_FORGOTTEN };

struct export_entry {
	dev_t dev;
	ino_t ino;
	uint64_t generation;
	struct fileid *ident;           /* the entry's own copy */
	_Atomic(struct fs_inode *) live;
	uint32_t hnext;                 /* hash chain or free list, index + 1 */
	mode_t type;
	unsigned char state;
};

/* generations of new entries, from 1 (the root's is 0) */
static _Atomic uint64_t next_generation = 1;

int export_init(struct export_table *x)
{
	x->chunks = calloc(EXPORT_CHUNKS, sizeof(*x->chunks));
	x->nbuckets = EXPORT_MIN_BUCKETS;
	x->buckets = calloc(x->nbuckets, sizeof(*x->buckets));
	if (!x->chunks || !x->buckets) {
		free(x->chunks);
		free(x->buckets);
		return -ENOMEM;
	}
	x->used = x->free_head = x->hand = 0;
	x->hashed = x->forgotten = 0;
	x->max_forgotten = EXPORT_MAX_FORGOTTEN;
	x->keep = 0;
	return 0;
}

int export_keep_from_env(struct export_table *x)
{
	const char *env = getenv("CLOAKFS_EXPORT_KEEP");
	unsigned long long n;

	if (!env || !*env)
		return 0;
	if (decimal_parse(env, UINT32_MAX, &n) != 0 || n < 1)
		return -EINVAL;
	x->max_forgotten = (size_t)n;
	return 0;
}

/* entry i (i < x->used); the chunk is loaded atomically for export_live */
static struct export_entry *entry_at(struct export_table *x, uint32_t i)
{
	struct export_entry *c = atomic_load_explicit(
		&x->chunks[i >> EXPORT_CHUNK_BITS], memory_order_acquire);

	return c ? &c[i & (EXPORT_CHUNK - 1)] : NULL;
}

void export_destroy(struct export_table *x)
{
	for (uint32_t i = 0; i < x->used; i++)
		free(entry_at(x, i)->ident);
	for (uint32_t c = 0; c < EXPORT_CHUNKS; c++)
		free(atomic_load_explicit(&x->chunks[c], memory_order_relaxed));
	free(x->chunks);
	free(x->buckets);
	x->chunks = NULL;
	x->buckets = NULL;
}

static size_t bucket_of(size_t nbuckets, dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;

	h ^= h >> 29;
	return (size_t)(h & (nbuckets - 1));
}

static void hash_insert(struct export_table *x, uint32_t i)
{
	struct export_entry *e = entry_at(x, i);
	size_t b = bucket_of(x->nbuckets, e->dev, e->ino);

	e->hnext = x->buckets[b];
	x->buckets[b] = i + 1;
	x->hashed++;
}

static void hash_remove(struct export_table *x, uint32_t i)
{
	struct export_entry *e = entry_at(x, i);
	uint32_t *pp = &x->buckets[bucket_of(x->nbuckets, e->dev, e->ino)];

	while (*pp && *pp != i + 1)
		pp = &entry_at(x, *pp - 1)->hnext;
	if (!*pp)
		abort(); /* an entry in use but not in its bucket */
	*pp = e->hnext;
	x->hashed--;
}

/* double the buckets when full; a failed allocation only costs speed */
static void grow(struct export_table *x)
{
	size_t n = x->nbuckets * 2;
	uint32_t *nb = calloc(n, sizeof(*nb));

	if (!nb)
		return;
	free(x->buckets);
	x->buckets = nb;
	x->nbuckets = n;
	x->hashed = 0;
	for (uint32_t i = 0; i < x->used; i++)
		if (entry_at(x, i)->state != ENTRY_FREE)
			hash_insert(x, i);
}

/* entry i is no longer needed: its index goes to the free list */
static void reclaim(struct export_table *x, uint32_t i)
{
	struct export_entry *e = entry_at(x, i);

	if (e->state == ENTRY_FORGOTTEN)
		x->forgotten--;
	hash_remove(x, i);
	free(e->ident);
	e->ident = NULL;
	e->state = ENTRY_FREE;
	e->hnext = x->free_head;
	x->free_head = i + 1;
}

/* over the bound: the next forgotten entry after the hand goes */
static void reclaim_oldest(struct export_table *x)
{
	for (uint32_t n = 0; n < x->used; n++) {
		uint32_t i = x->hand++ % x->used;

		if (entry_at(x, i)->state == ENTRY_FORGOTTEN) {
			reclaim(x, i);
			return;
		}
	}
}

/* a free index (its chunk allocated), or -ENOMEM */
static int64_t take_index(struct export_table *x)
{
	uint32_t i, c;

	if (x->free_head) {
		i = x->free_head - 1;
		x->free_head = entry_at(x, i)->hnext;
		return i;
	}
	i = x->used;
	c = i >> EXPORT_CHUNK_BITS;
	if (c >= EXPORT_CHUNKS)
		return -ENOMEM;
	if (!entry_at(x, i)) {
		struct export_entry *chunk = calloc(EXPORT_CHUNK, sizeof(*chunk));

		if (!chunk)
			return -ENOMEM;
		atomic_store_explicit(&x->chunks[c], chunk,
				      memory_order_release);
	}
	x->used++;
	return i;
}

/* the forgotten entry of in's file, else -1; forgotten entries of its
 * (dev, ino) that are another file (it was deleted) are reclaimed */
static int64_t find_forgotten(struct export_table *x,
			      const struct export_file *in)
{
	uint32_t next = x->buckets[bucket_of(x->nbuckets, in->dev, in->ino)];

	while (next) {
		uint32_t i = next - 1;
		struct export_entry *e = entry_at(x, i);

		next = e->hnext;
		if (e->state != ENTRY_FORGOTTEN || e->dev != in->dev ||
		    e->ino != in->ino)
			continue;
		/* without an identity the file cannot be told from a newer
		 * one: neither taken nor reclaimed (it may be this file) */
		if (!in->ident)
			continue;
		if (e->type == in->type && fileid_equal(e->ident, in->ident))
			return i;
		reclaim(x, i);
	}
	return -1;
}

/* e takes in's file */
static int describe(struct export_entry *e, const struct export_file *in)
{
	struct fileid *id = NULL;

	if (in->ident && !(id = fileid_dup(in->ident)))
		return -ENOMEM;
	free(e->ident);
	e->ident = id;
	e->dev = in->dev;
	e->ino = in->ino;
	e->type = in->type;
	return 0;
}

int export_attach(struct export_table *x, const struct export_file *f,
		  struct fs_inode *in, uint64_t *nodeid, uint64_t *generation)
{
	int64_t i = find_forgotten(x, f);
	struct export_entry *e;

	if (i >= 0) {
		e = entry_at(x, (uint32_t)i);
		x->forgotten--;
	} else {
		i = take_index(x);
		if (i < 0)
			return (int)i;
		e = entry_at(x, (uint32_t)i);
		e->ident = NULL;
		if (describe(e, f) != 0) {
			e->hnext = x->free_head;
			x->free_head = (uint32_t)i + 1;
			return -ENOMEM;
		}
		e->generation = atomic_fetch_add(&next_generation, 1);
		if (x->hashed >= x->nbuckets)
			grow(x);
		hash_insert(x, (uint32_t)i);
	}
	e->state = ENTRY_LIVE;
	atomic_store_explicit(&e->live, in, memory_order_release);
	*nodeid = (uint64_t)i + NODEID_BASE;
	*generation = e->generation;
	return 0;
}

/* nodeid's entry, or NULL for the root (which has none) */
static struct export_entry *entry_of(struct export_table *x, uint64_t nodeid)
{
	return nodeid >= NODEID_BASE
		       ? entry_at(x, (uint32_t)(nodeid - NODEID_BASE))
		       : NULL;
}

void export_detach(struct export_table *x, uint64_t nodeid)
{
	struct export_entry *e = entry_of(x, nodeid);

	if (!e)
		return;
	atomic_store_explicit(&e->live, NULL, memory_order_relaxed);
	e->state = ENTRY_FORGOTTEN;
	x->forgotten++;
	/* an entry that cannot be reopened by handle serves no one */
	if (!x->keep || !e->ident)
		reclaim(x, (uint32_t)(nodeid - NODEID_BASE));
	else if (x->forgotten > x->max_forgotten)
		reclaim_oldest(x);
}

int export_moved(struct export_table *x, uint64_t nodeid,
		 const struct export_file *f)
{
	struct export_entry *e = entry_of(x, nodeid);
	uint32_t i;
	int err;

	if (!e)
		return 0;
	i = (uint32_t)(nodeid - NODEID_BASE);
	hash_remove(x, i);
	err = describe(e, f);
	hash_insert(x, i);
	return err;
}

struct fs_inode *export_live(struct export_table *x, uint64_t nodeid)
{
	uint64_t i = nodeid - NODEID_BASE;
	struct export_entry *e;

	if (nodeid < NODEID_BASE || i >= (uint64_t)EXPORT_CHUNKS * EXPORT_CHUNK)
		return NULL;
	e = entry_at(x, (uint32_t)i);
	return e ? atomic_load_explicit(&e->live, memory_order_acquire) : NULL;
}

void export_gone(struct export_table *x, uint64_t nodeid)
{
	uint64_t i = nodeid - NODEID_BASE;

	if (nodeid >= NODEID_BASE && i < x->used &&
	    entry_at(x, (uint32_t)i)->state == ENTRY_FORGOTTEN)
		reclaim(x, (uint32_t)i);
}

int export_find(struct export_table *x, uint64_t nodeid,
		struct fs_inode **live, dev_t *dev, ino_t *ino,
		struct fileid **id)
{
	uint64_t i = nodeid - NODEID_BASE;
	struct export_entry *e;

	*live = NULL;
	*id = NULL;
	if (nodeid < NODEID_BASE || i >= x->used)
		return -ESTALE;
	e = entry_at(x, (uint32_t)i);
	if (e->state == ENTRY_LIVE) {
		*live = atomic_load_explicit(&e->live, memory_order_relaxed);
		return 0;
	}
	if (e->state != ENTRY_FORGOTTEN || !e->ident)
		return -ESTALE;
	*id = fileid_dup(e->ident);
	if (!*id)
		return -ENOMEM;
	*dev = e->dev;
	*ino = e->ino;
	return 0;
}
