/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: the walk of every directory (fsck-walk.c) */
#ifndef CLOAKFS_TOOLS_FSCK_WALK_H
#define CLOAKFS_TOOLS_FSCK_WALK_H

#include "tools/fsck.h"

/*
 * Check (and repair) every directory from the root down: iteratively,
 * with a work stack on the heap, so the depth of the tree is bounded by
 * memory, not by the C stack.
 */
void fsck_walk(struct fsck *f);

#endif
