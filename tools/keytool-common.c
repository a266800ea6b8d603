/* SPDX-License-Identifier: MIT */
/* Steps the keytool subcommands share; see keytool.h */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "tools/keytool.h"
#include "volume/dirlock.h"
#include "volume/fdio.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"
#include "volume/keys/volrec.h"
#include "volume/volume.h"

int kt_error(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", KT_PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

void kt_hex(const uint8_t *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

int kt_config_path(const struct kt_args *a, const char *dir, char *path)
{
	if (a->config) {
		if (snprintf(path, PATH_MAX, "%s", a->config) >= PATH_MAX)
			return kt_error(CLOAKFS_EXIT_USAGE, "--config %s: path "
					"too long", a->config);
		return 0;
	}
	if (volume_config_path(dir, path, PATH_MAX))
		return kt_error(CLOAKFS_EXIT_USAGE, "%s: path too long", dir);
	return 0;
}

int kt_read_config(const struct kt_args *a, const char *dir, char *path,
		   struct volume_config *cfg)
{
	char err[512];
	struct stat st;
	int rc = kt_config_path(a, dir, path);

	if (rc)
		return rc;
	if (stat(dir, &st) < 0)
		return kt_error(errno == ENOENT ? CLOAKFS_EXIT_BAD_VOLUME
						: CLOAKFS_EXIT_ERROR,
				"%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s: not a directory", dir);
	err[0] = '\0';
	rc = volconf_read(path, cfg, err, sizeof(err));
	switch (rc) {
	case 0:
		return 0;
	case -ENOENT:
		if (a->config)
			return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "--config %s: no "
					"such file", path);
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s: not a cloakfs volume "
				"(no %s)", dir, VOLCONF_FILE_NAME);
	case -EINVAL:
	case -ENOTSUP:
	case -EBADMSG:
	case -ELOOP:
	case -VOLUME_ENOTREG: /* a symlink or FIFO where the config should be */
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s",
				err[0] ? err : strerror(-rc));
	default:
		return kt_error(CLOAKFS_EXIT_ERROR, "%s", err[0] ? err : strerror(-rc));
	}
}

/* the key identifier of vmk must be the one in the config */
static int check_key_id(const char *path, const struct volume_config *cfg,
			const uint8_t *vmk)
{
	struct volume_keys *keys;
	int rc = keyring_keys_from_vmk(vmk, cfg->cipher, cfg->key_id, &keys);

	if (rc == -EBADMSG)
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s: key_id does not "
				"match the unlocked master key", path);
	if (rc)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: cannot derive the key "
				"identifier: %s", path, strerror(-rc));
	keys_free(keys);
	return 0;
}

int kt_open_volume(const struct kt_args *a, const char *dir, const char *path,
		   const struct volume_config *cfg, int only_slot,
		   uint8_t **vmk_out, int *slot)
{
	char prompt[PATH_MAX + 32], err[1024];
	struct passphrase pass;
	uint8_t *vmk;
	int rc;

	/* another volume's config is refused before a passphrase is asked */
	rc = volume_check_record(dir, cfg, err, sizeof(err));
	if (rc)
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s", err);
	if (err[0])
		fprintf(stderr, "%s: warning: %s\n", KT_PROG, err);
	snprintf(prompt, sizeof(prompt), "Passphrase for %s: ", dir);
	rc = passphrase_get(&a->pass, PASSPHRASE_EXISTING, prompt, &pass, err,
			    sizeof(err));
	if (rc)
		return kt_error(rc == -ENOMEM ? CLOAKFS_EXIT_ERROR
					      : CLOAKFS_EXIT_NO_PASS, "%s", err);
	vmk = secmem_alloc(VOLCONF_VMK_SIZE);
	if (!vmk) {
		passphrase_free(&pass);
		return kt_error(CLOAKFS_EXIT_ERROR, "out of memory");
	}
	err[0] = '\0';
	if (only_slot >= 0) {
		rc = keyslot_open_slot(cfg, (unsigned int)only_slot, pass.text,
				       pass.len, vmk);
		if (rc == 0) {
			rc = only_slot;
		} else if (rc == -EACCES) {
			snprintf(err, sizeof(err), "wrong passphrase for keyslot "
				 "%d (no keyslot opened)", only_slot);
		} else if (rc == -E2BIG) {
			char why[192];
			struct keyslot_cost cost = {
				cfg->slots[only_slot].opslimit,
				cfg->slots[only_slot].memlimit };

			keyslot_cost_check(&cost, why, sizeof(why));
			snprintf(err, sizeof(err), "keyslot %d not tried: %s",
				 only_slot, why);
		} else {
			snprintf(err, sizeof(err), "keyslot %d: %s", only_slot,
				 strerror(-rc));
		}
	} else {
		rc = keyslot_open(cfg, pass.text, pass.len, vmk, err, sizeof(err));
	}
	passphrase_free(&pass);
	/* an edited config fails like a wrong passphrase: the record tells */
	if (rc == -EACCES &&
	    volume_explain_unopened(dir, path, cfg, err, sizeof(err)) == 1) {
		secmem_free(vmk);
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s", err);
	}
	if (rc < 0) {
		secmem_free(vmk);
		/* wrong passphrase names the volume, other failures the file;
		 * a slot above the cost ceiling is a damaged (or hostile) config */
		return kt_error(rc == -EACCES ? CLOAKFS_EXIT_AUTH
				: rc == -E2BIG ? CLOAKFS_EXIT_BAD_VOLUME
					       : CLOAKFS_EXIT_ERROR,
				"%s: %s", rc == -EACCES ? dir : path,
				err[0] ? err : strerror(-rc));
	}
	if (err[0]) /* slots set aside above the cost ceiling */
		fprintf(stderr, "%s: warning: %s: %s\n", KT_PROG, path, err);
	*slot = rc;
	rc = check_key_id(path, cfg, vmk);
	if (rc) {
		secmem_free(vmk);
		return rc;
	}
	*vmk_out = vmk;
	return 0;
}

int kt_new_passphrase(const struct passphrase_source *src, const char *dir,
		      struct passphrase *out)
{
	char prompt[PATH_MAX + 32], err[512];
	int rc;

	snprintf(prompt, sizeof(prompt), "New passphrase for %s: ", dir);
	rc = passphrase_get(src, PASSPHRASE_NEW, prompt, out, err, sizeof(err));
	if (rc)
		return kt_error(rc == -ENOMEM ? CLOAKFS_EXIT_ERROR
					      : CLOAKFS_EXIT_NO_PASS, "%s", err);
	return 0;
}

void kt_format_cost(uint64_t opslimit, uint64_t memlimit, char *out, size_t len)
{
	if (memlimit % (1u << 20) == 0)
		snprintf(out, len, "Argon2id, %llu pass%s, %llu MiB",
			 (unsigned long long)opslimit, opslimit == 1 ? "" : "es",
			 (unsigned long long)(memlimit >> 20));
	else
		snprintf(out, len, "Argon2id, %llu pass%s, %llu KiB",
			 (unsigned long long)opslimit, opslimit == 1 ? "" : "es",
			 (unsigned long long)(memlimit >> 10));
}

int kt_choose_cost(const struct kt_args *a, const struct keyslot_cost *reuse,
		   struct keyslot_cost *out)
{
	double seconds = a->kdf_time > 0 ? a->kdf_time : KEYSLOT_DEFAULT_SECONDS;
	uint64_t memory = a->kdf_memory ? a->kdf_memory : KEYSLOT_DEFAULT_MEMLIMIT;
	bool tty = isatty(STDERR_FILENO);
	char what[64];
	int rc;

	if (reuse && a->kdf_time == 0 && a->kdf_memory == 0) {
		*out = *reuse;
		return 0;
	}
	if (tty) {
		fprintf(stderr, "Calibrating Argon2id for %g s at %llu MiB... ",
			seconds, (unsigned long long)(memory >> 20));
		fflush(stderr);
	}
	rc = keyslot_calibrate(seconds, memory, out);
	if (rc) {
		if (tty)
			fputc('\n', stderr);
		return kt_error(rc == -EINVAL ? CLOAKFS_EXIT_USAGE : CLOAKFS_EXIT_ERROR,
				"Argon2id calibration (%g s, %llu MiB) failed: %s",
				seconds, (unsigned long long)(memory >> 20),
				strerror(-rc));
	}
	if (tty) {
		kt_format_cost(out->opslimit, out->memlimit, what, sizeof(what));
		fprintf(stderr, "%s\n", what);
	}
	return 0;
}

static void say_waiting(void *dir)
{
	fprintf(stderr, "%s: %s: waiting for another %s, cloakfs-fsck --repair "
		"or a starting cloakfs mount working on this volume\n", KT_PROG,
		(const char *)dir, KT_PROG);
}

int kt_lock_volume(const char *dir)
{
	/* kept open (close-on-exec) until exit: the lock lasts as long */
	int fd = dirlock_take(dir, DIRLOCK_EXCLUSIVE, say_waiting, (void *)dir);

	if (fd == -ENOENT || fd == -ENOTDIR)
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s: %s", dir,
				strerror(-fd));
	if (fd < 0)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: cannot lock: %s", dir,
				strerror(-fd));
	return 0;
}

void kt_refresh_record(const char *dir, const struct volume_config *cfg,
		       const uint8_t *vmk)
{
	struct volume_keys *k;
	int rc = vmk ? keys_new(vmk, cfg->cipher, &k) : -EINVAL;

	if (!rc) {
		rc = volume_record_refresh(dir, cfg, k);
		keys_free(k);
	}
	if (rc < 0)
		fprintf(stderr, "%s: warning: %s/%s: cannot write: %s\n", KT_PROG,
			dir, VOLREC_FILE_NAME, strerror(-rc));
}

int kt_recovery_key_allowed(const struct kt_args *a)
{
	if (a->print_key || isatty(STDOUT_FILENO))
		return 0;
	return kt_error(CLOAKFS_EXIT_USAGE, "%s: standard output is not a "
			"terminal: the recovery key would go to a file or pipe "
			"(give --print-key to allow it)", a->cmd->name);
}

void kt_print_recovery_key(const char *dir, const char *text)
{
	printf("\nRecovery key for %s:\n\n    %.23s\n    %.23s\n\n", dir, text,
	       text + 24);
	printf("Write it down and keep it apart from the volume. It opens the\n"
	       "volume without a passphrase (cloakfs-keytool recover, cloakfs\n"
	       "--recovery-key), also when the config is lost. A typo is caught\n"
	       "by its check characters.\n");
}

int kt_write_config(const char *dir, const char *path,
		    const struct volume_config *cfg, const uint8_t *vmk)
{
	char err[512];
	int rc;

	err[0] = '\0';
	rc = volconf_validate(cfg, err, sizeof(err));
	if (rc)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: refusing to write an "
				"invalid config: %s", path, err);
	rc = volconf_write_atomic(path, cfg, err, sizeof(err));
	if (rc)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s", err[0] ? err : strerror(-rc));
	kt_refresh_record(dir, cfg, vmk);
	return 0;
}
