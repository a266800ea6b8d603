/* SPDX-License-Identifier: MIT */
/*
 * "/proc/self/fd/N": how a path-less descriptor (O_PATH) is named for the
 * calls that take a path only (open, chmod, faccessat, *xattr).
 */
#ifndef CLOAKFS_BASE_PROCFD_H
#define CLOAKFS_BASE_PROCFD_H

#define PROCFD_LEN 32

void procfd_path(int fd, char buf[PROCFD_LEN]);

#endif
