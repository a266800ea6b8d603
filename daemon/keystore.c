/* SPDX-License-Identifier: MIT */
/* see keystore.h */
#include "daemon/keystore.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int keystore_init(struct keystore *ks)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int err;

	memset(ks, 0, sizeof(*ks));
	ks->pool_len = (KEYSTORE_MAX_KEYS * CLOAKFSD_KEY_MAX + page - 1) / page * page;
	ks->key_pool = mmap(NULL, ks->pool_len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ks->key_pool == MAP_FAILED) {
		ks->key_pool = NULL;
		return -errno;
	}
	/* keys must never reach swap: no lock, no daemon */
	if (mlock(ks->key_pool, ks->pool_len) != 0)
		goto fail;
	if (madvise(ks->key_pool, ks->pool_len, MADV_DONTDUMP) != 0)
		goto fail;
	/* a forked child (none today) must not inherit keys */
	(void)madvise(ks->key_pool, ks->pool_len, MADV_WIPEONFORK);
	return 0;
fail:
	err = -errno;
	munmap(ks->key_pool, ks->pool_len);
	ks->key_pool = NULL;
	return err;
}

static uint8_t *slot_key(const struct keystore *ks, const struct keystore_entry *e)
{
	return ks->key_pool + (size_t)(e - ks->entries) * CLOAKFSD_KEY_MAX;
}

static void wipe_entry(struct keystore *ks, struct keystore_entry *e,
		       keystore_gone_fn gone, void *arg)
{
	uint8_t id[CLOAKFSD_KEY_ID_LEN];

	explicit_bzero(slot_key(ks, e), CLOAKFSD_KEY_MAX);
	memcpy(id, e->id, sizeof(id));
	free(e->path);
	free(e->alias);
	memset(e, 0, sizeof(*e));
	ks->count--;
	if (gone)
		gone(id, arg);
}

void keystore_destroy(struct keystore *ks, keystore_gone_fn gone, void *arg)
{
	if (!ks->key_pool)
		return;
	keystore_clear(ks, gone, arg);
	explicit_bzero(ks->key_pool, ks->pool_len);
	munlock(ks->key_pool, ks->pool_len);
	munmap(ks->key_pool, ks->pool_len);
	ks->key_pool = NULL;
}

const struct keystore_entry *keystore_find(const struct keystore *ks, const uint8_t *id)
{
	for (unsigned int i = 0; i < KEYSTORE_MAX_KEYS; i++)
		if (ks->entries[i].used && !memcmp(ks->entries[i].id, id, CLOAKFSD_KEY_ID_LEN))
			return &ks->entries[i];
	return NULL;
}

const uint8_t *keystore_key(const struct keystore *ks, const struct keystore_entry *e)
{
	return slot_key(ks, e);
}

const struct keystore_entry *keystore_slot(const struct keystore *ks, unsigned int i)
{
	return i < KEYSTORE_MAX_KEYS && ks->entries[i].used ? &ks->entries[i] : NULL;
}

static char *copy_path(const char *path, size_t len)
{
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, path, len);
		copy[len] = '\0';
	}
	return copy;
}

bool keystore_names_path(const struct keystore_entry *e, const char *path, size_t len)
{
	return (e->path && strlen(e->path) == len && !memcmp(e->path, path, len)) ||
	       (e->alias && strlen(e->alias) == len && !memcmp(e->alias, path, len));
}

int keystore_add(struct keystore *ks, const uint8_t *id, const char *path,
		 size_t path_len, const char *alias, size_t alias_len,
		 const uint8_t *key, size_t key_len, uint64_t expires_ms,
		 bool *replaced)
{
	struct keystore_entry *e = (struct keystore_entry *)keystore_find(ks, id);
	char *copy, *alias_copy = NULL;

	if (key_len == 0 || key_len > CLOAKFSD_KEY_MAX)
		return -EINVAL;
	*replaced = e != NULL;
	for (unsigned int i = 0; !e && i < KEYSTORE_MAX_KEYS; i++)
		if (!ks->entries[i].used)
			e = &ks->entries[i];
	if (!e)
		return -ENOSPC;
	copy = copy_path(path, path_len);
	if (alias_len)
		alias_copy = copy_path(alias, alias_len);
	if (!copy || (alias_len && !alias_copy)) {
		free(copy);
		free(alias_copy);
		return -ENOMEM;
	}
	if (!e->used) {
		e->used = true;
		ks->count++;
	}
	free(e->path);
	free(e->alias);
	e->path = copy;
	e->alias = alias_copy;
	memcpy(e->id, id, CLOAKFSD_KEY_ID_LEN);
	/* wipe the whole slot first so a shorter key leaves no old tail */
	explicit_bzero(slot_key(ks, e), CLOAKFSD_KEY_MAX);
	memcpy(slot_key(ks, e), key, key_len);
	e->key_len = (uint8_t)key_len;
	e->expires_ms = expires_ms;
	return 0;
}

int keystore_remove(struct keystore *ks, const uint8_t *id)
{
	struct keystore_entry *e = (struct keystore_entry *)keystore_find(ks, id);

	if (!e)
		return -ENOENT;
	wipe_entry(ks, e, NULL, NULL);
	return 0;
}

unsigned int keystore_expire(struct keystore *ks, uint64_t now_ms,
			     keystore_gone_fn gone, void *arg)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < KEYSTORE_MAX_KEYS; i++) {
		struct keystore_entry *e = &ks->entries[i];

		if (e->used && e->expires_ms && e->expires_ms <= now_ms) {
			wipe_entry(ks, e, gone, arg);
			n++;
		}
	}
	return n;
}

unsigned int keystore_clear(struct keystore *ks, keystore_gone_fn gone, void *arg)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < KEYSTORE_MAX_KEYS; i++) {
		if (ks->entries[i].used) {
			wipe_entry(ks, &ks->entries[i], gone, arg);
			n++;
		}
	}
	return n;
}

uint64_t keystore_next_expiry(const struct keystore *ks)
{
	uint64_t next = 0;

	for (unsigned int i = 0; i < KEYSTORE_MAX_KEYS; i++) {
		const struct keystore_entry *e = &ks->entries[i];

		if (e->used && e->expires_ms && (!next || e->expires_ms < next))
			next = e->expires_ms;
	}
	return next;
}
