/* SPDX-License-Identifier: MIT */
/* see sockpath.h */
#include "daemon/sockpath.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static bool is_own_dir(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid();
}

int sockpath_default(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char run_user[64];
	int n;

	snprintf(run_user, sizeof(run_user), "/run/user/%u", (unsigned)getuid());
	if (xdg && xdg[0] == '/' && is_own_dir(xdg))
		n = snprintf(buf, len, "%s/cloakfs/" SOCKPATH_NAME, xdg);
	else if (is_own_dir(run_user))
		n = snprintf(buf, len, "%s/cloakfs/" SOCKPATH_NAME, run_user);
	else
		n = snprintf(buf, len, "/tmp/cloakfs-%u/" SOCKPATH_NAME, (unsigned)getuid());
	if (n < 0 || (size_t)n >= len || (size_t)n >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return -ENAMETOOLONG;
	return 0;
}

int sockpath_dirname(const char *sock_path, char *dir, size_t dir_len)
{
	const char *slash = strrchr(sock_path, '/');
	size_t n;

	if (strlen(sock_path) >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return -ENAMETOOLONG;
	if (!slash)
		return -EINVAL;
	n = slash == sock_path ? 1 : (size_t)(slash - sock_path);
	if (n >= dir_len)
		return -ENAMETOOLONG;
	memcpy(dir, sock_path, n);
	dir[n] = '\0';
	return 0;
}

int sockpath_prepare_dir(const char *sock_path, bool strict, char *why, size_t why_len)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct stat st;
	int err = sockpath_dirname(sock_path, dir, sizeof(dir));

	if (err) {
		snprintf(why, why_len, "bad socket path %s", sock_path);
		return err;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		err = -errno;
		snprintf(why, why_len, "cannot create %s: %s", dir, strerror(errno));
		return err;
	}
	if (lstat(dir, &st) != 0) {
		err = -errno;
		snprintf(why, why_len, "%s: %s", dir, strerror(errno));
		return err;
	}
	if (!strict)
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, why_len, "%s is not a directory", dir);
		return -EPERM;
	}
	if (st.st_uid != getuid()) {
		snprintf(why, why_len, "%s is owned by uid %u, not by us (uid %u)", dir,
			 (unsigned)st.st_uid, (unsigned)getuid());
		return -EPERM;
	}
	if (st.st_mode & 077) {
		snprintf(why, why_len, "%s has mode %04o; it must be 0700", dir,
			 (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}
