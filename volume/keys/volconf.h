/* SPDX-License-Identifier: MIT */
/*
 * cloakfs.conf (docs/format.md, "Config file"): the volume's parameters
 * and keyslots in libconfig syntax. This file reads, validates, writes
 * and atomically replaces it; it knows nothing of passphrases or keys
 * (keyslot.h fills and opens the slots).
 *
 * Every function that can fail on user data takes err/errlen (err may be
 * NULL) and writes one line naming the file, the line and the field:
 *   "vol/cloakfs.conf:7: sector_size: must be a power of two from 512 to
 *    65536 (got 1000)"
 * Returns: 0, or -ENOENT (no file), -EINVAL (syntax or bad field),
 * -ENOTSUP (unsupported format version, unknown feature), -EXDEV (restore
 * across volumes), -ECANCELED (crash hook fired), other -errno from I/O.
 *
 * The prefix is volconf_ because libconfig owns config_*.
 */
#ifndef CLOAKFS_VOLUME_KEYS_VOLCONF_H
#define CLOAKFS_VOLUME_KEYS_VOLCONF_H

#include <stddef.h>
#include <stdint.h>

#include "volume/cipher.h"

#define VOLCONF_FILE_NAME "cloakfs.conf"
/* the version new volumes get; 1 is still read and written (docs/format.md) */
#define VOLCONF_VERSION 2
#define VOLCONF_MIN_VERSION 1
#define VOLCONF_MAX_KEYSLOTS 8
#define VOLCONF_UUID_LEN 36
#define VOLCONF_KEY_ID_SIZE 16
#define VOLCONF_SALT_SIZE 16
#define VOLCONF_NONCE_SIZE 12
#define VOLCONF_VMK_SIZE 64
#define VOLCONF_TAG_SIZE 16
#define VOLCONF_SEALED_SIZE (VOLCONF_VMK_SIZE + VOLCONF_TAG_SIZE)
#define VOLCONF_MAX_FILE (64 * 1024)
/* Argon2id bounds: libsodium's minimums, cryptsetup's maximum memory */
#define VOLCONF_MIN_OPSLIMIT 1ULL
#define VOLCONF_MAX_OPSLIMIT 4294967295ULL
#define VOLCONF_MIN_MEMLIMIT 8192ULL
#define VOLCONF_MAX_MEMLIMIT 4294967296ULL

struct volconf_keyslot {
	int used;
	uint8_t salt[VOLCONF_SALT_SIZE];
	uint64_t opslimit;
	uint64_t memlimit; /* bytes, a multiple of 1024 */
	uint8_t sealed[VOLCONF_SEALED_SIZE]; /* VMK ciphertext || tag */
	uint8_t nonce[VOLCONF_NONCE_SIZE];
	/* the format version its AAD binds, when it was sealed under an
	 * older one than the config's (cloakfs-keytool upgrade keeps slots
	 * whose passphrase it was not given); 0: the config's version */
	unsigned int aad_version;
};

struct volume_config {
	unsigned int version;
	char uuid[VOLCONF_UUID_LEN + 1]; /* lower-case canonical form */
	enum volume_cipher cipher;
	enum volume_names_mode names;
	uint32_t sector_size;
	uint32_t name_max;
	uint8_t key_id[VOLCONF_KEY_ID_SIZE];
	uint32_t features; /* VOLCONF_FEATURE_* bits; version 1 defines none */
	/* slot i is the i-th group of the file; a removed slot stays free
	 * (used 0, all zero) and later slots keep their numbers */
	struct volconf_keyslot slots[VOLCONF_MAX_KEYSLOTS];
};

/*
 * "authenticated": the contents are sealed per sector with the cipher's
 * AEAD (docs/format.md section 6.2). Exactly the ciphers with an
 * aead_alg carry it, version 2 only; cloakfs before it refuses the
 * volume as an unknown feature.
 */
#define VOLCONF_FEATURE_AUTHENTICATED (1u << 0)
/*
 * "wide-names": the names mode is a wide-block one (hctr2, adiantum;
 * docs/format.md 7.2), version 2 only; cloakfs before it refuses the
 * volume as an unknown feature.
 */
#define VOLCONF_FEATURE_WIDE_NAMES (1u << 1)
#define VOLCONF_KNOWN_FEATURES \
	(VOLCONF_FEATURE_AUTHENTICATED | VOLCONF_FEATURE_WIDE_NAMES)

/* the features a volume of this cipher and names mode carries */
uint32_t volconf_features_of(enum volume_cipher cipher,
			     enum volume_names_mode names);

/*
 * A new config of version VOLCONF_VERSION: random uuid, the given cipher, sector size and
 * name_max, the cipher's default names mode (cts; hctr2 for aes256-gcm,
 * adiantum for xchacha20-poly1305), the features they need, no keyslots, key_id zero (the caller
 * sets it from keys_key_id()). 0, -EINVAL (bad sector_size or name_max),
 * or -errno of getrandom.
 */
int volconf_new(struct volume_config *c, enum volume_cipher cipher,
	       uint32_t sector_size, uint32_t name_max);

/* set the names mode and the features it needs; -EINVAL if the cipher
 * does not take it (volume/names/namemode.h) */
int volconf_set_names(struct volume_config *c, enum volume_names_mode m);

/* number of used keyslots */
unsigned int volconf_slot_count(const struct volume_config *c);

/* uuid as its 16 bytes (for the keyslot AAD); 0 or -EINVAL */
int volconf_uuid_bytes(const char *uuid, uint8_t out[16]);
/* the canonical (lower-case) text of 16 uuid bytes */
void volconf_uuid_format(char out[VOLCONF_UUID_LEN + 1], const uint8_t b[16]);

/* all the checks volconf_read does, on a struct (before writing) */
int volconf_validate(const struct volume_config *c, char *err, size_t errlen);

/* parse text; name is used in messages ("vol/cloakfs.conf") */
int volconf_parse(const char *text, size_t len, const char *name,
		 struct volume_config *c, char *err, size_t errlen);
/* read and parse a file (at most VOLCONF_MAX_FILE bytes) */
int volconf_read(const char *path, struct volume_config *c, char *err,
		size_t errlen);

/* the file text; returns its length or -ENOSPC (len is then too small) */
int volconf_format(const struct volume_config *c, char *buf, size_t len);

/*
 * Replace path with c atomically: write "<path>.tmp.XXXXXX" in the same
 * directory (mode 0400), fsync it, rename it over path, fsync the
 * directory. After a crash at any point, path holds the old or the new
 * config, whole; a leftover temp file is harmless (names.h classifies it
 * as VNAME_ENTRY_CONFIG_TEMP).
 */
int volconf_write_atomic(const char *path, const struct volume_config *c,
			char *err, size_t errlen);

/*
 * Test hook: called after each step of volconf_write_atomic; returning
 * nonzero stops the write right there, as a crash would (no cleanup),
 * and volconf_write_atomic returns -ECANCELED. NULL removes it.
 */
enum volconf_write_step {
	VOLCONF_STEP_TEMP_CREATED,
	VOLCONF_STEP_HALF_WRITTEN,
	VOLCONF_STEP_WRITTEN,
	VOLCONF_STEP_SYNCED,
	VOLCONF_STEP_RENAMED,
	VOLCONF_STEP_DIR_SYNCED,
	VOLCONF_STEP_COUNT
};
void volconf_set_write_hook(int (*hook)(enum volconf_write_step step,
					void *arg),
			    void *arg);

/* copy a valid config to backup_path (atomically, replacing it) */
int volconf_backup(const char *conf_path, const char *backup_path, char *err,
		  size_t errlen);

/*
 * Put a backup back at conf_path. Refused with -EXDEV when the current
 * config names another uuid, unless force; a missing or unparsable
 * current config (the usual reason to restore) has no uuid to compare.
 */
int volconf_restore(const char *backup_path, const char *conf_path, int force,
		   char *err, size_t errlen);

#endif
