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
#include "volume/content.h"
#include "volume/keyring.h"
#include "volume/names.h"
#include "volume/random.h"
#include "crypto/crypto.h"
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

int volume_create(const char *dir, const struct volume_create_params *p,
		  const char *pass, size_t passlen,
		  struct keyslot_cost *cost_out, char *err, size_t errlen)
{
	char path[4096];
	struct volume_config c;
	struct keyslot_cost cost = p->cost;
	uint8_t *vmk = NULL, nonce[NAMES_DIRNONCE_SIZE];
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
	if (faccessat(dirfd, NAMES_DIRNONCE_FILE, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		rc = seterr(err, errlen, -EEXIST, "%s: has %s but no %s (an "
			    "interrupted init? remove it to retry)", dir,
			    NAMES_DIRNONCE_FILE, VOLCONF_FILE_NAME);
		goto out;
	}
	rc = volconf_new(&c, p->cipher,
			 p->sector_size ? p->sector_size : CONTENT_DEFAULT_SECTOR,
			 p->name_max ? p->name_max : NAMES_DEFAULT_NAME_MAX);
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
	rc = vmk ? volume_random(vmk, VOLCONF_VMK_SIZE) : -ENOMEM;
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
	rc = names_dirnonce_create(dirfd, nonce);
	if (rc) {
		seterr(err, errlen, rc, "%s/%s: %s", dir, NAMES_DIRNONCE_FILE,
		       strerror(-rc));
		goto out;
	}
	rc = volconf_write_atomic(path, &c, err, errlen);
	if (rc)
		(void)unlinkat(dirfd, NAMES_DIRNONCE_FILE, 0);
	else if (cost_out)
		*cost_out = cost;
out:
	secmem_free(vmk);
	close(dirfd);
	return rc;
}

int volume_unlock(const char *dir, const char *pass, size_t passlen,
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
		      : vkeyring_keys_from_vmk(vmk, cfg->cipher, cfg->key_id, keys);
	secmem_free(vmk);
	if (slot >= 0 && rc == -EBADMSG)
		rc = seterr(err, errlen, -EBADMSG, "%s: key_id does not match "
			    "the unlocked master key", path);
	return rc ? rc : slot;
}
