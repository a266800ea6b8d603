/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-keytool backup-header and restore-header: copy the config out
 * of the volume and back. Both validate what they copy; restore refuses
 * another volume's backup unless forced (volume/keys/volconf.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/keytool.h"
#include "volume/keys/volrec.h"

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

/*
 * The backup against the volume record in dir: 0 (same volume, or no
 * record), or REFUSED when it is another volume's config or an edited
 * one (unless --force). *rec_fd gets the directory for the record's
 * update afterwards, or -1.
 */
static int check_backup(const struct kt_args *a, const char *file,
			const char *dir, const struct volume_config *backup,
			struct volume_record *rec, int *rec_fd)
{
	char why[768];
	enum volrec_match m;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	*rec_fd = -1;
	if (fd < 0 || volrec_read(fd, rec) != 0) {
		if (fd >= 0)
			close(fd);
		return 0; /* no record (an older volume): only the uuid check */
	}
	m = volrec_compare(rec, backup, why, sizeof(why));
	if ((m == VOLREC_OTHER_VOLUME || m == VOLREC_FIELDS_DIFFER) && !a->force) {
		close(fd);
		return kt_error(CLOAKFS_EXIT_REFUSED, "%s: %s: %s (--force restores "
				"it anyway)", file, m == VOLREC_OTHER_VOLUME
				? "a backup of another volume"
				: "a backup with edited parameters", why);
	}
	if (m == VOLREC_SLOTS_DIFFER || m == VOLREC_SAME)
		*rec_fd = fd;
	else
		close(fd);
	return 0;
}

static int run_restore(const struct kt_args *a)
{
	const char *file = a->args[0], *dir = a->args[1];
	struct volume_config backup;
	struct volume_record rec;
	char path[PATH_MAX], err[512];
	struct stat st;
	int rec_fd = -1, rc = kt_config_path(a, dir, path);

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
	rc = check_backup(a, file, dir, &backup, &rec, &rec_fd);
	if (rc)
		return rc;
	err[0] = '\0';
	/* a backup the record vouches for replaces whatever config is there
	 * (another volume's config put here by mistake included) */
	rc = volconf_restore(file, path, a->force || rec_fd >= 0, err,
			     sizeof(err));
	/* the record follows the restored keyslots (its parameters and their
	 * MAC are the same volume's) */
	if (!rc && rec_fd >= 0 && volrec_set_slots(&rec, &backup) &&
	    volrec_write(rec_fd, &rec) != 0)
		fprintf(stderr, "%s: warning: %s/%s: cannot update\n", KT_PROG,
			dir, VOLREC_FILE_NAME);
	if (rec_fd >= 0)
		close(rec_fd);
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
		"CIPHERDIR's cloakfs.conf. Refused when FILE belongs to another volume\n"
		"or has edited parameters, as the volume's record (cloakfs.volume)\n"
		"shows, or when the current config names another uuid; a missing or\n"
		"unreadable current config is simply replaced. Passphrases added or changed since the backup was\n"
		"made no longer open the volume afterwards; removed ones open it again.\n"
		"\n"
		"  --force              restore even another volume's backup, or over\n"
		"                       another volume's config\n",
	.opts = KT_OPT_FORCE | KT_OPT_CONFIG,
	.min_args = 2,
	.max_args = 2,
	.run = run_restore,
};
