/* SPDX-License-Identifier: MIT */
/* see listener.h */
#include "daemon/listener.h"

#include "daemon/sockpath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/*
 * noinline: inlined into listener_open, GCC 12 with -fsanitize=undefined
 * warns that path may be NULL (-Wformat-truncation); no caller passes NULL
 */
__attribute__((noinline))
static int fail(char *why, size_t why_len, int err, const char *what, const char *path)
{
	snprintf(why, why_len, "%s %s: %s", what, path, strerror(-err));
	return err;
}

int listener_open(struct listener *l, const char *path, bool strict_dir,
		  char *why, size_t why_len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char lock_path[sizeof(addr.sun_path) + 8];
	struct stat st;
	mode_t old_mask;
	int err;

	l->fd = l->lock_fd = -1;
	if (strlen(path) >= sizeof(addr.sun_path)) {
		snprintf(why, why_len, "socket path too long (max %zu bytes): %s",
			 sizeof(addr.sun_path) - 1, path);
		return -ENAMETOOLONG;
	}
	err = sockpath_prepare_dir(path, strict_dir, why, why_len);
	if (err)
		return err;
	snprintf(l->path, sizeof(l->path), "%s", path);
	snprintf(lock_path, sizeof(lock_path), "%s.lock", path);
	l->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (l->lock_fd < 0)
		return fail(why, why_len, -errno, "cannot open", lock_path);
	if (flock(l->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		err = errno == EWOULDBLOCK ? -EADDRINUSE : -errno;
		if (err == -EADDRINUSE)
			snprintf(why, why_len, "another cloakfsd is running on %s", path);
		else
			fail(why, why_len, err, "cannot lock", lock_path);
		goto err_lock;
	}
	/* we hold the lock, so a socket file here is a dead daemon's */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(why, why_len, "%s exists and is not a socket", path);
			err = -EEXIST;
			goto err_lock;
		}
		if (unlink(path) != 0) {
			err = fail(why, why_len, -errno, "cannot remove stale socket", path);
			goto err_lock;
		}
	}
	l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (l->fd < 0) {
		err = fail(why, why_len, -errno, "socket() for", path);
		goto err_lock;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	old_mask = umask(0177); /* the socket file is born 0600 */
	err = bind(l->fd, (struct sockaddr *)&addr, sizeof(addr)) ? -errno : 0;
	umask(old_mask);
	if (err) {
		fail(why, why_len, err, "cannot bind", path);
		goto err_sock;
	}
	if (stat(path, &st) != 0 || chmod(path, 0600) != 0) {
		err = fail(why, why_len, -errno, "cannot stat/chmod", path);
		goto err_bound;
	}
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	return 0;

err_bound:
	unlink(path);
err_sock:
	close(l->fd);
	l->fd = -1;
err_lock:
	close(l->lock_fd);
	l->lock_fd = -1;
	return err;
}

int listener_listen(struct listener *l)
{
	return listen(l->fd, SOMAXCONN) ? -errno : 0;
}

void listener_close(struct listener *l)
{
	struct stat st;

	if (l->fd >= 0) {
		if (stat(l->path, &st) == 0 && st.st_dev == l->dev && st.st_ino == l->ino)
			unlink(l->path);
		close(l->fd);
		l->fd = -1;
	}
	if (l->lock_fd >= 0) {
		close(l->lock_fd);
		l->lock_fd = -1;
	}
}

int peer_credentials(int fd, struct ucred *cred)
{
	socklen_t len = sizeof(*cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cred, &len) != 0)
		return -errno;
	return len == sizeof(*cred) ? 0 : -EPROTO;
}

bool peer_allowed(const struct ucred *cred, uid_t self, bool allow_root)
{
	if (cred->uid == self)
		return true;
	return cred->uid == 0 && allow_root;
}
