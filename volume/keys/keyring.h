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
 * Keys are used only inside short sections, keyring_enter ...
 * keyring_leave (the read side of a lock), which hold no I/O on the
 * backing store: read the ciphertext, then enter, decrypt, leave; enter,
 * encrypt, leave, then write. keyring_lock takes the write side, so it
 * waits for CPU work in flight only, never for a stuck disk or network
 * filesystem, and then wipes the PRK and every derived transform in one
 * pass over the table, which allocates nothing and cannot fail.
 *
 * A section that finds the volume locked (keyring_enter gives NULL)
 * answers -EACCES.
 */
#ifndef CLOAKFS_VOLUME_KEYS_KEYRING_H
#define CLOAKFS_VOLUME_KEYS_KEYRING_H

#include <stdint.h>

#include "crypto/crypto.h"
#include "volume/cipher.h"
#include "volume/keys/keys.h"

struct keyring;

enum vkey_kind {
	VKEY_NAMES,       /* names mode: names of the directory with this nonce */
	VKEY_CONTENTS,    /* xts: content of the file with this nonce */
	VKEY_XATTR_NAMES, /* names mode: xattr names (nonce ignored) */
	VKEY_XATTR_VALUE, /* xts, or the AEAD of authenticated volumes: the
			   * xattr value with this nonce */
	VKEY_SYMLINKS,    /* names mode: version-2 symlink targets (nonce
			   * ignored) */
};

/* derived transforms kept; a section uses at most a few at once */
#define KEYRING_SLOTS 128

/* an empty (locked) keyring for a volume of this cipher: 0 or -ENOMEM */
int keyring_new(enum volume_cipher cipher, struct keyring **out);
/* wipe everything and free; NULL is a no-op */
void keyring_free(struct keyring *kr);

/*
 * Keys from a 64-byte VMK for the volume's cipher and names mode,
 * checked against the volume's key_id (the one place that check is
 * made): 0, -EBADMSG (another volume's key), -EINVAL (a names mode the
 * cipher does not take) or -errno. On success *out holds them (keys_free, or keyring_install).
 */
int keyring_keys_from_vmk(const uint8_t vmk[KEYS_VMK_SIZE],
			   enum volume_cipher cipher,
			   enum volume_names_mode names,
			   const uint8_t key_id[KEYS_KEY_ID_SIZE],
			   struct volume_keys **out);

/* install keys (taking ownership), wiping whatever was derived before */
void keyring_install(struct keyring *kr, struct volume_keys *keys);
/* wipe the PRK and every derived key; idempotent, no allocation */
void keyring_lock(struct keyring *kr);
/* unlocked now? (a hint: it may change right after) */
int keyring_unlocked(struct keyring *kr);

/* a section: the keys, or NULL when locked; always leave */
const struct volume_keys *keyring_enter(struct keyring *kr);
void keyring_leave(struct keyring *kr);

/*
 * Inside a section: the derived transform for (kind, nonce), derived now
 * if it is not in the table; *slot is for keyring_put, which must come
 * before the section's end. NULL and *err (-EACCES when locked, -ENOMEM).
 */
struct crypto_tfm *keyring_get(struct keyring *kr, enum vkey_kind kind,
				const uint8_t nonce[KEYS_NONCE_SIZE],
				unsigned int *slot, int *err);
void keyring_put(struct keyring *kr, unsigned int slot);

/* how many derived transforms are live (tests: 0 after lock) */
unsigned int keyring_live(struct keyring *kr);

#endif
