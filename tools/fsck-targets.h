/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: the store of long symlink targets (fsck-targets.c) */
#ifndef CLOAKFS_TOOLS_FSCK_TARGETS_H
#define CLOAKFS_TOOLS_FSCK_TARGETS_H

#include "tools/fsck.h"

/*
 * The store of long symlink targets (docs/format.md 7.4, volume/names/symlink.h):
 * the walk counts every reference it sees (a set of 32-byte hashes, so
 * memory grows with the symlinks that have a stored target, not with the
 * tree), then the store is read once the whole tree was walked: a stored
 * target no symlink refers to is an orphan (removed by repair, unless the
 * walk may have missed its symlink), anything else in the store is
 * foreign (quarantined).
 */
int fsck_targets_new(struct fsck *f);
void fsck_targets_free(struct fsck *f);
/* the text (len chars) of the symlink at cpath, seen by the walk */
void fsck_targets_seen(struct fsck *f, const char *cpath, const char *text,
		       size_t len);
/* the walk did not see everything (cpath: a directory not walked, a
 * symlink not read): a stored target may belong to what it missed */
void fsck_targets_unsure(struct fsck *f, const char *cpath);
/* after the walk, with the root's name key still there: judge the store */
void fsck_targets_check(struct fsck *f);

#endif
