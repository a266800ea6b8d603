/* SPDX-License-Identifier: MIT */
/*
 * Directory handles: opendir, readdir and readdirplus (ciphertext names
 * decrypted, cloakfs' own entries hidden), releasedir, fsyncdir.
 */
#include "fs/handlers.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "crypto/secmem.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "fs/ops.h"
#include "fs/where.h"
#include "volume/fdio.h"

struct dir_handle {
	DIR *dp;
	off_t offset;           /* position of entry */
	struct dirent *entry;   /* read but not yet returned */
	struct dir_handle *prev, *next; /* fs->open_dirs */
};

static void dir_handle_link(struct cloakfs *fs, struct dir_handle *dh)
{
	pthread_mutex_lock(&fs->open_dirs_lock);
	dh->prev = NULL;
	dh->next = fs->open_dirs;
	if (dh->next)
		dh->next->prev = dh;
	fs->open_dirs = dh;
	pthread_mutex_unlock(&fs->open_dirs_lock);
}

static void dir_handle_close(struct cloakfs *fs, struct dir_handle *dh)
{
	pthread_mutex_lock(&fs->open_dirs_lock);
	if (dh->prev)
		dh->prev->next = dh->next;
	else
		fs->open_dirs = dh->next;
	if (dh->next)
		dh->next->prev = dh->prev;
	pthread_mutex_unlock(&fs->open_dirs_lock);
	closedir(dh->dp);
	free(dh);
}

void fs_dirs_close_all(struct cloakfs *fs)
{
	while (fs->open_dirs)
		dir_handle_close(fs, fs->open_dirs);
}

static struct dir_handle *dir_handle_of(struct fuse_file_info *fi)
{
	return (struct dir_handle *)(uintptr_t)fi->fh;
}

void fs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct request r;
	struct dir_handle *dh = NULL;
	int err = request_begin(&r, req, ino, REQ_FD);

	if (!err && !(dh = calloc(1, sizeof(*dh))))
		err = -ENOMEM;
	if (!err)
		err = fdio_opendir(r.fd, &dh->dp);
	if (!request_done(&r, err)) {
		free(dh);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)dh;
	fi->cache_readdir = 0;
	dir_handle_link(r.fs, dh);
	if (fuse_reply_open(req, fi) != 0)
		dir_handle_close(r.fs, dh);
}

/* a name entry_decrypt could not read: skipped, and said once, naming
 * its directory (dfd) */
static void warn_undecodable(struct cloakfs *fs, struct fs_inode *dir,
			     int dfd, const char *name, int err)
{
	char where[WHERE_MAX];

	if (!first_warning(dir))
		return;
	where_inode(fs, dir, dfd, 1, where, sizeof(where));
	log_warn("%s: skipping undecodable entry %s (%s); more in this "
		 "directory are not logged", where, name, strerror(-err));
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi, int plus)
{
	struct request r;
	struct dir_handle *dh = dir_handle_of(fi);
	char *buf = NULL, plain[VNAME_MAX_PLAIN + 1];
	char shown[ENTRY_UNDECODABLE_MAX + 1];
	size_t pos = 0;
	int err = request_begin(&r, req, ino, REQ_KEYS);

	if (!err && !(buf = malloc(size ? size : 1)))
		err = -ENOMEM;
	if (!err && off != dh->offset) {
		seekdir(dh->dp, off);
		dh->entry = NULL;
		dh->offset = off;
	}
	while (!err) {
		struct fuse_entry_param e;
		const char *name;
		size_t entsize;
		off_t next;
		enum vname_entry kind;
		int dot, n;

		if (!dh->entry) {
			errno = 0;
			dh->entry = readdir(dh->dp);
			if (!dh->entry) {
				if (errno)
					err = -errno;
				break;
			}
		}
		next = dh->entry->d_off;
		name = dh->entry->d_name;
		kind = vname_classify(name); /* once per name */
		dot = kind == VNAME_ENTRY_DOT;
		if (!dot) {
			n = entry_decrypt(r.fs, r.in, dirfd(dh->dp), name, kind,
					  plain);
			if (n == -EIO || n == -EACCES) {
				/* the directory's nonce is lost: no name of it
				 * can be read, and an empty listing would hide
				 * that (entry.c logged which directory); or the
				 * volume was locked meanwhile */
				err = n;
				break;
			}
			if (n < 0 && r.fs->show_undecodable &&
			    entry_undecodable_name(name, shown) == 0) {
				name = shown; /* listed, reachable by that name */
			} else if (n <= 0) {
				if (n < 0)
					warn_undecodable(r.fs, r.in, dirfd(dh->dp), name, n);
				dh->entry = NULL;
				dh->offset = next;
				continue;
			} else {
				name = plain;
			}
		}
		memset(&e, 0, sizeof(e));
		if (plus && !dot) {
			n = lookup_cname(r.fs, r.in, dirfd(dh->dp),
					 dh->entry->d_name, &e);
			if (n) {
				/* gone since readdir, or unreadable: skip */
				dh->entry = NULL;
				dh->offset = next;
				continue;
			}
		} else {
			e.attr.st_ino = dh->entry->d_ino;
			e.attr.st_mode = (mode_t)dh->entry->d_type << 12;
		}
		if (plus)
			entsize = fuse_add_direntry_plus(req, buf + pos, size - pos,
							 name, &e, next);
		else
			entsize = fuse_add_direntry(req, buf + pos, size - pos,
						    name, &e.attr, next);
		if (entsize > size - pos) {
			if (plus && !dot)
				inode_table_forget(&r.fs->inodes,
						   request_inode(r.fs, e.ino), 1);
			break;
		}
		pos += entsize;
		dh->entry = NULL;
		dh->offset = next;
	}
	/* entries already in the buffer go out; the error comes next time */
	if (request_done(&r, pos ? 0 : err))
		fuse_reply_buf(req, buf, pos);
	wipe_free(buf, size); /* plaintext names */
	explicit_bzero(plain, sizeof(plain));
}

void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, 0);
}

void fs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, 1);
}

void fs_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct request r;
	struct dir_handle *dh = dir_handle_of(fi);

	(void)request_begin(&r, req, ino, 0);
	dir_handle_close(r.fs, dh);
	request_reply(&r, 0);
}

void fs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		 struct fuse_file_info *fi)
{
	struct request r;
	int fd = dirfd(dir_handle_of(fi)->dp);
	int err = request_begin(&r, req, ino, 0);

	if (!err && (datasync ? fdatasync(fd) : fsync(fd)) != 0)
		err = -errno;
	request_reply(&r, err);
}
