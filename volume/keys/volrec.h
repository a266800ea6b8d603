/* SPDX-License-Identifier: MIT */
/*
 * The volume record cloakfs.volume (docs/format.md 8): a small binary
 * file at the root of the ciphertext directory, beside the root's
 * .cloakfs.dir, that says which volume the tree is. It holds
 *   - the volume's parameters, exactly as the keyslots' associated data
 *     (version, uuid, cipher, names, sector size, name_max, key_id,
 *     features), with an HMAC under a key from the master key;
 *   - what each keyslot of the config looked like when it was last
 *     written (salt, costs, nonce, a digest of the sealed key), so an
 *     edited field is named instead of "wrong passphrase";
 *   - optionally the recovery slot: the master key sealed under a key
 *     from a recovery key (volume/keys/reckey.h).
 * So a config of another volume is refused before any passphrase, an
 * edited one is reported by field, and a lost config can be rebuilt from
 * a recovery key. The record is not a secret: it holds no more than the
 * config shows (and never the sealed keyslots themselves).
 */
#ifndef CLOAKFS_VOLUME_KEYS_VOLREC_H
#define CLOAKFS_VOLUME_KEYS_VOLREC_H

#include <stddef.h>
#include <stdint.h>

#include "volume/keys/volconf.h"
#include "volume/keys/keys.h"

#define VOLREC_FILE_NAME "cloakfs.volume"
#define VOLREC_TEMP_PREFIX "cloakfs.volume.tmp."
#define VOLREC_VERSION 1
#define VOLREC_DIGEST_SIZE 16
#define VOLREC_MAC_SIZE 32
#define VOLREC_MAX_FILE 1024

struct volrec_slot {
	int used;
	uint8_t salt[VOLCONF_SALT_SIZE];
	uint64_t opslimit, memlimit;
	uint8_t nonce[VOLCONF_NONCE_SIZE];
	uint8_t digest[VOLREC_DIGEST_SIZE]; /* SHA-512(sealed), first 16 bytes */
};

struct volume_record {
	struct volume_config params; /* version .. features; no keyslots */
	uint8_t mac[VOLREC_MAC_SIZE];
	struct volrec_slot slots[VOLCONF_MAX_KEYSLOTS];
	int has_recovery;
	uint8_t recovery_nonce[VOLCONF_NONCE_SIZE];
	uint8_t recovery_sealed[VOLCONF_SEALED_SIZE];
};

/*
 * Read dirfd's cloakfs.volume (through fdio_open_regular). 0, -ENOENT,
 * -EBADMSG (damaged: size, magic, checksum or parameters), -ENOTSUP (a
 * newer record version or unknown flags), -VOLUME_ENOTREG, other -errno.
 */
int volrec_read(int dirfd, struct volume_record *r);

/* replace dirfd's cloakfs.volume atomically (temp file, fsync, rename,
 * fsync the directory), mode 0440: 0 or -errno */
int volrec_write(int dirfd, const struct volume_record *r);

/* a record of c: its parameters with their MAC under k, its slots, no
 * recovery slot; 0 or -errno */
int volrec_init(struct volume_record *r, const struct volume_config *c,
		const struct volume_keys *k);

/* take c's keyslots into r (r's parameters must be c's); 1 when they
 * changed, else 0 */
int volrec_set_slots(struct volume_record *r, const struct volume_config *c);

/* the parameters' MAC under k: 0, -EBADMSG (not made with this master
 * key, or edited), -errno */
int volrec_verify(const struct volume_record *r, const struct volume_keys *k);

/*
 * Seal vmk in r's recovery slot under a new random secret (replacing
 * any older one, which then no longer opens it). 0 or -errno; secret
 * should be secmem.
 */
int volrec_set_recovery(struct volume_record *r, const uint8_t vmk[VOLCONF_VMK_SIZE],
			uint8_t secret[16]);

/* open r's recovery slot: 0, -ENOKEY (none), -EACCES (another key) */
int volrec_open_recovery(const struct volume_record *r, const uint8_t secret[16],
			 uint8_t vmk[VOLCONF_VMK_SIZE]);

enum volrec_match {
	VOLREC_SAME,          /* parameters and keyslots agree */
	VOLREC_SLOTS_DIFFER,  /* a keyslot differs from the record */
	VOLREC_FIELDS_DIFFER, /* same uuid and key_id, another parameter differs */
	VOLREC_OTHER_VOLUME,  /* another uuid or key_id */
};

/*
 * Compare a config with the record. why (may be NULL) gets, for
 * anything but VOLREC_SAME, each difference with its field and both
 * values: "cipher is \"sm4-xts\" in the config, \"aes256-xts\" in
 * cloakfs.volume; keyslot 0: opslimit 9 in the config, 3 in ...".
 */
enum volrec_match volrec_compare(const struct volume_record *r,
				 const struct volume_config *c, char *why,
				 size_t len);

#endif
