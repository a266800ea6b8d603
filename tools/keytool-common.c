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

static void say_waiting(void *dir)
{
	fprintf(stderr, "%s: %s: waiting for another %s, cloakfs-fsck --repair "
		"or a starting cloakfs mount working on this volume\n", KT_PROG,
		(const char *)dir, KT_PROG);
}

static void say_warning(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "%s: warning: %s\n", KT_PROG, msg);
}

int kt_open(const struct kt_args *a, const char *dir, unsigned int how,
	    struct volume *v)
{
	struct volume_open_params p = {
		.config = a->config,
		.flags = (how & KT_UNLOCKING ? VOLUME_OPEN_CHECK_RECORD : 0) |
			 (how & KT_NO_CONFIG ? VOLUME_OPEN_NO_CONFIG : 0),
		.lock = how & KT_LOCK ? VOLUME_LOCK_EXCLUSIVE : VOLUME_LOCK_NONE,
		.waiting = say_waiting,
		.waiting_arg = (void *)dir,
		.warn = say_warning,
	};
	char err[1024];
	int rc = volume_open(v, dir, &p, err, sizeof(err));

	switch (rc) {
	case 0:
		return 0;
	case -ENAMETOOLONG:
		if (a->config)
			return kt_error(CLOAKFS_EXIT_USAGE, "--config %s: path "
					"too long", a->config);
		return kt_error(CLOAKFS_EXIT_USAGE, "%s", err);
	case -ENOENT:
	case -ENOTDIR:
	case -EINVAL:
	case -ENOTSUP:
	case -EBADMSG:
	case -ELOOP:
	case -EXDEV: /* another volume's config (the record says) */
	case -VOLUME_ENOTREG: /* a symlink or FIFO where the config should be */
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s",
				err[0] ? err : strerror(-rc));
	default:
		return kt_error(CLOAKFS_EXIT_ERROR, "%s", err[0] ? err : strerror(-rc));
	}
}

int kt_read_config(const struct kt_args *a, const char *dir, char *path,
		   struct volume_config *cfg)
{
	struct volume v;
	int rc = kt_open(a, dir, 0, &v);

	if (rc)
		return rc;
	*cfg = v.cfg;
	snprintf(path, PATH_MAX, "%s", v.confpath);
	volume_close(&v);
	return 0;
}

int kt_unlock(const struct kt_args *a, struct volume *v, int only_slot,
	      uint8_t **vmk_out)
{
	struct volume_key key = { .source = VOLUME_KEY_PASSPHRASE,
				  .slot = only_slot < 0 ? VOLUME_SLOT_ANY
							: only_slot };
	char prompt[PATH_MAX + 32], err[1024];
	struct passphrase pass;
	int rc;

	snprintf(prompt, sizeof(prompt), "Passphrase for %s: ", v->dir);
	rc = passphrase_get(&a->pass, PASSPHRASE_EXISTING, prompt, &pass, err,
			    sizeof(err));
	if (rc)
		return kt_error(rc == -ENOMEM ? CLOAKFS_EXIT_ERROR
					      : CLOAKFS_EXIT_NO_PASS, "%s", err);
	key.vmk_out = secmem_alloc(VOLCONF_VMK_SIZE);
	if (!key.vmk_out) {
		passphrase_free(&pass);
		return kt_error(CLOAKFS_EXIT_ERROR, "out of memory");
	}
	key.text = pass.text;
	key.len = pass.len;
	rc = volume_unlock(v, &key, err, sizeof(err));
	passphrase_free(&pass);
	if (rc < 0)
		secmem_free(key.vmk_out);
	/* an edited config (the record tells), a master key of another
	 * key_id, a slot above the cost ceiling: a damaged (or hostile)
	 * config; a wrong passphrase names the volume, other failures the
	 * file */
	if (rc == -EUCLEAN || rc == -EBADMSG)
		return kt_error(CLOAKFS_EXIT_BAD_VOLUME, "%s", err);
	if (rc < 0)
		return kt_error(rc == -EACCES ? CLOAKFS_EXIT_AUTH
				: rc == -E2BIG ? CLOAKFS_EXIT_BAD_VOLUME
					       : CLOAKFS_EXIT_ERROR,
				"%s: %s", rc == -EACCES ? v->dir : v->confpath,
				err[0] ? err : strerror(-rc));
	if (err[0]) /* slots set aside above the cost ceiling */
		fprintf(stderr, "%s: warning: %s: %s\n", KT_PROG, v->confpath,
			err);
	*vmk_out = key.vmk_out;
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

int kt_lock_volume(const char *dir)
{
	/* kept (close-on-exec) until exit: the lock lasts as long */
	static struct volume v = VOLUME_CLOSED;
	static const struct kt_args none;

	return kt_open(&none, dir, KT_LOCK | KT_NO_CONFIG, &v);
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
