/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-keytool upgrade: a volume of format version 1 becomes version
 * 2 (volume/keys/upgrade.h, docs/format.md "Upgrade from version 1"), on an
 * unmounted volume under the keytool's lock.
 *
 * Test hook: $CLOAKFS_TEST_UPGRADE_CRASH=N makes the N-th change (of the
 * tree, then the config rewrite's steps) _exit(UPGRADE_CRASH_EXIT) right
 * before it is made, as a crash would stop it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "tools/keytool.h"
#include "base/mountinfo.h"
#include "volume/keys/keyring.h"
#include "volume/keys/upgrade.h"

#define UPGRADE_CRASH_EXIT 99

static unsigned long crash_at, steps;

static int crash_hook(void *arg)
{
	(void)arg;
	if (++steps == crash_at)
		_exit(UPGRADE_CRASH_EXIT);
	return 0;
}

static int config_crash_hook(enum volconf_write_step step, void *arg)
{
	(void)step;
	return crash_hook(arg);
}

static void install_crash_hook(void)
{
	const char *v = getenv("CLOAKFS_TEST_UPGRADE_CRASH");

	if (!v || !*v)
		return;
	crash_at = strtoul(v, NULL, 10);
	upgrade_set_step_hook(crash_hook, NULL);
	volconf_set_write_hook(config_crash_hook, NULL);
}

static void warn_left(const char *cpath, const char *why, void *arg)
{
	fprintf(stderr, "%s: warning: %s/%s: %s\n", KT_PROG, (const char *)arg,
		cpath, why);
}

/* 0 when dir is not mounted, else an exit code (said) */
static int refuse_mounted(const char *dir)
{
	char root[PATH_MAX], mnt[PATH_MAX];
	int rc;

	if (!realpath(dir, root))
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s: %s", dir,
				strerror(errno));
	rc = mountinfo_find_volume(root, mnt, sizeof(mnt));
	if (rc < 0)
		return kt_error(CLOAKFS_EXIT_ERROR, "cannot read "
				"/proc/self/mountinfo (%s): not upgrading a "
				"volume that may be mounted", strerror(-rc));
	if (rc > 0)
		return kt_error(CLOAKFS_EXIT_REFUSED, "%s is mounted at %s: "
				"unmount it first", dir, mnt);
	return 0;
}

/* the keys of vmk in a new keyring: 0 or an exit code (said) */
static int keyring_of(const char *dir, const struct volume_config *cfg,
		      const uint8_t *vmk, struct keyring **out)
{
	struct volume_keys *keys;
	int rc = keyring_keys_from_vmk(vmk, cfg->cipher, cfg->key_id, &keys);

	if (rc)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: deriving keys: %s", dir,
				strerror(-rc));
	rc = keyring_new(cfg->cipher, out);
	if (rc) {
		keys_free(keys);
		return kt_error(CLOAKFS_EXIT_ERROR, "out of memory");
	}
	keyring_install(*out, keys);
	return 0;
}

static int run_upgrade(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct upgrade_counts counts;
	struct volume_config cfg;
	struct keyring *kr = NULL;
	char path[PATH_MAX], err[512] = "";
	uint8_t *vmk = NULL;
	int rc, slot, rootfd = -1;

	/* the lock first: a mount holds it until it shows in mountinfo, so
	 * none can be starting once the check below finds none */
	rc = kt_lock_volume(dir);
	if (!rc)
		rc = refuse_mounted(dir);
	if (!rc)
		rc = kt_read_config(a, dir, path, &cfg);
	if (rc)
		return rc;
	if (cfg.version >= VOLCONF_VERSION) {
		printf("%s: already format version %u: nothing to do\n", dir,
		       cfg.version);
		return 0;
	}
	rc = kt_open_volume(a, dir, path, &cfg, -1, &vmk, &slot);
	if (!rc)
		rc = keyring_of(dir, &cfg, vmk, &kr);
	if (rc)
		goto out;
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: %s", dir, strerror(errno));
		goto out;
	}
	install_crash_hook();
	rc = upgrade_tree(rootfd, kr, cfg.cipher, &counts, warn_left,
			   (void *)dir);
	if (rc) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: upgrade stopped (%s); "
			      "run it again to finish", dir, strerror(-rc));
		goto out;
	}
	rc = upgrade_config(path, &cfg, err, sizeof(err));
	if (rc) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: upgrade stopped: %s; run it "
			      "again to finish", dir, err[0] ? err : strerror(-rc));
		goto out;
	}
	/* the record binds the version too (docs/format.md 8) */
	kt_refresh_record(dir, &cfg, vmk);
	printf("%s: upgraded to format version %u (%lu symlink%s re-encrypted "
	       "in %lu director%s%s)\n", dir, cfg.version, counts.converted,
	       counts.converted == 1 ? "" : "s", counts.dirs,
	       counts.dirs == 1 ? "y" : "ies",
	       counts.left ? "; some damaged ones left as they are" : "");
	printf("%s: each keyslot still binds version 1 until its passphrase is "
	       "changed (change-passphrase)\n", dir);
out:
	secmem_free(vmk);
	if (rootfd >= 0)
		close(rootfd);
	keyring_free(kr);
	return rc;
}

const struct kt_command kt_cmd_upgrade = {
	.name = "upgrade",
	.synopsis = "CIPHERDIR",
	.summary = "convert a volume of format version 1 to version 2",
	.help =
		"Re-encrypt every symlink target of a version-1 volume in the form of\n"
		"version 2 (independent of its directory: renamed and linked symlinks\n"
		"keep their inode, targets up to 4095 bytes), then mark the config\n"
		"version 2. The volume must not be mounted. Each symlink is replaced\n"
		"atomically; after a crash or an interruption, run it again: it\n"
		"finishes what is left. Until it has finished, a cloakfs older than\n"
		"this one shows the converted symlinks as I/O errors. Keyslots keep\n"
		"binding version 1 until their passphrase is changed.\n"
		"\n"
		"  --passfile FILE, --extpass CMD   the passphrase\n",
	.opts = KT_OPT_PASS | KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_upgrade,
};
