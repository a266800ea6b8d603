/* SPDX-License-Identifier: MIT */
/* The FUSE low-level operations of cloakfs (ops.c). */
#ifndef CLOAKFS_FS_OPS_H
#define CLOAKFS_FS_OPS_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

struct cloakfs;

/* a session serving fs with the cloakfs operations; NULL on error */
struct fuse_session *cloakfs_session_new(struct fuse_args *args,
					 struct cloakfs *fs);

/* after the session: closes the directory handles the kernel never
 * released (a RELEASEDIR still queued when the mount went is dropped) */
void fs_dirs_close_all(struct cloakfs *fs);

#endif
