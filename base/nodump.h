/* SPDX-License-Identifier: MIT */
/*
 * Make this process non-dumpable (no ptrace or /proc/PID/mem by processes
 * of the same uid, no core file: PR_SET_DUMPABLE 0) and set RLIMIT_CORE
 * to 0. Every program that holds a passphrase or a key calls it first.
 */
#ifndef CLOAKFS_BASE_NODUMP_H
#define CLOAKFS_BASE_NODUMP_H

/* 0 or -errno */
int process_no_dump(void);

#endif
