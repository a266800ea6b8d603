/* SPDX-License-Identifier: MIT */
/*
 * The mount's descriptor budget (docs/design.md, "Descriptors"): at start
 * the soft RLIMIT_NOFILE is raised to the hard limit, and half of it (at
 * most FDBUDGET_MAX_CACHE) goes to the inode table's cache of O_PATH
 * descriptors; the other half serves open files, directory listings and
 * requests in flight. CLOAKFS_FD_CACHE=N sets the cache size instead
 * (tests use a tiny cache so that eviction and reopening happen all the
 * time; benchmarks a huge one).
 */
#ifndef CLOAKFS_FS_FDBUDGET_H
#define CLOAKFS_FS_FDBUDGET_H

#define FDBUDGET_MIN_CACHE 2
#define FDBUDGET_MAX_CACHE 65536

/*
 * Raise the soft limit and return the cache size; *limit gets the soft
 * limit now in force. A bad CLOAKFS_FD_CACHE is -EINVAL.
 */
int fdbudget_setup(unsigned int *cache, unsigned long *limit);

#endif
