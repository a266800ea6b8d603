/* SPDX-License-Identifier: MIT */
/* see inode.h */
#include "fs/inode.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fs/filestate.h"
#include "fs/rwlock.h"

#define TABLE_MIN_BUCKETS 1024

static size_t bucket_of(const struct inode_table *t, dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;

	h ^= h >> 29;
	return (size_t)(h & (t->nbuckets - 1));
}

int inode_table_init(struct inode_table *t)
{
	int err = pthread_mutex_init(&t->lock, NULL);

	if (err)
		return -err;
	t->nbuckets = TABLE_MIN_BUCKETS;
	t->count = 0;
	t->buckets = calloc(t->nbuckets, sizeof(*t->buckets));
	if (!t->buckets) {
		pthread_mutex_destroy(&t->lock);
		return -ENOMEM;
	}
	return 0;
}

/* double the buckets when full; a failed allocation only costs speed */
static void grow(struct inode_table *t)
{
	size_t n = t->nbuckets * 2, i;
	struct fs_inode **nb = calloc(n, sizeof(*nb));
	struct inode_table tmp = { .buckets = nb, .nbuckets = n };

	if (!nb)
		return;
	for (i = 0; i < t->nbuckets; i++) {
		struct fs_inode *in = t->buckets[i], *next;

		for (; in; in = next) {
			size_t b = bucket_of(&tmp, in->dev, in->ino);

			next = in->hnext;
			in->hnext = nb[b];
			nb[b] = in;
		}
	}
	free(t->buckets);
	t->buckets = nb;
	t->nbuckets = n;
}

static void unlink_hash(struct inode_table *t, struct fs_inode *in)
{
	struct fs_inode **pp = &t->buckets[bucket_of(t, in->dev, in->ino)];

	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == in) {
			*pp = in->hnext;
			t->count--;
			return;
		}
	}
	fprintf(stderr, "cloakfs: inode %p not in its hash bucket\n", (void *)in);
	abort();
}

static int inode_locks_init(struct fs_inode *in)
{
	/* a write must not wait behind an endless stream of read-ahead */
	int err = rwlock_init_writer_first(&in->io);

	if (err)
		return err;
	err = pthread_mutex_init(&in->lock, NULL);
	if (err)
		pthread_rwlock_destroy(&in->io);
	return err;
}

static void inode_locks_destroy(struct fs_inode *in)
{
	pthread_mutex_destroy(&in->lock);
	pthread_rwlock_destroy(&in->io);
}

static void free_inode(struct fs_inode *in)
{
	filestate_free(in->file);
	if (in->names)
		crypto_free(in->names);
	close(in->fd);
	inode_locks_destroy(in);
	free(in);
}

static void put_locked(struct inode_table *t, struct fs_inode *in);

/* free a dead inode: unhash, then drop what it pinned */
static void release_locked(struct inode_table *t, struct fs_inode *in)
{
	struct fs_inode *parent = in->parent;

	unlink_hash(t, in);
	in->parent = NULL;
	free_inode(in);
	if (parent)
		put_locked(t, parent);
}

static void put_locked(struct inode_table *t, struct fs_inode *in)
{
	if (in->pins == 0) {
		fprintf(stderr, "cloakfs: negative pin count on inode %p\n",
			(void *)in);
		abort();
	}
	if (--in->pins == 0 && in->nlookup == 0)
		release_locked(t, in);
}

static struct fs_inode *find_locked(struct inode_table *t, dev_t dev, ino_t ino)
{
	struct fs_inode *in = t->buckets[bucket_of(t, dev, ino)];

	for (; in; in = in->hnext)
		if (in->ino == ino && in->dev == dev)
			return in;
	return NULL;
}

static void insert_locked(struct inode_table *t, struct fs_inode *in)
{
	size_t b;

	if (t->count >= t->nbuckets)
		grow(t);
	b = bucket_of(t, in->dev, in->ino);
	in->hnext = t->buckets[b];
	t->buckets[b] = in;
	t->count++;
}

/* in is known: one more lookup (t locked) */
static struct fs_inode *lookup_again_locked(struct inode_table *t,
					    const struct stat *st)
{
	struct fs_inode *in = find_locked(t, st->st_dev, st->st_ino);

	if (in)
		in->nlookup++;
	return in;
}

int inode_table_get(struct inode_table *t, int fd, const struct stat *st,
		    struct fs_inode **out)
{
	struct fs_inode *in, *fresh = NULL;

	/* most LOOKUPs find the inode: allocate only when it is new */
	pthread_mutex_lock(&t->lock);
	in = lookup_again_locked(t, st);
	pthread_mutex_unlock(&t->lock);
	if (!in) {
		fresh = calloc(1, sizeof(*fresh));
		if (fresh && inode_locks_init(fresh) != 0) {
			free(fresh);
			fresh = NULL;
		}
		pthread_mutex_lock(&t->lock);
		/* another LOOKUP may have inserted it meanwhile */
		in = lookup_again_locked(t, st);
		if (!in && fresh) {
			in = fresh;
			fresh = NULL;
			in->fd = fd;
			fd = -1;
			in->dev = st->st_dev;
			in->ino = st->st_ino;
			in->type = st->st_mode & S_IFMT;
			in->nlookup = 1;
			insert_locked(t, in);
		}
		pthread_mutex_unlock(&t->lock);
	}
	if (fresh) {
		inode_locks_destroy(fresh);
		free(fresh);
	}
	if (fd >= 0)
		close(fd);
	*out = in;
	return in ? 0 : -ENOMEM;
}

void inode_table_forget(struct inode_table *t, struct fs_inode *in, uint64_t n)
{
	pthread_mutex_lock(&t->lock);
	if (n > in->nlookup) {
		fprintf(stderr, "cloakfs: negative lookup count on inode %p\n",
			(void *)in);
		abort();
	}
	in->nlookup -= n;
	if (in->nlookup == 0 && in->pins == 0)
		release_locked(t, in);
	pthread_mutex_unlock(&t->lock);
}

void inode_pin(struct inode_table *t, struct fs_inode *in)
{
	pthread_mutex_lock(&t->lock);
	in->pins++;
	pthread_mutex_unlock(&t->lock);
}

void inode_unpin(struct inode_table *t, struct fs_inode *in)
{
	pthread_mutex_lock(&t->lock);
	put_locked(t, in);
	pthread_mutex_unlock(&t->lock);
}

void inode_set_parent(struct inode_table *t, struct fs_inode *in,
		      struct fs_inode *parent)
{
	struct fs_inode *old = in->parent;

	if (old == parent)
		return;
	pthread_mutex_lock(&t->lock);
	parent->pins++;
	in->parent = parent;
	if (old)
		put_locked(t, old);
	pthread_mutex_unlock(&t->lock);
}

void inode_table_move(struct inode_table *t, struct fs_inode *in, int fd,
		      const struct stat *st)
{
	int old = in->fd;

	pthread_mutex_lock(&t->lock);
	unlink_hash(t, in);
	in->fd = fd;
	in->dev = st->st_dev;
	in->ino = st->st_ino;
	insert_locked(t, in);
	pthread_mutex_unlock(&t->lock);
	close(old);
}

struct fs_inode *inode_table_find(struct inode_table *t, dev_t dev, ino_t ino)
{
	struct fs_inode *in;

	pthread_mutex_lock(&t->lock);
	in = find_locked(t, dev, ino);
	if (in)
		in->pins++;
	pthread_mutex_unlock(&t->lock);
	return in;
}

int inode_table_foreach(struct inode_table *t,
			void (*fn)(struct fs_inode *in, void *arg), void *arg)
{
	struct fs_inode **all;
	size_t n = 0, i;

	pthread_mutex_lock(&t->lock);
	all = malloc((t->count ? t->count : 1) * sizeof(*all));
	if (!all) {
		pthread_mutex_unlock(&t->lock);
		return -ENOMEM;
	}
	for (i = 0; i < t->nbuckets; i++) {
		for (struct fs_inode *in = t->buckets[i]; in; in = in->hnext) {
			in->pins++;
			all[n++] = in;
		}
	}
	pthread_mutex_unlock(&t->lock);
	for (i = 0; i < n; i++)
		fn(all[i], arg);
	pthread_mutex_lock(&t->lock);
	for (i = 0; i < n; i++)
		put_locked(t, all[i]);
	pthread_mutex_unlock(&t->lock);
	free(all);
	return 0;
}

void inode_table_destroy(struct inode_table *t)
{
	for (size_t i = 0; i < t->nbuckets; i++) {
		struct fs_inode *in = t->buckets[i], *next;

		for (; in; in = next) {
			next = in->hnext;
			free_inode(in);
		}
	}
	free(t->buckets);
	t->buckets = NULL;
	pthread_mutex_destroy(&t->lock);
}
