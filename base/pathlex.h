/* SPDX-License-Identifier: MIT */
/*
 * An absolute path made from a path by text alone: the current directory
 * in front of a relative one, then "." and empty components dropped and
 * each ".." taking away the component before it ("/.." stays "/"). No
 * component is looked at in the filesystem (no stat, no symlink read), so
 * it answers at once even when the path lies on a hung store; symlinks are
 * not resolved, so it names what the user typed, not always what
 * realpath(3) would give. cloakfsd's lock by path compares these.
 */
#ifndef CLOAKFS_BASE_PATHLEX_H
#define CLOAKFS_BASE_PATHLEX_H

#include <stddef.h>

/* 0, -EINVAL (empty path), -ENAMETOOLONG, or getcwd's -errno */
int path_lexical_abs(const char *path, char *out, size_t len);

#endif
