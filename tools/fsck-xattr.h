/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: extended attributes (fsck-xattr.c) */
#ifndef CLOAKFS_TOOLS_FSCK_XATTR_H
#define CLOAKFS_TOOLS_FSCK_XATTR_H

#include "tools/fsck.h"

/*
 * Check the extended attributes of a file or directory through
 * volume/names/xattr.h (names decrypt, values open) and report what does not:
 * report only, since the mount still reads everything else of the entry.
 */
void fsck_check_xattrs(struct fsck *f, const struct fsck_entry *e);

#endif
