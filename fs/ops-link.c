/* SPDX-License-Identifier: MIT */
/* Symlinks and hard links: symlink, readlink, link. */
#include "fs/handlers.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/attr.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/entryops.h"

void fs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		const char *name)
{
	struct request r;
	char target[SYMLINK_MAX_STORED + 1];
	struct direntry_name en;
	int err = new_entry_begin(&r, req, parent, 0, name, &en), made;

	if (!err)
		err = entry_symlink_encrypt(r.fs, r.in, r.fd, link, target);
	made = !err;
	if (!err && symlinkat(target, r.fd, en.name) != 0)
		err = -errno;
	if (err && made)
		entry_symlink_discard(r.fs, target);
	if (!err)
		set_owner(&r, r.fd, en.name);
	/* the plaintext target, in libfuse's receive buffer */
	explicit_bzero((char *)link, strlen(link));
	reply_new_entry(&r, r.in, r.fd, &en, MADE_ENTRY, err);
}

void fs_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct request r;
	char target[SYMLINK_MAX_PLAIN + 1];
	int n = request_begin(&r, req, ino, REQ_FD);

	if (!n)
		n = attr_symlink_target(r.fs, r.in, r.fd, target, sizeof(target));
	if (request_done(&r, n < 0 ? n : 0))
		fuse_reply_readlink(req, target);
	explicit_bzero(target, sizeof(target));
}

void fs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
	     const char *newname)
{
	struct request r;
	struct fs_inode *dir, *p;
	struct direntry_name en = { .is_long = 0 };
	int err = request_begin(&r, req, ino, REQ_FD), dfd = -1;

	dir = request_inode(r.fs, newparent);
	if (!err && (dfd = request_hold(&r, dir)) < 0)
		err = dfd;
	if (!err)
		err = entry_encrypt(r.fs, dir, dfd, newname, &en);
	if (!err) {
		/* linked in its own directory? (volume/entryops.h) */
		p = inode_parent(&r.fs->inodes, r.in);
		err = entryops_link(&r.fs->vol, r.fd, r.in->type, p == dir, dfd,
				    &en);
		if (p)
			inode_unpin(&r.fs->inodes, p);
	}
	reply_new_entry(&r, dir, dfd, &en, MADE_ENTRY, err);
}
