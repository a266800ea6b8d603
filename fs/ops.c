/* SPDX-License-Identifier: MIT */
/*
 * The FUSE low-level operations: each turns one request into calls on the
 * ciphertext tree (through the inode table's O_PATH descriptors) and on
 * volume/ (names, content). Errors travel as -errno and are negated once,
 * in reply_err; every operation replies exactly once. The ops table is at
 * the end of this file.
 */
#include "fs/ops.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "crypto/log.h"
#include "crypto/secmem.h"
#include "fs/attr.h"
#include "fs/entry.h"
#include "fs/filestate.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "fs/readahead.h"
#include "fs/state.h"
#include "fs/xattr.h"
#include "volume/dirops.h"
#include "volume/header.h"

static_assert(sizeof(fuse_ino_t) >= sizeof(void *),
	      "nodeids are struct fs_inode pointers");

void fs_procfd(int fd, char buf[FS_PROCFD_LEN])
{
	snprintf(buf, FS_PROCFD_LEN, "/proc/self/fd/%d", fd);
}

static struct cloakfs *fs_of(fuse_req_t req)
{
	struct cloakfs *fs = fuse_req_userdata(req);

	fs_touch(fs);
	return fs;
}

/*
 * Requests that do not count as use for --idle: a stat or statfs of the
 * root (mountpoint checks, desktop polling) would keep a mount forever.
 */
static struct cloakfs *fs_of_root_poll(fuse_req_t req, fuse_ino_t ino)
{
	struct cloakfs *fs = fuse_req_userdata(req);

	if (ino != FUSE_ROOT_ID)
		fs_touch(fs);
	return fs;
}

static struct fs_inode *inode_of(struct cloakfs *fs, fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? fs->root
				   : (struct fs_inode *)(uintptr_t)ino;
}

static fuse_ino_t nodeid_of(struct cloakfs *fs, struct fs_inode *in)
{
	return in == fs->root ? FUSE_ROOT_ID : (fuse_ino_t)(uintptr_t)in;
}

/*
 * The one place an internal -errno becomes a FUSE error. Damage found by
 * volume/ (-EBADMSG) and the all-zero-unit case (-EILSEQ) are EIO to
 * applications.
 */
static void reply_err(fuse_req_t req, int err)
{
	if (err == -EBADMSG || err == -EILSEQ)
		err = -EIO;
	fuse_reply_err(req, -err);
}

/* ---- entries -------------------------------------------------------- */

/* in's descriptor for this request (inode.h); taken before any inode lock */
static int hold(struct cloakfs *fs, struct fs_inode *in)
{
	return inode_fd_hold(&fs->inodes, in);
}

static void unhold(struct cloakfs *fs, struct fs_inode *in)
{
	inode_fd_release(&fs->inodes, in);
}

/* hold in's descriptor and name it as a path ("/proc/self/fd/N"), for
 * the calls that take no descriptor; 0 or -errno (then nothing held) */
static int hold_path(struct cloakfs *fs, struct fs_inode *in,
		     char path[FS_PROCFD_LEN])
{
	int fd = hold(fs, in);

	if (fd < 0)
		return fd;
	fs_procfd(fd, path);
	return 0;
}

/*
 * Look up ciphertext entry cname of dir (dfd: a descriptor of it): one
 * more kernel lookup on its inode, and e filled for the reply.
 */
static int lookup_cname(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			const char *cname, struct fuse_entry_param *e)
{
	struct fs_inode *in;
	struct stat st;
	int fd, err;

	memset(e, 0, sizeof(*e));
	fd = openat(dfd, cname, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) {
		err = -errno;
		close(fd);
		return err;
	}
	err = inode_table_get(&fs->inodes, dir, cname, fd, &st, &in);
	if (err)
		return err;
	err = attr_get(fs, in, &e->attr);
	if (err) {
		inode_table_forget(&fs->inodes, in, 1);
		return err;
	}
	e->ino = nodeid_of(fs, in);
	e->attr_timeout = fs->timeout;
	e->entry_timeout = fs->timeout;
	return 0;
}

static void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *dir = inode_of(fs, parent);
	struct fuse_entry_param e;
	struct entry_name en;
	int err = 0, dfd = -1;

	if (!err && (dfd = hold(fs, dir)) < 0)
		err = dfd;
	if (!err)
		err = entry_encrypt(fs, dir, dfd, name, &en);
	if (!err)
		err = lookup_cname(fs, dir, dfd, en.name, &e);
	if (dfd >= 0)
		unhold(fs, dir);
	if (err == -ENOENT) {
		/* a negative entry the kernel may cache */
		memset(&e, 0, sizeof(e));
		e.entry_timeout = fs->timeout;
		err = 0;
	}
	if (err)
		reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

static void fs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	struct cloakfs *fs = fuse_req_userdata(req); /* not a use */

	inode_table_forget(&fs->inodes, inode_of(fs, ino), nlookup);
	fuse_reply_none(req);
}

static void fs_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *forgets)
{
	struct cloakfs *fs = fuse_req_userdata(req);

	for (size_t i = 0; i < count; i++)
		inode_table_forget(&fs->inodes, inode_of(fs, forgets[i].ino),
				   forgets[i].nlookup);
	fuse_reply_none(req);
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of_root_poll(req, ino);
	struct stat st;
	int err;

	(void)fi;
	err = attr_get(fs, inode_of(fs, ino), &st);
	if (err)
		reply_err(req, err);
	else
		fuse_reply_attr(req, &st, fs->timeout);
}

/* new entries belong to the caller when the filesystem runs as root */
static void set_owner(struct cloakfs *fs, fuse_req_t req, int dfd,
		      const char *cname)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	struct stat dst;
	gid_t gid = ctx->gid;

	if (!fs->chown_new || (ctx->uid == 0 && ctx->gid == 0))
		return;
	/* a setgid directory hands down its group, as the kernel does */
	if (fstatat(dfd, "", &dst, AT_EMPTY_PATH) == 0 &&
	    (dst.st_mode & S_ISGID))
		gid = (gid_t)-1;
	if (fchownat(dfd, cname, ctx->uid, gid, AT_SYMLINK_NOFOLLOW) != 0)
		log_warn("%s: chown of a new entry to uid %u: %s", fs->cipherdir,
			 (unsigned int)ctx->uid, strerror(errno));
}

/* what an operation made in the ciphertext directory, to undo */
enum made {
	MADE_ENTRY, /* a node, symlink or link: unlink the name */
	MADE_DIR,   /* a directory with its nonce */
};

/*
 * Take back the entry cname just made in dfd when the operation fails
 * after making it (docs/design.md: a failed create leaves nothing), and
 * its sidecar. A failure to undo is logged: fsck reports the leftover.
 */
static void unmake(struct cloakfs *fs, int dfd, const struct entry_name *en,
		   enum made what)
{
	int err = what == MADE_DIR ? dirops_unmake_dir(dfd, en->name)
				   : (unlinkat(dfd, en->name, 0) == 0 ? 0 : -errno);

	if (err)
		log_error("%s: a failed operation left an entry behind (%s); "
			  "cloakfs-fsck reports it", fs->cipherdir,
			  strerror(-err));
	entry_forget_sidecar(dfd, en);
}

/*
 * Common ending of mknod, mkdir, symlink and link: look the new entry up
 * and reply. When making it failed, drop a sidecar written for it; when
 * the lookup after it fails, take the new entry back. Releases dir's
 * descriptor dfd (if >= 0).
 */
static void reply_new_entry(fuse_req_t req, struct cloakfs *fs,
			    struct fs_inode *dir, int dfd,
			    const struct entry_name *en, enum made what, int err)
{
	struct fuse_entry_param e;

	if (!err) {
		err = lookup_cname(fs, dir, dfd, en->name, &e);
		if (err)
			unmake(fs, dfd, en, what);
	} else if (en->is_long && err != -EEXIST) {
		entry_forget_sidecar(dfd, en);
	}
	if (dfd >= 0)
		unhold(fs, dir);
	if (err)
		reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

static void fs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, dev_t rdev)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *dir = inode_of(fs, parent);
	struct entry_name en = { .is_long = 0 };
	int err = 0, dfd = -1;

	if (!err && (dfd = hold(fs, dir)) < 0)
		err = dfd;
	if (!err)
		err = entry_encrypt(fs, dir, dfd, name, &en);
	if (!err)
		err = entry_prepare(dfd, &en);
	if (!err && mknodat(dfd, en.name, mode, rdev) != 0)
		err = -errno;
	if (!err)
		set_owner(fs, req, dfd, en.name);
	reply_new_entry(req, fs, dir, dfd, &en, MADE_ENTRY, err);
}

/* the caller owns a new directory (set_owner) before it takes its name */
struct new_dir_owner {
	struct cloakfs *fs;
	fuse_req_t req;
};

static void own_new_dir(int parentfd, const char *tmp, void *arg)
{
	const struct new_dir_owner *o = arg;

	set_owner(o->fs, o->req, parentfd, tmp);
}

static void fs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *dir = inode_of(fs, parent);
	struct entry_name en = { .is_long = 0 };
	int err = 0, dfd = -1;

	if (!err && (dfd = hold(fs, dir)) < 0)
		err = dfd;
	if (!err)
		err = entry_encrypt(fs, dir, dfd, name, &en);
	if (!err)
		err = entry_prepare(dfd, &en);
	if (!err)
		err = dirops_make_dir(dfd, en.name, mode, own_new_dir,
				      &(struct new_dir_owner){ fs, req });
	reply_new_entry(req, fs, dir, dfd, &en, MADE_DIR, err);
}

static void fs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		       const char *name)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *dir = inode_of(fs, parent);
	char target[NAMES_MAX_SYMLINK_ENCODED + 1];
	struct entry_name en = { .is_long = 0 };
	int err = 0, dfd = -1;

	if (!err && (dfd = hold(fs, dir)) < 0)
		err = dfd;
	if (!err)
		err = entry_encrypt(fs, dir, dfd, name, &en);
	if (!err)
		err = entry_symlink_encrypt(fs, dir, dfd, link, target);
	if (!err)
		err = entry_prepare(dfd, &en);
	if (!err && symlinkat(target, dfd, en.name) != 0)
		err = -errno;
	if (!err)
		set_owner(fs, req, dfd, en.name);
	/* the plaintext target, in libfuse's receive buffer */
	explicit_bzero((char *)link, strlen(link));
	reply_new_entry(req, fs, dir, dfd, &en, MADE_ENTRY, err);
}

static void fs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		    const char *newname)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino), *dir = inode_of(fs, newparent);
	struct entry_name en = { .is_long = 0 };
	char path[FS_PROCFD_LEN];
	int err = 0, dfd = -1, fd = -1;

	if (!err && in->type == S_IFLNK) {
		/* a symlink's target is encrypted for its own directory */
		struct fs_inode *p = inode_parent(&fs->inodes, in);

		if (p != dir)
			err = -EPERM;
		if (p)
			inode_unpin(&fs->inodes, p);
	}
	if (!err && (fd = hold(fs, in)) < 0)
		err = fd;
	if (!err && (dfd = hold(fs, dir)) < 0)
		err = dfd;
	if (!err)
		err = entry_encrypt(fs, dir, dfd, newname, &en);
	if (!err)
		err = entry_prepare(dfd, &en);
	if (!err) {
		fs_procfd(fd, path);
		if (linkat(AT_FDCWD, path, dfd, en.name, AT_SYMLINK_FOLLOW) != 0)
			err = -errno;
	}
	if (fd >= 0)
		unhold(fs, in);
	reply_new_entry(req, fs, dir, dfd, &en, MADE_ENTRY, err);
}

static void fs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *dir = inode_of(fs, parent);
	struct entry_name en;
	int err = 0, dfd = -1;

	if (!err && (dfd = hold(fs, dir)) < 0)
		err = dfd;
	if (!err)
		err = entry_encrypt(fs, dir, dfd, name, &en);
	if (!err && unlinkat(dfd, en.name, 0) != 0)
		err = -errno;
	if (!err)
		entry_forget_sidecar(dfd, &en);
	if (dfd >= 0)
		unhold(fs, dir);
	reply_err(req, err);
}

/* does ciphertext directory dfd hold anything but its nonce file? */
static int dir_is_empty(int dfd)
{
	struct dirent *d;
	DIR *dp;
	int empty = 1, err = dirops_opendir(dfd, &dp);

	if (err)
		return err;
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") &&
		    strcmp(d->d_name, NAMES_DIRNONCE_FILE)) {
			empty = 0;
			break;
		}
	}
	closedir(dp);
	return empty;
}

static int write_nonce_back(int dfd, const uint8_t nonce[NAMES_DIRNONCE_SIZE])
{
	int fd = openat(dfd, NAMES_DIRNONCE_FILE,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0440);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, nonce, NAMES_DIRNONCE_SIZE) != NAMES_DIRNONCE_SIZE ||
	    fsync(fd) != 0)
		err = -EIO;
	close(fd);
	return err;
}

static void fs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *dir = inode_of(fs, parent);
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	struct entry_name en;
	int err = 0, dfd = -1, have_nonce = 0, pfd = -1;

	if (!err && (pfd = hold(fs, dir)) < 0)
		err = pfd;
	if (!err)
		err = entry_encrypt(fs, dir, pfd, name, &en);
	if (!err) {
		dfd = openat(pfd, en.name,
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			err = -errno;
	}
	if (!err) {
		err = dir_is_empty(dfd);
		err = err == 1 ? 0 : err == 0 ? -ENOTEMPTY : err;
	}
	if (!err) {
		have_nonce = names_dirnonce_read(dfd, nonce) == 0;
		if (unlinkat(dfd, NAMES_DIRNONCE_FILE, 0) != 0 && errno != ENOENT)
			err = -errno;
	}
	if (!err && unlinkat(pfd, en.name, AT_REMOVEDIR) != 0) {
		err = -errno;
		/* still there: it needs its names back */
		if (have_nonce && write_nonce_back(dfd, nonce) != 0)
			log_error("%s: rmdir failed and the directory's nonce "
				  "could not be restored", fs->cipherdir);
	}
	if (!err)
		entry_forget_sidecar(pfd, &en);
	explicit_bzero(nonce, sizeof(nonce));
	if (dfd >= 0)
		close(dfd);
	if (pfd >= 0)
		unhold(fs, dir);
	reply_err(req, err);
}

/* ---- rename ----------------------------------------------------------- */

/* a directory of a rename: its inode and held descriptor */
struct rename_dir {
	struct fs_inode *in;
	int fd;
};

/*
 * A version-1 symlink moving to another directory needs its target
 * re-encrypted under the new directory's name key: make that copy in to
 * under a temporary name (tmp), with the old one's owner and times.
 */
static int respell_symlink(struct cloakfs *fs, const struct rename_dir *from, const char *from_cname,
			   const struct rename_dir *to,
			   char tmp[DIROPS_TEMP_NAME_SIZE])
{
	char enc[NAMES_MAX_SYMLINK_ENCODED + 2];
	char plain[NAMES_MAX_SYMLINK_PLAIN + 1];
	struct stat st;
	ssize_t n = dirops_read_symlink(from->fd, from_cname, &st, enc,
					sizeof(enc));
	int err;

	if (n < 0)
		return (int)n; /* too long: -EBADMSG, EIO to the application */
	err = entry_symlink_decrypt(fs, from->in, from->fd, enc,
				    (size_t)n, plain);
	if (err < 0)
		return err;
	err = entry_symlink_encrypt(fs, to->in, to->fd, plain, enc);
	explicit_bzero(plain, sizeof(plain));
	if (!err)
		err = dirops_temp_name(tmp);
	return err ? err : dirops_symlink_like(enc, to->fd, tmp, &st);
}

/*
 * The kernel keeps the moved symlink's nodeid: point that inode at the
 * re-created symlink now at to/cname. old is its (dev, ino) before.
 */
static void rekey_symlink(struct cloakfs *fs, const struct stat *old,
			  const struct rename_dir *to, const char *cname)
{
	struct fs_inode *in = inode_table_find(&fs->inodes, old->st_dev,
					       old->st_ino);
	struct stat st;
	int fd;

	if (!in)
		return;
	fd = openat(to->fd, cname, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) == 0)
		inode_table_move(&fs->inodes, in, fd, &st, to->in, cname);
	else if (fd >= 0)
		close(fd);
	inode_unpin(&fs->inodes, in);
}

/* the inode that moved from (from, from_cname) to (to, to_cname) learns
 * its new name, so it is found again after its descriptor is evicted */
static void moved(struct cloakfs *fs, const struct stat *st,
		  const struct rename_dir *from, const char *from_cname,
		  const struct rename_dir *to, const char *to_cname)
{
	struct fs_inode *in = inode_table_find(&fs->inodes, st->st_dev,
					       st->st_ino);

	if (in) {
		inode_link_move(&fs->inodes, in, from->in, from_cname, to->in,
				to_cname);
		inode_unpin(&fs->inodes, in);
	}
}

/*
 * Renaming a directory over an empty one: the target still holds its
 * nonce file, which goes first (and comes back if the rename fails).
 * *victim gets the target's descriptor (or -1), *nonce its nonce.
 */
static int clear_target_dir(int newdfd, const char *cname, int *victim,
			    uint8_t nonce[NAMES_DIRNONCE_SIZE])
{
	int dfd = openat(newdfd, cname,
			 O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), err;

	*victim = -1;
	if (dfd < 0)
		return errno == ENOTDIR || errno == ENOENT ? 0 : -errno;
	err = dir_is_empty(dfd);
	if (err == 0)
		err = -ENOTEMPTY;
	if (err == 1)
		err = names_dirnonce_read(dfd, nonce);
	if (!err && unlinkat(dfd, NAMES_DIRNONCE_FILE, 0) != 0)
		err = -errno;
	if (err) {
		close(dfd);
		return err;
	}
	*victim = dfd;
	return 0;
}

/* rename where neither side is a symlink changing directory */
static int rename_plain(const struct rename_dir *dir, const struct entry_name *src,
			const struct rename_dir *newdir,
			const struct entry_name *dst, unsigned int flags, int dirs)
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	int err = entry_prepare(newdir->fd, dst), victim = -1;

	if (!err && dirs && !(flags & RENAME_EXCHANGE))
		err = clear_target_dir(newdir->fd, dst->name, &victim, nonce);
	if (err)
		return err;
	if (renameat2(dir->fd, src->name, newdir->fd, dst->name, flags) != 0) {
		err = -errno;
		if (flags == RENAME_NOREPLACE && (err == -EINVAL || err == -ENOSYS))
			err = dirops_rename_noreplace(dir->fd, src->name,
						      newdir->fd, dst->name);
	}
	if (victim >= 0) {
		if (err && write_nonce_back(victim, nonce) != 0)
			log_error("rename failed and the target directory's nonce "
				  "could not be restored");
		close(victim);
		explicit_bzero(nonce, sizeof(nonce));
	}
	if (err) {
		if (err != -EEXIST)
			entry_forget_sidecar(newdir->fd, dst);
		return err;
	}
	if (!(flags & RENAME_EXCHANGE))
		entry_forget_sidecar(dir->fd, src);
	return 0;
}

/*
 * rename with a version-1 symlink changing directory: re-encrypted copies
 * are renamed over the moved entries afterwards. Not atomic: a crash
 * leaves at worst a temporary name (hidden, reported by fsck).
 */
static int rename_respell(struct cloakfs *fs, const struct rename_dir *dir, const struct entry_name *src,
			  const struct stat *sst, const struct rename_dir *newdir,
			  const struct entry_name *dst, const struct stat *dst_st,
			  unsigned int flags)
{
	char tsrc[DIROPS_TEMP_NAME_SIZE] = "", tdst[DIROPS_TEMP_NAME_SIZE] = "";
	int err = 0, xchg = !!(flags & RENAME_EXCHANGE);

	if (S_ISLNK(sst->st_mode))
		err = respell_symlink(fs, dir, src->name, newdir, tsrc);
	if (!err && xchg && S_ISLNK(dst_st->st_mode))
		err = respell_symlink(fs, newdir, dst->name, dir, tdst);
	if (!err)
		err = entry_prepare(newdir->fd, dst);
	if (!err && xchg) {
		if (renameat2(dir->fd, src->name, newdir->fd, dst->name,
			      RENAME_EXCHANGE) != 0)
			err = -errno;
	} else if (!err && *tsrc) {
		/* the copy takes the destination name; then the old one goes */
		if (flags & RENAME_NOREPLACE)
			err = dirops_rename_noreplace(newdir->fd, tsrc,
						      newdir->fd, dst->name);
		else if (renameat(newdir->fd, tsrc, newdir->fd, dst->name) != 0)
			err = -errno;
		if (!err) {
			*tsrc = '\0';
			if (unlinkat(dir->fd, src->name, 0) != 0)
				err = -errno;
			else
				entry_forget_sidecar(dir->fd, src);
		}
	}
	if (!err && xchg) {
		if (*tsrc && renameat(newdir->fd, tsrc, newdir->fd, dst->name) == 0)
			*tsrc = '\0';
		if (*tdst && renameat(dir->fd, tdst, dir->fd, src->name) == 0)
			*tdst = '\0';
	}
	if (*tsrc)
		(void)unlinkat(newdir->fd, tsrc, 0);
	if (*tdst)
		(void)unlinkat(dir->fd, tdst, 0);
	if (err) {
		if (err != -EEXIST)
			entry_forget_sidecar(newdir->fd, dst);
		return err;
	}
	if (S_ISLNK(sst->st_mode))
		rekey_symlink(fs, sst, newdir, dst->name);
	else
		moved(fs, sst, dir, src->name, newdir, dst->name);
	if (xchg && S_ISLNK(dst_st->st_mode))
		rekey_symlink(fs, dst_st, dir, src->name);
	else if (xchg)
		moved(fs, dst_st, newdir, dst->name, dir, src->name);
	return 0;
}

static void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	struct cloakfs *fs = fs_of(req);
	struct rename_dir dir = { inode_of(fs, parent), -1 };
	struct rename_dir newdir = { inode_of(fs, newparent), -1 };
	struct entry_name src, dst;
	struct stat sst, dst_st;
	int err = 0, have_dst = 0;

	if (!err && (flags & ~(unsigned int)(RENAME_NOREPLACE | RENAME_EXCHANGE)))
		err = -EINVAL;
	if (!err && (dir.fd = hold(fs, dir.in)) < 0)
		err = dir.fd;
	if (!err && (newdir.fd = hold(fs, newdir.in)) < 0)
		err = newdir.fd;
	if (!err)
		err = entry_encrypt(fs, dir.in, dir.fd, name, &src);
	if (!err)
		err = entry_encrypt(fs, newdir.in, newdir.fd, newname, &dst);
	if (!err && fstatat(dir.fd, src.name, &sst, AT_SYMLINK_NOFOLLOW) != 0)
		err = -errno;
	if (!err) {
		have_dst = fstatat(newdir.fd, dst.name, &dst_st,
				   AT_SYMLINK_NOFOLLOW) == 0;
		if (!have_dst && errno != ENOENT)
			err = -errno;
		else if (!have_dst && (flags & RENAME_EXCHANGE))
			err = -ENOENT;
	}
	if (!err && have_dst && !(flags & RENAME_EXCHANGE) &&
	    sst.st_dev == dst_st.st_dev && sst.st_ino == dst_st.st_ino) {
		/* two names of one file: POSIX says do nothing */
		if (flags & RENAME_NOREPLACE)
			err = -EEXIST;
		goto out;
	}
	if (!err) {
		if (dir.in != newdir.in &&
		    (S_ISLNK(sst.st_mode) ||
		     (have_dst && (flags & RENAME_EXCHANGE) &&
		      S_ISLNK(dst_st.st_mode)))) {
			err = rename_respell(fs, &dir, &src, &sst, &newdir,
					     &dst, &dst_st, flags);
		} else {
			err = rename_plain(&dir, &src, &newdir, &dst, flags,
					   have_dst && S_ISDIR(sst.st_mode) &&
						   S_ISDIR(dst_st.st_mode));
			if (!err)
				moved(fs, &sst, &dir, src.name, &newdir, dst.name);
			if (!err && (flags & RENAME_EXCHANGE))
				moved(fs, &dst_st, &newdir, dst.name, &dir,
				      src.name);
		}
	}
out:
	if (newdir.fd >= 0)
		unhold(fs, newdir.in);
	if (dir.fd >= 0)
		unhold(fs, dir.in);
	reply_err(req, err);
}

static void fs_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	char target[NAMES_MAX_SYMLINK_PLAIN + 1];
	int n = 0, fd = -1;

	if (!n && (fd = hold(fs, in)) < 0)
		n = fd;
	if (!n)
		n = attr_symlink_target(fs, in, fd, target, sizeof(target));
	if (fd >= 0)
		unhold(fs, in);
	if (n < 0)
		reply_err(req, n);
	else
		fuse_reply_readlink(req, target);
	explicit_bzero(target, sizeof(target));
}

/* ---- attributes ------------------------------------------------------- */

static int set_times(struct fs_inode *in, int fd, const struct stat *attr,
		     int to_set)
{
	struct timespec tv[2];
	char path[FS_PROCFD_LEN];

	tv[0].tv_sec = 0;
	tv[1].tv_sec = 0;
	tv[0].tv_nsec = UTIME_OMIT;
	tv[1].tv_nsec = UTIME_OMIT;
	if (to_set & FUSE_SET_ATTR_ATIME_NOW)
		tv[0].tv_nsec = UTIME_NOW;
	else if (to_set & FUSE_SET_ATTR_ATIME)
		tv[0] = attr->st_atim;
	if (to_set & FUSE_SET_ATTR_MTIME_NOW)
		tv[1].tv_nsec = UTIME_NOW;
	else if (to_set & FUSE_SET_ATTR_MTIME)
		tv[1] = attr->st_mtim;
	if (in->type == S_IFLNK) {
		if (utimensat(fd, "", tv, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) == 0)
			return 0;
		return errno == EINVAL ? -EPERM : -errno;
	}
	fs_procfd(fd, path);
	return utimensat(AT_FDCWD, path, tv, 0) == 0 ? 0 : -errno;
}

/* set the plaintext size (truncate(2), ftruncate(2), O_TRUNC) */
static int set_size(struct cloakfs *fs, struct fs_inode *in, int fd, uint64_t size)
{
	int err;

	if (in->type != S_IFREG)
		return in->type == S_IFDIR ? -EISDIR : -EINVAL;
	if (!vkeyring_unlocked(fs->keyring))
		return -EACCES; /* content changes wait for the key */
	filestate_lock(in);
	err = filestate_get(in, 1, -1, fd);
	if (!err) {
		err = filestate_load(fs, in);
		if (!err)
			err = fileio_truncate(&in->file->cf, size);
		filestate_put(in);
	}
	filestate_unlock(in);
	return err;
}

static void fs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	char path[FS_PROCFD_LEN];
	struct stat st;
	int err = 0, fd = hold(fs, in);

	(void)fi;
	if (fd < 0)
		err = fd;
	if (!err && (to_set & FUSE_SET_ATTR_MODE)) {
		fs_procfd(fd, path);
		if (chmod(path, attr->st_mode & 07777) != 0)
			err = -errno;
	}
	if (!err && (to_set & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID))) {
		uid_t uid = (to_set & FUSE_SET_ATTR_UID) ? attr->st_uid : (uid_t)-1;
		gid_t gid = (to_set & FUSE_SET_ATTR_GID) ? attr->st_gid : (gid_t)-1;

		if (fchownat(fd, "", uid, gid,
			     AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
			err = -errno;
	}
	if (!err && (to_set & FUSE_SET_ATTR_SIZE))
		err = set_size(fs, in, fd, (uint64_t)attr->st_size);
	if (!err && (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME |
			       FUSE_SET_ATTR_ATIME_NOW | FUSE_SET_ATTR_MTIME_NOW)))
		err = set_times(in, fd, attr, to_set);
	if (fd >= 0)
		unhold(fs, in);
	if (!err)
		err = attr_get(fs, in, &st);
	if (err)
		reply_err(req, err);
	else
		fuse_reply_attr(req, &st, fs->timeout);
}

/* ---- files ------------------------------------------------------------ */

/* open flags kept in fi->fh: only O_APPEND matters after open */
static int open_content(struct cloakfs *fs, struct fs_inode *in, int flags, int fd, int pathfd)
{
	int want_write = (flags & O_ACCMODE) != O_RDONLY, err;

	filestate_lock(in);
	err = filestate_get(in, want_write, fd, pathfd);
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
	filestate_put(in);
	filestate_unlock(in);
	atomic_fetch_sub(&fs->open_handles, 1);
}

static void fill_open(struct fuse_file_info *fi)
{
	fi->fh = (uint64_t)(unsigned int)fi->flags;
	/* cloakfs is the only writer of its ciphertext: cached pages stay
	 * valid across opens */
	fi->keep_cache = 1;
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

static void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	int err = vkeyring_unlocked(fs->keyring) ? 0 : -EACCES, fd = -1;

	if (!err && in->type != S_IFREG)
		err = in->type == S_IFDIR ? -EISDIR : -EINVAL;
	if (!err && (fd = hold(fs, in)) < 0)
		err = fd;
	if (!err)
		err = open_content(fs, in, fi->flags, -1, fd);
	if (fd >= 0)
		unhold(fs, in);
	if (err) {
		reply_err(req, err);
		return;
	}
	fill_open(fi);
	readahead_apply_once(fs);
	if (fuse_reply_open(req, fi) != 0) {
		/* the opener is gone (interrupted): no release will come */
		close_content(fs, in);
	}
}

static void fs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *dir = inode_of(fs, parent), *in = NULL;
	/* the ciphertext is always read-write: writes read back sectors */
	int oflags = (fi->flags & ~(O_ACCMODE | O_APPEND | O_DIRECT | O_TRUNC |
				    O_CREAT | O_EXCL)) |
		     O_RDWR | O_NOFOLLOW | O_CLOEXEC;
	struct fuse_entry_param e;
	struct entry_name en = { .is_long = 0 };
	int err = vkeyring_unlocked(fs->keyring) ? 0 : -EACCES;
	int fd = -1, created = 0, dfd = -1;

	if (!err && (dfd = hold(fs, dir)) < 0)
		err = dfd;
	if (!err)
		err = entry_encrypt(fs, dir, dfd, name, &en);
	if (!err)
		err = entry_prepare(dfd, &en);
	if (!err) {
		fd = openat(dfd, en.name, oflags | O_CREAT | O_EXCL, mode);
		created = fd >= 0;
		if (fd < 0 && errno == EEXIST && !(fi->flags & O_EXCL))
			fd = openat(dfd, en.name, oflags);
		if (fd < 0)
			err = -errno;
	}
	if (created)
		set_owner(fs, req, dfd, en.name);
	if (!err)
		err = lookup_cname(fs, dir, dfd, en.name, &e);
	if (!err) {
		in = inode_of(fs, e.ino);
		err = open_content(fs, in, fi->flags | O_RDWR, fd, -1);
		fd = -1;
		if (err)
			inode_table_forget(&fs->inodes, in, 1);
	}
	if (fd >= 0)
		close(fd);
	if (err && created)
		unmake(fs, dfd, &en, MADE_ENTRY);
	else if (err && en.is_long && err != -EEXIST)
		entry_forget_sidecar(dfd, &en);
	if (dfd >= 0)
		unhold(fs, dir);
	if (err) {
		reply_err(req, err);
		return;
	}
	fill_open(fi);
	if (fuse_reply_create(req, &e, fi) != 0) {
		close_content(fs, in);
		inode_table_forget(&fs->inodes, in, 1);
	}
}

/* 1 for the first warning about in, 0 after (names_warned, under in->lock:
 * READDIRs and READs of one inode run side by side) */
static int first_warning(struct fs_inode *in)
{
	int first;

	pthread_mutex_lock(&in->lock);
	first = !in->names_warned;
	in->names_warned = 1;
	pthread_mutex_unlock(&in->lock);
	return first;
}

/* damage found in a file's header or sectors: say so once per inode */
static void log_damage(struct cloakfs *fs, struct fs_inode *in, const char *what)
{
	if (first_warning(in))
		log_warn("%s: file inode %llu is damaged (%s gave EIO; run "
			 "cloakfs-fsck)", fs->cipherdir,
			 (unsigned long long)in->ino, what);
}

static void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	char *buf = NULL;
	ssize_t n = 0;

	(void)fi;
	if (!n) {
		buf = malloc(size ? size : 1);
		if (!buf)
			n = -ENOMEM;
	}
	if (!n) {
		uint64_t plain = 0;

		/* shared: other READs of this file decrypt at the same time */
		n = filestate_read_begin(fs, in, &plain);
		if (!n)
			n = fileio_read_sized(&in->file->cf, plain, buf, size,
					      (uint64_t)off);
		filestate_read_end(in);
	}
	if (n == -EBADMSG)
		log_damage(fs, in, "read");
	if (n < 0)
		reply_err(req, (int)n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	wipe_free(buf, size); /* plaintext */
}

static void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	ssize_t n = 0;
	uint64_t pos = (uint64_t)off;

	if (!n) {
		filestate_lock(in);
		n = filestate_load(fs, in);
		/* O_APPEND: at the end, atomically; but never for the kernel's
		 * write-back of mmap'ed pages, which may come through any
		 * handle and carry their own offset */
		if (!n && (fi->fh & O_APPEND) && !fi->writepage)
			n = fileio_size(&in->file->cf, &pos);
		if (!n)
			n = fileio_write(&in->file->cf, buf, size, pos);
		/* O_SYNC/O_DSYNC handles: the ciphertext descriptor is shared */
		if (n >= 0 && (fi->fh & (O_SYNC | O_DSYNC)) && !fs->test_skip_fsync &&
		    fdatasync(in->file->fd) != 0)
			n = -errno;
		filestate_unlock(in);
	}
	/* the plaintext, in libfuse's receive buffer, which later requests
	 * only partly overwrite */
	explicit_bzero((char *)buf, size);
	if (n == -EBADMSG)
		log_damage(fs, in, "write");
	if (n < 0)
		reply_err(req, (int)n);
	else
		fuse_reply_write(req, (size_t)n);
}

static void fs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fs_touch(fuse_req_userdata(req));
	/* writes are synchronous: nothing is buffered here */
	fuse_reply_err(req, 0);
}

static void fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);

	(void)fi;
	close_content(fs, in);
	fuse_reply_err(req, 0);
}

static void fs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		     struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	int err = 0;

	(void)fi;
	pthread_mutex_lock(&in->lock);
	if (in->file && !fs->test_skip_fsync &&
	    (datasync ? fdatasync(in->file->fd) : fsync(in->file->fd)) != 0)
		err = -errno;
	pthread_mutex_unlock(&in->lock);
	reply_err(req, err);
}

static void fs_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
			 off_t len, struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	int err = 0;
	uint64_t size, end = (uint64_t)off + (uint64_t)len;

	(void)fi;
	if (!err && (mode & ~FALLOC_FL_KEEP_SIZE))
		err = -EOPNOTSUPP; /* punching or zeroing would need sectors re-encrypted */
	if (!err && (off < 0 || len <= 0))
		err = -EINVAL;
	if (!err) {
		filestate_lock(in);
		err = filestate_load(fs, in);
		if (!err)
			err = fileio_size(&in->file->cf, &size);
		if (!err && !(mode & FALLOC_FL_KEEP_SIZE) && end > size)
			err = fileio_truncate(&in->file->cf, end);
		/* reserve the ciphertext blocks; unwritten ones read as holes */
		if (!err && fallocate(in->file->fd, FALLOC_FL_KEEP_SIZE,
				      (off_t)HEADER_SIZE + off, len) != 0 &&
		    errno != EOPNOTSUPP)
			err = -errno;
		filestate_unlock(in);
	}
	reply_err(req, err);
}

/*
 * SEEK_DATA/SEEK_HOLE: plaintext byte p is ciphertext byte p + 32, and a
 * ciphertext hole lies wholly in never-written units (which read as
 * zeros), so the ciphertext's answer carries over.
 */
static void fs_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
		     struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	struct stat st;
	uint64_t size;
	off_t r = -1;
	int err = 0;

	(void)fi;
	if (whence != SEEK_DATA && whence != SEEK_HOLE) {
		reply_err(req, -EINVAL);
		return;
	}
	pthread_mutex_lock(&in->lock);
	if (!in->file || fstat(in->file->fd, &st) != 0) {
		err = in->file ? -errno : -EBADF;
	} else {
		size = attr_file_size(fs, in, -1, (uint64_t)st.st_size);
		if (off < 0 || (uint64_t)off >= size) {
			err = -ENXIO;
		} else {
			r = lseek(in->file->fd, (off_t)HEADER_SIZE + off, whence);
			if (r < 0)
				err = -errno;
			else if (r - HEADER_SIZE >= (off_t)size)
				r = whence == SEEK_HOLE ? (off_t)size : -1;
			else
				r -= HEADER_SIZE;
			if (r < 0 && !err)
				err = -ENXIO;
		}
	}
	pthread_mutex_unlock(&in->lock);
	if (err)
		reply_err(req, err);
	else
		fuse_reply_lseek(req, r);
}

/* ---- directories ------------------------------------------------------ */

struct dir_handle {
	DIR *dp;
	off_t offset;           /* position of entry */
	struct dirent *entry;   /* read but not yet returned */
};

static void fs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	struct dir_handle *dh = calloc(1, sizeof(*dh));
	int err;

	if (!dh) {
		reply_err(req, -ENOMEM);
		return;
	}
	err = hold(fs, in);
	if (err >= 0) {
		int fd = err;

		err = dirops_opendir(fd, &dh->dp);
		unhold(fs, in);
	}
	if (err) {
		free(dh);
		reply_err(req, err);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)dh;
	fi->cache_readdir = 0;
	if (fuse_reply_open(req, fi) != 0) {
		closedir(dh->dp);
		free(dh);
	}
}

static struct dir_handle *dir_handle_of(struct fuse_file_info *fi)
{
	return (struct dir_handle *)(uintptr_t)fi->fh;
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi, int plus)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *dir = inode_of(fs, ino);
	struct dir_handle *dh = dir_handle_of(fi);
	char *buf = NULL, plain[NAMES_MAX_PLAIN + 1];
	size_t pos = 0;
	int err = vkeyring_unlocked(fs->keyring) ? 0 : -EACCES;

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
		int dot, r;

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
		dot = names_classify(name) == NAMES_ENTRY_DOT;
		if (!dot) {
			r = entry_decrypt(fs, dir, dirfd(dh->dp), name, plain);
			if (r == -EIO || r == -EACCES) {
				/* the directory's nonce is lost: no name of it
				 * can be read, and an empty listing would hide
				 * that (entry.c logged which directory); or the
				 * volume was locked meanwhile */
				err = r;
				break;
			}
			if (r <= 0) {
				if (r < 0 && first_warning(dir))
					log_warn("%s: skipping undecodable entry %s "
						 "(%s); more in this directory are "
						 "not logged", fs->cipherdir, name,
						 strerror(-r));
				dh->entry = NULL;
				dh->offset = next;
				continue;
			}
			name = plain;
		}
		memset(&e, 0, sizeof(e));
		if (plus && !dot) {
			r = lookup_cname(fs, dir, dirfd(dh->dp),
					 dh->entry->d_name, &e);
			if (r) {
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
				inode_table_forget(&fs->inodes,
						   inode_of(fs, e.ino), 1);
			break;
		}
		pos += entsize;
		dh->entry = NULL;
		dh->offset = next;
	}
	if (err && pos == 0)
		reply_err(req, err);
	else
		fuse_reply_buf(req, buf, pos);
	wipe_free(buf, size); /* plaintext names */
	explicit_bzero(plain, sizeof(plain));
}

static void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, 0);
}

static void fs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			   off_t off, struct fuse_file_info *fi)
{
	do_readdir(req, ino, size, off, fi, 1);
}

static void fs_releasedir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct dir_handle *dh = dir_handle_of(fi);

	(void)ino;
	fs_touch(fuse_req_userdata(req));
	closedir(dh->dp);
	free(dh);
	fuse_reply_err(req, 0);
}

static void fs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
			struct fuse_file_info *fi)
{
	int fd = dirfd(dir_handle_of(fi)->dp), err = 0;

	(void)ino;
	fs_touch(fuse_req_userdata(req));
	if ((datasync ? fdatasync(fd) : fsync(fd)) != 0)
		err = -errno;
	reply_err(req, err);
}

static void fs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct cloakfs *fs = fs_of_root_poll(req, ino);
	struct fs_inode *in = inode_of(fs, ino);
	struct statvfs sv;
	int fd = hold(fs, in), err = 0;

	if (fd < 0)
		err = fd;
	else if (fstatvfs(fd, &sv) != 0)
		err = -errno;
	if (fd >= 0)
		unhold(fs, in);
	if (err) {
		reply_err(req, err);
		return;
	}
	sv.f_namemax = NAMES_MAX_PLAIN; /* long names go to sidecars */
	fuse_reply_statfs(req, &sv);
}

static void fs_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	char path[FS_PROCFD_LEN];
	int err = hold_path(fs, in, path);

	if (!err) {
		if (faccessat(AT_FDCWD, path, mask, 0) != 0)
			err = -errno;
		unhold(fs, in);
	}
	reply_err(req, err);
}

/* ---- extended attributes (xattr.h) ------------------------------------ */

static void fs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			const char *value, size_t size, int flags)
{
	if (ino == FUSE_ROOT_ID && fs_state_is_name(name)) {
		fuse_reply_err(req, EPERM); /* the mount's state (state.h) */
		return;
	}
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	char stored[256], path[FS_PROCFD_LEN];
	uint8_t *sealed = NULL;
	size_t slen = 0;
	int err = xattr_is_user(name) ? 0 : -EOPNOTSUPP;

	if (!err && in->type == S_IFLNK)
		err = -EPERM; /* as Linux: no user.* on symlinks */
	if (!err)
		err = xattr_name_encrypt(fs, name, stored);
	if (!err) {
		slen = xattr_sealed_size(fs, size);
		sealed = malloc(slen);
		err = sealed ? xattr_seal(fs, value, size, sealed) : -ENOMEM;
	}
	if (!err && !(err = hold_path(fs, in, path))) {
		if (setxattr(path, stored, sealed, slen, flags) != 0)
			err = -errno;
		unhold(fs, in);
	}
	wipe_free(sealed, slen); /* plaintext if sealing failed half-way */
	/* the plaintext value, in libfuse's receive buffer */
	explicit_bzero((char *)value, size);
	reply_err(req, err);
}

static void fs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			size_t size)
{
	if (ino == FUSE_ROOT_ID && fs_state_is_name(name)) {
		/* the mount's state (state.h): not use, so no fs_of() */
		fs_state_reply(req, fuse_req_userdata(req), size);
		return;
	}
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	char stored[256], path[FS_PROCFD_LEN];
	const uint8_t *value = NULL;
	uint8_t *sealed = NULL;
	size_t vlen = 0, cap = 0;
	ssize_t n;
	int err = xattr_is_user(name) ? 0 : -EOPNOTSUPP;

	if (!err && in->type == S_IFLNK)
		err = -ENODATA;
	if (!err)
		err = xattr_name_encrypt(fs, name, stored);
	if (err == -ERANGE)
		err = -ENODATA; /* no such name can have been stored */
	if (!err && !(err = hold_path(fs, in, path))) {
		n = getxattr(path, stored, NULL, 0);
		if (n < 0)
			err = -errno;
		else if (!(sealed = malloc(cap = (size_t)n + 1)))
			err = -ENOMEM;
		else if ((n = getxattr(path, stored, sealed, (size_t)n)) < 0)
			err = errno == ERANGE ? -EAGAIN : -errno; /* it grew */
		unhold(fs, in);
		if (!err)
			err = xattr_open(fs, sealed, (size_t)n, &value, &vlen);
	}
	if (err)
		reply_err(req, err);
	else if (size == 0)
		fuse_reply_xattr(req, vlen);
	else if (vlen > size)
		reply_err(req, -ERANGE);
	else
		fuse_reply_buf(req, (const char *)value, vlen);
	wipe_free(sealed, cap); /* the value, decrypted in place */
}

static void fs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	char path[FS_PROCFD_LEN], *raw = NULL, *out = NULL;
	size_t pos = 0;
	ssize_t n = 0;
	int err = 0;

	if (!err && in->type != S_IFLNK && !(err = hold_path(fs, in, path))) {
		n = listxattr(path, NULL, 0);
		if (n < 0)
			err = -errno;
		else if (!(raw = malloc((size_t)n + 1)) || !(out = malloc((size_t)n + 1)))
			err = -ENOMEM;
		else if ((n = listxattr(path, raw, (size_t)n)) < 0)
			err = errno == ERANGE ? -EAGAIN : -errno;
		unhold(fs, in);
	}
	/* a plaintext name is never longer than its stored form */
	for (ssize_t i = 0; !err && i < n; i += (ssize_t)strlen(raw + i) + 1) {
		char plain[256];
		int len = xattr_name_decrypt(fs, raw + i, plain);

		if (len < 0)
			continue; /* not ours (e.g. security.*): hidden */
		memcpy(out + pos, plain, (size_t)len + 1);
		pos += (size_t)len + 1;
	}
	if (err)
		reply_err(req, err);
	else if (size == 0)
		fuse_reply_xattr(req, pos);
	else if (pos > size)
		reply_err(req, -ERANGE);
	else
		fuse_reply_buf(req, out, pos);
	free(raw);
	wipe_free(out, pos); /* plaintext names */
}

static void fs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	struct cloakfs *fs = fs_of(req);
	struct fs_inode *in = inode_of(fs, ino);
	char stored[256], path[FS_PROCFD_LEN];
	int err = xattr_is_user(name) ? 0 : -EOPNOTSUPP;

	if (!err && in->type == S_IFLNK)
		err = -ENODATA;
	if (!err)
		err = xattr_name_encrypt(fs, name, stored);
	if (err == -ERANGE)
		err = -ENODATA;
	if (!err && !(err = hold_path(fs, in, path))) {
		if (removexattr(path, stored) != 0)
			err = -errno;
		unhold(fs, in);
	}
	reply_err(req, err);
}

/* ---- session ---------------------------------------------------------- */

static void fs_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* the kernel clears setuid/setgid bits on write, not us */
	conn->want &= ~(unsigned int)FUSE_CAP_HANDLE_KILLPRIV;
	/* write-back caching would let the kernel write at offsets and
	 * sizes of its own choosing; plain write-through is simpler to keep
	 * exact (O_APPEND, sizes). Measured, it did not pay either: the
	 * kernel then sends FLUSH on every close despite noflush, so
	 * creating small files took 20% more requests (docs/performance.md) */
	conn->want &= ~(unsigned int)FUSE_CAP_WRITEBACK_CACHE;
}

static const struct fuse_lowlevel_ops cloakfs_ops = {
	.init = fs_init,
	.lookup = fs_lookup,
	.forget = fs_forget,
	.forget_multi = fs_forget_multi,
	.getattr = fs_getattr,
	.setattr = fs_setattr,
	.readlink = fs_readlink,
	.mknod = fs_mknod,
	.mkdir = fs_mkdir,
	.unlink = fs_unlink,
	.rmdir = fs_rmdir,
	.symlink = fs_symlink,
	.rename = fs_rename,
	.link = fs_link,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.flush = fs_flush,
	.release = fs_release,
	.fsync = fs_fsync,
	.opendir = fs_opendir,
	.readdir = fs_readdir,
	.readdirplus = fs_readdirplus,
	.releasedir = fs_releasedir,
	.fsyncdir = fs_fsyncdir,
	.statfs = fs_statfs,
	.setxattr = fs_setxattr,
	.getxattr = fs_getxattr,
	.listxattr = fs_listxattr,
	.removexattr = fs_removexattr,
	.access = fs_access,
	.create = fs_create,
	.fallocate = fs_fallocate,
	.lseek = fs_lseek,
};

struct fuse_session *cloakfs_session_new(struct fuse_args *args,
					 struct cloakfs *fs)
{
	return fuse_session_new(args, &cloakfs_ops, sizeof(cloakfs_ops), fs);
}
