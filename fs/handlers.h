/* SPDX-License-Identifier: MIT */
/*
 * The FUSE low-level handlers of cloakfs, one operation family per file
 * (ops-entry.c, ops-link.c, ops-rename.c, ops-attr.c, ops-file.c,
 * ops-dir.c, ops-xattr.c), each over the request helper (request.h); the
 * ops table that lists them is ops.c's. Internal to fs/: ops.h is the
 * interface.
 */
#ifndef CLOAKFS_FS_HANDLERS_H
#define CLOAKFS_FS_HANDLERS_H

#include <stdint.h>
#include <sys/types.h>

#include "fs/entry.h"
#include "fs/request.h"

/* ---- shared by the families ----------------------------------------- */

/*
 * Look up ciphertext entry cname of dir (dfd: a descriptor of it): one
 * more kernel lookup on its inode, and e filled for the reply.
 */
int lookup_cname(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		 const char *cname, struct fuse_entry_param *e);
/* e for the reply of a lookup that gave in (one more lookup on it, which
 * is dropped again on failure) */
int entry_reply_param(struct cloakfs *fs, struct fs_inode *in,
		      struct fuse_entry_param *e);

/* LOOKUP of "." or ".." (ops-export.c): decoding a file handle */
void fs_lookup_export(fuse_req_t req, fuse_ino_t nodeid, const char *name);

/* new entries belong to the caller when the filesystem runs as root */
void set_owner(struct request *r, int dfd, const char *cname);

/* what an operation made in the ciphertext directory, to undo */
enum made {
	MADE_ENTRY, /* a node, symlink or link: unlink the name */
	MADE_DIR,   /* a directory with its nonce */
};

/*
 * Take back the entry en just made in dfd when the operation fails
 * after making it (docs/design.md: a failed create leaves nothing), and
 * its sidecar. A failure to undo is logged: fsck reports the leftover.
 */
void unmake(struct cloakfs *fs, int dfd, const struct direntry_name *en,
	    enum made what);

/*
 * Beginning of create, mknod, mkdir and symlink: request_begin on the
 * directory parent (flags | REQ_FD), name encrypted for it into *en and,
 * for a long name, its sidecar written. 0 or -errno; either way the
 * request ends in reply_new_entry (or request_done).
 */
int new_entry_begin(struct request *r, fuse_req_t req, fuse_ino_t parent,
		    unsigned int flags, const char *name, struct direntry_name *en);

/*
 * Common ending of mknod, mkdir, symlink and link, made as en in the
 * request's directory dir (held descriptor dfd): look the new entry up
 * and reply. When making it failed, drop a sidecar written for it; when
 * the lookup after it fails, take the new entry back.
 */
void reply_new_entry(struct request *r, struct fs_inode *dir, int dfd,
		     const struct direntry_name *en, enum made what, int err);

/* 1 for the first warning about in, 0 after (names_warned) */
int first_warning(struct fs_inode *in);

/* ---- the handlers --------------------------------------------------- */

/* ops-entry.c */
void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name);
void fs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup);
void fs_forget_multi(fuse_req_t req, size_t count,
		     struct fuse_forget_data *forgets);
void fs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode, dev_t rdev);
void fs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode);
void fs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name);
void fs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name);

/* ops-link.c */
void fs_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		const char *name);
void fs_readlink(fuse_req_t req, fuse_ino_t ino);
void fs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
	     const char *newname);

/* ops-rename.c */
void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
	       fuse_ino_t newparent, const char *newname, unsigned int flags);

/* ops-attr.c */
void fs_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		int to_set, struct fuse_file_info *fi);
void fs_access(fuse_req_t req, fuse_ino_t ino, int mask);
void fs_statfs(fuse_req_t req, fuse_ino_t ino);

/* ops-file.c */
void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
	       mode_t mode, struct fuse_file_info *fi);
void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	     struct fuse_file_info *fi);
void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
	      off_t off, struct fuse_file_info *fi);
void fs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	      struct fuse_file_info *fi);
void fs_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
		  off_t len, struct fuse_file_info *fi);
void fs_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
	      struct fuse_file_info *fi);

/* ops-dir.c */
void fs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		struct fuse_file_info *fi);
void fs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi);
void fs_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		 struct fuse_file_info *fi);

/* ops-xattr.c */
void fs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 const char *value, size_t size, int flags);
void fs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 size_t size);
void fs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size);
void fs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name);

#endif
