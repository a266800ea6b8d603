/* SPDX-License-Identifier: MIT */
/*
 * rename (RENAME_NOREPLACE, RENAME_EXCHANGE): a rename of the ciphertext
 * entries, with a directory's nonce file out of the way when one
 * directory replaces another; a version-1 symlink moving to another
 * directory is volume/respell.h's, and its inode is pointed at the new
 * symlink afterwards.
 */
#include "fs/handlers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/dirops.h"
#include "volume/respell.h"

/* a directory of a rename: its inode and held descriptor */
struct rename_dir {
	struct fs_inode *in;
	int fd;
};

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

/* rename where neither side is a symlink changing directory */
static int rename_plain(const struct rename_dir *dir, const struct direntry_name *src,
			const struct rename_dir *newdir,
			const struct direntry_name *dst, unsigned int flags, int dirs)
{
	struct direntry_victim victim = { .fd = -1 };
	int err = direntry_name_prepare(newdir->fd, dst);

	/* a directory replacing an empty one: the target's nonce goes
	 * first, and comes back if the rename fails */
	if (!err && dirs && !(flags & RENAME_EXCHANGE))
		err = direntry_victim_clear(newdir->fd, dst->name, &victim);
	if (err)
		return err;
	if (renameat2(dir->fd, src->name, newdir->fd, dst->name, flags) != 0) {
		err = -errno;
		if (flags == RENAME_NOREPLACE && (err == -EINVAL || err == -ENOSYS))
			err = dirops_rename_noreplace(dir->fd, src->name,
						      newdir->fd, dst->name);
	}
	direntry_victim_end(&victim, err != 0);
	if (err) {
		if (err != -EEXIST)
			direntry_name_forget(newdir->fd, dst);
		return err;
	}
	if (!(flags & RENAME_EXCHANGE))
		direntry_name_forget(dir->fd, src);
	return 0;
}

/*
 * rename with a version-1 symlink changing directory: volume/respell.h
 * re-encrypts it there as a new symlink, which the inode the kernel
 * knows then stands for.
 */
static int rename_respell(struct cloakfs *fs, const struct rename_dir *dir,
			  const struct direntry_name *src, const struct stat *sst,
			  const struct rename_dir *newdir,
			  const struct direntry_name *dst, const struct stat *dst_st,
			  unsigned int flags)
{
	struct respell_entry from = { .dfd = dir->fd, .name = src, .st = sst };
	struct respell_entry to = { .dfd = newdir->fd, .name = dst, .st = dst_st };
	int xchg = !!(flags & RENAME_EXCHANGE);
	int err = entry_rename_respell(fs, dir->in, &from, newdir->in, &to,
				       flags);

	if (err)
		return err;
	if (respell_bound(fs->cfg.version, sst->st_mode))
		rekey_symlink(fs, sst, newdir, dst->name);
	else
		moved(fs, sst, dir, src->name, newdir, dst->name);
	if (xchg && respell_bound(fs->cfg.version, dst_st->st_mode))
		rekey_symlink(fs, dst_st, dir, src->name);
	else if (xchg)
		moved(fs, dst_st, newdir, dst->name, dir, src->name);
	return 0;
}

void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
	       fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	struct request r;
	struct rename_dir dir = { NULL, -1 }, newdir = { NULL, -1 };
	struct direntry_name src, dst;
	struct stat sst, dst_st;
	int err = request_begin(&r, req, parent, REQ_FD), have_dst = 0, pin = -1;

	dir = (struct rename_dir){ r.in, r.fd };
	newdir.in = request_inode(r.fs, newparent);
	if (!err && (flags & ~(unsigned int)(RENAME_NOREPLACE | RENAME_EXCHANGE)))
		err = -EINVAL;
	if (!err && (newdir.fd = request_hold(&r, newdir.in)) < 0)
		err = newdir.fd;
	if (!err)
		err = entry_encrypt(r.fs, dir.in, dir.fd, name, &src);
	if (!err)
		err = entry_encrypt(r.fs, newdir.in, newdir.fd, newname, &dst);
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
		request_reply(&r, (flags & RENAME_NOREPLACE) ? -EEXIST : 0);
		return;
	}
	if (!err) {
		if (dir.in != newdir.in &&
		    (respell_bound(r.fs->cfg.version, sst.st_mode) ||
		     (have_dst && (flags & RENAME_EXCHANGE) &&
		      respell_bound(r.fs->cfg.version, dst_st.st_mode)))) {
			err = rename_respell(r.fs, &dir, &src, &sst, &newdir,
					     &dst, &dst_st, flags);
		} else {
			if (have_dst && !(flags & RENAME_EXCHANGE))
				pin = entry_target_pin(r.fs, newdir.fd,
						       dst.name);
			err = rename_plain(&dir, &src, &newdir, &dst, flags,
					   have_dst && S_ISDIR(sst.st_mode) &&
						   S_ISDIR(dst_st.st_mode));
			entry_target_unpin(r.fs, pin);
			if (!err)
				moved(r.fs, &sst, &dir, src.name, &newdir, dst.name);
			if (!err && (flags & RENAME_EXCHANGE))
				moved(r.fs, &dst_st, &newdir, dst.name, &dir,
				      src.name);
		}
	}
	request_reply(&r, err);
}
