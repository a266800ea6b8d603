/* SPDX-License-Identifier: MIT */
/*
 * The timer of -o shared's read leases (volume/content/fileio.h): a
 * thread that gives back, every few milliseconds, the leases of files
 * whose reads paused FILEIO_LEASE_IDLE_MS, so that another machine's
 * writer waits no longer than that when no more reads come here.
 *
 * A READ lists its inode (pinned, so it stays) with readlease_add
 * before it may take a lease, holding the inode's io lock but not its
 * lock (rename holds two inodes' locks: the list's lock is never taken
 * under one). The thread
 * only tries io (a file whose io is taken is in use, not idle), so it
 * never waits for a READ or a change; it drops an inode from the list
 * once its file holds no lease.
 */
#ifndef CLOAKFS_FS_READLEASE_H
#define CLOAKFS_FS_READLEASE_H

struct inode_table;
struct fs_inode;
struct readlease;

/* NULL and -errno in *err on failure */
struct readlease *readlease_start(struct inode_table *t, int *err);
/* the thread stopped, the list's inodes unpinned; NULL is a no-op.
 * Their leases go with the files' descriptors. */
void readlease_stop(struct readlease *rl);
/* in's file may take a lease (in's io held, its lock not); listed
 * once however often added. 0 or -ENOMEM */
int readlease_add(struct readlease *rl, struct fs_inode *in);

#endif
