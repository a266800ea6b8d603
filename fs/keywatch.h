/* SPDX-License-Identifier: MIT */
/*
 * The mount's side of cloakfsd (daemon/client.h): fetch the volume's
 * master key by the volume's key id, and follow it afterwards. A watcher
 * thread subscribes to the key id; when the key is removed, expires, is
 * locked or the daemon goes away, the mount's keys are wiped (keyring.h)
 * and the kernel's cached file pages dropped; when the key comes back,
 * the mount unlocks again. Both kinds name the cipherdir when they
 * subscribe (resolved, and as given: fs.h cipherdir_view), so that
 * cloakfs-keytool lock DIR finds the mount by DIR's path alone.
 *
 * A mount unlocked with a passphrase does not hand its key over: it
 * registers the key id (cloakfsd_register), so that cloakfs-keytool lock
 * (REMOVE) or lock --all reach it while cloakfsd runs; it retries when no
 * daemon runs, and ignores the daemon's own copy expiring or the daemon
 * exiting. Once locked, it follows the daemon like any other mount (a
 * later keytool unlock unlocks it).
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

struct cloakfsd_client;

/*
 * For a mount whose key came from a passphrase: connect to a running
 * cloakfsd (never started for this) and register the volume's key id, in
 * the foreground, so that a lock right after the mount command returns
 * reaches it. 0 and *out, or -errno (no daemon: -ENOENT, -ECONNREFUSED).
 */
int keywatch_register(struct cloakfs *fs, struct cloakfsd_client **out);

/*
 * Start following the key; se for cache invalidation. own_key: the key
 * came from a passphrase; holder (may be NULL, taken over even on
 * failure) is keywatch_register's connection. 0 or -errno.
 */
int keywatch_start(struct cloakfs *fs, struct fuse_session *se, int own_key,
		   struct cloakfsd_client *holder, struct keywatch **out);
/* stop the thread (NULL is a no-op) */
void keywatch_stop(struct keywatch *w);

#endif
