/* SPDX-License-Identifier: MIT */
/*
 * One FUSE request, from its first line to its reply: every handler of
 * the ops-*.c files begins with request_begin and ends with request_done,
 * in the manner of libfuse's passthrough_hp, so a handler reads as its
 * calls: I/O on the ciphertext tree through the held descriptor, and a
 * volume/ (or entry/xattr) call at each data edge.
 *
 * - request_begin counts the request as use for --idle, finds its inode,
 *   holds that inode's O_PATH descriptor (REQ_FD: descriptors are taken
 *   before any inode lock, fs.h) and, for requests that need the keys
 *   (REQ_KEYS), answers -EACCES while the volume is locked.
 * - The keys themselves are used inside the volume calls, each in a short
 *   key section (volume/keys/keyring.h) that holds no I/O; a section that
 *   finds the volume locked gives -EACCES too, so "locked" reaches the
 *   application as EACCES either way. A request never holds a section
 *   across its I/O: a lock waits for CPU work only (docs/design.md,
 *   "Keys in memory").
 * - request_done releases every descriptor the request held and replies
 *   an error: the one place an internal -errno becomes a FUSE error, so
 *   every request replies exactly once.
 */
#ifndef CLOAKFS_FS_REQUEST_H
#define CLOAKFS_FS_REQUEST_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include "base/procfd.h"

struct cloakfs;
struct fs_inode;

enum request_flags {
	REQ_FD = 1 << 0,   /* hold the inode's descriptor (r.fd) */
	REQ_KEYS = 1 << 1, /* -EACCES while the volume is locked */
	REQ_POLL = 1 << 2, /* on the root, not use for --idle (stat, statfs) */
	REQ_QUIET = 1 << 3 /* never use for --idle (the mount's state) */
};

#define REQUEST_MAX_HOLDS 3

struct request {
	fuse_req_t req;
	struct cloakfs *fs;
	struct fs_inode *in;  /* the inode the request names */
	int fd;               /* in's held descriptor (REQ_FD), else -1 */
	/* every descriptor held, released by request_done */
	struct fs_inode *held[REQUEST_MAX_HOLDS];
	unsigned int nheld;
};

/* the inode of a nodeid, and back (the root is FUSE_ROOT_ID) */
struct fs_inode *request_inode(struct cloakfs *fs, fuse_ino_t ino);
fuse_ino_t request_nodeid(struct cloakfs *fs, struct fs_inode *in);

/*
 * Begin request req about inode ino (0: none). 0 or -errno; either way
 * r is ready for request_done.
 */
int request_begin(struct request *r, fuse_req_t req, fuse_ino_t ino,
		  unsigned int flags);

/* hold another inode's descriptor for this request: the fd or -errno */
int request_hold(struct request *r, struct fs_inode *in);

/* r->fd named as a path ("/proc/self/fd/N"), for path-only calls */
void request_path(const struct request *r, char path[PROCFD_LEN]);

/*
 * End the request: release what it held; for err != 0 reply the error
 * (-EBADMSG, damage found by volume/, and -EILSEQ are EIO to
 * applications) and return 0. For err == 0 return 1: the caller sends
 * its success reply.
 */
int request_done(struct request *r, int err);

/* request_done for requests whose success reply is "no error" */
void request_reply(struct request *r, int err);

#endif
