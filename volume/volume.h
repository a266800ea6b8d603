/* SPDX-License-Identifier: MIT */
/*
 * The front door of a volume: open, unlock and close it (struct volume),
 * the one way the mount, cloakfs-keytool and cloakfs-fsck reach a volume's
 * config, record, lock, root and keys; and create one. Each caller keeps
 * only its own messages around these and its exit codes. Errors are
 * -errno with a message in err naming the file (as keys/volconf.h).
 */
#ifndef CLOAKFS_VOLUME_VOLUME_H
#define CLOAKFS_VOLUME_VOLUME_H

#include <stddef.h>
#include <stdint.h>

#include "volume/cipher.h"
#include "volume/content/content.h"
#include "volume/keys/volconf.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"
#include "volume/keys/keyslot.h"
#include "volume/keys/reckey.h"

/* ---- the front door ------------------------------------------------------- */

enum volume_lock {
	VOLUME_LOCK_NONE,
	VOLUME_LOCK_SHARED,    /* a starting mount (volume/dirlock.h) */
	VOLUME_LOCK_EXCLUSIVE, /* a tool that changes the volume */
};

/* volume_open_params.flags */
enum {
	/* no config: the parameters come from the record with a recovery
	 * key (VOLUME_KEY_RECOVERY), so a lost config does not matter */
	VOLUME_OPEN_NO_CONFIG = 1u << 0,
	/* refuse another volume's config (-EXDEV) before any key is asked;
	 * a damaged record is a warning */
	VOLUME_OPEN_CHECK_RECORD = 1u << 1,
	/* the root's directory nonce must read (-ENOENT missing, -EBADMSG
	 * damaged), as a mount needs */
	VOLUME_OPEN_ROOT_NONCE = 1u << 2,
	/* the lock is not required: when flock fails the open goes on
	 * (a warning) */
	VOLUME_OPEN_LOCK_OPTIONAL = 1u << 3,
};

struct volume_open_params {
	const char *config;     /* an external config (--config); NULL:
				   <dir>/cloakfs.conf */
	unsigned int flags;     /* VOLUME_OPEN_* */
	enum volume_lock lock;  /* taken first, before the config is read */
	/* said once when another process holds the lock (then waited for) */
	void (*waiting)(void *arg);
	void *waiting_arg;
	/* warnings that do not stop the open (a damaged record, no lock
	 * with VOLUME_OPEN_LOCK_OPTIONAL); NULL: dropped */
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
	/* called after the lock step, before the config is read (a tool
	 * that must find no mount checks here, under the lock): nonzero
	 * stops the open with -ECANCELED, the hook having said why */
	int (*locked)(void *arg);
	void *locked_arg;
};

/* what volume_unlock found in each keyslot (struct volume.slots) */
enum volume_slot_state {
	VOLUME_SLOT_FREE,      /* unused, or not tried (another opened first) */
	VOLUME_SLOT_OPENED,    /* opened, and its key gives the config's key_id */
	VOLUME_SLOT_WRONG,     /* does not open with this passphrase */
	VOLUME_SLOT_ASIDE,     /* its cost is above the ceiling: not tried */
	VOLUME_SLOT_FAILED,    /* could not be tried (memory) */
	VOLUME_SLOT_OTHER_KEY, /* opens, but its key does not give key_id */
};

/*
 * An open volume. Set by volume_open, keys by volume_unlock, everything
 * released (keys wiped) by volume_close. The fields are read-only for
 * callers, except that a mount shares keyring with its requests.
 */
struct volume {
	struct volume_config cfg; /* the config; after a recovery unlock the
				     record's parameters (no keyslots) */
	const struct volume_cipher_info *cipher; /* cfg.cipher's */
	struct content_geom geom; /* cfg.sector_size over the cipher's block */
	struct keyring *keyring;  /* NULL until unlocked */
	int rootfd;               /* O_PATH of the ciphertext directory */
	int lockfd;               /* the directory lock, or -1 */
	unsigned int version;     /* the format version (cfg.version) */
	int has_config;           /* 0: parameters not known before unlock */
	int slot;                 /* the keyslot that opened, or -1 */
	unsigned char slots[VOLCONF_MAX_KEYSLOTS]; /* enum volume_slot_state */
	const char *dir;          /* as given to volume_open (messages) */
	int shared;               /* other machines use the ciphertext at
				     once (a mount's -o shared): content I/O
				     takes byte-range locks on the backing
				     files and trusts no cached header or
				     size (fileio.h); 0 costs nothing */
	char confpath[4096];      /* the config's path */
};

/* a struct volume that holds nothing yet (volume_close does nothing) */
#define VOLUME_CLOSED { .rootfd = -1, .lockfd = -1, .slot = -1 }

/*
 * Open the volume in dir: take the lock p->lock, read the config (unless
 * VOLUME_OPEN_NO_CONFIG), check it against the record, read the root's
 * nonce, as p->flags ask. 0, or -errno with err (v then holds nothing):
 *   -ENOENT       no config ("<dir>: not a cloakfs volume (no
 *                 cloakfs.conf)", or "--config FILE: no such file"),
 *                 or no directory
 *   -ENOTDIR      dir is not a directory
 *   -EXDEV        the config is another volume's (the record says)
 *   -EBADMSG, -EINVAL, -ENOTSUP, -VOLUME_ENOTREG, -ELOOP
 *                 a config refused (err: file, line, field), or the root
 *                 nonce damaged
 *   -EWOULDBLOCK and other -errno of the lock (err: "<dir>: cannot lock")
 *   -ECANCELED    p->locked said no
 * p may be NULL (no lock, no flags). v->confpath stays set after a
 * failure, for the caller's messages.
 */
int volume_open(struct volume *v, const char *dir,
		const struct volume_open_params *p, char *err, size_t errlen);

/* where a key comes from (struct volume_key.source) */
enum volume_key_source {
	VOLUME_KEY_PASSPHRASE, /* text: a passphrase for a keyslot */
	VOLUME_KEY_RECOVERY,   /* text: a recovery key as typed; the
				  parameters come from the record */
	VOLUME_KEY_MASTER,     /* vmk: the master key itself (as cloakfsd
				  holds it) */
};

#define VOLUME_SLOT_ANY (-1)   /* any keyslot, the first that opens */
#define VOLUME_SLOT_EVERY (-2) /* every keyslot, each one's state in
				  v->slots (cloakfs-fsck's check) */

struct volume_key {
	enum volume_key_source source;
	const char *text;     /* PASSPHRASE, RECOVERY */
	size_t len;
	int slot;             /* PASSPHRASE: VOLUME_SLOT_ANY, _EVERY or one */
	const uint8_t *vmk;   /* MASTER: KEYS_VMK_SIZE bytes */
	uint8_t *vmk_out;     /* NULL, or KEYS_VMK_SIZE bytes (secmem) that
				 receive the master key (the keytool) */
};

/*
 * Unlock v with key: its keys go into v->keyring (made on the first
 * unlock; a later one replaces the keys, as a mount unlocked again by
 * cloakfsd). Returns the keyslot that opened (0 for the other sources),
 * err then a note naming keyslots set aside above the cost ceiling, or
 * empty. Errors, each with err:
 *   -EACCES      wrong passphrase (no keyslot opened, or not the one
 *                asked), a recovery key of another volume
 *   -EUCLEAN     no keyslot opened and the record shows the config was
 *                edited (err says which fields)
 *   -E2BIG       no keyslot opened, one was above the cost ceiling
 *   -EBADMSG     the master key does not give the config's key_id, or
 *                the record's parameters are not the recovery key's
 *   -ENOENT, -ENOKEY, -EILSEQ, -EINVAL  a recovery key with no record,
 *                no recovery slot, or a typo (keys/reckey.h)
 *   other -errno
 */
int volume_unlock(struct volume *v, const struct volume_key *key, char *err,
		  size_t errlen);

/*
 * Bring the record (keys/volrec.h) of an unlocked volume up to date: 1
 * written, 0 nothing to do, -errno (-EROFS, -EACCES: a read-only
 * directory).
 */
int volume_refresh_record(struct volume *v);

/* let go of the lock before volume_close (a mount once it shows) */
void volume_release_lock(struct volume *v);

/* wipe the keys, close the descriptors; v as volume_open left it (also
 * after a failure), VOLUME_CLOSED or closed already */
void volume_close(struct volume *v);

/* ---- creating a volume and its lower steps -------------------------------- */

struct volume_create_params {
	enum volume_cipher cipher;
	int names_set;        /* 0: the cipher's default names mode */
	enum volume_names_mode names; /* with names_set */
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
 * Read dir's config, open a keyslot with pass and derive the keys, without
 * a struct volume (tests, forging tools): the derived key identifier must
 * match key_id. On success *keys (free with keys_free) and *cfg are set
 * and the slot index is returned; -EACCES for a wrong passphrase, -EBADMSG
 * if key_id does not match.
 */
int volume_unlock_keys(const char *dir, const char *pass, size_t passlen,
		       struct volume_config *cfg, struct volume_keys **keys,
		       char *err, size_t errlen);

/*
 * After cfg was unlocked with keys k: write the record when it is
 * missing, its keyslots are out of date, or its parameters are not
 * cfg's under k; a recovery slot in it is kept. 1 written, 0 nothing to
 * do, -errno (a read-only directory: -EROFS, -EACCES).
 */
int volume_record_refresh(const char *dir, const struct volume_config *cfg,
			  const struct volume_keys *k);

/*
 * A new recovery key for dir's volume (cfg unlocked, vmk its master key):
 * the record is (re)written with a new recovery slot, so an older
 * recovery key stops working. text gets the key.
 */
int volume_new_recovery(const char *dir, const struct volume_config *cfg,
			const uint8_t vmk[VOLCONF_VMK_SIZE],
			char text[RECKEY_TEXT_LEN + 1], char *err, size_t errlen);

#endif
