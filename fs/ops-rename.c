/* SPDX-License-Identifier: MIT */
/*
 * rename (RENAME_NOREPLACE, RENAME_EXCHANGE, RENAME_WHITEOUT: the whiteout
 * left at the source's encrypted name): the two names encrypted, the
 * entries' lstat, and the rename of the ciphertext entries, whose whole
 * protocol is volume/entryops.h's; then the inode table learns where each
 * entry went (a symlink the volume re-made there is a new inode, which
 * the inode the kernel knows then stands for).
 */
#include "fs/handlers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/entryops.h"

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

/* where an entry went (from/from_cname to to/to_cname): its inode
 * learns the new name, or, re-made there, is the new inode */
static void arrived(struct cloakfs *fs, const struct stat *st, int remade,
		    const struct rename_dir *from, const char *from_cname,
		    const struct rename_dir *to, const char *to_cname)
{
	if (remade)
		rekey_symlink(fs, st, to, to_cname);
	else
		moved(fs, st, from, from_cname, to, to_cname);
}

void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
	       fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	struct request r;
	struct rename_dir dir = { NULL, -1 }, newdir = { NULL, -1 };
	struct direntry_name src, dst;
	struct stat sst, dst_st;
	unsigned int done = 0;
	int err = request_begin(&r, req, parent, REQ_FD), have_dst = 0;

	dir = (struct rename_dir){ r.in, r.fd };
	newdir.in = request_inode(r.fs, newparent);
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
	}
	if (!err) {
		struct respell_entry from = { dir.fd, NULL, &src, &sst };
		struct respell_entry to = { newdir.fd, NULL, &dst,
					    have_dst ? &dst_st : NULL };

		err = entry_rename(r.fs, dir.in, &from, newdir.in, &to, flags,
				   &done);
	}
	if (!err && !(done & ENTRYOPS_NOTHING)) {
		arrived(r.fs, &sst, done & ENTRYOPS_SRC_REMADE, &dir, src.name,
			&newdir, dst.name);
		if (flags & RENAME_EXCHANGE)
			arrived(r.fs, &dst_st, done & ENTRYOPS_DST_REMADE, &newdir,
				dst.name, &dir, src.name);
	}
	request_reply(&r, err);
}
