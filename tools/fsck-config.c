/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: the config file and the key. volume/keys/volconf.c judges the
 * config; this file only sorts its refusals into classes (syntax,
 * version, feature, field) and opens every keyslot so one that does not
 * open while another does is reported by number. See fsck.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/confint.h"
#include "cli/passphrase.h"
#include "crypto/secmem.h"
#include "daemon/client.h"
#include "tools/fsck.h"
#include "volume/fdio.h"
#include "volume/keys/keyslot.h"
#include "volume/keys/volrec.h"
#include "volume/volume.h"

_Static_assert(CLOAKFSD_KEY_ID_LEN == VOLCONF_KEY_ID_SIZE, "key id sizes");
_Static_assert(CLOAKFSD_KEY_MAX >= VOLCONF_VMK_SIZE, "daemon key size");

#define DAEMON_TIMEOUT_MS 5000

/*
 * libconfig's own read of the config, for sorting a refusal into a
 * class: through fdio_open_regular like every read of a format file,
 * so nothing swapped in since can block it. CONFIG_TRUE or CONFIG_FALSE.
 */
static int reread_config(config_t *cf, const char *path)
{
	int fd = fdio_open_regular(AT_FDCWD, path, NULL), rc, err;
	char *text;

	if (fd < 0)
		return CONFIG_FALSE;
	/* integers at their full value, as the config reader sees them */
	text = confint_read_fd(fd, VOLCONF_MAX_FILE, &err);
	close(fd);
	if (!text)
		return CONFIG_FALSE;
	rc = config_read_string(cf, text);
	free(text);
	return rc;
}

/* -ENOTSUP: an unknown version, or unknown features? */
static enum fsck_class unsupported_class(const char *path)
{
	enum fsck_class c = FC_CONFIG_FEATURE;
	long long version;
	config_t cf;

	config_init(&cf);
	if (reread_config(&cf, path) == CONFIG_TRUE &&
	    config_lookup_int64(&cf, "version", &version) == CONFIG_TRUE &&
	    version != VOLCONF_VERSION)
		c = FC_CONFIG_VERSION;
	config_destroy(&cf);
	return c;
}

/* -EINVAL: not libconfig at all, or a setting out of its rules? */
static enum fsck_class invalid_class(const char *path)
{
	enum fsck_class c = FC_CONFIG_FIELD;
	config_t cf;

	config_init(&cf);
	if (reread_config(&cf, path) != CONFIG_TRUE)
		c = FC_CONFIG_SYNTAX;
	config_destroy(&cf);
	return c;
}

int fsck_check_config(struct fsck *f)
{
	char path[PATH_MAX], err[1024] = "";
	enum fsck_class c;
	int rc = f->config ? (snprintf(path, sizeof(path), "%s", f->config) <
			      (int)sizeof(path) ? 0 : -ENAMETOOLONG)
			   : volume_config_path(f->root, path, sizeof(path));

	if (rc) {
		fsck_fail(f, "%s: path too long", f->config ? f->config : f->dir);
		return -1;
	}
	rc = volconf_read(path, &f->cfg, err, sizeof(err));
	switch (rc) {
	case 0:
		break;
	case -ENOENT:
		if (f->config) {
			fsck_fail(f, "--config %s: no such file", f->config);
			return -1;
		}
		fsck_fail(f, "%s: not a cloakfs volume (no %s)", f->dir,
			  VOLCONF_FILE_NAME);
		return -1;
	case -ENOTSUP:
	case -EINVAL:
	case -VOLUME_ENOTREG:
		/* libconfig reads the file again to sort -ENOTSUP and
		 * -EINVAL: only after read_text found a regular file there */
		c = rc == -ENOTSUP ? unsupported_class(path)
		    : rc == -VOLUME_ENOTREG ? FC_UNEXPECTED_TYPE
					    : invalid_class(path);
		/* repairing the config is cloakfs-keytool restore-header's job */
		fsck_report(f, c, false, NULL, VOLCONF_FILE_NAME, FA_NONE, NULL,
			    "%s (restore a backup with cloakfs-keytool "
			    "restore-header)", *err ? err : strerror(-rc));
		return 1;
	default:
		fsck_fail(f, "%s", *err ? err : strerror(-rc));
		return -1;
	}
	rc = content_geom_init(&f->geom, f->cfg.sector_size,
			       volume_cipher_info(f->cfg.cipher)->blocksize);
	if (rc) {
		fsck_fail(f, "%s: bad sector size", path);
		return -1;
	}
	/* a config of another volume would judge every name with a wrong
	 * key: stop before the passphrase (docs/fsck.md) */
	rc = volume_check_record(f->root, &f->cfg, err, sizeof(err));
	if (rc) {
		fsck_report(f, FC_CONFIG_OTHER_VOLUME, false, NULL,
			    VOLCONF_FILE_NAME, FA_NONE, NULL, "%s", err);
		return 1;
	}
	return 0;
}

void fsck_check_record(struct fsck *f)
{
	struct volume_record r;
	int fd = open(f->root, O_PATH | O_DIRECTORY | O_CLOEXEC), rc;
	const char *what;

	if (fd < 0)
		return;
	rc = volrec_read(fd, &r);
	/* keyslots that differ from the record are no damage once a slot
	 * opened (a config edited by hand, an older keytool): the next
	 * write of the config brings them up to date */
	if (rc == 0 && volrec_compare(&r, &f->cfg, NULL, 0) <= VOLREC_SLOTS_DIFFER &&
	    volrec_verify(&r, f->keys) == 0) {
		close(fd);
		return;
	}
	what = rc == -ENOENT ? "missing (a volume made before records existed)"
	       : rc ? "damaged"
		    : "its parameters are not the config's under this master key";
	close(fd);
	if (!f->repair) {
		fsck_report(f, FC_VOLUME_RECORD, false, NULL, VOLREC_FILE_NAME,
			    FA_NONE, NULL, "%s (--repair writes it from the "
			    "config)", what);
		return;
	}
	rc = volume_record_refresh(f->root, &f->cfg, f->keys);
	fsck_report(f, FC_VOLUME_RECORD, false, NULL, VOLREC_FILE_NAME,
		    rc < 0 ? FA_FAILED : FA_FIXED, rc < 0 ? strerror(-rc) : NULL,
		    "%s", what);
}

/* keys from a master key; 0, 1 (key id differs) or -errno */
static int keys_from_vmk(struct fsck *f, const uint8_t *vmk,
			 struct volume_keys **out)
{
	int rc = keyring_keys_from_vmk(vmk, f->cfg.cipher, f->cfg.key_id, out);

	return rc == -EBADMSG ? 1 : rc;
}

/* 0 with f->keys set, 1 when the daemon does not help */
static int unlock_from_daemon(struct fsck *f)
{
	struct cloakfsd_client *cl;
	uint8_t *vmk = secmem_alloc(CLOAKFSD_KEY_MAX);
	size_t len = 0;
	int rc;

	if (!vmk)
		return 1;
	rc = cloakfsd_connect(NULL, 0, DAEMON_TIMEOUT_MS, &cl);
	if (!rc) {
		rc = cloakfsd_get(cl, f->cfg.key_id, vmk, CLOAKFSD_KEY_MAX, &len,
				  NULL);
		cloakfsd_close(cl);
	}
	if (!rc && len != VOLCONF_VMK_SIZE)
		rc = -EBADMSG;
	if (!rc)
		rc = keys_from_vmk(f, vmk, &f->keys);
	secmem_free(vmk);
	if (rc == 1 || rc == -EBADMSG)
		fsck_note("%s: cloakfsd holds a key under this volume's key id "
			  "that does not open it; asking for the passphrase",
			  f->dir);
	return rc ? 1 : 0;
}

int fsck_unlock(struct fsck *f, const struct passphrase_source *src,
		bool use_daemon)
{
	char prompt[PATH_MAX + 32], err[1024] = "";
	const unsigned int n = VOLCONF_MAX_KEYSLOTS;
	int opened = -1, mismatched = -1, rc;
	bool unopened[VOLCONF_MAX_KEYSLOTS] = { false };
	bool nomem[VOLCONF_MAX_KEYSLOTS] = { false };
	bool aside[VOLCONF_MAX_KEYSLOTS] = { false }, any_aside = false;
	struct passphrase pass;
	uint8_t *vmk;

	if (use_daemon && !src->file && !src->extpass && unlock_from_daemon(f) == 0) {
		fsck_note("%s: key from cloakfsd (keyslots not checked)", f->dir);
		return 0;
	}
	snprintf(prompt, sizeof(prompt), "Passphrase for %s: ", f->dir);
	rc = passphrase_get(src, PASSPHRASE_EXISTING, prompt, &pass, err,
			    sizeof(err));
	if (rc) {
		fsck_fail(f, "%s", *err ? err : strerror(-rc));
		return -1;
	}
	vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	if (!vmk) {
		passphrase_free(&pass);
		fsck_fail(f, "out of memory");
		return -1;
	}
	/* every slot, not just up to the first that opens: that is the check */
	for (unsigned int i = 0; i < n; i++) {
		if (!f->cfg.slots[i].used)
			continue; /* a free slot (a removed one) */
		rc = keyslot_open_slot(&f->cfg, i, pass.text, pass.len, vmk);
		if (rc == -EACCES) {
			unopened[i] = true;
			continue;
		}
		if (rc == -E2BIG) { /* above the cost ceiling: nothing ran */
			aside[i] = true;
			continue;
		}
		if (rc) {
			nomem[i] = true;
			continue;
		}
		if (f->keys)
			continue; /* one key is enough; this slot opens too */
		rc = keys_from_vmk(f, vmk, &f->keys);
		if (rc == 1) {
			mismatched = (int)i;
			fsck_report(f, FC_KEY_ID_MISMATCH, false, NULL,
				    VOLCONF_FILE_NAME, FA_NONE, NULL,
				    "keyslot %u opens, but its master key does "
				    "not give the config's key_id", i);
		} else if (rc) {
			secmem_free(vmk);
			passphrase_free(&pass);
			fsck_fail(f, "%s: deriving keys: %s", f->dir, strerror(-rc));
			return -1;
		} else {
			opened = (int)i;
		}
	}
	secmem_free(vmk);
	passphrase_free(&pass);
	if (opened < 0 && mismatched >= 0)
		return 1; /* names and contents would be judged with a wrong key */
	for (unsigned int i = 0; i < n; i++) {
		struct keyslot_cost cost = { f->cfg.slots[i].opslimit,
					     f->cfg.slots[i].memlimit };
		char why[192];

		if (!aside[i])
			continue;
		any_aside = true;
		keyslot_cost_check(&cost, why, sizeof(why));
		fsck_report(f, FC_KEYSLOT_UNOPENED, false, NULL, VOLCONF_FILE_NAME,
			    FA_NONE, NULL, "keyslot %u not tried: %s", i, why);
	}
	if (opened < 0 && !any_aside &&
	    volume_explain_unopened(f->root, VOLCONF_FILE_NAME, &f->cfg, err,
				    sizeof(err)) == 1) {
		fsck_fail(f, "%s: %s", f->dir, err);
		return -1;
	}
	if (opened < 0) {
		fsck_fail(f, "%s: %s", f->dir, any_aside ?
			  "no keyslot opened (slots above the cost ceiling were "
			  "not tried)" : "wrong passphrase (no keyslot opened)");
		return -1;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (unopened[i])
			fsck_report(f, FC_KEYSLOT_UNOPENED, false, NULL,
				    VOLCONF_FILE_NAME, FA_NONE, NULL,
				    "keyslot %u does not open with this "
				    "passphrase (keyslot %d does): it holds "
				    "another passphrase, or it is damaged", i,
				    opened);
		else if (nomem[i])
			fsck_report(f, FC_KEYSLOT_UNOPENED, false, NULL,
				    VOLCONF_FILE_NAME, FA_NONE, NULL,
				    "keyslot %u could not be tried: its Argon2id "
				    "memory is more than this machine gives", i);
	}
	return 0;
}
