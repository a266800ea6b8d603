/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-keytool recovery-key and recover: make a recovery key for a
 * volume, and use one to write a config again (docs/security.md,
 * "Recovery keys"; the recovery slot lives in the volume record,
 * volume/keys/volrec.h, not in the config, so a lost config does not take it
 * along).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "tools/keytool.h"
#include "volume/keys/volrec.h"
#include "volume/keys/reckey.h"
#include "volume/volume.h"

static int run_recovery_key(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct volume v = VOLUME_CLOSED;
	struct volume_record old;
	char err[512] = "";
	char *text = NULL;
	uint8_t *vmk = NULL;
	int rc;
	bool replaced;

	rc = kt_recovery_key_allowed(a);
	if (!rc)
		rc = kt_open(a, dir, KT_LOCK | KT_UNLOCKING, &v);
	if (!rc)
		rc = kt_unlock(a, &v, -1, &vmk);
	if (rc)
		goto out;
	replaced = volrec_read(v.rootfd, &old) == 0 && old.has_recovery;
	text = secmem_alloc(RECKEY_TEXT_LEN + 1);
	if (!text) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "out of memory");
		goto out;
	}
	rc = volume_new_recovery(dir, &v.cfg, vmk, text, err, sizeof(err));
	if (rc) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s", err[0] ? err : strerror(-rc));
		goto out;
	}
	kt_print_recovery_key(dir, text);
	if (replaced)
		printf("The volume's previous recovery key no longer opens it.\n");
out:
	secmem_free(text);
	secmem_free(vmk);
	volume_close(&v);
	return rc;
}

const struct kt_command kt_cmd_recovery_key = {
	.name = "recovery-key",
	.synopsis = "[--print-key] CIPHERDIR",
	.summary = "make a recovery key to write down (replaces an older one)",
	.help =
		"Open the volume with a passphrase and make a new recovery key: 40\n"
		"letters and digits in 8 groups, each with a check character, that\n"
		"open the volume without a passphrase and without its config\n"
		"(cloakfs-keytool recover, cloakfs --recovery-key). It is sealed in\n"
		"CIPHERDIR/cloakfs.volume; an older recovery key stops working.\n"
		"Printed only to a terminal unless --print-key is given.\n"
		"\n"
		"  --passfile FILE      the passphrase: first line of FILE\n"
		"  --extpass CMD        the passphrase: first line CMD prints\n"
		"  --print-key          print the key even when standard output is\n"
		"                       not a terminal\n",
	.opts = KT_OPT_PASS | KT_OPT_PRINTKEY | KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_recovery_key,
};

/*
 * What recover does with the config that is there: -ENOENT (none: write
 * a fresh one), 0 (this volume's, valid: add a keyslot to it), or an
 * exit code (another volume's or unreadable, without --force).
 */
static int existing_config(const struct kt_args *a, const char *path, const struct volume_config *params,
			   struct volume_config *cur)
{
	char err[512] = "";
	int rc = volconf_read(path, cur, err, sizeof(err));

	if (rc == -ENOENT)
		return -ENOENT;
	if (rc == 0 && strcmp(cur->uuid, params->uuid) == 0 &&
	    memcmp(cur->key_id, params->key_id, sizeof(cur->key_id)) == 0 &&
	    cur->cipher == params->cipher &&
	    cur->sector_size == params->sector_size &&
	    cur->name_max == params->name_max && cur->version == params->version &&
	    cur->features == params->features)
		return 0;
	if (a->force)
		return -ENOENT; /* replaced by a fresh one */
	if (rc == 0)
		return kt_error(CLOAKFS_EXIT_REFUSED, "%s: does not match the "
				"volume (another volume's config, or an edited "
				"one): --force replaces it", path);
	return kt_error(CLOAKFS_EXIT_REFUSED, "%s: %s (--force replaces it)", path,
			err[0] ? err : strerror(-rc));
}

static int run_recover(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct volume v = VOLUME_CLOSED;
	struct volume_config cfg;
	struct volume_key rk = { .source = VOLUME_KEY_RECOVERY };
	struct passphrase key = { 0 }, pass = { 0 };
	struct keyslot_cost cost;
	char prompt[PATH_MAX + 32], err[512] = "";
	uint8_t *vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	const char *path = v.confpath;
	int rc, slot, fresh;

	if (!vmk)
		return kt_error(CLOAKFS_EXIT_ERROR, "out of memory");
	/* the parameters come from the record: the config may be lost */
	rc = kt_open(a, dir, KT_LOCK | KT_NO_CONFIG, &v);
	if (rc)
		goto out;
	snprintf(prompt, sizeof(prompt), "Recovery key for %s: ", dir);
	rc = passphrase_get_lines(&a->pass, prompt, reckey_complete, &key, err,
				  sizeof(err));
	if (rc) {
		rc = kt_error(rc == -ENOMEM ? CLOAKFS_EXIT_ERROR
					    : CLOAKFS_EXIT_NO_PASS, "%s", err);
		goto out;
	}
	rk.text = key.text;
	rk.len = key.len;
	rk.vmk_out = vmk;
	rc = volume_unlock(&v, &rk, err, sizeof(err));
	passphrase_free(&key);
	if (rc) {
		rc = kt_error(rc == -EACCES || rc == -EILSEQ || rc == -EINVAL
				      ? CLOAKFS_EXIT_AUTH
				      : rc == -ENOMEM || rc == -EIO ? CLOAKFS_EXIT_ERROR
								   : CLOAKFS_EXIT_BAD_VOLUME,
			      "%s", err[0] ? err : strerror(-rc));
		goto out;
	}
	rc = existing_config(a, path, &v.cfg, &cfg);
	fresh = rc == -ENOENT;
	if (fresh)
		cfg = v.cfg; /* the record's parameters, no keyslots */
	else if (rc)
		goto out;
	if (volconf_slot_count(&cfg) >= VOLCONF_MAX_KEYSLOTS) {
		rc = kt_error(CLOAKFS_EXIT_REFUSED, "%s: all %d keyslots are in use "
			      "(remove one, or --force for a fresh config)", path,
			      VOLCONF_MAX_KEYSLOTS);
		goto out;
	}
	rc = kt_new_passphrase(&a->newpass, dir, &pass);
	if (!rc)
		rc = kt_choose_cost(a, NULL, &cost);
	if (rc)
		goto out;
	slot = keyslot_add(&cfg, pass.text, pass.len, &cost, vmk);
	if (slot < 0) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: cannot seal the master key: "
			      "%s", dir, strerror(-slot));
		goto out;
	}
	rc = kt_write_config(dir, path, &cfg, vmk);
	if (!rc)
		printf("%s: %s with keyslot %d for the new passphrase (volume %s)\n",
		       dir, fresh ? "wrote a new config" : "added to the config",
		       slot, cfg.uuid);
out:
	passphrase_free(&pass);
	secmem_free(vmk);
	volume_close(&v);
	return rc;
}

const struct kt_command kt_cmd_recover = {
	.name = "recover",
	.synopsis = "[--force] CIPHERDIR",
	.summary = "open the volume with its recovery key and set a new passphrase",
	.help =
		"Read the recovery key (a prompt on a terminal, else stdin, or\n"
		"--passfile/--extpass; one line or the two lines it was printed on),\n"
		"open the volume with it and seal the master\n"
		"key under a new passphrase. A missing config is written anew from\n"
		"the volume's record (cloakfs.volume: cipher, sector size, ...);\n"
		"a config of this volume gets a new keyslot (the others stay). A\n"
		"config of another volume or an unreadable one is replaced only with\n"
		"--force. A typo in the key is reported with its group.\n"
		"\n"
		"  --passfile FILE      the recovery key: its line(s) in FILE\n"
		"  --extpass CMD        the recovery key: the line(s) CMD prints\n"
		"  --new-passfile FILE  the new passphrase: first line of FILE\n"
		"  --new-extpass CMD    the new passphrase: first line CMD prints\n"
		"  --kdf-time S         Argon2id time of the new keyslot (default 1)\n"
		"  --kdf-memory MiB     Argon2id memory (default 256)\n"
		"  --force              replace a config that is not this volume's\n",
	.opts = KT_OPT_PASS | KT_OPT_NEWPASS | KT_OPT_KDF | KT_OPT_FORCE |
		KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_recover,
};
