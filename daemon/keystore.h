/* SPDX-License-Identifier: MIT */
/*
 * The daemon's keys. Key bytes live in one anonymous mapping that is
 * mlock'ed (never swapped) and MADV_DONTDUMP (never in a core file), one
 * fixed 64-byte slot per key, and are wiped with explicit_bzero when the
 * key is removed, expires, is locked, or the store is destroyed. Ids,
 * paths and expiry times are not secret and live on the heap.
 *
 * Times are milliseconds of CLOCK_BOOTTIME, so a suspended machine's keys
 * still expire on time.
 */
#ifndef CLOAKFS_DAEMON_KEYSTORE_H
#define CLOAKFS_DAEMON_KEYSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/protocol.h"

#define KEYSTORE_MAX_KEYS 256

struct keystore_entry {
	bool used;
	uint8_t id[CLOAKFSD_KEY_ID_LEN];
	uint8_t key_len;
	uint64_t expires_ms; /* 0: never */
	char *path;          /* NUL-terminated, heap: the volume, for listings */
	char *alias;         /* NULL, or another name of the volume's path */
};

struct keystore {
	uint8_t *key_pool; /* KEYSTORE_MAX_KEYS * CLOAKFSD_KEY_MAX, locked */
	size_t pool_len;
	struct keystore_entry entries[KEYSTORE_MAX_KEYS];
	unsigned int count;
};

/* called with each key id as it leaves the store */
typedef void (*keystore_gone_fn)(const uint8_t *id, void *arg);

/* map and lock the pool: 0, or -errno (mlock failure is an error) */
int keystore_init(struct keystore *ks);
/* wipe every key (reporting each to gone, may be NULL) and unmap */
void keystore_destroy(struct keystore *ks, keystore_gone_fn gone, void *arg);

/*
 * Add or replace the key with this id, with its volume's path and another
 * name of that path (alias_len 0: none). 0, -ENOSPC (store full),
 * -ENOMEM. *replaced says whether an older key with this id was
 * overwritten.
 */
int keystore_add(struct keystore *ks, const uint8_t *id, const char *path,
		 size_t path_len, const char *alias, size_t alias_len,
		 const uint8_t *key, size_t key_len, uint64_t expires_ms,
		 bool *replaced);

/* whether e's path or alias is exactly path[0..len) (len > 0) */
bool keystore_names_path(const struct keystore_entry *e, const char *path, size_t len);

/* the entry for id, or NULL; its key bytes via keystore_key() */
const struct keystore_entry *keystore_find(const struct keystore *ks, const uint8_t *id);
const uint8_t *keystore_key(const struct keystore *ks, const struct keystore_entry *e);

/* entry by slot index (for listing), or NULL when the slot is free */
const struct keystore_entry *keystore_slot(const struct keystore *ks, unsigned int i);

/* wipe one key: 0 or -ENOENT */
int keystore_remove(struct keystore *ks, const uint8_t *id);

/* wipe every key whose time is up at now_ms; returns how many */
unsigned int keystore_expire(struct keystore *ks, uint64_t now_ms,
			     keystore_gone_fn gone, void *arg);

/* wipe every key; returns how many */
unsigned int keystore_clear(struct keystore *ks, keystore_gone_fn gone, void *arg);

/* the earliest expiry time, or 0 when no key expires */
uint64_t keystore_next_expiry(const struct keystore *ks);

#endif
