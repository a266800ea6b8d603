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

static int run_upgrade(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct upgrade_counts counts;
	struct volume v = VOLUME_CLOSED;
	struct volume_config *cfg = &v.cfg;
	char err[512] = "";
	uint8_t *vmk = NULL;
	int rc, rootfd = -1;

	/* the lock first: a mount holds it until it shows in mountinfo, so
	 * none can be starting once the check below finds none */
	rc = kt_lock_volume(dir);
	if (!rc)
		rc = refuse_mounted(dir);
	if (!rc)
		rc = kt_open(a, dir, KT_UNLOCKING, &v);
	if (rc)
		return rc;
	if (cfg->version >= VOLCONF_VERSION) {
		printf("%s: already format version %u: nothing to do\n", dir,
		       cfg->version);
		goto out;
	}
	rc = kt_unlock(a, &v, -1, &vmk);
	if (rc)
		goto out;
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: %s", dir, strerror(errno));
		goto out;
	}
	install_crash_hook();
	rc = upgrade_tree(rootfd, v.keyring, cfg->cipher, &counts, warn_left,
			   (void *)dir);
	if (rc) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: upgrade stopped (%s); "
			      "run it again to finish", dir, strerror(-rc));
		goto out;
	}
	rc = upgrade_config(v.confpath, cfg, err, sizeof(err));
	if (rc) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: upgrade stopped: %s; run it "
			      "again to finish", dir, err[0] ? err : strerror(-rc));
		goto out;
	}
	/* the record binds the version too (docs/format.md 8) */
	kt_refresh_record(dir, cfg, vmk);
	printf("%s: upgraded to format version %u (%lu symlink%s re-encrypted "
	       "in %lu director%s%s)\n", dir, cfg->version, counts.converted,
	       counts.converted == 1 ? "" : "s", counts.dirs,
	       counts.dirs == 1 ? "y" : "ies",
	       counts.left ? "; some damaged ones left as they are" : "");
	printf("%s: each keyslot still binds version 1 until its passphrase is "
	       "changed (change-passphrase)\n", dir);
out:
	secmem_free(vmk);
	if (rootfd >= 0)
		close(rootfd);
	volume_close(&v);
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
