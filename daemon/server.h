/* SPDX-License-Identifier: MIT */
/*
 * cloakfsd's event loop: one poll() over the listening socket, a signalfd
 * (SIGTERM, SIGINT, SIGHUP end the loop), a CLOCK_BOOTTIME timerfd for key
 * expiry and every client connection. Each connection has fixed, bounded
 * buffers; a malformed frame closes that connection only.
 */
#ifndef CLOAKFS_DAEMON_SERVER_H
#define CLOAKFS_DAEMON_SERVER_H

#include "daemon/config.h"
#include "daemon/keystore.h"

/* at this many, a new connection closes the oldest idle one (or is
 * refused with EBUSY when every one is busy or subscribed) */
#define SERVER_MAX_CONNS 256
/* a frame must be complete this long after its first byte arrived */
#define SERVER_FRAME_DEADLINE_MS 1500
#define SERVER_MAX_SUBS 16   /* SUBSCRIBE and REGISTER ids per connection */

struct server;

/*
 * Block the signals, create the signalfd and timerfd. listen_fd and ks
 * stay owned by the caller. 0 or -errno.
 */
int server_create(struct server **out, int listen_fd, struct keystore *ks,
		  const struct daemon_config *cfg);

/* serve until a termination signal; returns that signal's number or -errno */
int server_run(struct server *srv);

/*
 * Tell subscribers the daemon is going away, flush what can be flushed
 * without blocking, close every connection. Keys stay in ks (the caller
 * destroys it).
 */
void server_destroy(struct server *srv);

#endif
