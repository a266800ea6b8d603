/* SPDX-License-Identifier: MIT */
/*
 * Whole-volume operations on top of config.h, keyslot.h and keys.h: what
 * cloakfs-keytool init and every mount do. Error strings as in config.h.
 */
#ifndef CLOAKFS_VOLUME_VOLUME_H
#define CLOAKFS_VOLUME_VOLUME_H

#include <stddef.h>
#include <stdint.h>

#include "volume/config.h"
#include "volume/keys.h"
#include "volume/keyslot.h"

struct volume_create_params {
	enum volume_cipher cipher;
	uint32_t sector_size; /* 0: CONTENT_DEFAULT_SECTOR */
	uint32_t name_max;    /* 0: NAMES_DEFAULT_NAME_MAX */
	unsigned int version; /* 0: VOLCONF_VERSION; 1 for tests of old
				 volumes and their upgrade */
	struct keyslot_cost cost; /* opslimit 0: calibrate (kdf_seconds) */
	double kdf_seconds;   /* 0: KEYSLOT_DEFAULT_SECONDS */
	const char *config_path; /* NULL: <dir>/cloakfs.conf; else a file that
				    must not exist yet (an external config) */
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
 * config with one keyslot for pass, and the root's .cloakfs.dir.
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

#endif
