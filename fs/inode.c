/* SPDX-License-Identifier: MIT */
/* see inode.h */
#include "fs/inode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "volume/rwlock.h"

#define TABLE_MIN_BUCKETS 1024
/* names remembered per inode: hard links beyond these are learnt again
 * by the next LOOKUP through them */
#define INODE_MAX_LINKS 4

struct inode_link {
	struct inode_link *next;
	struct fs_inode *parent; /* pinned */
	char cname[];
};

static size_t bucket_of(const struct inode_table *t, dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;

	h ^= h >> 29;
	return (size_t)(h & (t->nbuckets - 1));
}

/* ---- the table ------------------------------------------------------------ */

int inode_table_init(struct inode_table *t, unsigned int max_fds,
		     const struct inode_file_ops *file)
{
	int err = pthread_mutex_init(&t->lock, NULL);

	if (err)
		return -err;
	t->nbuckets = TABLE_MIN_BUCKETS;
	t->count = 0;
	t->max_fds = max_fds < 2 ? 2 : max_fds;
	fdcache_init(&t->fds);
	t->handles.mount_fd = -1;
	t->evictions = t->reopens = t->revived = 0;
	t->stale = NULL;
	t->reap = NULL;
	t->file = file;
	t->buckets = calloc(t->nbuckets, sizeof(*t->buckets));
	if (!t->buckets || export_init(&t->exp) != 0) {
		free(t->buckets);
		pthread_mutex_destroy(&t->lock);
		return -ENOMEM;
	}
	return 0;
}

void inode_table_probe_handles(struct inode_table *t, int rootfd)
{
	fileid_probe(&t->handles, rootfd);
	/* a forgotten inode is found again only by its handle */
	t->exp.keep = t->handles.mount_fd >= 0;
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

/* the backing file in names, as its export entry keeps it */
static struct export_file file_of(const struct fs_inode *in)
{
	struct export_file f = { in->dev, in->ino, in->type, in->ident };

	return f;
}

/* in (not the root) takes its nodeid and generation; table lock held */
static int attach_export(struct inode_table *t, struct fs_inode *in)
{
	struct export_file f = file_of(in);

	return export_attach(&t->exp, &f, in, &in->nodeid, &in->generation);
}

/* in's file changed; its export entry follows. table lock held */
static int move_export(struct inode_table *t, struct fs_inode *in)
{
	struct export_file f = file_of(in);

	return export_moved(&t->exp, in->nodeid, &f);
}

static void insert_hash(struct inode_table *t, struct fs_inode *in)
{
	size_t b;

	if (t->count >= t->nbuckets)
		grow(t);
	b = bucket_of(t, in->dev, in->ino);
	in->hnext = t->buckets[b];
	t->buckets[b] = in;
	t->count++;
}

static struct fs_inode *find_locked(struct inode_table *t, dev_t dev, ino_t ino)
{
	struct fs_inode *in = t->buckets[bucket_of(t, dev, ino)];

	for (; in; in = in->hnext)
		if (in->ino == ino && in->dev == dev)
			return in;
	return NULL;
}

/* ---- names ------------------------------------------------------------------ */

static int link_matches(const struct inode_link *l, const struct fs_inode *parent,
			const char *cname)
{
	return l->parent == parent && strcmp(l->cname, cname) == 0;
}

static void put_locked(struct inode_table *t, struct fs_inode *in);

/* remember (parent, cname) as in's newest name; t locked */
static void link_add_locked(struct inode_table *t, struct fs_inode *in,
			    struct fs_inode *parent, const char *cname)
{
	struct inode_link **pp, *l, *last = NULL;
	size_t n = strlen(cname), count = 0;

	for (pp = &in->links; *pp; pp = &(*pp)->next) {
		if (link_matches(*pp, parent, cname)) {
			/* known: make it the newest */
			l = *pp;
			*pp = l->next;
			l->next = in->links;
			in->links = l;
			return;
		}
	}
	l = malloc(sizeof(*l) + n + 1);
	if (!l)
		return; /* the name is learnt again by a later LOOKUP */
	memcpy(l->cname, cname, n + 1);
	l->parent = parent;
	parent->pins++;
	l->next = in->links;
	in->links = l;
	for (pp = &in->links; *pp; pp = &(*pp)->next) {
		if (++count > INODE_MAX_LINKS) {
			last = *pp;
			*pp = NULL;
			break;
		}
	}
	while (last) {
		l = last->next;
		put_locked(t, last->parent);
		free(last);
		last = l;
	}
}

/* forget (parent, cname) as a name of in; t locked */
static void link_drop_locked(struct inode_table *t, struct fs_inode *in,
			     struct fs_inode *parent, const char *cname)
{
	for (struct inode_link **pp = &in->links; *pp; pp = &(*pp)->next) {
		if (link_matches(*pp, parent, cname)) {
			struct inode_link *l = *pp;

			*pp = l->next;
			put_locked(t, l->parent);
			free(l);
			return;
		}
	}
}

/* ---- life and death ------------------------------------------------------- */

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

static void free_inode(struct inode_table *t, struct fs_inode *in)
{
	if (in->file)
		t->file->free(in->file);
	if (in->slot.fd >= 0)
		close(in->slot.fd);
	free(in->ident);
	inode_locks_destroy(in);
	free(in);
}

/* take a dead inode out of the hash or the stale list; t locked */
static void unhash_dead(struct inode_table *t, struct fs_inode *in)
{
	struct fs_inode **pp;

	if (!in->unhashed) {
		unlink_hash(t, in);
		return;
	}
	for (pp = &t->stale; *pp != in; pp = &(*pp)->hnext)
		if (!*pp)
			abort(); /* unhashed but not on the stale list */
	*pp = in->hnext;
}

/*
 * Dead inodes out of the table: in, then each parent whose last pin was
 * one of their names, iteratively (a deep chain of forgotten directories
 * must not recurse); onto t->reap, freed by table_unlock. t locked.
 */
static void release_locked(struct inode_table *t, struct fs_inode *in)
{
	struct fs_inode *dead = in;

	unhash_dead(t, in);
	in->hnext = NULL;
	while (dead) {
		struct fs_inode *cur = dead;

		dead = cur->hnext;
		/* out of the cache; free_inode closes it */
		cur->slot.fd = fdcache_drop(&t->fds, &cur->slot);
		export_detach(&t->exp, cur->nodeid);
		while (cur->links) {
			struct inode_link *l = cur->links;
			struct fs_inode *p = l->parent;

			cur->links = l->next;
			free(l);
			if (p->pins == 0)
				abort(); /* a name without its pin */
			if (--p->pins == 0 && p->nlookup == 0) {
				unhash_dead(t, p);
				p->hnext = dead;
				dead = p;
			}
		}
		cur->hnext = t->reap;
		t->reap = cur;
	}
}

/*
 * Unlock t, then free the inodes that died under the lock: closing a
 * deleted file's last descriptor frees its data on the backing store,
 * I/O that no other request should wait for.
 */
static void table_unlock(struct inode_table *t)
{
	struct fs_inode *dead = t->reap;

	t->reap = NULL;
	pthread_mutex_unlock(&t->lock);
	while (dead) {
		struct fs_inode *next = dead->hnext;

		free_inode(t, dead);
		dead = next;
	}
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

/* a new inode for (st_dev, st_ino) of *st, taking id */
static struct fs_inode *new_inode(const struct stat *st, struct fileid *id)
{
	struct fs_inode *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	if (inode_locks_init(in) != 0) {
		free(in);
		return NULL;
	}
	fdcache_slot_init(&in->slot, id == NULL);
	in->dev = st->st_dev;
	in->ino = st->st_ino;
	in->type = st->st_mode & S_IFMT;
	in->ident = id;
	atomic_init(&in->xattr_absent, 0);
	atomic_init(&in->xattr_absent_since_ms, 0);
	return in;
}

/*
 * Take in out of the hash: a file that took its inode number after in's
 * file was deleted is another inode. in lives on for the kernel's
 * lookups. t locked.
 */
static void unhash_stale_locked(struct inode_table *t, struct fs_inode *in)
{
	unlink_hash(t, in);
	in->unhashed = 1;
	in->hnext = t->stale;
	t->stale = in;
}

/* inode_table_get, or for the root (root: parent and cname NULL) */
static int get_inode(struct inode_table *t, struct fs_inode *parent,
		     const char *cname, int root, int fd, const struct stat *st,
		     struct fs_inode **out)
{
	struct fs_inode *in, *fresh = NULL;
	struct fileid *id = NULL;
	int victims[FDCACHE_EVICT_BATCH], nv = 0, have_id = 0;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		in = find_locked(t, st->st_dev, st->st_ino);
		/* a new inode needs fd's identity, and so does the check
		 * that an evicted one is still this file (not one that took
		 * its inode number); a cached descriptor keeps its file
		 * alive, so its number cannot have been reused */
		if (!have_id && (!in || in->slot.fd < 0)) {
			table_unlock(t);
			id = fileid_of(fd);
			have_id = 1;
			pthread_mutex_lock(&t->lock);
			continue;
		}
		if (in && in->slot.fd < 0 && (id || fresh) && in->ident &&
		    !fileid_equal(id ? id : fresh->ident, in->ident)) {
			unhash_stale_locked(t, in);
			in = NULL;
		}
		if (in || fresh)
			break;
		/* most LOOKUPs find the inode: allocate only when it is new */
		table_unlock(t);
		fresh = new_inode(st, id);
		if (!fresh) {
			pthread_mutex_lock(&t->lock);
			break;
		}
		id = NULL; /* fresh owns it */
		pthread_mutex_lock(&t->lock);
	}
	if (!in && fresh) {
		if (root)
			fresh->nodeid = INODE_ROOT_NODEID;
		if (root || attach_export(t, fresh) == 0) {
			in = fresh;
			fresh = NULL;
			insert_hash(t, in);
		}
	}
	if (in) {
		in->nlookup++;
		if (parent)
			link_add_locked(t, in, parent, cname);
		if (root)
			in->slot.keep = 1;
		if (in->slot.fd < 0) {
			nv = fdcache_install(&t->fds, &in->slot, fd, 0,
					     t->max_fds, victims);
			t->evictions += (unsigned long)nv;
			fd = -1;
		} else {
			fdcache_touch(&t->fds, &in->slot);
		}
	}
	table_unlock(t);
	fdcache_close(victims, nv);
	if (fresh) {
		free(fresh->ident);
		inode_locks_destroy(fresh);
		free(fresh);
	}
	free(id);
	if (fd >= 0)
		close(fd);
	*out = in;
	return in ? 0 : -ENOMEM;
}

int inode_table_get(struct inode_table *t, struct fs_inode *parent,
		    const char *cname, int fd, const struct stat *st,
		    struct fs_inode **out)
{
	return get_inode(t, parent, cname, 0, fd, st, out);
}

int inode_table_get_root(struct inode_table *t, int fd, const struct stat *st,
			 struct fs_inode **out)
{
	return get_inode(t, NULL, NULL, 1, fd, st, out);
}

void inode_table_ref(struct inode_table *t, struct fs_inode *in)
{
	pthread_mutex_lock(&t->lock);
	in->nlookup++;
	table_unlock(t);
}

struct fs_inode *inode_table_nodeid(struct inode_table *t, uint64_t nodeid)
{
	return export_live(&t->exp, nodeid);
}

int inode_table_revive(struct inode_table *t, uint64_t nodeid,
		       struct fs_inode **out)
{
	struct fs_inode *in;
	struct fileid *id;
	struct stat st;
	dev_t dev = 0;
	ino_t ino = 0;
	int fd, err;

	pthread_mutex_lock(&t->lock);
	err = export_find(&t->exp, nodeid, &in, &dev, &ino, &id);
	if (!err && in)
		in->nlookup++; /* still live (its forget may be on its way) */
	table_unlock(t);
	*out = in;
	if (err || in)
		return err;
	/* forgotten: its file, if it still has a name, by its handle */
	fd = fileid_open(&t->handles, id, dev, ino);
	free(id);
	if (fd == -ESTALE) {
		pthread_mutex_lock(&t->lock);
		export_gone(&t->exp, nodeid);
		table_unlock(t);
	}
	if (fd < 0)
		return -ESTALE;
	if (fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) {
		close(fd);
		return -ESTALE;
	}
	err = get_inode(t, NULL, NULL, 0, fd, &st, &in);
	if (err)
		return err;
	if (in->nodeid != nodeid) { /* another file took the entry meanwhile */
		inode_table_forget(t, in, 1);
		return -ESTALE;
	}
	pthread_mutex_lock(&t->lock);
	t->revived++;
	table_unlock(t);
	*out = in;
	return 0;
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
	table_unlock(t);
}

void inode_pin(struct inode_table *t, struct fs_inode *in)
{
	pthread_mutex_lock(&t->lock);
	in->pins++;
	table_unlock(t);
}

void inode_unpin(struct inode_table *t, struct fs_inode *in)
{
	pthread_mutex_lock(&t->lock);
	put_locked(t, in);
	table_unlock(t);
}

/* ---- names learnt outside LOOKUP ---------------------------------------- */

void inode_link_move(struct inode_table *t, struct fs_inode *in,
		     struct fs_inode *from, const char *from_cname,
		     struct fs_inode *to, const char *to_cname)
{
	pthread_mutex_lock(&t->lock);
	link_drop_locked(t, in, from, from_cname);
	link_add_locked(t, in, to, to_cname);
	table_unlock(t);
}

void inode_link_drop(struct inode_table *t, struct fs_inode *in,
		     struct fs_inode *parent, const char *cname)
{
	pthread_mutex_lock(&t->lock);
	link_drop_locked(t, in, parent, cname);
	table_unlock(t);
}

struct fs_inode *inode_parent_name(struct inode_table *t, struct fs_inode *in,
				   char *cname, size_t len)
{
	struct fs_inode *p = NULL;

	pthread_mutex_lock(&t->lock);
	if (in->links && (!cname || strlen(in->links->cname) < len)) {
		p = in->links->parent;
		p->pins++;
		if (cname)
			strcpy(cname, in->links->cname);
	}
	table_unlock(t);
	return p;
}

struct fs_inode *inode_parent(struct inode_table *t, struct fs_inode *in)
{
	return inode_parent_name(t, in, NULL, 0);
}

void inode_table_move(struct inode_table *t, struct fs_inode *in, int fd,
		      const struct stat *st, struct fs_inode *to,
		      const char *cname)
{
	struct fileid *id = fileid_of(fd), *old_id;
	int victims[FDCACHE_EVICT_BATCH], nv = 0, old = -1;

	pthread_mutex_lock(&t->lock);
	unhash_dead(t, in);
	in->unhashed = 0;
	in->dev = st->st_dev;
	in->ino = st->st_ino;
	old_id = in->ident;
	in->ident = id;
	in->slot.keep = id == NULL;
	while (in->links) {
		struct inode_link *l = in->links;

		in->links = l->next;
		put_locked(t, l->parent);
		free(l);
	}
	link_add_locked(t, in, to, cname);
	insert_hash(t, in);
	/* out of memory: its entry keeps the old file, so a handle of it
	 * gives ESTALE once the kernel forgot it */
	(void)move_export(t, in);
	if (in->slot.users == 0) /* the old descriptor goes; nobody holds it */
		old = fdcache_drop(&t->fds, &in->slot);
	if (in->slot.fd < 0) {
		nv = fdcache_install(&t->fds, &in->slot, fd, 0, t->max_fds,
				     victims);
		t->evictions += (unsigned long)nv;
		fd = -1;
	}
	table_unlock(t);
	fdcache_close(victims, nv);
	free(old_id);
	if (old >= 0)
		close(old);
	if (fd >= 0)
		close(fd); /* held by a request: it finds the new one later */
}

struct fs_inode *inode_table_find(struct inode_table *t, dev_t dev, ino_t ino)
{
	struct fs_inode *in;

	pthread_mutex_lock(&t->lock);
	in = find_locked(t, dev, ino);
	if (in)
		in->pins++;
	table_unlock(t);
	return in;
}

int inode_table_foreach(struct inode_table *t,
			void (*fn)(struct fs_inode *in, void *arg), void *arg)
{
	struct fs_inode **all;
	size_t n = 0, nstale = 0, i;

	pthread_mutex_lock(&t->lock);
	/* the unhashed ones too: a file whose inode number a newer file
	 * took still has its pages (a key lock must drop them) */
	for (struct fs_inode *in = t->stale; in; in = in->hnext)
		nstale++;
	all = malloc((t->count + nstale + 1) * sizeof(*all));
	if (!all) {
		table_unlock(t);
		return -ENOMEM;
	}
	for (i = 0; i <= t->nbuckets; i++) {
		struct fs_inode *in = i < t->nbuckets ? t->buckets[i] : t->stale;

		for (; in; in = in->hnext) {
			in->pins++;
			all[n++] = in;
		}
	}
	table_unlock(t);
	for (i = 0; i < n; i++)
		fn(all[i], arg);
	pthread_mutex_lock(&t->lock);
	for (i = 0; i < n; i++)
		put_locked(t, all[i]);
	table_unlock(t);
	free(all);
	return 0;
}

void inode_table_destroy(struct inode_table *t)
{
	pthread_mutex_lock(&t->lock);
	table_unlock(t); /* none should be left */
	for (size_t i = 0; i <= t->nbuckets; i++) {
		struct fs_inode *in = i < t->nbuckets ? t->buckets[i] : t->stale;
		struct fs_inode *next;

		for (; in; in = next) {
			next = in->hnext;
			while (in->links) {
				struct inode_link *l = in->links;

				in->links = l->next;
				free(l);
			}
			free_inode(t, in);
		}
	}
	free(t->buckets);
	t->buckets = NULL;
	export_destroy(&t->exp);
	if (t->handles.mount_fd >= 0)
		close(t->handles.mount_fd);
	pthread_mutex_destroy(&t->lock);
}
