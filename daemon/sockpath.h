/* SPDX-License-Identifier: MIT */
/*
 * Where cloakfsd's socket lives. The daemon and its clients resolve the
 * same path from the same environment:
 *   $XDG_RUNTIME_DIR/cloakfs/cloakfsd.sock   (when set, absolute and ours)
 *   /run/user/UID/cloakfs/cloakfsd.sock      (when that directory is ours)
 *   /tmp/cloakfs-UID/cloakfsd.sock           (otherwise)
 * The directory holding the socket is 0700 and owned by the user; an
 * existing one with another owner or wider mode is refused, since anyone
 * who can replace the socket could pose as the daemon.
 */
#ifndef CLOAKFS_DAEMON_SOCKPATH_H
#define CLOAKFS_DAEMON_SOCKPATH_H

#include <stdbool.h>
#include <stddef.h>

#define SOCKPATH_NAME "cloakfsd.sock"

/* the default socket path into buf; 0 or -ENAMETOOLONG; creates nothing */
int sockpath_default(char *buf, size_t len);

/*
 * The directory part of sock_path into dir (dir_len bytes); 0 or
 * -ENAMETOOLONG / -EINVAL (no '/', or a path too long for sun_path).
 */
int sockpath_dirname(const char *sock_path, char *dir, size_t dir_len);

/*
 * Make sure the socket's directory exists: create it 0700 when missing
 * (its parent must exist). With strict, an existing directory must be a
 * real directory (not a symlink) owned by this uid with no group or other
 * permissions: -EPERM otherwise, and the message goes to why.
 */
int sockpath_prepare_dir(const char *sock_path, bool strict, char *why, size_t why_len);

#endif
