/* SPDX-License-Identifier: MIT */
/*
 * The keys of one open volume and every key derived from them, with one
 * owner (docs/design.md, "Keys in memory"):
 *
 * - the PRK (struct volume_keys) while the volume is unlocked, none while
 *   it is locked;
 * - a fixed table of derived, keyed transforms: a directory's name
 *   transform (by its nonce), a file's content transform (by its nonce),
 *   the volume's xattr-name and symlink-target transforms, an xattr
 *   value's transform (by the value's nonce). Slots are reused, least recently used first.
 *
 * Keys are used only inside short sections, vkeyring_enter ...
 * vkeyring_leave (the read side of a lock), which hold no I/O on the
 * backing store: read the ciphertext, then enter, decrypt, leave; enter,
 * encrypt, leave, then write. vkeyring_lock takes the write side, so it
 * waits for CPU work in flight only, never for a stuck disk or network
 * filesystem, and then wipes the PRK and every derived transform in one
 * pass over the table, which allocates nothing and cannot fail.
 *
 * A section that finds the volume locked (vkeyring_enter gives NULL)
 * answers -EACCES.
 */
#ifndef CLOAKFS_VOLUME_KEYRING_H
#define CLOAKFS_VOLUME_KEYRING_H

#include <stdint.h>

#include "crypto/crypto.h"
#include "volume/cipher.h"
#include "volume/keys.h"

struct vkeyring;

enum vkey_kind {
	VKEY_NAMES,       /* cts: names of the directory with this nonce */
	VKEY_CONTENTS,    /* xts: content of the file with this nonce */
	VKEY_XATTR_NAMES, /* cts: xattr names (nonce ignored) */
	VKEY_XATTR_VALUE, /* xts: the xattr value with this nonce */
	VKEY_SYMLINKS,    /* cts: version-2 symlink targets (nonce ignored) */
};

/* derived transforms kept; a section uses at most a few at once */
#define VKEYRING_SLOTS 128

/* an empty (locked) keyring for a volume of this cipher: 0 or -ENOMEM */
int vkeyring_new(enum volume_cipher cipher, struct vkeyring **out);
/* wipe everything and free; NULL is a no-op */
void vkeyring_free(struct vkeyring *kr);

/*
 * Keys from a 64-byte VMK, checked against the volume's key_id (the one
 * place that check is made): 0, -EBADMSG (another volume's key) or
 * -errno. On success *out holds them (keys_free, or vkeyring_install).
 */
int vkeyring_keys_from_vmk(const uint8_t vmk[KEYS_VMK_SIZE],
			   enum volume_cipher cipher,
			   const uint8_t key_id[KEYS_KEY_ID_SIZE],
			   struct volume_keys **out);

/* install keys (taking ownership), wiping whatever was derived before */
void vkeyring_install(struct vkeyring *kr, struct volume_keys *keys);
/* wipe the PRK and every derived key; idempotent, no allocation */
void vkeyring_lock(struct vkeyring *kr);
/* unlocked now? (a hint: it may change right after) */
int vkeyring_unlocked(struct vkeyring *kr);

/* a section: the keys, or NULL when locked; always leave */
const struct volume_keys *vkeyring_enter(struct vkeyring *kr);
void vkeyring_leave(struct vkeyring *kr);

/*
 * Inside a section: the derived transform for (kind, nonce), derived now
 * if it is not in the table; *slot is for vkeyring_put, which must come
 * before the section's end. NULL and *err (-EACCES when locked, -ENOMEM).
 */
struct crypto_tfm *vkeyring_get(struct vkeyring *kr, enum vkey_kind kind,
				const uint8_t nonce[KEYS_NONCE_SIZE],
				unsigned int *slot, int *err);
void vkeyring_put(struct vkeyring *kr, unsigned int slot);

/* how many derived transforms are live (tests: 0 after lock) */
unsigned int vkeyring_live(struct vkeyring *kr);

#endif
