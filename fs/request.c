/* SPDX-License-Identifier: MIT */
/* see request.h */
#include "fs/request.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>

#include "fs/fs.h"
#include "fs/inode.h"

static_assert(INODE_ROOT_NODEID == FUSE_ROOT_ID, "the root's nodeid");

struct fs_inode *request_inode(struct cloakfs *fs, fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? fs->root
				   : inode_table_nodeid(&fs->inodes, ino);
}

fuse_ino_t request_nodeid(struct cloakfs *fs, struct fs_inode *in)
{
	(void)fs;
	return (fuse_ino_t)in->nodeid;
}

int request_begin(struct request *r, fuse_req_t req, fuse_ino_t ino,
		  unsigned int flags)
{
	r->req = req;
	r->fs = fuse_req_userdata(req);
	r->in = ino ? request_inode(r->fs, ino) : NULL;
	r->fd = -1;
	r->nheld = 0;
	if (ino && !r->in)
		return -ESTALE; /* a nodeid the kernel should not hold */
	/* a stat or statfs of the root (mountpoint checks, desktop
	 * polling) would keep an --idle mount forever */
	if (!(flags & REQ_QUIET) &&
	    !((flags & REQ_POLL) && ino == FUSE_ROOT_ID))
		fs_touch(r->fs);
	if ((flags & REQ_KEYS) && !keyring_unlocked(r->fs->vol.keyring))
		return -EACCES;
	if (flags & REQ_FD) {
		r->fd = request_hold(r, r->in);
		if (r->fd < 0) {
			int err = r->fd;

			r->fd = -1;
			return err;
		}
	}
	return 0;
}

int request_hold(struct request *r, struct fs_inode *in)
{
	int fd;

	assert(r->nheld < REQUEST_MAX_HOLDS);
	fd = inode_fd_hold(&r->fs->inodes, in);
	if (fd >= 0)
		r->held[r->nheld++] = in;
	return fd;
}

void request_path(const struct request *r, char path[PROCFD_LEN])
{
	procfd_path(r->fd, path);
}

int request_done(struct request *r, int err)
{
	while (r->nheld)
		inode_fd_release(&r->fs->inodes, r->held[--r->nheld]);
	r->fd = -1;
	if (!err)
		return 1;
	if (err == -EBADMSG || err == -EILSEQ)
		err = -EIO;
	fuse_reply_err(r->req, -err);
	return 0;
}

void request_reply(struct request *r, int err)
{
	if (request_done(r, err))
		fuse_reply_err(r->req, 0);
}
