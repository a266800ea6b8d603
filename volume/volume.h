/* SPDX-License-Identifier: MIT */
/*
 * Whole-volume operations on top of keys/volconf.h, keyslot.h and keys.h: what
 * cloakfs-keytool init and every mount do. Error strings as in keys/volconf.h.
 */
#ifndef CLOAKFS_VOLUME_VOLUME_H
#define CLOAKFS_VOLUME_VOLUME_H

#include <stddef.h>
#include <stdint.h>

#include "volume/keys/volconf.h"
#include "volume/keys/keys.h"
#include "volume/keys/keyslot.h"
#include "volume/keys/reckey.h"

struct volume_create_params {
	enum volume_cipher cipher;
	uint32_t sector_size; /* 0: CONTENT_DEFAULT_SECTOR */
	uint32_t name_max;    /* 0: VNAME_DEFAULT_NAME_MAX */
	unsigned int version; /* 0: VOLCONF_VERSION; 1 for tests of old
				 volumes and their upgrade */
	struct keyslot_cost cost; /* opslimit 0: calibrate (kdf_seconds) */
	double kdf_seconds;   /* 0: KEYSLOT_DEFAULT_SECONDS */
	const char *config_path; /* NULL: <dir>/cloakfs.conf; else a file that
				    must not exist yet (an external config) */
	char *recovery_key; /* NULL, or RECKEY_TEXT_LEN + 1 bytes (secmem):
			       make a recovery slot and write its key here */
};

/*
 * Start the crypto layer (driver self-tests, policy) before any volume
 * is opened: 0, or -errno with *why (a static message, or NULL).
 */
int volume_init(const char **why);

/* "<dir>/cloakfs.conf" into out; -ENAMETOOLONG */
int volume_config_path(const char *dir, char *out, size_t len);

/*
 * Make a new volume in the existing directory dir: a random VMK, the
 * config with one keyslot for pass, the root's .cloakfs.dir and the
 * volume record cloakfs.volume (keys/volrec.h).
 * -EEXIST if dir already has a cloakfs.conf or .cloakfs.dir. cost_out
 * (may be NULL) receives the Argon2id cost used.
 */
int volume_create(const char *dir, const struct volume_create_params *p,
		  const char *pass, size_t passlen,
		  struct keyslot_cost *cost_out, char *err, size_t errlen);

/*
 * Read dir's config, open a keyslot with pass and derive the keys; the
 * derived key identifier must match key_id. On success *keys (free with
 * keys_free) and *cfg are set and the slot index is returned; -EACCES for
 * a wrong passphrase, -EBADMSG if key_id does not match.
 */
int volume_unlock(const char *dir, const char *pass, size_t passlen,
		  struct volume_config *cfg, struct volume_keys **keys,
		  char *err, size_t errlen);

/* the same with the config at path (an external config, --config) */
int volume_unlock_config(const char *path, const char *pass, size_t passlen,
			 struct volume_config *cfg, struct volume_keys **keys,
			 char *err, size_t errlen);

/*
 * The volume record (keys/volrec.h) against a config, before any passphrase
 * is asked. -EXDEV when cfg is another volume's config (err names both
 * volumes), else 0: the same volume, or no record (a volume made before
 * records existed gets one at its next unlock), or a damaged one (err
 * then holds a warning naming it, else is empty).
 */
int volume_check_record(const char *dir, const struct volume_config *cfg,
			char *err, size_t errlen);

/*
 * After no keyslot of cfg opened: 1 with err "<conf>: the config was
 * edited: cipher is ... in the config, ... in cloakfs.volume" when the
 * record shows fields that differ, else 0 (a wrong passphrase, as far as
 * anything can tell).
 */
int volume_explain_unopened(const char *dir, const char *confpath,
			    const struct volume_config *cfg, char *err,
			    size_t errlen);

/*
 * After cfg was unlocked with keys k: write the record when it is
 * missing, its keyslots are out of date, or its parameters are not
 * cfg's under k; a recovery slot in it is kept. 1 written, 0 nothing to
 * do, -errno (a read-only directory: -EROFS, -EACCES).
 */
int volume_record_refresh(const char *dir, const struct volume_config *cfg,
			  const struct volume_keys *k);

/*
 * Unlock dir with a recovery key (text as typed): the parameters come
 * from the record, checked under the master key, so no config is
 * needed. cfg gets them (no keyslots), vmk the master key. Errors, each
 * with err: -ENOENT (no record), -ENOKEY (no recovery slot), -EILSEQ or
 * -EINVAL (a typo: keys/reckey.h), -EACCES (another key), -EBADMSG (the
 * record's parameters are not this key's: edited or damaged), -errno.
 */
int volume_unlock_recovery(const char *dir, const char *text, size_t len,
			   struct volume_config *cfg,
			   uint8_t vmk[VOLCONF_VMK_SIZE], char *err,
			   size_t errlen);

/*
 * A new recovery key for dir's volume (cfg unlocked, vmk its master key):
 * the record is (re)written with a new recovery slot, so an older
 * recovery key stops working. text gets the key.
 */
int volume_new_recovery(const char *dir, const struct volume_config *cfg,
			const uint8_t vmk[VOLCONF_VMK_SIZE],
			char text[RECKEY_TEXT_LEN + 1], char *err, size_t errlen);

#endif
