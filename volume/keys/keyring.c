/* SPDX-License-Identifier: MIT */
/* see keyring.h */
#include "volume/keys/keyring.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "volume/rwlock.h"

#define MAX_DERIVED_KEY 64

struct vkey_slot {
	enum vkey_kind kind;
	uint8_t nonce[KEYS_NONCE_SIZE];
	struct crypto_tfm *tfm; /* keyed when valid; kept for reuse otherwise */
	unsigned int users;     /* sections using it now */
	uint64_t stamp;         /* last use, for replacement */
	int valid;
};

struct keyring {
	pthread_rwlock_t lock;        /* read: sections; write: install, lock */
	struct volume_keys *keys;     /* NULL: locked */
	const struct volume_cipher_info *ci;
	pthread_mutex_t slots_lock;   /* the table, inside sections */
	uint64_t clock;
	struct vkey_slot slot[KEYRING_SLOTS];
};

int keyring_new(enum volume_cipher cipher, struct keyring **out)
{
	struct keyring *kr = calloc(1, sizeof(*kr));
	int err;

	if (!kr)
		return -ENOMEM;
	/* a lock must not starve behind a stream of sections */
	err = rwlock_init_writer_first(&kr->lock);
	if (err) {
		free(kr);
		return -err;
	}
	err = pthread_mutex_init(&kr->slots_lock, NULL);
	if (err) {
		pthread_rwlock_destroy(&kr->lock);
		free(kr);
		return -err;
	}
	kr->ci = volume_cipher_info(cipher);
	*out = kr;
	return 0;
}

/* free every derived transform (wiping it); the write lock is held */
static void wipe_slots(struct keyring *kr)
{
	for (unsigned int i = 0; i < KEYRING_SLOTS; i++) {
		struct vkey_slot *s = &kr->slot[i];

		if (s->users) /* a section outlived its leave: a bug */
			abort();
		if (s->tfm)
			crypto_free(s->tfm); /* wipes the context */
		memset(s, 0, sizeof(*s));
	}
}

void keyring_free(struct keyring *kr)
{
	if (!kr)
		return;
	keyring_lock(kr);
	pthread_mutex_destroy(&kr->slots_lock);
	pthread_rwlock_destroy(&kr->lock);
	free(kr);
}

int keyring_keys_from_vmk(const uint8_t vmk[KEYS_VMK_SIZE],
			   enum volume_cipher cipher,
			   enum volume_names_mode names,
			   const uint8_t key_id[KEYS_KEY_ID_SIZE],
			   struct volume_keys **out)
{
	uint8_t id[KEYS_KEY_ID_SIZE];
	struct volume_keys *keys;
	int err = keys_new(vmk, cipher, &keys);

	if (err)
		return err;
	err = keys_set_names_mode(keys, names);
	if (!err)
		err = keys_key_id(keys, id);
	if (!err && memcmp(id, key_id, sizeof(id)) != 0)
		err = -EBADMSG;
	explicit_bzero(id, sizeof(id));
	if (err) {
		keys_free(keys);
		return err;
	}
	*out = keys;
	return 0;
}

void keyring_install(struct keyring *kr, struct volume_keys *keys)
{
	pthread_rwlock_wrlock(&kr->lock);
	/* what was derived from the old keys would outlive them */
	wipe_slots(kr);
	keys_free(kr->keys);
	kr->keys = keys;
	pthread_rwlock_unlock(&kr->lock);
}

void keyring_lock(struct keyring *kr)
{
	pthread_rwlock_wrlock(&kr->lock);
	wipe_slots(kr);
	keys_free(kr->keys);
	kr->keys = NULL;
	pthread_rwlock_unlock(&kr->lock);
}

int keyring_unlocked(struct keyring *kr)
{
	int on;

	pthread_rwlock_rdlock(&kr->lock);
	on = kr->keys != NULL;
	pthread_rwlock_unlock(&kr->lock);
	return on;
}

const struct volume_keys *keyring_enter(struct keyring *kr)
{
	pthread_rwlock_rdlock(&kr->lock);
	return kr->keys;
}

void keyring_leave(struct keyring *kr)
{
	pthread_rwlock_unlock(&kr->lock);
}

static const char *alg_of(const struct keyring *kr, enum vkey_kind kind)
{
	return kind == VKEY_NAMES || kind == VKEY_XATTR_NAMES ||
			       kind == VKEY_SYMLINKS
		       ? keys_names_alg(kr->keys)
	       : kind == VKEY_CONTENTS ? volume_cipher_contents_alg(kr->ci)
	       : kr->ci->aead_alg ? kr->ci->aead_alg /* sealed xattr values */
				  : kr->ci->xts_alg;
}

/* key s->tfm for (s->kind, s->nonce): docs/format.md, "Keys" */
static int derive(struct keyring *kr, struct vkey_slot *s)
{
	uint8_t key[MAX_DERIVED_KEY];
	unsigned int len;
	int err;

	switch (s->kind) {
	case VKEY_NAMES:
		return keys_set_names_key(kr->keys, s->nonce, s->tfm);
	case VKEY_CONTENTS:
		return keys_set_contents_key(kr->keys, s->nonce, s->tfm);
	case VKEY_XATTR_NAMES:
		len = keys_names_keysize(kr->keys);
		err = keys_derive(kr->keys, "xattr-names", NULL, 0, key, len);
		break;
	case VKEY_SYMLINKS:
		len = keys_names_keysize(kr->keys);
		err = keys_derive(kr->keys, "symlinks", NULL, 0, key, len);
		break;
	case VKEY_XATTR_VALUE:
		len = kr->ci->aead_alg ? kr->ci->aead_keysize
				       : kr->ci->xts_keysize;
		err = keys_derive(kr->keys, "xattr", s->nonce, KEYS_NONCE_SIZE, key,
				  len);
		break;
	default:
		return -EINVAL;
	}
	if (!err)
		err = crypto_setkey(s->tfm, key, len);
	explicit_bzero(key, sizeof(key));
	return err;
}

/* the slot to take for a new key: a free one, else the least recently
 * used one nobody uses now; NULL if every slot is in use */
static struct vkey_slot *victim(struct keyring *kr)
{
	struct vkey_slot *best = NULL;

	for (unsigned int i = 0; i < KEYRING_SLOTS; i++) {
		struct vkey_slot *s = &kr->slot[i];

		if (!s->valid)
			return s;
		if (!s->users && (!best || s->stamp < best->stamp))
			best = s;
	}
	return best;
}

struct crypto_tfm *keyring_get(struct keyring *kr, enum vkey_kind kind,
				const uint8_t nonce[KEYS_NONCE_SIZE],
				unsigned int *slot, int *err)
{
	static const uint8_t zero[KEYS_NONCE_SIZE];
	struct vkey_slot *s = NULL;
	struct crypto_tfm *tfm = NULL;

	if (!kr->keys) {
		*err = -EACCES;
		return NULL;
	}
	if (kind == VKEY_XATTR_NAMES || kind == VKEY_SYMLINKS)
		nonce = zero; /* one key for the volume */
	pthread_mutex_lock(&kr->slots_lock);
	for (unsigned int i = 0; i < KEYRING_SLOTS; i++) {
		struct vkey_slot *c = &kr->slot[i];

		if (c->valid && c->kind == kind &&
		    memcmp(c->nonce, nonce, KEYS_NONCE_SIZE) == 0) {
			s = c;
			break;
		}
	}
	if (!s) {
		s = victim(kr);
		if (!s) {
			*err = -EBUSY;
			goto out;
		}
		if (s->tfm && alg_of(kr, s->kind) != alg_of(kr, kind)) {
			crypto_free(s->tfm);
			s->tfm = NULL;
		}
		s->valid = 0;
		if (!s->tfm)
			s->tfm = crypto_alloc(alg_of(kr, kind), NULL, err);
		if (!s->tfm)
			goto out;
		s->kind = kind;
		memcpy(s->nonce, nonce, KEYS_NONCE_SIZE);
		*err = derive(kr, s);
		if (*err)
			goto out;
		s->valid = 1;
	}
	s->users++;
	s->stamp = ++kr->clock;
	*slot = (unsigned int)(s - kr->slot);
	tfm = s->tfm;
out:
	pthread_mutex_unlock(&kr->slots_lock);
	return tfm;
}

void keyring_put(struct keyring *kr, unsigned int slot)
{
	pthread_mutex_lock(&kr->slots_lock);
	if (slot >= KEYRING_SLOTS || kr->slot[slot].users == 0)
		abort(); /* a put without its get */
	kr->slot[slot].users--;
	pthread_mutex_unlock(&kr->slots_lock);
}

unsigned int keyring_live(struct keyring *kr)
{
	unsigned int n = 0;

	pthread_mutex_lock(&kr->slots_lock);
	for (unsigned int i = 0; i < KEYRING_SLOTS; i++)
		n += kr->slot[i].tfm != NULL;
	pthread_mutex_unlock(&kr->slots_lock);
	return n;
}
