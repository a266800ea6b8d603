/* SPDX-License-Identifier: MIT */
/*
 * Error messages for a caller's buffer: functions that can fail for a
 * reason the user should read take (char *err, size_t errlen) and fill
 * it with one line naming the file and the cause (volume/, cli/).
 */
#ifndef CLOAKFS_BASE_ERRMSG_H
#define CLOAKFS_BASE_ERRMSG_H

#include <stddef.h>

/* format the message into err (if err and errlen) and return rc, so a
 * failure reads "return seterr(err, errlen, -EINVAL, ...)" */
int seterr(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
