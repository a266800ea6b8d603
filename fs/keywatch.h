/* SPDX-License-Identifier: MIT */
/*
 * The mount's side of cloakfsd (daemon/client.h): fetch the volume's
 * master key by the volume's key id, and follow it afterwards. A watcher
 * thread subscribes to the key id; when the key is removed, expires, is
 * locked or the daemon goes away, the mount's keys are wiped (keyring.h)
 * and the kernel's cached file pages dropped; when the key comes back,
 * the mount unlocks again.
 */
#ifndef CLOAKFS_FS_KEYWATCH_H
#define CLOAKFS_FS_KEYWATCH_H

struct cloakfs;
struct fuse_session;
struct keywatch;

/*
 * Ask cloakfsd (never started for this) for the volume's key and install
 * it. 0; -ENOENT when the daemon does not hold it; -ECONNREFUSED or
 * -ENOENT-like connection errors when no daemon runs; -EBADMSG when the
 * key it holds is not this volume's; other -errno.
 */
int keywatch_fetch(struct cloakfs *fs);

/* start following the key; se for cache invalidation. 0 or -errno */
int keywatch_start(struct cloakfs *fs, struct fuse_session *se,
		   struct keywatch **out);
/* stop the thread (NULL is a no-op) */
void keywatch_stop(struct keywatch *w);

#endif
