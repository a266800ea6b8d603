/* SPDX-License-Identifier: MIT */
/*
 * The mount's own state, for `cloakfs-keytool status`: the root answers
 * getxattr("user.cloakfs.state") with "locked" (cloakfsd took the key
 * away: contents and names answer EACCES) or "unlocked". The name is
 * reserved on the root: it is neither listed nor settable there, and the
 * question does not count as use for --idle.
 */
#ifndef CLOAKFS_FS_STATE_H
#define CLOAKFS_FS_STATE_H

#include <stddef.h>

#include "fs/fs.h"
#include "fs/ops.h"

#define FS_STATE_XATTR "user.cloakfs.state"

/* name is the state attribute (only on the root) */
int fs_state_is_name(const char *name);

/* reply to getxattr of the state attribute on the root */
void fs_state_reply(fuse_req_t req, struct cloakfs *fs, size_t size);

#endif
