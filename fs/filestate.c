/* SPDX-License-Identifier: MIT */
/* see filestate.h */
#include "fs/filestate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/procfd.h"
#include "fs/fs.h"
#include "fs/inode.h"

/*
 * Open in's ciphertext read-write. A file the owner may write but not
 * read (mode 0200) gets owner-read for the moment of the open, since
 * sector read-modify-write needs it (as gocryptfs does).
 */
static int open_rw(int pathfd)
{
	char path[PROCFD_LEN];
	struct stat st;
	int fd, saved;

	if (pathfd < 0)
		return -ESTALE;
	procfd_path(pathfd, path);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES)
		return fd >= 0 ? fd : -errno;
	saved = errno;
	if (fstatat(pathfd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0 ||
	    st.st_uid != geteuid() || (st.st_mode & S_IRUSR) ||
	    !(st.st_mode & S_IWUSR))
		return -saved;
	if (chmod(path, (st.st_mode & 07777) | S_IRUSR) != 0)
		return -saved;
	fd = open(path, O_RDWR | O_CLOEXEC);
	saved = errno;
	(void)chmod(path, st.st_mode & 07777);
	return fd >= 0 ? fd : -saved;
}

static int open_ro(int pathfd)
{
	char path[PROCFD_LEN];
	int fd;

	if (pathfd < 0)
		return -ESTALE;
	procfd_path(pathfd, path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

void filestate_lock(struct fs_inode *in)
{
	pthread_rwlock_wrlock(&in->io);
	pthread_mutex_lock(&in->lock);
}

void filestate_unlock(struct fs_inode *in)
{
	pthread_mutex_unlock(&in->lock);
	pthread_rwlock_unlock(&in->io);
}

void filestate_read_lock(struct cloakfs *fs, struct fs_inode *in)
{
	/* -o shared: one READ at a time, since the byte-range lock it
	 * takes (fileio_read_begin) belongs to the one descriptor */
	if (fs->vol.shared)
		pthread_rwlock_wrlock(&in->io);
	else
		pthread_rwlock_rdlock(&in->io);
}

int filestate_read_begin(struct cloakfs *fs, struct fs_inode *in,
			 uint64_t off, uint64_t len, uint64_t *plain)
{
	int err;

	pthread_mutex_lock(&in->lock);
	err = filestate_load(fs, in);
	if (!err)
		err = fileio_read_begin(&in->file->cf, off, len, plain);
	pthread_mutex_unlock(&in->lock);
	return err;
}

void filestate_read_end(struct fs_inode *in)
{
	/* a lease is taken only with -o shared, where io is exclusive */
	if (in->file && in->file->loaded)
		fileio_read_end(&in->file->cf);
	pthread_rwlock_unlock(&in->io);
}

int filestate_get(struct fs_inode *in, int want_write, int fd, int pathfd)
{
	struct file_state *st = in->file;

	if (!st) {
		st = calloc(1, sizeof(*st));
		if (!st) {
			if (fd >= 0)
				close(fd);
			return -ENOMEM;
		}
		if (fd < 0)
			fd = want_write ? open_rw(pathfd) : open_ro(pathfd);
		else
			want_write = 1;
		if (fd < 0) {
			free(st);
			return fd;
		}
		st->fd = fd;
		st->writable = want_write;
		in->file = st;
	} else if (want_write && !st->writable) {
		int nfd = fd >= 0 ? fd : open_rw(pathfd);

		if (nfd < 0)
			return nfd;
		/* the read lease (a lock of the descriptor) goes with it */
		if (st->loaded)
			fileio_lease_end(&st->cf);
		close(st->fd);
		st->fd = nfd;
		st->cf.fd = nfd;
		st->writable = 1;
	} else if (fd >= 0) {
		close(fd);
	}
	st->users++;
	return 0;
}

void filestate_put(struct fs_inode *in)
{
	struct file_state *st = in->file;

	if (!st || st->users == 0)
		abort(); /* a release without an open */
	if (--st->users == 0) {
		in->file = NULL;
		filestate_free(st);
	}
}

int filestate_load(struct cloakfs *fs, struct fs_inode *in)
{
	struct file_state *st = in->file;
	int err;

	if (!st)
		abort(); /* content use without a user */
	if (st->loaded)
		return 0;
	err = fileio_open(&st->cf, st->fd, fs->vol.keyring, fs->vol.cfg.cipher,
			  fs->vol.cfg.sector_size);
	if (!err) {
		st->cf.shared = fs->vol.shared;
		st->loaded = 1;
	}
	return err;
}

void filestate_free(struct file_state *st)
{
	if (!st)
		return;
	if (st->loaded)
		fileio_close(&st->cf);
	close(st->fd);
	free(st);
}

static int filestate_fd(const struct file_state *st)
{
	return st->fd;
}

const struct inode_file_ops filestate_ops = {
	.free = filestate_free,
	.fd = filestate_fd,
};
