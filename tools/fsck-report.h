/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: findings and the output (text, JSON), the summary and exit status (fsck-report.c) */
#ifndef CLOAKFS_TOOLS_FSCK_REPORT_H
#define CLOAKFS_TOOLS_FSCK_REPORT_H

#include "tools/fsck.h"

const char *fsck_class_name(enum fsck_class c);

/*
 * Report one finding. path: the plaintext path from the volume root
 * ("/a/b"), or NULL when it does not decode; cpath: the ciphertext path
 * relative to CIPHERDIR ("" for the root itself). in_lf: the entry is
 * inside lost+found.cloakfs/ (an error becomes a note). action and
 * action_detail say what repair did ("moved to ..."). detail may be NULL.
 */
void fsck_report(struct fsck *f, enum fsck_class c, bool in_lf,
		 const char *path, const char *cpath, enum fsck_action action,
		 const char *action_detail, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* one-line operational error on stderr (and in JSON); sets the flag */
void fsck_fail(struct fsck *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fsck_output_begin(struct fsck *f);
/* summary line (or the JSON tail); returns the exit status */
int fsck_output_end(struct fsck *f);

#endif
