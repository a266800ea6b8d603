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
/* descriptors a full cache closes per insertion (outside the lock) */
#define EVICT_BATCH 8

struct inode_link {
	struct inode_link *next;
	struct fs_inode *parent; /* pinned */
	char cname[];
};

/* what tells a file from another that took its inode number later */
enum ident_kind { IDENT_HANDLE, IDENT_BTIME };

struct inode_ident {
	enum ident_kind kind;
	int handle_type;
	unsigned int len;
	unsigned char bytes[];
};

static size_t bucket_of(const struct inode_table *t, dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;

	h ^= h >> 29;
	return (size_t)(h & (t->nbuckets - 1));
}

/* ---- identity --------------------------------------------------------- */

/* fd's file handle (name_to_handle_at), else its birth time; NULL if the
 * backing filesystem gives neither (or out of memory) */
static struct inode_ident *ident_of(int fd)
{
	union {
		struct file_handle fh;
		unsigned char space[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} h;
	struct inode_ident *id;
	struct statx sx;
	int mount_id;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(fd, "", &h.fh, &mount_id, AT_EMPTY_PATH) == 0) {
		id = malloc(sizeof(*id) + h.fh.handle_bytes);
		if (!id)
			return NULL;
		id->kind = IDENT_HANDLE;
		id->handle_type = h.fh.handle_type;
		id->len = h.fh.handle_bytes;
		memcpy(id->bytes, h.fh.f_handle, id->len);
		return id;
	}
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_BTIME,
		  &sx) != 0 || !(sx.stx_mask & STATX_BTIME))
		return NULL;
	id = malloc(sizeof(*id) + sizeof(sx.stx_btime));
	if (!id)
		return NULL;
	id->kind = IDENT_BTIME;
	id->handle_type = 0;
	id->len = sizeof(sx.stx_btime);
	memcpy(id->bytes, &sx.stx_btime, id->len);
	return id;
}

static int ident_equal(const struct inode_ident *a, const struct inode_ident *b)
{
	return a && b && a->kind == b->kind && a->handle_type == b->handle_type &&
	       a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
}

/* is fd (fstat *st) the file in stands for? */
static int same_file(const struct fs_inode *in, int fd, const struct stat *st)
{
	struct inode_ident *id;
	int same;

	if (st->st_dev != in->dev || st->st_ino != in->ino ||
	    (st->st_mode & S_IFMT) != in->type)
		return 0;
	id = ident_of(fd);
	same = ident_equal(id, in->ident);
	free(id);
	return same;
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
	t->nfds = 0;
	t->lru.lru_next = t->lru.lru_prev = &t->lru;
	t->by_handle = 0;
	t->handle_mount_fd = -1;
	t->evictions = t->reopens = 0;
	t->stale = NULL;
	t->file = file;
	t->buckets = calloc(t->nbuckets, sizeof(*t->buckets));
	if (!t->buckets) {
		pthread_mutex_destroy(&t->lock);
		return -ENOMEM;
	}
	return 0;
}

void inode_table_probe_handles(struct inode_table *t, int rootfd)
{
	struct inode_ident *id = ident_of(rootfd);
	union {
		struct file_handle fh;
		unsigned char space[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} h;
	struct stat st;
	int fd, mfd;

	if (!id || id->kind != IDENT_HANDLE || fstat(rootfd, &st) != 0) {
		free(id);
		return;
	}
	h.fh.handle_bytes = id->len;
	h.fh.handle_type = id->handle_type;
	memcpy(h.fh.f_handle, id->bytes, id->len);
	free(id);
	/* open_by_handle_at wants a real descriptor, not an O_PATH one */
	mfd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		return;
	fd = open_by_handle_at(mfd, &h.fh, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		close(mfd); /* EPERM: not privileged */
		return;
	}
	close(fd);
	t->handle_mount_fd = mfd;
	t->handle_dev = st.st_dev;
	t->by_handle = 1;
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

/* ---- the descriptor cache (all under the table lock) ---------------------- */

static int in_lru(const struct fs_inode *in)
{
	return in->lru_next != NULL;
}

static void lru_remove(struct fs_inode *in)
{
	if (in_lru(in)) {
		in->lru_prev->lru_next = in->lru_next;
		in->lru_next->lru_prev = in->lru_prev;
		in->lru_next = in->lru_prev = NULL;
	}
}

static void lru_push(struct inode_table *t, struct fs_inode *in)
{
	in->lru_next = t->lru.lru_next;
	in->lru_prev = &t->lru;
	t->lru.lru_next->lru_prev = in;
	t->lru.lru_next = in;
}

/* an fd no holder uses any more: evictable unless kept */
static void fd_idle(struct inode_table *t, struct fs_inode *in)
{
	if (in->fd >= 0 && in->fd_users == 0 && !in->keep_fd && !in_lru(in))
		lru_push(t, in);
}

/*
 * Close the oldest idle descriptors beyond max_fds: they go into out[]
 * (closed by the caller outside the lock). Returns how many.
 */
static int evict_locked(struct inode_table *t, int out[EVICT_BATCH])
{
	int n = 0;

	while (t->nfds > t->max_fds && n < EVICT_BATCH &&
	       t->lru.lru_prev != &t->lru) {
		struct fs_inode *victim = t->lru.lru_prev;

		lru_remove(victim);
		out[n++] = victim->fd;
		victim->fd = -1;
		t->nfds--;
		t->evictions++;
	}
	return n;
}

static void close_all(const int *fds, int n)
{
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * Give in the descriptor fd (in has none): counted, and held once when
 * hold is set. Returns the fds to close (evict_locked).
 */
static int install_fd_locked(struct inode_table *t, struct fs_inode *in, int fd,
			     int hold, int out[EVICT_BATCH])
{
	in->fd = fd;
	t->nfds++;
	if (hold)
		in->fd_users++;
	else
		fd_idle(t, in);
	return evict_locked(t, out);
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
	if (in->fd >= 0)
		close(in->fd);
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
 * Free dead inodes: in, then each parent whose last pin was one of the
 * freed inodes' names, iteratively (a deep chain of forgotten
 * directories must not recurse). t locked.
 */
static void release_locked(struct inode_table *t, struct fs_inode *in)
{
	struct fs_inode *dead = in;

	unhash_dead(t, in);
	in->hnext = NULL;
	while (dead) {
		struct fs_inode *cur = dead;

		dead = cur->hnext;
		lru_remove(cur);
		if (cur->fd >= 0)
			t->nfds--;
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
		free_inode(t, cur);
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
static struct fs_inode *new_inode(const struct stat *st, struct inode_ident *id)
{
	struct fs_inode *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	if (inode_locks_init(in) != 0) {
		free(in);
		return NULL;
	}
	in->fd = -1;
	in->dev = st->st_dev;
	in->ino = st->st_ino;
	in->type = st->st_mode & S_IFMT;
	in->ident = id;
	in->keep_fd = id == NULL;
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

int inode_table_get(struct inode_table *t, struct fs_inode *parent,
		    const char *cname, int fd, const struct stat *st,
		    struct fs_inode **out)
{
	struct fs_inode *in, *fresh = NULL;
	struct inode_ident *id = NULL;
	int victims[EVICT_BATCH], nv = 0, have_id = 0;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		in = find_locked(t, st->st_dev, st->st_ino);
		/* a new inode needs fd's identity, and so does the check
		 * that an evicted one is still this file (not one that took
		 * its inode number); a cached descriptor keeps its file
		 * alive, so its number cannot have been reused */
		if (!have_id && (!in || in->fd < 0)) {
			pthread_mutex_unlock(&t->lock);
			id = ident_of(fd);
			have_id = 1;
			pthread_mutex_lock(&t->lock);
			continue;
		}
		if (in && in->fd < 0 && (id || fresh) && in->ident &&
		    !ident_equal(id ? id : fresh->ident, in->ident)) {
			unhash_stale_locked(t, in);
			in = NULL;
		}
		if (in || fresh)
			break;
		/* most LOOKUPs find the inode: allocate only when it is new */
		pthread_mutex_unlock(&t->lock);
		fresh = new_inode(st, id);
		if (!fresh) {
			pthread_mutex_lock(&t->lock);
			break;
		}
		id = NULL; /* fresh owns it */
		pthread_mutex_lock(&t->lock);
	}
	if (!in && fresh) {
		in = fresh;
		fresh = NULL;
		insert_hash(t, in);
	}
	if (in) {
		in->nlookup++;
		if (parent)
			link_add_locked(t, in, parent, cname);
		else
			in->keep_fd = 1; /* the root */
		if (in->fd < 0) {
			nv = install_fd_locked(t, in, fd, 0, victims);
			fd = -1;
		} else if (in_lru(in)) {
			lru_remove(in); /* used just now: the newest */
			lru_push(t, in);
		}
	}
	pthread_mutex_unlock(&t->lock);
	close_all(victims, nv);
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

/* ---- holding and reopening ----------------------------------------------- */

/* in's fd held, if it has one; else -1. t locked */
static int hold_locked(struct inode_table *t, struct fs_inode *in)
{
	if (in->fd < 0)
		return -1;
	in->fd_users++;
	lru_remove(in);
	(void)t;
	return in->fd;
}

void inode_fd_release(struct inode_table *t, struct fs_inode *in)
{
	pthread_mutex_lock(&t->lock);
	if (in->fd_users == 0) {
		fprintf(stderr, "cloakfs: descriptor released more often than "
			"held on inode %p\n", (void *)in);
		abort();
	}
	if (--in->fd_users == 0)
		fd_idle(t, in);
	pthread_mutex_unlock(&t->lock);
}

/*
 * Install fd as in's held descriptor, unless another thread reopened it
 * meanwhile (then fd is closed and theirs held). Returns the held fd.
 */
static int adopt(struct inode_table *t, struct fs_inode *in, int fd)
{
	int victims[EVICT_BATCH], nv = 0, held;

	pthread_mutex_lock(&t->lock);
	held = hold_locked(t, in);
	if (held < 0) {
		nv = install_fd_locked(t, in, fd, 1, victims);
		held = fd;
		fd = -1;
		t->reopens++;
	}
	pthread_mutex_unlock(&t->lock);
	close_all(victims, nv);
	if (fd >= 0)
		close(fd);
	return held;
}

/* open cname in pfd and check it is in: the fd, or -1 */
static int open_if_same(struct fs_inode *in, int pfd, const char *cname)
{
	struct stat st;
	int fd = openat(pfd, cname, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0 ||
	    !same_file(in, fd, &st)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Reopen in through its names, newest first: names that no longer lead
 * to it are forgotten. Each parent is held through inode_fd_hold, so a
 * chain of evicted directories is reopened from the nearest open one
 * (see reopen_chain, which keeps that from recursing deeply). The fd
 * (not yet installed), or -1.
 */
static int reopen_by_name(struct inode_table *t, struct fs_inode *in)
{
	for (;;) {
		struct fs_inode *parent;
		char *cname;
		int pfd, fd;

		pthread_mutex_lock(&t->lock);
		if (!in->links) {
			pthread_mutex_unlock(&t->lock);
			return -1;
		}
		parent = in->links->parent;
		cname = strdup(in->links->cname);
		parent->pins++;
		pthread_mutex_unlock(&t->lock);
		if (!cname) {
			inode_unpin(t, parent);
			return -1;
		}
		pfd = inode_fd_hold(t, parent);
		fd = pfd >= 0 ? open_if_same(in, pfd, cname) : -1;
		if (pfd >= 0)
			inode_fd_release(t, parent);
		pthread_mutex_lock(&t->lock);
		if (fd < 0 && pfd >= 0)
			link_drop_locked(t, in, parent, cname);
		put_locked(t, parent);
		pthread_mutex_unlock(&t->lock);
		free(cname);
		if (fd >= 0 || pfd < 0)
			return fd;
	}
}

/* a privileged mount: reopen by file handle; the fd or -1 */
static int reopen_by_handle(struct inode_table *t, struct fs_inode *in)
{
	union {
		struct file_handle fh;
		unsigned char space[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} h;
	struct stat st;
	int fd;

	if (!t->by_handle || !in->ident || in->ident->kind != IDENT_HANDLE ||
	    in->dev != t->handle_dev || in->ident->len > MAX_HANDLE_SZ)
		return -1;
	h.fh.handle_bytes = in->ident->len;
	h.fh.handle_type = in->ident->handle_type;
	memcpy(h.fh.f_handle, in->ident->bytes, in->ident->len);
	fd = open_by_handle_at(t->handle_mount_fd, &h.fh,
			       O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0 ||
	    st.st_dev != in->dev || st.st_ino != in->ino || st.st_nlink == 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* an open file's content descriptor, duplicated; or -1 */
static int borrow_content_fd(struct inode_table *t, struct fs_inode *in)
{
	int fd = -1;

	if (in->type != S_IFREG)
		return -1;
	pthread_mutex_lock(&in->lock);
	if (in->file)
		fd = fcntl(t->file->fd(in->file), F_DUPFD_CLOEXEC, 0);
	pthread_mutex_unlock(&in->lock);
	return fd;
}

static int reopen_one(struct inode_table *t, struct fs_inode *in)
{
	int fd = reopen_by_name(t, in);

	if (fd < 0)
		fd = reopen_by_handle(t, in);
	if (fd < 0)
		fd = borrow_content_fd(t, in);
	return fd < 0 ? -ESTALE : adopt(t, in, fd);
}

/*
 * Before reopening in, reopen its evicted ancestors along their newest
 * names from the top down, each through reopen_one, so that
 * reopen_by_name finds its parent open and never recurses more than a
 * level (a directory chain can be many thousands deep).
 */
static void reopen_chain(struct inode_table *t, struct fs_inode *in)
{
	struct fs_inode **chain = NULL, *cur;
	size_t n = 0, cap = 0;

	pthread_mutex_lock(&t->lock);
	for (cur = in->links ? in->links->parent : NULL;
	     cur && cur->fd < 0 && cur->links;
	     cur = cur->links->parent) {
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			struct fs_inode **nc = realloc(chain, ncap * sizeof(*nc));

			if (!nc)
				break;
			chain = nc;
			cap = ncap;
		}
		cur->pins++;
		chain[n++] = cur;
	}
	pthread_mutex_unlock(&t->lock);
	/* top down; each reopened descriptor is released at once (it stays
	 * cached as the newest unless the cache is tiny) */
	while (n > 0) {
		struct fs_inode *a = chain[--n];

		if (reopen_one(t, a) >= 0)
			inode_fd_release(t, a);
		inode_unpin(t, a);
	}
	free(chain);
}

int inode_fd_hold(struct inode_table *t, struct fs_inode *in)
{
	int fd;

	pthread_mutex_lock(&t->lock);
	fd = hold_locked(t, in);
	pthread_mutex_unlock(&t->lock);
	if (fd >= 0)
		return fd;
	reopen_chain(t, in);
	return reopen_one(t, in);
}

/* ---- names learnt outside LOOKUP ---------------------------------------- */

void inode_link_move(struct inode_table *t, struct fs_inode *in,
		     struct fs_inode *from, const char *from_cname,
		     struct fs_inode *to, const char *to_cname)
{
	pthread_mutex_lock(&t->lock);
	link_drop_locked(t, in, from, from_cname);
	link_add_locked(t, in, to, to_cname);
	pthread_mutex_unlock(&t->lock);
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
	pthread_mutex_unlock(&t->lock);
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
	struct inode_ident *id = ident_of(fd), *old_id;
	int victims[EVICT_BATCH], nv = 0, old = -1;

	pthread_mutex_lock(&t->lock);
	unhash_dead(t, in);
	in->unhashed = 0;
	in->dev = st->st_dev;
	in->ino = st->st_ino;
	old_id = in->ident;
	in->ident = id;
	in->keep_fd = id == NULL;
	while (in->links) {
		struct inode_link *l = in->links;

		in->links = l->next;
		put_locked(t, l->parent);
		free(l);
	}
	link_add_locked(t, in, to, cname);
	insert_hash(t, in);
	if (in->fd >= 0 && in->fd_users == 0) {
		/* the old descriptor goes; nobody holds it */
		lru_remove(in);
		old = in->fd;
		in->fd = -1;
		t->nfds--;
	}
	if (in->fd < 0) {
		nv = install_fd_locked(t, in, fd, 0, victims);
		fd = -1;
	}
	pthread_mutex_unlock(&t->lock);
	close_all(victims, nv);
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
	if (t->handle_mount_fd >= 0)
		close(t->handle_mount_fd);
	pthread_mutex_destroy(&t->lock);
}
