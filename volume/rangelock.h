/* SPDX-License-Identifier: MIT */
/*
 * Byte-range locks on backing files, for volumes that several machines
 * use at once (struct volume.shared): open file description locks
 * (F_OFD_SETLK, fcntl(2)), which GlusterFS, NFS and CephFS carry to the
 * other clients, and which belong to the descriptor, not the process,
 * so no other descriptor of the file closed meanwhile drops them.
 *
 * A wait is bounded: a lock that another machine holds longer than
 * RANGELOCK_WAIT_MS gives -ENOLCK (a machine that hangs while holding
 * one stalls its peers no longer than that; the call fails cleanly).
 */
#ifndef CLOAKFS_VOLUME_RANGELOCK_H
#define CLOAKFS_VOLUME_RANGELOCK_H

#include <sys/types.h>

#define RANGELOCK_WAIT_MS 30000

/*
 * A byte no file reaches. A writer that finds its range taken holds a
 * shared lock on it while it waits; a reader about to take a long
 * shared lock (a read lease, fileio.h) first waits for it to be free
 * (rangelock_take_after_writers), so that readers who keep renewing
 * their leases never hold a waiting writer off. Leases end below it.
 */
#define RANGELOCK_INTENT ((off_t)1 << 62)

/*
 * Lock [start, start + len) of fd (len 0: to the end, however far the
 * file grows) for writing (exclusive) or reading (shared). 0, -ENOLCK
 * after the bound, or another -errno of fcntl (-EINVAL: the filesystem
 * has no OFD locks).
 */
int rangelock_take(int fd, int exclusive, off_t start, off_t len);
/* rangelock_take(fd, 0, start, len) once no writer waits (within the
 * same bound, counted from the call) */
int rangelock_take_after_writers(int fd, off_t start, off_t len);
/* is a lock held on RANGELOCK_INTENT by another descriptor (a writer
 * waits, or holds the file to its end): 1, 0, or -errno (the storage
 * cannot tell; rangelock_take_after_writers takes that as none) */
int rangelock_writer_waits(int fd);
/* release what rangelock_take took (same range) */
void rangelock_drop(int fd, off_t start, off_t len);
/* CLOCK_MONOTONIC in milliseconds, for lock waits and lease ages */
long long rangelock_now_ms(void);

#endif
