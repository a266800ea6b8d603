/* SPDX-License-Identifier: MIT */
/*
 * The FUSE session of cloakfs: the ops table over the handlers, one
 * operation family per file (handlers.h), each over one request helper
 * (request.h).
 */
#include "fs/ops.h"

#include <stdio.h>

#include "fs/fs.h"
#include "fs/handlers.h"
#include "fs/xattrs.h"

/* ---- session ---------------------------------------------------------- */

static void fs_init(void *userdata, struct fuse_conn_info *conn)
{
	struct cloakfs *fs = userdata;

	/* POSIX ACLs: the kernel enforces them (and turns on
	 * default_permissions); inheriting them is ours (acl.h), umask
	 * included, which is why the kernel must not apply it itself.
	 * Without them system.* attributes are refused (ops-xattr.c), as
	 * on a filesystem mounted noacl */
	if (fs->want_acl && (conn->capable & FUSE_CAP_POSIX_ACL) &&
	    (conn->capable & FUSE_CAP_DONT_MASK)) {
		conn->want |= FUSE_CAP_POSIX_ACL | FUSE_CAP_DONT_MASK;
		fs->posix_acl = 1;
	} else if (fs->want_acl) {
		fprintf(stderr, "cloakfs: %s: the kernel cannot enforce POSIX "
			"ACLs; they are refused (as -o noacl)\n",
			fs->mountpoint);
	}
	xattrs_warm(fs);
	/* the kernel clears setuid/setgid bits on write, not us */
	conn->want &= ~(unsigned int)FUSE_CAP_HANDLE_KILLPRIV;
	/* write-back caching would let the kernel write at offsets and
	 * sizes of its own choosing; plain write-through is simpler to keep
	 * exact (O_APPEND, sizes). Measured, it did not pay either: the
	 * kernel then sends FLUSH on every close despite noflush, so
	 * creating small files took 20% more requests (docs/performance.md) */
	conn->want &= ~(unsigned int)FUSE_CAP_WRITEBACK_CACHE;
	/* an O_DIRECT write must leave no stale page: the kernel drops the
	 * pages a direct write covers once it has returned, but not when
	 * it completes an asynchronous one (io_submit), so buffered readers
	 * racing it could keep the old bytes cached. Without async direct
	 * I/O the kernel waits for every direct request and invalidates
	 * after it; invalidating from here instead (notify_inval_inode)
	 * could wait on a page whose READ no free thread can serve */
	conn->want &= ~(unsigned int)FUSE_CAP_ASYNC_DIO;
	/* file handles outlive the kernel's inode (LOOKUP of "." and "..",
	 * ops-export.c), so open_by_handle_at and NFS export work */
	if (conn->capable & FUSE_CAP_EXPORT_SUPPORT)
		conn->want |= FUSE_CAP_EXPORT_SUPPORT;
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
	fs->se = fuse_session_new(args, &cloakfs_ops, sizeof(cloakfs_ops), fs);
	return fs->se;
}
