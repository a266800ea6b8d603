/* SPDX-License-Identifier: MIT */
/* see keyring.h */
#include "fs/keyring.h"

#include <errno.h>
#include <string.h>

#include "crypto/log.h"
#include "fs/filestate.h"
#include "fs/fs.h"
#include "fs/rwlock.h"

int keyring_init(struct fs_keyring *kr)
{
	kr->keys = NULL;
	/* a lock request must not starve behind a stream of readers */
	return -rwlock_init_writer_first(&kr->lock);
}

void keyring_destroy(struct fs_keyring *kr)
{
	keys_free(kr->keys);
	kr->keys = NULL;
	pthread_rwlock_destroy(&kr->lock);
}

const struct volume_keys *keyring_enter(struct fs_keyring *kr)
{
	pthread_rwlock_rdlock(&kr->lock);
	return kr->keys;
}

void keyring_leave(struct fs_keyring *kr)
{
	pthread_rwlock_unlock(&kr->lock);
}

/* drop every key cached in one inode */
static void wipe_inode(struct fs_inode *in, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&in->lock);
	if (in->names) {
		crypto_free(in->names); /* wipes the context */
		in->names = NULL;
	}
	filestate_unload(in->file);
	pthread_mutex_unlock(&in->lock);
}

/* with the write lock held: no request is using any key */
static void wipe_locked(struct cloakfs *fs)
{
	if (inode_table_foreach(&fs->inodes, wipe_inode, NULL) != 0)
		log_error("locking: out of memory walking the inode table");
	pthread_mutex_lock(&fs->xattr_lock);
	if (fs->xattr_names) {
		crypto_free(fs->xattr_names);
		fs->xattr_names = NULL;
	}
	pthread_mutex_unlock(&fs->xattr_lock);
	keys_free(fs->keyring.keys);
	fs->keyring.keys = NULL;
}

void keyring_install(struct cloakfs *fs, struct volume_keys *keys)
{
	pthread_rwlock_wrlock(&fs->keyring.lock);
	/* caches made with the old keys would outlive them */
	if (fs->keyring.keys)
		wipe_locked(fs);
	fs->keyring.keys = keys;
	pthread_rwlock_unlock(&fs->keyring.lock);
}

int keyring_unlock_vmk(struct cloakfs *fs, const uint8_t vmk[KEYS_VMK_SIZE])
{
	uint8_t id[KEYS_KEY_ID_SIZE];
	struct volume_keys *keys;
	int err = keys_new(vmk, fs->cfg.cipher, &keys);

	if (err)
		return err;
	err = keys_key_id(keys, id);
	if (!err && memcmp(id, fs->cfg.key_id, sizeof(id)) != 0)
		err = -EBADMSG;
	if (err) {
		keys_free(keys);
		return err;
	}
	keyring_install(fs, keys);
	return 0;
}

void keyring_lock(struct cloakfs *fs)
{
	pthread_rwlock_wrlock(&fs->keyring.lock);
	wipe_locked(fs);
	pthread_rwlock_unlock(&fs->keyring.lock);
}
