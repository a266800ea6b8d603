/* SPDX-License-Identifier: MIT */
/*
 * Regular files: open, create, read, write, flush, release, fsync,
 * fallocate, lseek. Content goes through the file's state (filestate.h)
 * and volume/content/fileio.h.
 */
#include "fs/handlers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "crypto/secmem.h"
#include "fs/acl.h"
#include "fs/attr.h"
#include "fs/filestate.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "fs/readahead.h"
#include "fs/readlease.h"
#include "fs/where.h"
#include "fs/xattr-absent.h"
#include "volume/fdio.h"

/* open flags kept in fi->fh: only O_APPEND matters after open */
static int open_content(struct cloakfs *fs, struct fs_inode *in, int flags,
			int fd, int pathfd)
{
	int want_write = (flags & O_ACCMODE) != O_RDONLY, err;

	filestate_lock(in);
	err = filestate_get(in, want_write, fd, pathfd);
	/* close-to-open with -o shared: another machine may have written
	 * since this file was last read here (not for fd, a file this
	 * create just made: nothing of it is cached, and its first change
	 * or read looks at the storage itself) */
	if (!err && fs->vol.shared && fd < 0) {
		if (in->file->loaded)
			fileio_forget_cached(&in->file->cf);
		else
			fileio_fresh_view(in->file->fd);
	}
	if (!err && (flags & O_TRUNC) && want_write) {
		err = filestate_load(fs, in);
		if (!err)
			err = fileio_truncate(&in->file->cf, 0);
		if (err)
			filestate_put(in);
	}
	filestate_unlock(in);
	if (!err)
		atomic_fetch_add(&fs->open_handles, 1);
	return err;
}

/* the end of a handle open_content opened (release, or a failed reply) */
static void close_content(struct cloakfs *fs, struct fs_inode *in)
{
	filestate_lock(in);
	/* a read lease outlives no handle (another machine's writer waits
	 * for it): the next handle's first read takes one anew */
	if (in->file && in->file->loaded)
		fileio_lease_end(&in->file->cf);
	filestate_put(in);
	filestate_unlock(in);
	atomic_fetch_sub(&fs->open_handles, 1);
}

static void fill_open(struct cloakfs *fs, fuse_ino_t ino,
		      struct fuse_file_info *fi)
{
	fi->fh = (uint64_t)(unsigned int)fi->flags;
	/* cloakfs is the only writer of its ciphertext: cached pages stay
	 * valid across opens. Not with -o shared: another machine may have
	 * written, so each open starts from the ciphertext (pages dropped,
	 * attributes and so the size asked again) */
	fi->keep_cache = !fs->vol.shared;
	if (fs->vol.shared && ino && fs->se)
		(void)fuse_lowlevel_notify_inval_inode(fs->se, ino, -1, 0);
	fi->direct_io = 0;
	/* fs_flush has nothing to do (writes are not buffered here): spare
	 * the kernel a round trip per close */
	fi->noflush = 1;
}

/* fs->readahead_kb, once, from the first open (readahead.h says why);
 * a failure (not root, say) leaves reads correct, only slower */
static void readahead_apply_once(struct cloakfs *fs)
{
	unsigned int kb;
	int err;

	if (!atomic_load_explicit(&fs->readahead_kb, memory_order_relaxed) ||
	    !(kb = atomic_exchange(&fs->readahead_kb, 0)))
		return;
	err = readahead_set(fs->mountpoint, kb);
	if (err)
		log_info("%s: read-ahead window left as it was: %s",
			 fs->mountpoint, strerror(-err));
}

void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct request r;
	int err = request_begin(&r, req, ino, REQ_KEYS);

	if (!err && r.in->type != S_IFREG)
		err = r.in->type == S_IFDIR ? -EISDIR : -EINVAL;
	if (!err && (r.fd = request_hold(&r, r.in)) < 0)
		err = r.fd;
	if (!err)
		err = open_content(r.fs, r.in, fi->flags, -1, r.fd);
	if (!request_done(&r, err))
		return;
	fill_open(r.fs, ino, fi);
	readahead_apply_once(r.fs);
	if (fuse_reply_open(req, fi) != 0) {
		/* the opener is gone (interrupted): no release will come */
		close_content(r.fs, r.in);
	}
}

/*
 * The entry a create is about to answer with is not a regular file: a
 * FIFO, device, socket, directory or symlink took the name between the
 * kernel's lookup and this create (planted in the ciphertext directory,
 * or made through the mount at that moment). It is never opened (a
 * device's driver would see the open; and the kernel refuses a create
 * reply that is not a file and sends no release, so the descriptor would
 * stay open for good). -ESTALE has the kernel look the name up again and
 * open what is there as any open would (O_EXCL gave -EEXIST before).
 */
static int create_not_a_file(struct request *r, const char *cname,
			     mode_t type)
{
	char dir[PATH_MAX];

	if (fdio_path(r->fd, dir, sizeof(dir)) != 0)
		snprintf(dir, sizeof(dir), "%s: a directory", r->fs->cipherdir);
	log_warn("%s/%s: %s where a new file was being created: not opened; "
		 "the kernel looks the name up again", dir, cname,
		 volume_type_name(type));
	return -ESTALE;
}

void fs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
	       mode_t mode, struct fuse_file_info *fi)
{
	struct request r;
	struct fs_inode *in = NULL;
	/* the ciphertext is always read-write: writes read back sectors */
	int oflags = (fi->flags & ~(O_ACCMODE | O_APPEND | O_DIRECT | O_TRUNC |
				    O_CREAT | O_EXCL)) |
		     O_RDWR | O_NOFOLLOW | O_CLOEXEC;
	struct fuse_entry_param e;
	struct direntry_name en;
	struct acl_inherit ai = { 0 };
	int err = new_entry_begin(&r, req, parent, REQ_KEYS, name, &en);
	int fd = -1, pathfd = -1, created = 0, acl_access, acl_default;

	if (!err)
		err = acl_inherit_begin(&r, S_IFREG, &mode, &ai);
	acl_access = ai.access != NULL;
	acl_default = ai.deflt != NULL;
	if (!err) {
		fd = openat(r.fd, en.name, oflags | O_CREAT | O_EXCL, mode);
		created = fd >= 0;
		/* taken: without O_EXCL the file there is opened, below,
		 * through its inode once it is known to be a file */
		if (fd < 0 && (errno != EEXIST || (fi->flags & O_EXCL)))
			err = -errno;
	}
	if (created) {
		set_owner(&r, r.fd, en.name);
		err = acl_inherit_apply(&r, r.fd, en.name, &ai);
	}
	acl_inherit_free(&ai);
	if (!err) {
		err = lookup_cname(r.fs, r.in, r.fd, en.name, &e);
		/* removed from the ciphertext side since the openat: the
		 * kernel starts over, and may create it (ENOENT is no answer
		 * to O_CREAT) */
		if (err == -ENOENT)
			err = -ESTALE;
	}
	if (!err) {
		in = request_inode(r.fs, e.ino);
		/* the name may have changed hands since the openat too; the
		 * kernel takes a reply for a regular file only */
		if (in->type != S_IFREG || !S_ISREG(e.attr.st_mode)) {
			err = create_not_a_file(&r, en.name, in->type);
			created = 0; /* what is there now is not ours */
		} else if (fd < 0 && (pathfd = request_hold(&r, in)) < 0) {
			err = pathfd;
		}
		if (!err) {
			err = open_content(r.fs, in, fi->flags | O_RDWR, fd,
					   pathfd);
			fd = -1;
		}
		/* the kernel asks for these before the first write */
		if (!err && created)
			xattr_absent_new_file(r.fs, in, acl_access,
					      acl_default);
		if (err)
			inode_table_forget(&r.fs->inodes, in, 1);
	}
	if (fd >= 0)
		close(fd);
	if (err && created)
		unmake(r.fs, r.fd, &en, MADE_ENTRY);
	else if (err && en.is_long && err != -EEXIST)
		direntry_name_forget(r.fd, &en);
	if (!request_done(&r, err))
		return;
	fill_open(r.fs, 0, fi); /* new: nothing cached to drop */
	if (fuse_reply_create(req, &e, fi) != 0) {
		close_content(r.fs, in);
		inode_table_forget(&r.fs->inodes, in, 1);
	}
}

int first_warning(struct fs_inode *in)
{
	int first;

	/* under in->lock: READDIRs and READs of one inode run side by side */
	pthread_mutex_lock(&in->lock);
	first = !in->names_warned;
	in->names_warned = 1;
	pthread_mutex_unlock(&in->lock);
	return first;
}

/* damage found in a file's header or sectors: say so once per inode,
 * naming it and, in an authenticated volume, the sector that failed its
 * tag (bad_off; UINT64_MAX: none known) (no inode lock is held here:
 * where.h) */
static void log_damage(struct cloakfs *fs, struct fs_inode *in, const char *what,
		       uint64_t bad_off)
{
	char where[WHERE_MAX], sector[96] = "";

	if (!first_warning(in))
		return;
	where_inode(fs, in, -1, 1, where, sizeof(where));
	if (bad_off != UINT64_MAX)
		snprintf(sector, sizeof(sector), ": the sector at offset %llu "
			 "fails its tag", (unsigned long long)bad_off);
	log_warn("%s is damaged (%s gave EIO%s; run cloakfs-fsck)", where, what,
		 sector);
}

void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	     struct fuse_file_info *fi)
{
	struct request r;
	char *buf = NULL;
	ssize_t n = request_begin(&r, req, ino, 0);
	uint64_t plain = 0, bad_off = UINT64_MAX;

	(void)fi;
	if (!n && !(buf = malloc(size ? size : 1)))
		n = -ENOMEM;
	if (!n) {
		/* shared: other READs of this file decrypt at the same time */
		filestate_read_lock(r.fs, r.in);
		/* its read lease is given back by the timer once reads pause */
		if (r.fs->leases)
			n = readlease_add(r.fs->leases, r.in);
		if (!n)
			n = filestate_read_begin(r.fs, r.in, (uint64_t)off,
						 size, &plain);
		if (!n)
			n = fileio_read_checked(&r.in->file->cf, plain, buf,
						size, (uint64_t)off, &bad_off);
		filestate_read_end(r.in);
	}
	if (n == -EBADMSG)
		log_damage(r.fs, r.in, "read", bad_off);
	if (request_done(&r, n < 0 ? (int)n : 0))
		fuse_reply_buf(req, buf, (size_t)n);
	wipe_free(buf, size); /* plaintext */
}

void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
	      off_t off, struct fuse_file_info *fi)
{
	struct request r;
	struct fs_inode *in;
	ssize_t n = request_begin(&r, req, ino, 0);
	uint64_t pos = (uint64_t)off;

	in = r.in;
	if (!n) {
		filestate_lock(in);
		n = filestate_load(r.fs, in);
		/* O_APPEND: at the end, atomically; but never for the kernel's
		 * write-back of mmap'ed pages, which may come through any
		 * handle and carry their own offset */
		if (!n && (fi->fh & O_APPEND) && !fi->writepage)
			n = fileio_append(&in->file->cf, buf, size, &pos);
		else if (!n)
			n = fileio_write(&in->file->cf, buf, size, pos);
		/* O_SYNC/O_DSYNC handles: the ciphertext descriptor is shared */
		if (n >= 0 && (fi->fh & (O_SYNC | O_DSYNC)) &&
		    !r.fs->test_skip_fsync && fdatasync(in->file->fd) != 0)
			n = -errno;
		filestate_unlock(in);
	}
	/* the plaintext, in libfuse's receive buffer, which later requests
	 * only partly overwrite */
	explicit_bzero((char *)buf, size);
	if (n == -EBADMSG)
		log_damage(r.fs, in, "write", UINT64_MAX);
	if (request_done(&r, n < 0 ? (int)n : 0))
		fuse_reply_write(req, (size_t)n);
}

void fs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct request r;

	(void)fi;
	/* writes are synchronous: nothing is buffered here */
	request_reply(&r, request_begin(&r, req, ino, 0));
}

void fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct request r;

	(void)fi;
	(void)request_begin(&r, req, ino, 0);
	close_content(r.fs, r.in);
	request_reply(&r, 0);
}

void fs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	      struct fuse_file_info *fi)
{
	struct request r;
	int err = request_begin(&r, req, ino, 0);
	struct fs_inode *in = r.in;

	(void)fi;
	pthread_mutex_lock(&in->lock);
	if (in->file && !r.fs->test_skip_fsync &&
	    (datasync ? fdatasync(in->file->fd) : fsync(in->file->fd)) != 0)
		err = -errno;
	pthread_mutex_unlock(&in->lock);
	request_reply(&r, err);
}

/*
 * Preallocation (mode 0, KEEP_SIZE), PUNCH_HOLE|KEEP_SIZE and ZERO_RANGE
 * (fileio_zero); the kernel's FUSE client passes no other mode
 * (COLLAPSE_RANGE and INSERT_RANGE stop there with EOPNOTSUPP).
 */
void fs_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
		  off_t len, struct fuse_file_info *fi)
{
	struct request r;
	int err = request_begin(&r, req, ino, 0);
	struct fs_inode *in = r.in;
	int keep = mode & FALLOC_FL_KEEP_SIZE;
	int zero = mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE);

	(void)fi;
	/* as vfs_fallocate(), should a caller come another way */
	if (!err && ((mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE |
			       FALLOC_FL_ZERO_RANGE)) ||
		     ((mode & FALLOC_FL_PUNCH_HOLE) && !keep)))
		err = -EOPNOTSUPP;
	if (!err && (off < 0 || len <= 0 ||
		     zero == (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)))
		err = -EINVAL;
	if (!err) {
		filestate_lock(in);
		err = filestate_load(r.fs, in);
		/* preallocation reserves the ciphertext blocks (unwritten ones
		 * read as holes) before the size changes: a full disk leaves
		 * the old size; zeroing leaves holes instead (fileio_zero) */
		if (!err && zero)
			err = fileio_zero(&in->file->cf, (uint64_t)off,
					  (uint64_t)len, keep);
		else if (!err)
			err = fileio_allocate(&in->file->cf, (uint64_t)off,
					      (uint64_t)len, keep);
		filestate_unlock(in);
	}
	request_reply(&r, err);
}

/* SEEK_DATA/SEEK_HOLE: plaintext units, from where the ciphertext's
 * data lies (fileio_seek) */
void fs_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
	      struct fuse_file_info *fi)
{
	struct request r;
	int err = request_begin(&r, req, ino, 0);
	struct fs_inode *in = r.in;
	struct stat st;
	int64_t pos = -1;

	(void)fi;
	if (!err && whence != SEEK_DATA && whence != SEEK_HOLE)
		err = -EINVAL;
	if (!err) {
		pthread_mutex_lock(&in->lock);
		if (!in->file || fstat(in->file->fd, &st) != 0)
			err = in->file ? -errno : -EBADF;
		else
			err = fileio_seek(in->file->fd, &r.fs->vol.geom,
					  attr_file_size(r.fs, in, -1,
							 (uint64_t)st.st_size),
					  off, whence, &pos);
		pthread_mutex_unlock(&in->lock);
	}
	if (request_done(&r, err))
		fuse_reply_lseek(req, pos);
}
