/* SPDX-License-Identifier: MIT */
/* Whole-buffer writes to a file descriptor, for the volume's small files. */
#ifndef CLOAKFS_VOLUME_FDIO_H
#define CLOAKFS_VOLUME_FDIO_H

#include <stddef.h>

/* write all len bytes, retrying short writes and EINTR; 0 or -errno */
int volume_write_all(int fd, const void *buf, size_t len);

#endif
