/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: the progress line on a terminal and notes that are not findings (fsck-progress.c) */
#ifndef CLOAKFS_TOOLS_FSCK_PROGRESS_H
#define CLOAKFS_TOOLS_FSCK_PROGRESS_H

#include "tools/fsck.h"

/*
 * The progress line on a terminal (nothing when stderr is not one): after
 * a second, or at once with --progress; redrawn at least once a second.
 */
void fsck_progress_start(struct fsck *f);
/* count the bytes of every file first, for a percentage (--deep) */
void fsck_progress_count(struct fsck *f);
/* per entry, before it is checked */
void fsck_progress_tick(struct fsck *f, const char *cpath);
/* a regular file of size bytes is being checked; then bytes of it read */
void fsck_progress_file(uint64_t size);
void fsck_progress_bytes(uint64_t n);
/* wipe the line before other output */
void fsck_progress_clear(void);
/*
 * A message on stderr that is not a finding ("is mounted at ..."), the
 * line wiped first. Here, below the report, since the repair note (which
 * the report writes) says its own failure with it.
 */
void fsck_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
