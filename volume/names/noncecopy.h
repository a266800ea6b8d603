/* SPDX-License-Identifier: MIT */
/*
 * A directory nonce's conflict copy (docs/format.md 7.7): when a sync tool
 * met two versions of a directory's .cloakfs.dir (two machines made the
 * directory apart), it keeps the other as ".cloakfs.dir<marker>"
 * (volume/names/conflict.h), and the names the other machine made there
 * are encrypted under that nonce. The mount and cloakfs-fsck read them
 * under it when they do not decode under the directory's own nonce.
 */
#ifndef CLOAKFS_VOLUME_NAMES_NONCECOPY_H
#define CLOAKFS_VOLUME_NAMES_NONCECOPY_H

#include <stdint.h>

#include "volume/names/vname.h"

/*
 * The first conflict copy of the nonce file in directory dirfd (an open
 * or O_PATH descriptor) that is a regular file of a nonce (16 bytes, not
 * all zero) other than own: 1 and other set, 0 when there is none, or
 * -errno when the directory cannot be read. *copies (may be NULL): how
 * many copies of the nonce file there are, usable or not.
 */
int noncecopy_find(int dirfd, const uint8_t own[DIRNONCE_SIZE],
		   uint8_t other[DIRNONCE_SIZE], unsigned int *copies);

#endif
