/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: regular files (header, size, nonce reuse, --deep units) and symlinks (fsck-files.c) */
#ifndef CLOAKFS_TOOLS_FSCK_FILES_H
#define CLOAKFS_TOOLS_FSCK_FILES_H

#include "tools/fsck.h"

/*
 * Check a regular file: header, size, nonce (remembered for the reuse
 * check), and with --deep every unit. Returns the class that makes it
 * unusable where it is (the caller quarantines it), or FC_COUNT when it
 * is fine or only reported (unreadable, nonce reuse, deep errors).
 */
enum fsck_class fsck_check_file(struct fsck *f, const struct fsck_entry *e,
				const struct stat *st, char *why, size_t whylen);

/*
 * A symlink: its text is counted as a reference into the target store
 * (always, whatever its name: see fsck-targets.c), then, when decode is
 * set, its target is decoded (version 1: under the directory's key e->names;
 * version 2: through volume/names/symlink.h). Returns FC_COUNT when fine or not
 * decoded; FC_UNREADABLE (report only); else the class that makes it
 * unusable (FC_SYMLINK_UNDECODABLE, FC_SYMLINK_TARGET_MISSING or
 * FC_SYMLINK_TARGET_DAMAGED), why in why.
 */
enum fsck_class fsck_check_symlink(struct fsck *f, const struct fsck_entry *e,
				   bool decode, char *why, size_t whylen);

int fsck_nonces_new(struct fsck *f);
/* report files that share a nonce but not an inode */
void fsck_nonces_report(struct fsck *f);
void fsck_nonces_free(struct fsck *f);
/* wipe and free the --deep buffer */
void fsck_deep_free(struct fsck *f);

#endif
