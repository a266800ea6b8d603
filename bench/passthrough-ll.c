/* SPDX-License-Identifier: MIT */
/*
 * passthrough-ll: a low-level libfuse3 passthrough with no crypto, the
 * ceiling that bench/fs-peers.sh measures cloakfs against. Built by that
 * script (gcc, pkg-config fuse3); not installed, not part of the product.
 *
 *   passthrough-ll [-f] [-o writeback] [-o readahead=KB] [-o FUSEOPT...]
 *                  SRCDIR MOUNTPOINT
 *
 * It follows the passthrough_hp pattern that fs/ follows too
 * (docs/design.md, "The mount's requests"): every inode the kernel knows is one O_PATH|O_NOFOLLOW descriptor,
 * found by (st_dev, st_ino), nodeid = struct address. It sets the same
 * FUSE options as cloakfs (attr/entry timeouts of 1 s, keep_cache,
 * readdirplus, extended attributes, no write-back cache unless -o
 * writeback, the read-ahead window of cloakfs --readahead: 4096 KiB
 * unless -o readahead=KB, set with cloakfs' own fs/readahead.c), so the
 * ratio cloakfs / passthrough-ll is what the crypto and the name handling
 * cost.
 * Reads splice from the backing file (no copy through this process), as
 * passthrough_hp does; writes are pwrite from the request buffer.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 312

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fs/readahead.h"

static_assert(sizeof(fuse_ino_t) >= sizeof(void *),
	      "nodeids are struct pt_inode pointers");

#define TIMEOUT 1.0
#define NBUCKETS 65536

struct pt_inode {
	int fd;                 /* O_PATH | O_NOFOLLOW */
	dev_t dev;
	ino_t ino;
	uint64_t nlookup;       /* guarded by pt.lock */
	struct pt_inode *hnext; /* guarded by pt.lock */
};

static struct {
	pthread_mutex_t lock;   /* the table; never held across syscalls */
	struct pt_inode root;
	struct pt_inode *buckets[NBUCKETS];
	int writeback;
	atomic_uint readahead_kb; /* to set on the first open; 0: done */
	const char *mountpoint;
} pt = { .lock = PTHREAD_MUTEX_INITIALIZER,
	 .readahead_kb = CLOAKFS_READAHEAD_KB_DEFAULT };

static struct pt_inode *inode_of(fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? &pt.root : (struct pt_inode *)(uintptr_t)ino;
}

static size_t bucket_of(dev_t dev, ino_t ino)
{
	return (size_t)((ino * 0x9e3779b97f4a7c15ull) ^ dev) % NBUCKETS;
}

static void procfd(int fd, char buf[32])
{
	snprintf(buf, 32, "/proc/self/fd/%d", fd);
}

/* look name up in parent: e filled, one more lookup on the inode */
static int do_lookup(fuse_ino_t parent, const char *name,
		     struct fuse_entry_param *e)
{
	struct pt_inode *in, **b;
	int fd, err;

	memset(e, 0, sizeof(*e));
	e->attr_timeout = TIMEOUT;
	e->entry_timeout = TIMEOUT;
	fd = openat(inode_of(parent)->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (fstatat(fd, "", &e->attr, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) {
		err = errno;
		close(fd);
		return err;
	}
	pthread_mutex_lock(&pt.lock);
	b = &pt.buckets[bucket_of(e->attr.st_dev, e->attr.st_ino)];
	for (in = *b; in; in = in->hnext)
		if (in->ino == e->attr.st_ino && in->dev == e->attr.st_dev)
			break;
	if (in) {
		in->nlookup++;
		close(fd);
	} else if ((in = calloc(1, sizeof(*in)))) {
		in->fd = fd;
		in->dev = e->attr.st_dev;
		in->ino = e->attr.st_ino;
		in->nlookup = 1;
		in->hnext = *b;
		*b = in;
	}
	pthread_mutex_unlock(&pt.lock);
	if (!in) {
		close(fd);
		return ENOMEM;
	}
	e->ino = (fuse_ino_t)(uintptr_t)in;
	return 0;
}

static void forget_one(fuse_ino_t ino, uint64_t n)
{
	struct pt_inode *in = inode_of(ino), **p;

	if (in == &pt.root)
		return;
	pthread_mutex_lock(&pt.lock);
	if (n > in->nlookup)
		abort(); /* negative lookup count */
	in->nlookup -= n;
	if (in->nlookup == 0) {
		for (p = &pt.buckets[bucket_of(in->dev, in->ino)]; *p != in;)
			p = &(*p)->hnext;
		*p = in->hnext;
		close(in->fd);
		free(in);
	}
	pthread_mutex_unlock(&pt.lock);
}

static void pt_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	int err = do_lookup(parent, name, &e);

	if (err == ENOENT) {
		/* negative entry, cached like cloakfs does */
		e.ino = 0;
		e.entry_timeout = TIMEOUT;
		fuse_reply_entry(req, &e);
	} else if (err) {
		fuse_reply_err(req, err);
	} else {
		fuse_reply_entry(req, &e);
	}
}

static void pt_forget(fuse_req_t req, fuse_ino_t ino, uint64_t n)
{
	forget_one(ino, n);
	fuse_reply_none(req);
}

static void pt_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *f)
{
	for (size_t i = 0; i < count; i++)
		forget_one(f[i].ino, f[i].nlookup);
	fuse_reply_none(req);
}

static void pt_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (fstatat(inode_of(ino)->fd, "", &st,
		    AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
		return (void)fuse_reply_err(req, errno);
	fuse_reply_attr(req, &st, TIMEOUT);
}

static void pt_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	struct pt_inode *in = inode_of(ino);
	char path[32];
	int r = 0;

	procfd(in->fd, path);
	if (to_set & FUSE_SET_ATTR_MODE)
		r = fi ? fchmod((int)fi->fh, attr->st_mode) : chmod(path, attr->st_mode);
	if (!r && (to_set & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)))
		r = fchownat(in->fd, "",
			     (to_set & FUSE_SET_ATTR_UID) ? attr->st_uid : (uid_t)-1,
			     (to_set & FUSE_SET_ATTR_GID) ? attr->st_gid : (gid_t)-1,
			     AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	if (!r && (to_set & FUSE_SET_ATTR_SIZE))
		r = fi ? ftruncate((int)fi->fh, attr->st_size)
		       : truncate(path, attr->st_size);
	if (!r && (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME))) {
		struct timespec tv[2] = { { 0, UTIME_OMIT }, { 0, UTIME_OMIT } };

		if (to_set & FUSE_SET_ATTR_ATIME_NOW)
			tv[0].tv_nsec = UTIME_NOW;
		else if (to_set & FUSE_SET_ATTR_ATIME)
			tv[0] = attr->st_atim;
		if (to_set & FUSE_SET_ATTR_MTIME_NOW)
			tv[1].tv_nsec = UTIME_NOW;
		else if (to_set & FUSE_SET_ATTR_MTIME)
			tv[1] = attr->st_mtim;
		r = fi ? futimens((int)fi->fh, tv) : utimensat(AT_FDCWD, path, tv, 0);
	}
	if (r)
		return (void)fuse_reply_err(req, errno);
	pt_getattr(req, ino, NULL);
}

static void pt_readlink(fuse_req_t req, fuse_ino_t ino)
{
	char buf[PATH_MAX + 1];
	ssize_t n = readlinkat(inode_of(ino)->fd, "", buf, sizeof(buf) - 1);

	if (n < 0)
		return (void)fuse_reply_err(req, errno);
	buf[n] = 0;
	fuse_reply_readlink(req, buf);
}

/* reply for a just-made entry name of parent (r: the syscall's result) */
static void reply_made(fuse_req_t req, int r, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	int err = r ? errno : do_lookup(parent, name, &e);

	if (err)
		return (void)fuse_reply_err(req, err);
	fuse_reply_entry(req, &e);
}

static void pt_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, dev_t rdev)
{
	reply_made(req, mknodat(inode_of(parent)->fd, name, mode, rdev), parent,
		   name);
}

static void pt_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	reply_made(req, mkdirat(inode_of(parent)->fd, name, mode), parent, name);
}

static void pt_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		       const char *name)
{
	reply_made(req, symlinkat(link, inode_of(parent)->fd, name), parent, name);
}

static void pt_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t parent,
		    const char *name)
{
	char path[32];

	procfd(inode_of(ino)->fd, path);
	reply_made(req, linkat(AT_FDCWD, path, inode_of(parent)->fd, name,
			       AT_SYMLINK_FOLLOW), parent, name);
}

static void pt_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, unlinkat(inode_of(parent)->fd, name, 0) ? errno : 0);
}

static void pt_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, unlinkat(inode_of(parent)->fd, name, AT_REMOVEDIR)
			    ? errno : 0);
}

static void pt_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	fuse_reply_err(req, renameat2(inode_of(parent)->fd, name,
				      inode_of(newparent)->fd, newname, flags)
			    ? errno : 0);
}

static void fill_open(struct fuse_file_info *fi, int fd)
{
	fi->fh = (uint64_t)fd;
	fi->keep_cache = 1;
	fi->noflush = 1; /* as cloakfs: no FLUSH round trip per close */
}

/* with write-back caching the kernel reads pages of write-only handles
 * and does O_APPEND itself */
static int backing_flags(int flags)
{
	if (pt.writeback) {
		if ((flags & O_ACCMODE) == O_WRONLY)
			flags = (flags & ~O_ACCMODE) | O_RDWR;
		flags &= ~O_APPEND;
	}
	return (flags & ~O_NOFOLLOW) | O_CLOEXEC;
}

static void pt_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	char path[32];
	unsigned int kb;
	int fd;

	/* after INIT, which would lower it (fs/readahead.h) */
	if ((kb = atomic_exchange(&pt.readahead_kb, 0)) &&
	    readahead_set(pt.mountpoint, kb) != 0)
		fprintf(stderr, "passthrough-ll: read_ahead_kb not set\n");

	procfd(inode_of(ino)->fd, path);
	fd = open(path, backing_flags(fi->flags));
	if (fd < 0)
		return (void)fuse_reply_err(req, errno);
	fill_open(fi, fd);
	if (fuse_reply_open(req, fi) != 0)
		close(fd);
}

static void pt_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	struct fuse_entry_param e;
	int fd = openat(inode_of(parent)->fd, name,
			backing_flags(fi->flags) | O_CREAT, mode), err;

	if (fd < 0)
		return (void)fuse_reply_err(req, errno);
	err = do_lookup(parent, name, &e);
	if (err) {
		close(fd);
		return (void)fuse_reply_err(req, err);
	}
	fill_open(fi, fd);
	if (fuse_reply_create(req, &e, fi) != 0) {
		close(fd);
		forget_one(e.ino, 1);
	}
}

static void pt_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct fuse_bufvec buf = FUSE_BUFVEC_INIT(size);

	(void)ino;
	buf.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
	buf.buf[0].fd = (int)fi->fh;
	buf.buf[0].pos = off;
	fuse_reply_data(req, &buf, FUSE_BUF_SPLICE_MOVE);
}

static void pt_write(fuse_req_t req, fuse_ino_t ino, const char *data,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	ssize_t n = pwrite((int)fi->fh, data, size, off);

	(void)ino;
	if (n < 0)
		return (void)fuse_reply_err(req, errno);
	fuse_reply_write(req, (size_t)n);
}

static void pt_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void pt_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	close((int)fi->fh);
	fuse_reply_err(req, 0);
}

static void pt_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		     struct fuse_file_info *fi)
{
	int fd = (int)fi->fh;

	(void)ino;
	fuse_reply_err(req, (datasync ? fdatasync(fd) : fsync(fd)) ? errno : 0);
}

struct pt_dir {
	DIR *dp;
	off_t offset;
	struct dirent *entry; /* read, not yet returned */
};

static void pt_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pt_dir *d = calloc(1, sizeof(*d));
	int fd = openat(inode_of(ino)->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (!d || fd < 0 || !(d->dp = fdopendir(fd))) {
		int err = d ? errno : ENOMEM;

		if (fd >= 0)
			close(fd);
		free(d);
		return (void)fuse_reply_err(req, err);
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	if (fuse_reply_open(req, fi) != 0) {
		closedir(d->dp);
		free(d);
	}
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi, int plus)
{
	struct pt_dir *d = (struct pt_dir *)(uintptr_t)fi->fh;
	char *buf = malloc(size ? size : 1);
	size_t pos = 0;
	int err = buf ? 0 : ENOMEM;

	if (!err && off != d->offset) {
		seekdir(d->dp, off);
		d->entry = NULL;
		d->offset = off;
	}
	while (!err) {
		struct fuse_entry_param e;
		const char *name;
		size_t n;
		int dot;

		if (!d->entry) {
			errno = 0;
			d->entry = readdir(d->dp);
			if (!d->entry) {
				err = errno;
				break;
			}
		}
		name = d->entry->d_name;
		dot = !strcmp(name, ".") || !strcmp(name, "..");
		memset(&e, 0, sizeof(e));
		if (plus && !dot) {
			if (do_lookup(ino, name, &e)) {
				d->entry = NULL; /* gone since readdir */
				continue;
			}
		} else {
			e.attr.st_ino = d->entry->d_ino;
			e.attr.st_mode = (mode_t)d->entry->d_type << 12;
		}
		n = plus ? fuse_add_direntry_plus(req, buf + pos, size - pos, name,
						  &e, d->entry->d_off)
			 : fuse_add_direntry(req, buf + pos, size - pos, name,
					     &e.attr, d->entry->d_off);
		if (n > size - pos) {
			if (plus && !dot)
				forget_one(e.ino, 1);
			break;
		}
		pos += n;
		d->offset = d->entry->d_off;
		d->entry = NULL;
	}
	if (err && pos == 0)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, pos);
	free(buf);
}

static void pt_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, 0);
}

static void pt_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			   off_t off, struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, 1);
}

static void pt_releasedir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct pt_dir *d = (struct pt_dir *)(uintptr_t)fi->fh;

	(void)ino;
	closedir(d->dp);
	free(d);
	fuse_reply_err(req, 0);
}

static void pt_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv;

	if (fstatvfs(inode_of(ino)->fd, &sv) != 0)
		return (void)fuse_reply_err(req, errno);
	fuse_reply_statfs(req, &sv);
}

static void pt_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	conn->want &= ~(unsigned int)FUSE_CAP_HANDLE_KILLPRIV;
	if (pt.writeback && (conn->capable & FUSE_CAP_WRITEBACK_CACHE))
		conn->want |= FUSE_CAP_WRITEBACK_CACHE;
	else
		conn->want &= ~(unsigned int)FUSE_CAP_WRITEBACK_CACHE;
}

/*
 * Extended attributes, as passthrough_hp and cloakfs have them: without
 * them the kernel stops asking after the first ENOSYS, and the ceiling
 * would skip the GETXATTR of security.capability that every write costs
 * a filesystem with xattrs (about 2 requests per file of an untar).
 */
/* getxattr or listxattr (name NULL) of ino: size 0 asks for the length */
static void reply_xattr_read(fuse_req_t req, fuse_ino_t ino, const char *name,
			     size_t size)
{
	char path[32], *buf = NULL;
	ssize_t n;

	procfd(inode_of(ino)->fd, path);
	if (size && !(buf = malloc(size)))
		return (void)fuse_reply_err(req, ENOMEM);
	n = name ? getxattr(path, name, buf, size) : listxattr(path, buf, size);
	if (n < 0)
		fuse_reply_err(req, errno);
	else if (size)
		fuse_reply_buf(req, buf, (size_t)n);
	else
		fuse_reply_xattr(req, (size_t)n);
	free(buf);
}

static void pt_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			size_t size)
{
	reply_xattr_read(req, ino, name, size);
}

static void pt_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	reply_xattr_read(req, ino, NULL, size);
}

static void pt_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			const char *value, size_t size, int flags)
{
	char path[32];

	procfd(inode_of(ino)->fd, path);
	fuse_reply_err(req, setxattr(path, name, value, size, flags) ? errno : 0);
}

static void pt_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	char path[32];

	procfd(inode_of(ino)->fd, path);
	fuse_reply_err(req, removexattr(path, name) ? errno : 0);
}

static const struct fuse_lowlevel_ops pt_ops = {
	.init = pt_init,
	.lookup = pt_lookup,
	.forget = pt_forget,
	.forget_multi = pt_forget_multi,
	.getattr = pt_getattr,
	.setattr = pt_setattr,
	.readlink = pt_readlink,
	.mknod = pt_mknod,
	.mkdir = pt_mkdir,
	.unlink = pt_unlink,
	.rmdir = pt_rmdir,
	.symlink = pt_symlink,
	.rename = pt_rename,
	.link = pt_link,
	.open = pt_open,
	.read = pt_read,
	.write = pt_write,
	.flush = pt_flush,
	.release = pt_release,
	.fsync = pt_fsync,
	.opendir = pt_opendir,
	.readdir = pt_readdir,
	.readdirplus = pt_readdirplus,
	.releasedir = pt_releasedir,
	.statfs = pt_statfs,
	.create = pt_create,
	.getxattr = pt_getxattr,
	.listxattr = pt_listxattr,
	.setxattr = pt_setxattr,
	.removexattr = pt_removexattr,
};

/* "-o writeback" and "-o readahead=KB" are ours; every other -o goes to FUSE */
static int opt_proc(void *data, const char *arg, int key, struct fuse_args *out)
{
	(void)data;
	(void)out;
	if (key == FUSE_OPT_KEY_OPT && !strcmp(arg, "writeback")) {
		pt.writeback = 1;
		return 0;
	}
	if (key == FUSE_OPT_KEY_OPT && !strncmp(arg, "readahead=", 10)) {
		pt.readahead_kb = (unsigned int)strtoul(arg + 10, NULL, 10);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_cmdline_opts opts;
	struct fuse_loop_config *loop;
	struct fuse_session *se;
	struct stat st;
	const char *src;
	int rc = 1;

	if (argc < 3) {
		fprintf(stderr, "usage: passthrough-ll [-f] [-o writeback] "
			"[-o readahead=KB] [-o FUSEOPT] SRCDIR MOUNTPOINT\n");
		return 1;
	}
	/* SRCDIR is ours; FUSE parses the rest */
	src = argv[argc - 2];
	for (int i = 0; i < argc; i++)
		if (i != argc - 2 && fuse_opt_add_arg(&args, argv[i]) != 0)
			return 1;
	if (fuse_opt_parse(&args, NULL, NULL, opt_proc) != 0 ||
	    fuse_parse_cmdline(&args, &opts) != 0 || !opts.mountpoint)
		return 1;
	umask(0);
	pt.mountpoint = opts.mountpoint; /* absolute: fuse_parse_cmdline */
	pt.root.fd = open(src, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pt.root.fd < 0 || fstat(pt.root.fd, &st) != 0) {
		perror(src);
		return 1;
	}
	pt.root.dev = st.st_dev;
	pt.root.ino = st.st_ino;
	pt.root.nlookup = 2;
	se = fuse_session_new(&args, &pt_ops, sizeof(pt_ops), NULL);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se) != 0 ||
	    fuse_session_mount(se, opts.mountpoint) != 0)
		goto out;
	if (fuse_daemonize(opts.foreground) != 0)
		goto out_unmount;
	loop = fuse_loop_cfg_create();
	if (loop) {
		fuse_loop_cfg_set_clone_fd(loop, 0);
		fuse_loop_cfg_set_idle_threads(loop, 10);
		rc = fuse_session_loop_mt(se, loop);
		fuse_loop_cfg_destroy(loop);
	}
	rc = rc == 0 || rc == SIGTERM || rc == SIGINT || rc == SIGHUP ? 0 : 1;
out_unmount:
	fuse_session_unmount(se);
out:
	fuse_remove_signal_handlers(se);
	fuse_session_destroy(se);
	free(opts.mountpoint);
	fuse_opt_free_args(&args);
	return rc;
}
