/* SPDX-License-Identifier: MIT */
/*
 * cloakfsd's listening socket and the check on each peer.
 *
 * One daemon per socket: an exclusive flock on "<socket>.lock" (kept for
 * the daemon's life, inherited across the daemonizing fork) decides who
 * owns the path, so a stale socket left by a crash is replaced while a
 * live daemon is never displaced. The socket file is created 0600.
 */
#ifndef CLOAKFS_DAEMON_LISTENER_H
#define CLOAKFS_DAEMON_LISTENER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

struct listener {
	int fd;      /* listening, non-blocking, close-on-exec */
	int lock_fd;
	char path[108];
	dev_t dev;   /* identity of the socket file we bound, for unlink */
	ino_t ino;
};

/*
 * Lock, replace a stale socket and bind at path. strict_dir checks
 * the directory's owner and mode (the default locations); an explicit
 * path only gets its directory created when missing. Returns 0, or -errno
 * with a message in why: -EADDRINUSE when another daemon holds the lock.
 */
int listener_open(struct listener *l, const char *path, bool strict_dir,
		  char *why, size_t why_len);

/*
 * Start accepting. Separate from listener_open because the kernel takes
 * the credentials clients see (SO_PEERCRED) at listen() time: call it in
 * the process that will serve, after the daemonizing fork.
 */
int listener_listen(struct listener *l);

/* close, and unlink the socket if it is still the file we bound */
void listener_close(struct listener *l);

/* the peer's credentials (SO_PEERCRED): 0 or -errno */
int peer_credentials(int fd, struct ucred *cred);

/*
 * Whether a peer may talk to a daemon running as self: only the same uid,
 * or root when allow_root is set. File permissions alone are not trusted
 * (a socket mode can be changed; root ignores it anyway).
 */
bool peer_allowed(const struct ucred *cred, uid_t self, bool allow_root);

#endif
