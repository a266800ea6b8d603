/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-keytool backup-header and restore-header: copy the config out
 * of the volume and back. Both validate what they copy; restore refuses
 * another volume's backup unless forced (volume/config.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/keytool.h"

static int run_backup(const struct kt_args *a)
{
	const char *dir = a->args[0], *file = a->args[1];
	struct volume_config cfg;
	char path[PATH_MAX], err[512];
	struct stat st;
	int rc = kt_read_config(a, dir, path, &cfg);

	if (rc)
		return rc;
	if (stat(file, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return kt_error(CLOAKFS_EXIT_REFUSED, "%s: is a directory "
					"(give a file name)", file);
		if (!a->force)
			return kt_error(CLOAKFS_EXIT_REFUSED, "%s: exists (--force "
					"replaces it)", file);
	}
	err[0] = '\0';
	rc = volconf_backup(path, file, err, sizeof(err));
	if (rc)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s", err[0] ? err : strerror(-rc));
	printf("%s: config backed up to %s (volume %s)\n", dir, file, cfg.uuid);
	return 0;
}

const struct kt_command kt_cmd_backup = {
	.name = "backup-header",
	.synopsis = "[--force] CIPHERDIR FILE",
	.summary = "copy the volume's config (keyslots included) to FILE",
	.help =
		"Validate CIPHERDIR's cloakfs.conf and write a copy to FILE (mode 0400,\n"
		"atomically). The copy holds the keyslots: it opens the volume with\n"
		"the passphrases it had when it was made, so keep it as safe as the\n"
		"volume.\n"
		"\n"
		"  --force              replace FILE if it exists\n",
	.opts = KT_OPT_FORCE | KT_OPT_CONFIG,
	.min_args = 2,
	.max_args = 2,
	.run = run_backup,
};

static int run_restore(const struct kt_args *a)
{
	const char *file = a->args[0], *dir = a->args[1];
	struct volume_config backup;
	char path[PATH_MAX], err[512];
	struct stat st;
	int rc = kt_config_path(a, dir, path);

	if (rc)
		return rc;
	if (stat(dir, &st) < 0)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: not a directory", dir);
	rc = kt_lock_volume(dir);
	if (rc)
		return rc;
	/* read the backup first so its errors are told as the backup's */
	err[0] = '\0';
	rc = volconf_read(file, &backup, err, sizeof(err));
	if (rc)
		return kt_error(rc == -EINVAL || rc == -ENOTSUP ? CLOAKFS_EXIT_BAD_VOLUME
								: CLOAKFS_EXIT_ERROR,
				"%s", err[0] ? err : strerror(-rc));
	err[0] = '\0';
	rc = volconf_restore(file, path, a->force, err, sizeof(err));
	if (rc == -EXDEV)
		return kt_error(CLOAKFS_EXIT_REFUSED, "%s", err);
	if (rc)
		return kt_error(rc == -EINVAL || rc == -ENOTSUP ? CLOAKFS_EXIT_BAD_VOLUME
								: CLOAKFS_EXIT_ERROR,
				"%s", err[0] ? err : strerror(-rc));
	printf("%s: config restored from %s (volume %s)\n", dir, file,
	       backup.uuid);
	return 0;
}

const struct kt_command kt_cmd_restore = {
	.name = "restore-header",
	.synopsis = "[--force] FILE CIPHERDIR",
	.summary = "put a config backup back into the volume",
	.help =
		"Validate FILE (made by backup-header) and write it atomically as\n"
		"CIPHERDIR's cloakfs.conf. Refused when the current config belongs to\n"
		"another volume (other uuid); a missing or unreadable current config\n"
		"is simply replaced. Passphrases added or changed since the backup was\n"
		"made no longer open the volume afterwards; removed ones open it again.\n"
		"\n"
		"  --force              restore even over another volume's config\n",
	.opts = KT_OPT_FORCE | KT_OPT_CONFIG,
	.min_args = 2,
	.max_args = 2,
	.run = run_restore,
};
