/* SPDX-License-Identifier: MIT */
/*
 * The mount's keys: the volume's struct volume_keys while the volume is
 * unlocked, NULL while cloakfsd has locked it. Every request that needs a
 * key brackets its work with keyring_enter/keyring_leave (a read lock);
 * locking takes the write lock, so it waits for requests in flight, then
 * wipes the keys and every key cached in the inode table (directory name
 * transforms, open files' content transforms, the xattr name transform).
 * While locked, name and content operations answer EACCES.
 */
#ifndef CLOAKFS_FS_KEYRING_H
#define CLOAKFS_FS_KEYRING_H

#include <pthread.h>
#include <stdint.h>

#include "volume/keys.h"

struct cloakfs;

struct fs_keyring {
	pthread_rwlock_t lock;
	struct volume_keys *keys; /* NULL: locked */
};

int keyring_init(struct fs_keyring *kr);
void keyring_destroy(struct fs_keyring *kr);

/* read-lock and return the keys, or NULL when locked; always leave */
const struct volume_keys *keyring_enter(struct fs_keyring *kr);
void keyring_leave(struct fs_keyring *kr);

/*
 * Make keys from a 64-byte VMK and install them, after checking that they
 * give the volume's key_id: 0, -EBADMSG (another volume's key) or -errno.
 */
int keyring_unlock_vmk(struct cloakfs *fs, const uint8_t vmk[KEYS_VMK_SIZE]);
/* install keys already checked (volume_unlock); takes ownership */
void keyring_install(struct cloakfs *fs, struct volume_keys *keys);
/* wipe the keys and every cached key; idempotent */
void keyring_lock(struct cloakfs *fs);

#endif
