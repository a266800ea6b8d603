/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: the config file and the key. volume/keys/volconf.c judges the
 * config; this file only sorts its refusals into classes (syntax,
 * version, feature, field) and opens every keyslot so one that does not
 * open while another does is reported by number. See fsck.h.
 */
#include <errno.h>
#include <stdarg.h>
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
#include "tools/fsck-config.h"
#include "tools/fsck-progress.h"
#include "tools/fsck-report.h"
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

int fsck_check_config(struct fsck *f, int (*locked)(void *arg))
{
	/* --repair holds the lock as cloakfs-keytool does: no config
	 * rewrite and no mount starting while it runs; held until exit. A
	 * config of another volume would judge every name with a wrong key:
	 * the record stops it before the passphrase (docs/fsck.md) */
	struct volume_open_params p = {
		.config = f->config,
		.flags = VOLUME_OPEN_CHECK_RECORD,
		.lock = f->repair ? VOLUME_LOCK_EXCLUSIVE : VOLUME_LOCK_NONE,
		.locked = locked,
		.locked_arg = f,
	};
	char err[1024] = "";
	const char *path = f->vol.confpath;
	enum fsck_class c;
	int rc = volume_open(&f->vol, f->dir, &p, err, sizeof(err));

	switch (rc) {
	case 0:
		f->cfg = f->vol.cfg;
		f->geom = f->vol.geom;
		return 0;
	case -ECANCELED: /* said */
		return -1;
	case -EWOULDBLOCK:
		fsck_fail(f, "%s: cannot lock the volume (cloakfs-keytool, "
			  "another fsck or a starting mount is working on it)",
			  f->dir);
		return -1;
	case -EXDEV:
		fsck_report(f, FC_CONFIG_OTHER_VOLUME, false, NULL,
			    VOLCONF_FILE_NAME, FA_NONE, NULL, "%s", err);
		return 1;
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
}

void fsck_check_record(struct fsck *f)
{
	struct volume_record r;
	int rc = volrec_read(f->vol.rootfd, &r);
	const char *what;

	/* keyslots that differ from the record are no damage once a slot
	 * opened (a config edited by hand, an older keytool): the next
	 * write of the config brings them up to date */
	if (rc == 0 && volrec_compare(&r, &f->cfg, NULL, 0) <= VOLREC_SLOTS_DIFFER &&
	    volrec_verify(&r, f->keys) == 0)
		return;
	what = rc == -ENOENT ? "missing (a volume made before records existed)"
	       : rc ? "damaged"
		    : "its parameters are not the config's under this master key";
	if (!f->repair) {
		fsck_report(f, FC_VOLUME_RECORD, false, NULL, VOLREC_FILE_NAME,
			    FA_NONE, NULL, "%s (--repair writes it from the "
			    "config)", what);
		return;
	}
	rc = volume_refresh_record(&f->vol);
	fsck_report(f, FC_VOLUME_RECORD, false, NULL, VOLREC_FILE_NAME,
		    rc < 0 ? FA_FAILED : FA_FIXED, rc < 0 ? strerror(-rc) : NULL,
		    "%s", what);
}

/* the walk's own keys (f->keys) from the master key that unlocked */
static int walk_keys(struct fsck *f, const uint8_t *vmk)
{
	int rc = keyring_keys_from_vmk(vmk, f->cfg.cipher, f->cfg.names,
				       f->cfg.key_id,
				       &f->keys);

	if (rc)
		fsck_fail(f, "%s: deriving keys: %s", f->dir, strerror(-rc));
	return rc ? -1 : 0;
}

/* 0 with the volume unlocked, 1 when the daemon does not help */
static int unlock_from_daemon(struct fsck *f)
{
	struct volume_key key = { .source = VOLUME_KEY_MASTER };
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
	key.vmk = vmk;
	if (!rc)
		rc = volume_unlock(&f->vol, &key, NULL, 0);
	if (!rc)
		rc = walk_keys(f, vmk) ? 1 : 0;
	secmem_free(vmk);
	if (rc == -EBADMSG)
		fsck_note("%s: cloakfsd holds a key under this volume's key id "
			  "that does not open it; asking for the passphrase",
			  f->dir);
	return rc ? 1 : 0;
}

/* one report on keyslot i of the config */
static void report_slot(struct fsck *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void report_slot(struct fsck *f, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fsck_report(f, FC_KEYSLOT_UNOPENED, false, NULL, VOLCONF_FILE_NAME,
		    FA_NONE, NULL, "%s", msg);
}

int fsck_unlock(struct fsck *f, const struct passphrase_source *src,
		bool use_daemon)
{
	/* every slot, not just up to the first that opens: that is the check */
	struct volume_key key = { .source = VOLUME_KEY_PASSPHRASE,
				  .slot = VOLUME_SLOT_EVERY };
	char prompt[PATH_MAX + 32], err[1024] = "", why[192];
	const unsigned char *st = f->vol.slots;
	struct passphrase pass;
	int rc;

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
	key.vmk_out = secmem_alloc(VOLCONF_VMK_SIZE);
	key.text = pass.text;
	key.len = pass.len;
	rc = key.vmk_out ? volume_unlock(&f->vol, &key, err, sizeof(err))
			 : -ENOMEM;
	passphrase_free(&pass);
	if (rc >= 0 && walk_keys(f, key.vmk_out))
		rc = -EINTR; /* said */
	secmem_free(key.vmk_out);
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++)
		if (st[i] == VOLUME_SLOT_OTHER_KEY)
			fsck_report(f, FC_KEY_ID_MISMATCH, false, NULL,
				    VOLCONF_FILE_NAME, FA_NONE, NULL,
				    "keyslot %u opens, but its master key does "
				    "not give the config's key_id", i);
	if (rc == -EBADMSG)
		return 1; /* names and contents would be judged with a wrong key */
	if (rc == -EINTR)
		return -1;
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		struct keyslot_cost cost = { f->cfg.slots[i].opslimit,
					     f->cfg.slots[i].memlimit };

		if (st[i] != VOLUME_SLOT_ASIDE)
			continue;
		keyslot_cost_check(&cost, why, sizeof(why));
		report_slot(f, "keyslot %u not tried: %s", i, why);
	}
	if (rc == -EUCLEAN) { /* an edited config: the record tells */
		fsck_fail(f, "%s", err);
		return -1;
	}
	if (rc < 0) {
		fsck_fail(f, "%s: %s", f->dir, *err ? err : strerror(-rc));
		return -1;
	}
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		if (st[i] == VOLUME_SLOT_WRONG)
			report_slot(f, "keyslot %u does not open with this "
				    "passphrase (keyslot %d does): it holds another "
				    "passphrase, or it is damaged", i, rc);
		else if (st[i] == VOLUME_SLOT_FAILED)
			report_slot(f, "keyslot %u could not be tried: its "
				    "Argon2id memory is more than this machine "
				    "gives", i);
	}
	return 0;
}
