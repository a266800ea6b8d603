/* SPDX-License-Identifier: MIT */
/* Random bytes for keys, nonces, salts and uuids: getrandom(2), nothing else. */
#ifndef CLOAKFS_VOLUME_RANDOM_H
#define CLOAKFS_VOLUME_RANDOM_H

#include <stddef.h>

/* fill buf; 0 or -errno (getrandom failed, e.g. -ENOSYS) */
int random_bytes(void *buf, size_t len);

#endif
