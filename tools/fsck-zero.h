/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck --deep: the sectors of an authenticated volume's file that
 * fail their tag, each reported by path and offset; with --repair
 * --zero-damaged, sealed anew as zeros so the rest of the file reads,
 * after the file's whole ciphertext was copied into lost+found.cloakfs/
 * (fsck-zero.c, docs/fsck.md). Nothing else ever changes such a sector.
 */
#ifndef CLOAKFS_TOOLS_FSCK_ZERO_H
#define CLOAKFS_TOOLS_FSCK_ZERO_H

#include "tools/fsck.h"

/* one file's zeroing: fsck_zero_init before its first sector, then
 * fsck_zero_end */
struct fsck_zero {
	int fd;                 /* the file, O_RDWR; -1 until the first */
	struct content_file cf; /* on fd */
	int err;                /* the copy or the opening failed: -errno */
	char copy[VNAME_MAX_PLAIN + 1]; /* the copy's name in lost+found */
};

void fsck_zero_init(struct fsck_zero *z);

/*
 * The sector at plaintext offset off (bytes off to end - 1) of file e
 * (fd: open for reading) fails its tag: report it; under --zero-damaged
 * copy the file first (on its first damaged sector), then zero it.
 */
void fsck_damaged_sector(struct fsck *f, const struct fsck_entry *e, int fd,
			 struct fsck_zero *z, uint64_t off, uint64_t end);

/* the file's zeroing done: its data synced, the descriptor closed */
void fsck_zero_end(struct fsck *f, const struct fsck_entry *e,
		   struct fsck_zero *z);

#endif
