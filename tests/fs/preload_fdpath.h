/* SPDX-License-Identifier: MIT */
/* For the LD_PRELOAD test shims: which file a descriptor names. */
#ifndef CLOAKFS_TESTS_FS_PRELOAD_FDPATH_H
#define CLOAKFS_TESTS_FS_PRELOAD_FDPATH_H

#include <stdio.h>
#include <unistd.h>

/* the path of fd (from /proc/self/fd) into path[cap]: 0, or -1 when
 * there is none */
static inline int preload_fd_path(int fd, char *path, size_t cap)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, cap - 1);
	if (n <= 0)
		return -1;
	path[n] = '\0';
	return 0;
}

#endif
