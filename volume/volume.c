/* SPDX-License-Identifier: MIT */
/* see volume.h */
#include "volume/volume.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "volume/content/content.h"
#include "volume/names/dirnonce.h"
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
	int rc = volume_config_path(dir, path, sizeof(path));

	if (rc)
		return seterr(err, errlen, rc, "%s: path too long", dir);
	return volume_unlock_config(path, pass, passlen, cfg, keys, err, errlen);
}

int volume_unlock_config(const char *path, const char *pass, size_t passlen,
			 struct volume_config *cfg, struct volume_keys **keys,
			 char *err, size_t errlen)
{
	uint8_t *vmk;
	int rc, slot;

	*keys = NULL;
	rc = volconf_read(path, cfg, err, errlen);
	if (rc)
		return rc;
	vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	if (!vmk)
		return -ENOMEM;
	slot = keyslot_open(cfg, pass, passlen, vmk, err, errlen);
	rc = slot < 0 ? slot
		      : keyring_keys_from_vmk(vmk, cfg->cipher, cfg->key_id, keys);
	secmem_free(vmk);
	if (slot >= 0 && rc == -EBADMSG)
		rc = seterr(err, errlen, -EBADMSG, "%s: key_id does not match "
			    "the unlocked master key", path);
	return rc ? rc : slot;
}

/* ---- the volume record (keys/volrec.h) --------------------------------------- */

/* dir's record: 0 or volrec_read's -errno */
static int read_record(const char *dir, struct volume_record *r)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = volrec_read(fd, r);
	close(fd);
	return rc;
}

int volume_check_record(const char *dir, const struct volume_config *cfg,
			char *err, size_t errlen)
{
	struct volume_record r;
	char why[512];
	int rc = read_record(dir, &r);

	if (err && errlen)
		err[0] = '\0';
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

int volume_explain_unopened(const char *dir, const char *confpath,
			    const struct volume_config *cfg, char *err,
			    size_t errlen)
{
	struct volume_record r;
	char why[768];

	if (read_record(dir, &r) != 0)
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

int volume_record_refresh(const char *dir, const struct volume_config *cfg,
			  const struct volume_keys *k)
{
	struct volume_record r, fresh;
	int fd, rc, write = 0;

	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = volrec_read(fd, &r);
	if (rc == 0 && volrec_compare(&r, cfg, NULL, 0) == VOLREC_SAME &&
	    volrec_verify(&r, k) == 0)
		goto out; /* up to date */
	rc = volrec_init(&fresh, cfg, k);
	if (rc)
		goto out;
	/* keep a recovery slot that still belongs to this volume */
	if (r.has_recovery && strcmp(r.params.uuid, cfg->uuid) == 0) {
		fresh.has_recovery = 1;
		memcpy(fresh.recovery_nonce, r.recovery_nonce,
		       sizeof(r.recovery_nonce));
		memcpy(fresh.recovery_sealed, r.recovery_sealed,
		       sizeof(r.recovery_sealed));
	}
	rc = volrec_write(fd, &fresh);
	write = 1;
out:
	close(fd);
	return rc ? rc : write;
}

int volume_unlock_recovery(const char *dir, const char *text, size_t len,
			   struct volume_config *cfg,
			   uint8_t vmk[VOLCONF_VMK_SIZE], char *err,
			   size_t errlen)
{
	struct volume_record r;
	struct volume_keys *k = NULL;
	uint8_t *secret;
	int rc = read_record(dir, &r);

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
		return -ENOMEM;
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
	rc = keyring_keys_from_vmk(vmk, r.params.cipher, r.params.key_id, &k);
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
