/* SPDX-License-Identifier: MIT */
/* see volume.h */
#include "volume/volume.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "volume/content/content.h"
#include "volume/dirlock.h"
#include "volume/names/dirnonce.h"
#include "volume/names/namemode.h"
#include "volume/keys/keyring.h"
#include "volume/names/vname.h"
#include "volume/random.h"
#include "crypto/crypto.h"
#include "volume/keys/volrec.h"
#include "crypto/secmem.h"

int volume_init(const char **why)
{
	int err = crypto_init();

	*why = err ? crypto_init_error() : NULL;
	return err;
}

int volume_config_path(const char *dir, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/%s", dir, VOLCONF_FILE_NAME);

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

/* key_id of vmk into c */
static int set_key_id(struct volume_config *c, const uint8_t *vmk)
{
	struct volume_keys *k;
	int err = keys_new(vmk, c->cipher, &k);

	if (err)
		return err;
	err = keys_key_id(k, c->key_id);
	keys_free(k);
	return err;
}

/* the record of a new volume, with a recovery slot when text is given */
static int write_new_record(int dirfd, const struct volume_config *c,
			    const uint8_t *vmk, char *text)
{
	struct volume_record r;
	struct volume_keys *k;
	uint8_t *secret = NULL;
	int err = keys_new(vmk, c->cipher, &k);

	if (err)
		return err;
	err = volrec_init(&r, c, k);
	keys_free(k);
	if (!err && text) {
		secret = secmem_alloc(RECKEY_SECRET_SIZE);
		err = secret ? volrec_set_recovery(&r, vmk, secret) : -ENOMEM;
		if (!err)
			err = reckey_encode(secret, text);
		secmem_free(secret);
	}
	if (!err)
		err = volrec_write(dirfd, &r);
	return err;
}

int volume_create(const char *dir, const struct volume_create_params *p,
		  const char *pass, size_t passlen,
		  struct keyslot_cost *cost_out, char *err, size_t errlen)
{
	char path[4096];
	struct volume_config c;
	struct keyslot_cost cost = p->cost;
	uint8_t *vmk = NULL, nonce[DIRNONCE_SIZE];
	int rc, dirfd;

	if (p->config_path)
		rc = snprintf(path, sizeof(path), "%s", p->config_path) <
		     (int)sizeof(path) ? 0 : -ENAMETOOLONG;
	else
		rc = volume_config_path(dir, path, sizeof(path));
	if (rc)
		return seterr(err, errlen, rc, "%s: path too long", dir);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return seterr(err, errlen, -errno, "%s: %s", dir, strerror(errno));
	if (faccessat(dirfd, VOLCONF_FILE_NAME, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		rc = seterr(err, errlen, -EEXIST, "%s: already a cloakfs volume",
			    dir);
		goto out;
	}
	if (p->config_path &&
	    faccessat(AT_FDCWD, path, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		rc = seterr(err, errlen, -EEXIST, "%s: exists (a config of "
			    "another volume?)", path);
		goto out;
	}
	if (faccessat(dirfd, DIRNONCE_FILE, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		rc = seterr(err, errlen, -EEXIST, "%s: has %s but no %s (an "
			    "interrupted init? remove it to retry)", dir,
			    DIRNONCE_FILE, VOLCONF_FILE_NAME);
		goto out;
	}
	rc = volconf_new(&c, p->cipher,
			 p->sector_size ? p->sector_size : CONTENT_DEFAULT_SECTOR,
			 p->name_max ? p->name_max : VNAME_DEFAULT_NAME_MAX);
	if (rc) {
		seterr(err, errlen, rc, "bad volume parameters (sector size "
		       "512..65536, a power of two; name_max 64..255)");
		goto out;
	}
	if (p->version) {
		if (p->version < VOLCONF_MIN_VERSION || p->version > VOLCONF_VERSION) {
			rc = seterr(err, errlen, -EINVAL, "format version %u: "
				    "this cloakfs makes %u to %u", p->version,
				    VOLCONF_MIN_VERSION, VOLCONF_VERSION);
			goto out;
		}
		c.version = p->version;
	}
	if (p->names_set && volconf_set_names(&c, p->names) != 0) {
		rc = seterr(err, errlen, -EINVAL, "cipher %s does not take "
			    "names %s", volume_cipher_info(c.cipher)->name,
			    namemode_name(p->names));
		goto out;
	}
	if (cost.opslimit == 0) {
		rc = keyslot_calibrate(p->kdf_seconds > 0 ? p->kdf_seconds
							  : KEYSLOT_DEFAULT_SECONDS,
				       cost.memlimit ? cost.memlimit
						     : KEYSLOT_DEFAULT_MEMLIMIT,
				       &cost);
		if (rc) {
			seterr(err, errlen, rc, "Argon2id calibration failed: %s",
			       strerror(-rc));
			goto out;
		}
	}
	vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	rc = vmk ? random_bytes(vmk, VOLCONF_VMK_SIZE) : -ENOMEM;
	if (!rc)
		rc = set_key_id(&c, vmk);
	if (!rc) {
		rc = keyslot_add(&c, pass, passlen, &cost, vmk);
		rc = rc < 0 ? rc : 0;
	}
	if (rc) {
		seterr(err, errlen, rc, "cannot seal the master key: %s",
		       strerror(-rc));
		goto out;
	}
	/* the root's nonce before the config: once the config exists the
	 * volume is complete */
	rc = dirnonce_create(dirfd, nonce);
	if (rc) {
		seterr(err, errlen, rc, "%s/%s: %s", dir, DIRNONCE_FILE,
		       strerror(-rc));
		goto out;
	}
	rc = write_new_record(dirfd, &c, vmk, p->recovery_key);
	if (rc) {
		seterr(err, errlen, rc, "%s/%s: %s", dir, VOLREC_FILE_NAME,
		       strerror(-rc));
		(void)unlinkat(dirfd, DIRNONCE_FILE, 0);
		goto out;
	}
	rc = volconf_write_atomic(path, &c, err, errlen);
	if (rc) {
		(void)unlinkat(dirfd, VOLREC_FILE_NAME, 0);
		(void)unlinkat(dirfd, DIRNONCE_FILE, 0);
	}
	else if (cost_out)
		*cost_out = cost;
out:
	secmem_free(vmk);
	close(dirfd);
	return rc;
}

int volume_unlock_keys(const char *dir, const char *pass, size_t passlen,
		       struct volume_config *cfg, struct volume_keys **keys,
		       char *err, size_t errlen)
{
	char path[4096];
	uint8_t *vmk;
	int rc = volume_config_path(dir, path, sizeof(path)), slot;

	*keys = NULL;
	if (rc)
		return seterr(err, errlen, rc, "%s: path too long", dir);
	rc = volconf_read(path, cfg, err, errlen);
	if (rc)
		return rc;
	vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	if (!vmk)
		return -ENOMEM;
	slot = keyslot_open(cfg, pass, passlen, vmk, err, errlen);
	rc = slot < 0 ? slot
		      : keyring_keys_from_vmk(vmk, cfg->cipher, cfg->names,
					      cfg->key_id, keys);
	secmem_free(vmk);
	if (slot >= 0 && rc == -EBADMSG)
		rc = seterr(err, errlen, -EBADMSG, "%s: key_id does not match "
			    "the unlocked master key", path);
	return rc ? rc : slot;
}

/* ---- the volume record (keys/volrec.h) --------------------------------------- */

/*
 * The record against a config before any key is asked: -EXDEV when cfg is
 * another volume's (err names both), else 0: the same volume, no record
 * (a volume made before records existed gets one at its next unlock), or
 * a damaged one (err then holds a warning naming it, else is empty).
 */
static int check_record(int dirfd, const char *dir,
			const struct volume_config *cfg, char *err,
			size_t errlen)
{
	struct volume_record r;
	char why[512];
	int rc = volrec_read(dirfd, &r);

	seterr(err, errlen, 0, "%s", "");
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return seterr(err, errlen, 0, "%s/%s: %s (not used; cloakfs-fsck "
			      "--repair writes it again)", dir, VOLREC_FILE_NAME,
			      rc == -EBADMSG ? "damaged" : strerror(-rc));
	if (volrec_compare(&r, cfg, why, sizeof(why)) == VOLREC_OTHER_VOLUME)
		return seterr(err, errlen, -EXDEV, "%s: the config belongs to "
			      "another volume: %s (restore this volume's own "
			      "config, or recover it with its recovery key)", dir,
			      why);
	return 0;
}

/*
 * After no keyslot of cfg opened: 1 with err "<conf>: the config was
 * edited: cipher is ... in the config, ... in cloakfs.volume" when the
 * record shows fields that differ, else 0 (a wrong passphrase, as far as
 * anything can tell).
 */
static int explain_unopened(int dirfd, const char *confpath,
			    const struct volume_config *cfg, char *err,
			    size_t errlen)
{
	struct volume_record r;
	char why[768];

	if (volrec_read(dirfd, &r) != 0)
		return 0;
	switch (volrec_compare(&r, cfg, why, sizeof(why))) {
	case VOLREC_FIELDS_DIFFER:
		return seterr(err, errlen, 1, "%s: the config was edited: %s "
			      "(no keyslot can open with changed parameters; "
			      "put the recorded values back)", confpath, why);
	case VOLREC_SLOTS_DIFFER:
		return seterr(err, errlen, 1, "%s: no keyslot opened, and "
			      "keyslots differ from the volume's record: %s (an "
			      "edited config, or one older than the record)",
			      confpath, why);
	default:
		return 0;
	}
}

/*
 * The record dir should have for cfg under k into *fresh: 1 (to be
 * written: missing, keyslots out of date, or parameters not cfg's under
 * k; a recovery slot in it is kept), 0 up to date, or -errno. Reads and
 * computes only, so a caller may hold the keys meanwhile.
 */
static int record_update(int dirfd, const struct volume_config *cfg,
			 const struct volume_keys *k, struct volume_record *fresh)
{
	struct volume_record r;
	int rc = volrec_read(dirfd, &r);

	if (rc == 0 && volrec_compare(&r, cfg, NULL, 0) == VOLREC_SAME &&
	    volrec_verify(&r, k) == 0)
		return 0;
	rc = volrec_init(fresh, cfg, k);
	if (rc)
		return rc;
	/* keep a recovery slot that still belongs to this volume */
	if (r.has_recovery && strcmp(r.params.uuid, cfg->uuid) == 0) {
		fresh->has_recovery = 1;
		memcpy(fresh->recovery_nonce, r.recovery_nonce,
		       sizeof(r.recovery_nonce));
		memcpy(fresh->recovery_sealed, r.recovery_sealed,
		       sizeof(r.recovery_sealed));
	}
	return 1;
}

/* write fresh when rc (record_update's) says so: 1, 0 or -errno */
static int record_write(int dirfd, int rc, const struct volume_record *fresh)
{
	if (rc <= 0)
		return rc;
	rc = volrec_write(dirfd, fresh);
	return rc ? rc : 1;
}

int volume_record_refresh(const char *dir, const struct volume_config *cfg,
			  const struct volume_keys *k)
{
	struct volume_record fresh;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = record_write(fd, record_update(fd, cfg, k, &fresh), &fresh);
	close(fd);
	return rc;
}

/*
 * A recovery key (text as typed) against dir's record: the parameters
 * come from the record, checked under the master key, so no config is
 * needed. cfg gets them (no keyslots), vmk the master key.
 */
static int open_recovery(int dirfd, const char *dir, const char *text,
			 size_t len, struct volume_config *cfg,
			 uint8_t vmk[VOLCONF_VMK_SIZE], char *err, size_t errlen)
{
	struct volume_record r;
	struct volume_keys *k = NULL;
	uint8_t *secret;
	int rc = volrec_read(dirfd, &r);

	if (rc == -ENOENT)
		return seterr(err, errlen, rc, "%s: no %s (it holds the recovery "
			      "slot): a recovery key cannot open this volume",
			      dir, VOLREC_FILE_NAME);
	if (rc)
		return seterr(err, errlen, rc, "%s/%s: %s", dir, VOLREC_FILE_NAME,
			      rc == -EBADMSG ? "damaged" : strerror(-rc));
	if (!r.has_recovery)
		return seterr(err, errlen, -ENOKEY, "%s: the volume has no "
			      "recovery key (cloakfs-keytool recovery-key makes "
			      "one)", dir);
	secret = secmem_alloc(RECKEY_SECRET_SIZE);
	if (!secret)
		return seterr(err, errlen, -ENOMEM, "out of memory");
	rc = reckey_decode(text, len, secret, err, errlen);
	if (rc == 0) {
		rc = volrec_open_recovery(&r, secret, vmk);
		if (rc == -EACCES)
			seterr(err, errlen, rc, "%s: the recovery key does not "
			       "open this volume (another volume's key, or one "
			       "replaced by a newer recovery key)", dir);
	}
	secmem_free(secret);
	if (rc)
		return rc;
	rc = keyring_keys_from_vmk(vmk, r.params.cipher, r.params.names,
				   r.params.key_id, &k);
	if (!rc)
		rc = volrec_verify(&r, k);
	keys_free(k);
	if (rc) {
		explicit_bzero(vmk, VOLCONF_VMK_SIZE);
		return seterr(err, errlen, rc, "%s/%s: %s", dir, VOLREC_FILE_NAME,
			      rc == -EBADMSG ? "its parameters do not belong to "
			      "the master key the recovery key opened (edited or "
			      "damaged)" : strerror(-rc));
	}
	*cfg = r.params;
	return 0;
}

int volume_new_recovery(const char *dir, const struct volume_config *cfg,
			const uint8_t vmk[VOLCONF_VMK_SIZE],
			char text[RECKEY_TEXT_LEN + 1], char *err, size_t errlen)
{
	struct volume_record r;
	struct volume_keys *k;
	uint8_t *secret = secmem_alloc(RECKEY_SECRET_SIZE);
	int fd, rc;

	if (!secret)
		return -ENOMEM;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	rc = keys_new(vmk, cfg->cipher, &k);
	if (!rc) {
		rc = volrec_init(&r, cfg, k);
		keys_free(k);
	}
	if (!rc)
		rc = volrec_set_recovery(&r, vmk, secret);
	if (!rc)
		rc = reckey_encode(secret, text);
	if (!rc)
		rc = volrec_write(fd, &r);
	close(fd);
out:
	secmem_free(secret);
	if (rc)
		return seterr(err, errlen, rc, "%s/%s: cannot write: %s", dir,
			      VOLREC_FILE_NAME, strerror(-rc));
	return 0;
}

/* ---- the front door --------------------------------------------------------- */

static void warn(const struct volume_open_params *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(const struct volume_open_params *p, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!p->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->warn(p->warn_arg, msg);
}

/* what follows from v->cfg: the cipher, the content geometry, the version */
static int set_params(struct volume *v, char *err, size_t errlen)
{
	v->cipher = volume_cipher_info(v->cfg.cipher);
	v->version = v->cfg.version;
	if (content_geom_of(&v->geom, v->cipher, v->cfg.sector_size))
		return seterr(err, errlen, -EINVAL, "%s: bad sector size",
			      v->confpath);
	return 0;
}

/* take p's lock on dir into v->lockfd: 0 (also when optional and not
 * taken) or -errno */
static int take_lock(struct volume *v, const char *dir,
		     const struct volume_open_params *p, char *err, size_t errlen)
{
	int fd;

	if (p->lock == VOLUME_LOCK_NONE)
		return 0;
	fd = dirlock_take(dir, p->lock == VOLUME_LOCK_SHARED ? DIRLOCK_SHARED
							     : DIRLOCK_EXCLUSIVE,
			  p->waiting, p->waiting_arg);
	if (fd >= 0) {
		v->lockfd = fd;
		return 0;
	}
	/* a filesystem without flock: a mount does not depend on it */
	if (p->flags & VOLUME_OPEN_LOCK_OPTIONAL) {
		warn(p, "%s: cannot take the volume's lock (%s): not waiting for "
		     "a cloakfs-keytool that may be changing it", dir,
		     strerror(-fd));
		return 0;
	}
	if (fd == -ENOENT || fd == -ENOTDIR)
		return seterr(err, errlen, fd, "%s: %s", dir, strerror(-fd));
	return seterr(err, errlen, fd, "%s: cannot lock: %s", dir, strerror(-fd));
}

/* the config at v->confpath, checked against the record as p asks */
static int read_config(struct volume *v, const struct volume_open_params *p,
		       char *err, size_t errlen)
{
	char note[1024];
	int rc = volconf_read(v->confpath, &v->cfg, err, errlen);

	if (rc == -ENOENT && p->config)
		return seterr(err, errlen, rc, "--config %s: no such file",
			      v->confpath);
	if (rc == -ENOENT)
		return seterr(err, errlen, rc, "%s: not a cloakfs volume (no %s)",
			      v->dir, VOLCONF_FILE_NAME);
	if (rc && err && errlen && !*err)
		return seterr(err, errlen, rc, "%s: %s", v->confpath,
			      strerror(-rc));
	if (rc)
		return rc;
	v->has_config = 1;
	rc = set_params(v, err, errlen);
	if (rc || !(p->flags & VOLUME_OPEN_CHECK_RECORD))
		return rc;
	/* another volume's config is refused before any key is asked */
	rc = check_record(v->rootfd, v->dir, &v->cfg, note, sizeof(note));
	if (rc)
		return seterr(err, errlen, rc, "%s", note);
	if (*note)
		warn(p, "%s", note);
	return 0;
}

/* the root's directory nonce must read */
static int check_root_nonce(struct volume *v, char *err, size_t errlen)
{
	uint8_t nonce[DIRNONCE_SIZE];
	int rc = dirnonce_read(v->rootfd, nonce);

	explicit_bzero(nonce, sizeof(nonce));
	if (rc)
		return seterr(err, errlen, rc == -ENOENT ? rc : -EBADMSG,
			      "%s: the root's %s is %s (run cloakfs-fsck)",
			      v->dir, DIRNONCE_FILE,
			      rc == -ENOENT ? "missing" : "damaged");
	return 0;
}

int volume_open(struct volume *v, const char *dir,
		const struct volume_open_params *p, char *err, size_t errlen)
{
	static const struct volume_open_params none = { 0 };
	struct stat st;
	int rc;

	if (!p)
		p = &none;
	memset(v, 0, sizeof(*v));
	v->rootfd = v->lockfd = v->slot = -1;
	v->dir = dir;
	seterr(err, errlen, 0, "%s", "");
	if (p->config)
		rc = snprintf(v->confpath, sizeof(v->confpath), "%s", p->config) <
		     (int)sizeof(v->confpath) ? 0 : -ENAMETOOLONG;
	else
		rc = volume_config_path(dir, v->confpath, sizeof(v->confpath));
	if (rc)
		return seterr(err, errlen, rc, "%s: path too long",
			      p->config ? p->config : dir);
	/* the lock first: nothing changes the config while it is read */
	rc = take_lock(v, dir, p, err, errlen);
	if (!rc && p->locked && p->locked(p->locked_arg))
		rc = -ECANCELED;
	if (rc)
		goto fail;
	/* the directory's attributes first, as stat(2) asked them before
	 * the front door: on a backing store that hangs the wait is here,
	 * before any file of the volume is read */
	v->rootfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (v->rootfd < 0 || fstat(v->rootfd, &st) != 0) {
		rc = seterr(err, errlen, -errno, "%s: %s", dir,
			    errno == ENOTDIR ? "not a directory" : strerror(errno));
		goto fail;
	}
	if (!(p->flags & VOLUME_OPEN_NO_CONFIG))
		rc = read_config(v, p, err, errlen);
	if (!rc && (p->flags & VOLUME_OPEN_ROOT_NONCE))
		rc = check_root_nonce(v, err, errlen);
	if (!rc)
		return 0;
fail:
	volume_close(v);
	return rc;
}

/* the keys of vmk into v's keyring, made on the first unlock */
static int install_keys(struct volume *v, const uint8_t *vmk, char *err,
			size_t errlen)
{
	struct volume_keys *keys;
	int rc = keyring_keys_from_vmk(vmk, v->cfg.cipher, v->cfg.names,
					   v->cfg.key_id, &keys);

	if (rc == -EBADMSG)
		return seterr(err, errlen, rc, "%s: key_id does not match the "
			      "unlocked master key", v->confpath);
	if (rc)
		return seterr(err, errlen, rc, "%s: cannot derive the keys: %s",
			      v->confpath, strerror(-rc));
	if (!v->keyring && keyring_new(v->cfg.cipher, &v->keyring)) {
		keys_free(keys);
		return seterr(err, errlen, -ENOMEM, "out of memory");
	}
	keyring_install(v->keyring, keys);
	return 0;
}

/* keyslot i only: its index, or -errno with err naming it */
static int open_one_slot(struct volume *v, int i, const struct volume_key *key,
			 uint8_t *vmk, char *err, size_t errlen)
{
	int rc = keyslot_open_slot(&v->cfg, (unsigned int)i, key->text, key->len,
				   vmk);
	struct keyslot_cost cost = { v->cfg.slots[i].opslimit,
				     v->cfg.slots[i].memlimit };
	char why[192];

	switch (rc) {
	case 0:
		return i;
	case -EACCES:
		return seterr(err, errlen, rc, "wrong passphrase for keyslot %d "
			      "(no keyslot opened)", i);
	case -E2BIG:
		keyslot_cost_check(&cost, why, sizeof(why));
		return seterr(err, errlen, rc, "keyslot %d not tried: %s", i, why);
	default:
		return seterr(err, errlen, rc, "keyslot %d: %s", i, strerror(-rc));
	}
}

/*
 * Every used keyslot, each one's state in v->slots (cloakfs-fsck): the
 * first whose key gives key_id unlocks. Its index, or -EBADMSG (only
 * slots of another key opened), -E2BIG (none opened, one above the
 * ceiling), -EACCES, or an -errno of deriving the keys.
 */
static int open_every_slot(struct volume *v, const struct volume_key *key,
			   uint8_t *vmk, char *err, size_t errlen)
{
	/* the later slots are tried into try: vmk keeps the one that opened */
	uint8_t *try = secmem_alloc(VOLCONF_VMK_SIZE);
	int opened = -1, other = 0, aside = 0, rc = 0;

	if (!try)
		return seterr(err, errlen, -ENOMEM, "out of memory");
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS && rc >= 0; i++) {
		if (!v->cfg.slots[i].used)
			continue; /* a free slot (a removed one) */
		rc = keyslot_open_slot(&v->cfg, i, key->text, key->len, try);
		if (rc) {
			v->slots[i] = rc == -EACCES ? VOLUME_SLOT_WRONG
				      : rc == -E2BIG ? VOLUME_SLOT_ASIDE
						     : VOLUME_SLOT_FAILED;
			aside |= rc == -E2BIG;
			rc = 0;
			continue;
		}
		v->slots[i] = VOLUME_SLOT_OPENED;
		if (opened >= 0)
			continue; /* one key is enough; this slot opens too */
		rc = install_keys(v, try, err, errlen);
		if (rc == -EBADMSG) {
			v->slots[i] = VOLUME_SLOT_OTHER_KEY;
			other = 1;
			rc = 0;
		} else if (rc == 0) {
			opened = (int)i;
			memcpy(vmk, try, VOLCONF_VMK_SIZE);
		}
	}
	secmem_free(try);
	if (rc < 0)
		return rc;
	seterr(err, errlen, 0, "%s", "");
	if (opened >= 0)
		return opened;
	if (other)
		return seterr(err, errlen, -EBADMSG, "no keyslot opened with the "
			      "config's key_id");
	if (aside)
		return seterr(err, errlen, -E2BIG, "no keyslot opened (slots "
			      "above the cost ceiling were not tried)");
	return seterr(err, errlen, -EACCES, "wrong passphrase (no keyslot "
		      "opened)");
}

/* a passphrase: the slot that opened (keys installed), or -errno */
static int unlock_passphrase(struct volume *v, const struct volume_key *key,
			     uint8_t *vmk, char *err, size_t errlen)
{
	char note[512] = "";
	int slot, rc;

	if (!v->has_config)
		return seterr(err, errlen, -EINVAL, "%s: no config read: a "
			      "passphrase opens nothing", v->dir);
	if (key->slot >= VOLCONF_MAX_KEYSLOTS || key->slot < VOLUME_SLOT_EVERY)
		return seterr(err, errlen, -EINVAL, "keyslot %d: no such slot",
			      key->slot);
	if (key->slot == VOLUME_SLOT_EVERY)
		slot = open_every_slot(v, key, vmk, err, errlen);
	else if (key->slot >= 0)
		slot = open_one_slot(v, key->slot, key, vmk, err, errlen);
	else
		slot = keyslot_open(&v->cfg, key->text, key->len, vmk, note,
				    sizeof(note));
	/* an edited config fails like a wrong passphrase: the record tells */
	if (slot == -EACCES &&
	    explain_unopened(v->rootfd, v->confpath, &v->cfg, err, errlen) == 1)
		return -EUCLEAN;
	if (slot < 0 && key->slot == VOLUME_SLOT_ANY)
		return seterr(err, errlen, slot, "%s", note);
	if (key->slot == VOLUME_SLOT_EVERY || slot < 0)
		return slot; /* every slot: the keys are in */
	v->slots[slot] = VOLUME_SLOT_OPENED;
	rc = install_keys(v, vmk, err, errlen);
	if (rc)
		return rc;
	seterr(err, errlen, 0, "%s", note); /* slots set aside, if any */
	return slot;
}

/* a recovery key: the record's parameters, then the keys */
static int unlock_recovery(struct volume *v, const struct volume_key *key,
			   uint8_t *vmk, char *err, size_t errlen)
{
	struct volume_config cfg;
	int rc = open_recovery(v->rootfd, v->dir, key->text, key->len, &cfg,
			       vmk, err, errlen);

	if (rc)
		return rc;
	if (v->keyring && cfg.cipher != v->cfg.cipher)
		return seterr(err, errlen, -EBADMSG, "%s: the recovery key is "
			      "another volume's", v->dir);
	v->cfg = cfg; /* no keyslots */
	rc = set_params(v, err, errlen);
	return rc ? rc : install_keys(v, vmk, err, errlen);
}

int volume_unlock(struct volume *v, const struct volume_key *key, char *err,
		  size_t errlen)
{
	uint8_t *vmk = key->vmk_out;
	int rc;

	seterr(err, errlen, 0, "%s", "");
	if (!vmk)
		vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	if (!vmk)
		return seterr(err, errlen, -ENOMEM, "out of memory");
	memset(v->slots, VOLUME_SLOT_FREE, sizeof(v->slots));
	switch (key->source) {
	case VOLUME_KEY_PASSPHRASE:
		rc = unlock_passphrase(v, key, vmk, err, errlen);
		break;
	case VOLUME_KEY_RECOVERY:
		rc = unlock_recovery(v, key, vmk, err, errlen);
		break;
	case VOLUME_KEY_MASTER:
		memcpy(vmk, key->vmk, VOLCONF_VMK_SIZE);
		/* the key id comes from the config, or from the record of
		 * an earlier recovery unlock (a mount unlocked again) */
		rc = v->has_config || v->keyring
			     ? install_keys(v, vmk, err, errlen)
			     : seterr(err, errlen, -EINVAL, "%s: no config read: "
				      "the key id is not known", v->dir);
		break;
	default:
		rc = seterr(err, errlen, -EINVAL, "unknown key source %d",
			    (int)key->source);
	}
	if (vmk != key->vmk_out)
		secmem_free(vmk);
	else if (rc < 0)
		explicit_bzero(vmk, VOLCONF_VMK_SIZE);
	v->slot = rc < 0 ? -1 : key->source == VOLUME_KEY_PASSPHRASE ? rc : -1;
	return rc;
}

int volume_refresh_record(struct volume *v)
{
	struct volume_record fresh;
	const struct volume_keys *k;
	int rc;

	if (!v->keyring)
		return -ENOKEY;
	/* the keys for the computing only, never around the write */
	k = keyring_enter(v->keyring);
	rc = k ? record_update(v->rootfd, &v->cfg, k, &fresh) : -ENOKEY;
	keyring_leave(v->keyring);
	return record_write(v->rootfd, rc, &fresh);
}

void volume_release_lock(struct volume *v)
{
	if (v->lockfd >= 0)
		close(v->lockfd);
	v->lockfd = -1;
}

void volume_close(struct volume *v)
{
	keyring_free(v->keyring); /* wipes */
	v->keyring = NULL;
	if (v->rootfd >= 0)
		close(v->rootfd);
	v->rootfd = -1;
	volume_release_lock(v);
}
