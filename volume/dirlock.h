/* SPDX-License-Identifier: MIT */
/*
 * The volume's lock (docs/design.md "The volume lock"): flock(2) on the
 * ciphertext directory. cloakfs-keytool (config rewrites, the upgrade)
 * and cloakfs-fsck --repair hold it exclusively; a mount holds it shared
 * from before it reads the config until its FUSE mount shows in
 * /proc/self/mountinfo, so a tool that takes the lock and then finds no
 * mount there knows none is starting either.
 *
 * The lock belongs to the open file description: a fork shares it, and
 * it lasts until the last descriptor of it is closed. The descriptor is
 * close-on-exec, so a passphrase command or fusermount3 never holds it.
 */
#ifndef CLOAKFS_VOLUME_DIRLOCK_H
#define CLOAKFS_VOLUME_DIRLOCK_H

enum dirlock_mode {
	DIRLOCK_SHARED,    /* a mount while it starts */
	DIRLOCK_EXCLUSIVE, /* a tool that changes the volume */
};

/*
 * Lock the directory dir: its descriptor (close it to let go), or -errno.
 * When another process holds it in a conflicting mode: -EWOULDBLOCK if
 * waiting is NULL, else waiting(arg) is called once (to say so) and the
 * call waits for it.
 */
int dirlock_take(const char *dir, enum dirlock_mode mode,
		 void (*waiting)(void *arg), void *arg);

#endif
