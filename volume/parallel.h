/* SPDX-License-Identifier: MIT */
/*
 * Helper threads that take parts of one large en/decryption while they
 * are idle, so a single large request (a 1 MiB WRITE from dd, say, which
 * the kernel sends one at a time) uses more than one core. A helper that
 * is busy with another request's part is not waited for: the caller
 * splits over the idle ones only, and does everything itself when none
 * is idle. Off until parallel_start(): tools and tests that never start
 * it run serially.
 */
#ifndef CLOAKFS_VOLUME_PARALLEL_H
#define CLOAKFS_VOLUME_PARALLEL_H

#define PARALLEL_MAX_HELPERS 3

/*
 * Start min(helpers, PARALLEL_MAX_HELPERS) helper threads. 0, or -errno
 * (then fewer or none run, and work stays serial). Call after any fork
 * (fuse_daemonize): threads do not survive one.
 */
int parallel_start(unsigned int helpers);
/* let the helpers finish and join them; parallel_run is serial after */
void parallel_stop(void);

/*
 * fn(arg, part, nparts) for part 0 .. nparts - 1, where nparts is 1 plus
 * the helpers that were idle (at most max_parts in all); part 0 runs in
 * the calling thread. Returns when every part is done.
 */
void parallel_run(void (*fn)(void *arg, unsigned int part, unsigned int nparts),
		  void *arg, unsigned int max_parts);

#endif
