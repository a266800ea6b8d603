/* SPDX-License-Identifier: MIT */
/*
 * Starting cloakfsd on a client's behalf (client.c, CLOAKFSD_AUTOSTART).
 * Internal to the client library.
 */
#ifndef CLOAKFS_DAEMON_AUTOSTART_H
#define CLOAKFS_DAEMON_AUTOSTART_H

#include <stddef.h>

/*
 * The cloakfsd program to run: $CLOAKFSD_PROGRAM, else cloakfsd in the
 * calling program's directory, else in ../daemon/ of it (a build tree),
 * else the first executable cloakfsd in $PATH. 0 or -ENOENT.
 */
int autostart_find_program(char *buf, size_t len);

/*
 * Run the daemon (without --foreground, so it returns once its socket is
 * ready; with --socket socket_path unless NULL) and wait up to timeout_ms
 * for that first process to exit. Returns its exit status (0 started, 3
 * another daemon already serves the socket, else it failed and said why
 * on stderr; 127 no program), -ETIMEDOUT, or -errno; only async-signal-
 * safe calls run between fork and exec, so threaded callers are fine.
 */
int autostart_run(const char *socket_path, int timeout_ms);

#endif
