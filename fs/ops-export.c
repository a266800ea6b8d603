/* SPDX-License-Identifier: MIT */
/*
 * LOOKUP of "." and "..": what the kernel sends to decode a file handle
 * (open_by_handle_at, an NFS server) once it forgot the inode, and to
 * connect a directory found that way to the tree (docs/design.md, "File
 * handles of the mount").
 */
#include "fs/handlers.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"
#include "fs/inode.h"

/* a chain of directories deeper than this is not followed up */
#define PARENT_MAX_DEPTH 4096

/* fd (a directory, fstat *fst) is the root or below it: 1, else 0 (the
 * file was moved out of the ciphertext tree on the backing side) */
static int below_root(const struct cloakfs *fs, int fd, const struct stat *fst)
{
	int cur = fcntl(fd, F_DUPFD_CLOEXEC, 0), up, depth = 0, found = 0;
	struct stat st = *fst;

	while (cur >= 0 && depth++ < PARENT_MAX_DEPTH) {
		struct stat ust;

		if (st.st_dev == fs->root->dev && st.st_ino == fs->root->ino) {
			found = 1;
			break;
		}
		up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(cur);
		cur = up;
		if (cur < 0 || fstat(cur, &ust) != 0 ||
		    (ust.st_dev == st.st_dev && ust.st_ino == st.st_ino))
			break; /* the top of the backing tree, or an error */
		st = ust;
	}
	if (cur >= 0)
		close(cur);
	return found;
}

/* the directory above r->in's (which must be one), one more lookup */
static int lookup_parent(struct request *r, struct fs_inode **out)
{
	struct stat st;
	int fd, err;

	if (r->in == r->fs->root || r->in->type != S_IFDIR) {
		/* the root is its own parent; files have none to give */
		if (r->in != r->fs->root)
			return -ENOTDIR;
		inode_table_ref(&r->fs->inodes, r->in);
		*out = r->in;
		return 0;
	}
	fd = openat(r->fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!below_root(r->fs, fd, &st)) {
		close(fd);
		return -ESTALE;
	}
	return inode_table_get(&r->fs->inodes, NULL, NULL, fd, &st, out);
}

void fs_lookup_export(fuse_req_t req, fuse_ino_t nodeid, const char *name)
{
	struct request r;
	struct fuse_entry_param e;
	struct fs_inode *in = NULL;
	int err;

	memset(&e, 0, sizeof(e));
	if (strcmp(name, ".") == 0) {
		/* the nodeid may be one the kernel forgot: no request inode */
		err = request_begin(&r, req, 0, 0);
		if (!err && nodeid == FUSE_ROOT_ID) {
			in = r.fs->root;
			inode_table_ref(&r.fs->inodes, in);
		} else if (!err) {
			err = inode_table_revive(&r.fs->inodes, nodeid, &in);
		}
	} else {
		err = request_begin(&r, req, nodeid, REQ_FD);
		if (!err)
			err = lookup_parent(&r, &in);
	}
	if (!err)
		err = entry_reply_param(r.fs, in, &e);
	if (request_done(&r, err))
		fuse_reply_entry(req, &e);
}
