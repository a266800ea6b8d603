/* SPDX-License-Identifier: MIT */
/*
 * Entries of a directory: lookup and forget, mknod, mkdir, unlink, rmdir,
 * and the ending every new entry shares (handlers.h).
 */
#include "fs/handlers.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "fs/acl.h"
#include "fs/attr.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/dirops.h"
#include "volume/entryops.h"

int lookup_cname(struct cloakfs *fs, struct fs_inode *dir, int dfd,
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
	return err ? err : entry_reply_param(fs, in, e);
}

int entry_reply_param(struct cloakfs *fs, struct fs_inode *in,
		      struct fuse_entry_param *e)
{
	int err = attr_get(fs, in, &e->attr);

	if (err) {
		inode_table_forget(&fs->inodes, in, 1);
		return err;
	}
	e->ino = request_nodeid(fs, in);
	e->generation = in->generation;
	e->attr_timeout = fs->timeout;
	e->entry_timeout = fs->timeout;
	return 0;
}

void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct request r;
	struct fuse_entry_param e;
	struct direntry_name en;
	int err;

	/* only file handles ask for these (the kernel walks them itself) */
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		fs_lookup_export(req, parent, name);
		return;
	}
	err = request_begin(&r, req, parent, REQ_FD);

	if (!err)
		err = entry_encrypt(r.fs, r.in, r.fd, name, &en);
	if (!err)
		err = lookup_cname(r.fs, r.in, r.fd, en.name, &e);
	if (err == -ENOENT) {
		/* a negative entry the kernel may cache; not with -o shared,
		 * where another machine may make the name any moment */
		memset(&e, 0, sizeof(e));
		e.entry_timeout = r.fs->vol.shared ? 0 : r.fs->timeout;
		err = 0;
	}
	if (request_done(&r, err))
		fuse_reply_entry(req, &e);
}

void fs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	struct cloakfs *fs = fuse_req_userdata(req); /* not a use */
	struct fs_inode *in = request_inode(fs, ino);

	if (in)
		inode_table_forget(&fs->inodes, in, nlookup);
	fuse_reply_none(req);
}

void fs_forget_multi(fuse_req_t req, size_t count,
		     struct fuse_forget_data *forgets)
{
	struct cloakfs *fs = fuse_req_userdata(req);

	for (size_t i = 0; i < count; i++) {
		struct fs_inode *in = request_inode(fs, forgets[i].ino);

		if (in)
			inode_table_forget(&fs->inodes, in, forgets[i].nlookup);
	}
	fuse_reply_none(req);
}

void set_owner(struct request *r, int dfd, const char *cname)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(r->req);
	struct stat dst;
	gid_t gid = ctx->gid;

	if (!r->fs->chown_new || (ctx->uid == 0 && ctx->gid == 0))
		return;
	/* a setgid directory hands down its group, as the kernel does */
	if (fstatat(dfd, "", &dst, AT_EMPTY_PATH) == 0 &&
	    (dst.st_mode & S_ISGID))
		gid = (gid_t)-1;
	if (fchownat(dfd, cname, ctx->uid, gid, AT_SYMLINK_NOFOLLOW) != 0)
		log_warn("%s: chown of a new entry to uid %u: %s",
			 r->fs->cipherdir, (unsigned int)ctx->uid,
			 strerror(errno));
}

void unmake(struct cloakfs *fs, int dfd, const struct direntry_name *en,
	    enum made what)
{
	int err = what == MADE_DIR ? dirops_unmake_dir(dfd, en->name)
				   : (unlinkat(dfd, en->name, 0) == 0 ? 0 : -errno);

	/* gone already (removed from the ciphertext side): nothing is left */
	if (err && err != -ENOENT)
		log_error("%s: a failed operation left an entry behind (%s); "
			  "cloakfs-fsck reports it", fs->cipherdir,
			  strerror(-err));
	direntry_name_forget(dfd, en);
}

void reply_new_entry(struct request *r, struct fs_inode *dir, int dfd,
		     const struct direntry_name *en, enum made what, int err)
{
	struct fuse_entry_param e;

	if (!err) {
		err = lookup_cname(r->fs, dir, dfd, en->name, &e);
		if (err)
			unmake(r->fs, dfd, en, what);
	} else if (en->is_long && err != -EEXIST && dfd >= 0) {
		direntry_name_forget(dfd, en);
	}
	if (request_done(r, err))
		fuse_reply_entry(r->req, &e);
}

int new_entry_begin(struct request *r, fuse_req_t req, fuse_ino_t parent,
		    unsigned int flags, const char *name, struct direntry_name *en)
{
	int err = request_begin(r, req, parent, flags | REQ_FD);

	en->is_long = 0;
	if (!err)
		err = entry_encrypt(r->fs, r->in, r->fd, name, en);
	if (!err)
		err = direntry_name_prepare(r->fd, en);
	return err;
}

void fs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode, dev_t rdev)
{
	struct request r;
	struct direntry_name en;
	struct acl_inherit ai = { 0 };
	int err = new_entry_begin(&r, req, parent, 0, name, &en);

	if (!err)
		err = acl_inherit_begin(&r, mode & S_IFMT, &mode, &ai);
	if (!err && mknodat(r.fd, en.name, mode, rdev) != 0)
		err = -errno;
	if (!err) {
		set_owner(&r, r.fd, en.name);
		err = acl_inherit_apply(&r, r.fd, en.name, &ai);
		if (err)
			unmake(r.fs, r.fd, &en, MADE_ENTRY);
	}
	acl_inherit_free(&ai);
	reply_new_entry(&r, r.in, r.fd, &en, MADE_ENTRY, err);
}

/* a new directory, made under a temporary name, gets its owner
 * (set_owner) and its inherited ACLs before it takes its own, so that no
 * crash leaves it named without them */
struct new_dir {
	struct request *r;
	const struct acl_inherit *ai;
	int err;
};

static void own_new_dir(int parentfd, const char *tmp, void *arg)
{
	struct new_dir *nd = arg;

	set_owner(nd->r, parentfd, tmp);
	nd->err = acl_inherit_apply(nd->r, parentfd, tmp, nd->ai);
}

void fs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode)
{
	struct request r;
	struct direntry_name en;
	struct acl_inherit ai = { 0 };
	struct new_dir nd = { &r, &ai, 0 };
	int err = new_entry_begin(&r, req, parent, 0, name, &en);

	if (!err)
		err = acl_inherit_begin(&r, S_IFDIR, &mode, &ai);
	if (!err) {
		err = dirops_make_dir(r.fd, en.name, mode, own_new_dir, &nd);
		if (!err && (err = nd.err) != 0)
			unmake(r.fs, r.fd, &en, MADE_DIR);
	}
	acl_inherit_free(&ai);
	reply_new_entry(&r, r.in, r.fd, &en, MADE_DIR, err);
}

void fs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct request r;
	struct direntry_name en;
	int err = request_begin(&r, req, parent, REQ_FD);

	if (!err)
		err = entry_encrypt(r.fs, r.in, r.fd, name, &en);
	if (!err)
		err = entryops_unlink(&r.fs->vol, r.fd, &en);
	request_reply(&r, err);
}

void fs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct request r;
	struct direntry_name en;
	int err = request_begin(&r, req, parent, REQ_FD);

	if (!err)
		err = entry_encrypt(r.fs, r.in, r.fd, name, &en);
	if (!err)
		err = entryops_rmdir(r.fd, &en);
	request_reply(&r, err);
}
