/* SPDX-License-Identifier: MIT */
/*
 * Integer literals in libconfig text, read at their full value whatever
 * the libconfig version. libconfig before 1.7 reads a literal without
 * the L suffix through atoi, so "opslimit = 4294967298;" became 2 and
 * 4294967295 became -1, where 1.7 and later read both as 64-bit values.
 * confint_widen gives every decimal or hex literal outside the 32-bit
 * range its L (the 64-bit form every libconfig reads the same way), so
 * the range checks see the number that is written. Strings and comments
 * are copied as they are; lines keep their numbers (messages name them).
 */
#ifndef CLOAKFS_BASE_CONFINT_H
#define CLOAKFS_BASE_CONFINT_H

#include <stddef.h>

/* a malloc'ed, NUL-terminated copy of text[0..len) with those L's
 * added; NULL when out of memory */
char *confint_widen(const char *text, size_t len);

/*
 * All of fd (a settings file of at most max bytes) read and widened as
 * above, for config_read_string. NULL with *err: -EFBIG (larger than
 * max), -EINVAL (a NUL byte: not text), -ENOMEM or a read's -errno.
 */
char *confint_read_fd(int fd, size_t max, int *err);

#endif
