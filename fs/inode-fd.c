/* SPDX-License-Identifier: MIT */
/* see inode-fd.h */
#include "fs/inode-fd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fdcache.h"
#include "fs/fileid.h"
#include "fs/inode.h"

/* in's cached descriptor, held; or -1 (evicted) */
static int hold_cached(struct inode_table *t, struct fs_inode *in)
{
	int fd;

	pthread_mutex_lock(&t->lock);
	fd = fdcache_hold(&in->slot);
	pthread_mutex_unlock(&t->lock);
	return fd;
}

void inode_fd_release(struct inode_table *t, struct fs_inode *in)
{
	pthread_mutex_lock(&t->lock);
	fdcache_release(&t->fds, &in->slot);
	pthread_mutex_unlock(&t->lock);
}

/*
 * Install fd as in's held descriptor, unless another thread reopened it
 * meanwhile (then fd is closed and theirs held). Returns the held fd.
 */
static int adopt(struct inode_table *t, struct fs_inode *in, int fd)
{
	int victims[FDCACHE_EVICT_BATCH], nv = 0, held;

	pthread_mutex_lock(&t->lock);
	held = fdcache_hold(&in->slot);
	if (held < 0) {
		nv = fdcache_install(&t->fds, &in->slot, fd, 1, t->max_fds,
				     victims);
		t->evictions += (unsigned long)nv;
		t->reopens++;
		held = fd;
		fd = -1;
	}
	pthread_mutex_unlock(&t->lock);
	fdcache_close(victims, nv);
	if (fd >= 0)
		close(fd);
	return held;
}

/* open cname in pfd and check it is in's file: the fd, or -1 */
static int open_if_same(const struct fs_inode *in, int pfd, const char *cname)
{
	struct fileid *id = NULL;
	struct stat st;
	int fd = openat(pfd, cname, O_PATH | O_NOFOLLOW | O_CLOEXEC), same;

	if (fd < 0)
		return -1;
	same = fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) == 0 &&
	       st.st_dev == in->dev && st.st_ino == in->ino &&
	       (st.st_mode & S_IFMT) == in->type &&
	       fileid_equal(id = fileid_of(fd), in->ident);
	free(id);
	if (!same) {
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
		char cname[NAME_MAX + 1];
		struct fs_inode *parent = inode_parent_name(t, in, cname,
							    sizeof(cname));
		int pfd, fd;

		if (!parent)
			return -1;
		pfd = inode_fd_hold(t, parent);
		fd = pfd >= 0 ? open_if_same(in, pfd, cname) : -1;
		if (pfd >= 0) {
			inode_fd_release(t, parent);
			if (fd < 0)
				inode_link_drop(t, in, parent, cname);
		}
		inode_unpin(t, parent);
		if (fd >= 0 || pfd < 0)
			return fd;
	}
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
		fd = fileid_open(&t->handles, in->ident, in->dev, in->ino);
	if (fd < 0)
		fd = borrow_content_fd(t, in);
	return fd < 0 ? -ESTALE : adopt(t, in, fd);
}

static int evicted(struct inode_table *t, struct fs_inode *in)
{
	int fd;

	pthread_mutex_lock(&t->lock);
	fd = in->slot.fd;
	pthread_mutex_unlock(&t->lock);
	return fd < 0;
}

/*
 * Before reopening in, reopen its evicted ancestors that have names
 * along their newest ones from the top down, each through reopen_one, so
 * that reopen_by_name finds its parent open and never recurses more than
 * a level (a directory chain can be many thousands deep).
 */
static void reopen_chain(struct inode_table *t, struct fs_inode *in)
{
	struct fs_inode **chain = NULL, *cur = inode_parent(t, in), *up;
	size_t n = 0, cap = 0;

	/* each one on the chain (and cur) is pinned */
	while (cur && evicted(t, cur) && (up = inode_parent(t, cur))) {
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			struct fs_inode **nc = realloc(chain, ncap * sizeof(*nc));

			if (!nc) {
				inode_unpin(t, up);
				break;
			}
			chain = nc;
			cap = ncap;
		}
		chain[n++] = cur;
		cur = up;
	}
	if (cur)
		inode_unpin(t, cur);
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
	int fd = hold_cached(t, in);

	if (fd >= 0)
		return fd;
	reopen_chain(t, in);
	return reopen_one(t, in);
}
