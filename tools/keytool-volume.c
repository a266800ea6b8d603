/* SPDX-License-Identifier: MIT */
/* cloakfs-keytool init and info: make a volume, describe one. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "crypto/secmem.h"
#include "tools/keytool.h"
#include "volume/content/content.h"
#include "volume/names/namemode.h"
#include "volume/names/vname.h"
#include "volume/keys/volrec.h"
#include "volume/volume.h"

/* a volume needs both its contents and its names algorithm */
static int check_cipher_usable(enum volume_cipher c, enum volume_names_mode m)
{
	const struct volume_cipher_info *ci = volume_cipher_info(c);
	const char *contents = volume_cipher_contents_alg(ci);
	const char *names = namemode_alg(c, m);

	/* xts_alg too: it encrypts extended attribute values */
	if (!crypto_best_driver(contents) || !crypto_best_driver(ci->xts_alg) ||
	    !crypto_best_driver(names))
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: no usable driver for %s, "
				"%s or %s on this machine under the crypto policy "
				"(see cloakfs-enc --list)", ci->name, contents,
				ci->xts_alg, names);
	return 0;
}

/* does the crypto registry hold any driver of alg, usable here or not? */
static int registry_has(const char *alg)
{
	struct crypto_driver_info info;
	unsigned int n = crypto_driver_count();

	for (unsigned int i = 0; i < n; i++)
		if (crypto_driver_info(i, &info) == 0 &&
		    strcmp(info.alg_name, alg) == 0)
			return 1;
	return 0;
}

/*
 * --names: a mode the cipher takes (hctr2 needs a 128-bit block cipher)
 * and whose algorithm the crypto layer builds at all, whatever the
 * policy: hctr2 is instantiated only over ciphers with vectors of its
 * own, today AES, SM4 and Camellia (cloakfs-enc --list). 0 or a usage
 * exit code.
 */
static int choose_names(const char *arg, enum volume_cipher c,
			struct volume_create_params *p)
{
	const char *cname = volume_cipher_info(c)->name, *alg;

	if (!arg)
		return 0;
	if (namemode_by_name(arg, &p->names))
		return kt_error(CLOAKFS_EXIT_USAGE, "init: unknown names mode "
				"'%s' (one of %s)", arg, namemode_list());
	alg = namemode_alg(c, p->names);
	if (!alg)
		return kt_error(CLOAKFS_EXIT_USAGE, "init: --names %s does not "
				"fit --cipher %s: hctr2 names are defined over "
				"the 128-bit block ciphers AES, SM4 and Camellia, "
				"not Speck; use --names cts or adiantum", arg, cname);
	if (!registry_has(alg))
		return kt_error(CLOAKFS_EXIT_USAGE, "init: --names %s does not "
				"fit --cipher %s: this crypto layer builds no %s "
				"(see cloakfs-enc --list); use --names cts or "
				"adiantum", arg, cname, alg);
	p->names_set = 1;
	return 0;
}

/*
 * Make a recovery key? --recovery-key says yes; on a terminal (in and
 * out) init asks; otherwise no: a key printed into a log is a key lost.
 */
static bool want_recovery_key(const struct kt_args *a)
{
	char line[16];

	if (a->recovery_key)
		return true;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return false;
	fprintf(stderr, "Make a recovery key to write down? It opens the volume "
		"when the config\nis lost or every passphrase forgotten "
		"(cloakfs-keytool recovery-key\nmakes one later too). [y/N] ");
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

/* 0: dir is absent (*absent set) or an empty directory */
static int check_init_target(const char *dir, bool *absent)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	bool empty = true, has_conf = false;

	*absent = false;
	if (lstat(dir, &st) < 0) {
		if (errno == ENOENT) {
			*absent = true;
			return 0;
		}
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: %s", dir, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return kt_error(CLOAKFS_EXIT_REFUSED, "%s: exists and is not a "
				"directory", dir);
	d = opendir(dir);
	if (!d)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		empty = false;
		if (!strcmp(e->d_name, VOLCONF_FILE_NAME))
			has_conf = true;
	}
	closedir(d);
	if (has_conf)
		return kt_error(CLOAKFS_EXIT_REFUSED, "%s: already a cloakfs "
				"volume", dir);
	if (!empty)
		return kt_error(CLOAKFS_EXIT_REFUSED, "%s: directory not empty "
				"(init needs an empty or new directory)", dir);
	return 0;
}

static int run_init(const struct kt_args *a)
{
	const char *dir = a->args[0];
	const struct passphrase_source *src = &a->pass;
	struct volume_create_params p = { 0 };
	struct volume_config cfg;
	struct passphrase pass = { 0 };
	char path[PATH_MAX], err[512], id[2 * VOLCONF_KEY_ID_SIZE + 1], cost[64];
	char why[128] = "";
	bool absent, created = false;
	char *reckey = NULL;
	int rc;

	if ((a->pass.file || a->pass.extpass) &&
	    (a->newpass.file || a->newpass.extpass))
		return kt_error(CLOAKFS_EXIT_USAGE, "init: the passphrase comes "
				"from --passfile/--extpass or --new-passfile/"
				"--new-extpass, not both");
	if (a->newpass.file || a->newpass.extpass)
		src = &a->newpass;
	if (a->integrity && a->cipher)
		return kt_error(CLOAKFS_EXIT_USAGE, "init: --integrity picks the "
				"cipher: give it or --cipher, not both");
	if (a->integrity)
		p.cipher = kt_integrity_cipher(why, sizeof(why));
	else if (!a->cipher)
		p.cipher = kt_default_cipher(why, sizeof(why));
	else if (cipher_by_name(a->cipher, &p.cipher))
		return kt_error(CLOAKFS_EXIT_USAGE, "init: unknown cipher '%s' "
				"(one of %s)", a->cipher, volume_cipher_list());
	rc = choose_names(a->names, p.cipher, &p);
	if (rc)
		return rc;
	/* an authenticated volume hides which names share a prefix too */
	if (volume_cipher_info(p.cipher)->aead_alg && p.names_set &&
	    p.names == VOLUME_NAMES_CTS)
		return kt_error(CLOAKFS_EXIT_USAGE, "init: --names cts does not "
				"fit --cipher %s: authenticated volumes take "
				"wide-block names (hctr2 or adiantum)",
				volume_cipher_info(p.cipher)->name);
	if (a->sector_size && (a->sector_size < CONTENT_MIN_SECTOR ||
			       a->sector_size > CONTENT_MAX_SECTOR ||
			       (a->sector_size & (a->sector_size - 1))))
		return kt_error(CLOAKFS_EXIT_USAGE, "init: --sector-size must be a "
				"power of two from %u to %u (got %u)",
				CONTENT_MIN_SECTOR, CONTENT_MAX_SECTOR,
				a->sector_size);
	if (a->name_max && (a->name_max < VNAME_MIN_NAME_MAX ||
			    a->name_max > VNAME_DEFAULT_NAME_MAX))
		return kt_error(CLOAKFS_EXIT_USAGE, "init: --name-max must be from "
				"%d to %d (got %u)", VNAME_MIN_NAME_MAX,
				VNAME_DEFAULT_NAME_MAX, a->name_max);
	p.sector_size = a->sector_size;
	p.name_max = a->name_max;
	p.config_path = a->config;
	rc = a->recovery_key ? kt_recovery_key_allowed(a) : 0;
	if (!rc)
		rc = check_cipher_usable(p.cipher, p.names_set ? p.names
				: volume_cipher_info(p.cipher)->names_default);
	if (!rc)
		rc = kt_config_path(a, dir, path);
	if (!rc)
		rc = check_init_target(dir, &absent);
	if (!rc)
		rc = kt_new_passphrase(src, dir, &pass);
	if (!rc && want_recovery_key(a)) {
		reckey = secmem_alloc(RECKEY_TEXT_LEN + 1);
		p.recovery_key = reckey;
		if (!reckey)
			rc = kt_error(CLOAKFS_EXIT_ERROR, "out of memory");
	}
	if (!rc)
		rc = kt_choose_cost(a, NULL, &p.cost);
	if (rc)
		goto out;
	if (absent) {
		if (mkdir(dir, 0700) < 0) {
			rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: cannot create: %s", dir,
				      strerror(errno));
			goto out;
		}
		created = true;
	}
	err[0] = '\0';
	rc = volume_create(dir, &p, pass.text, pass.len, NULL, err, sizeof(err));
	if (rc) {
		rc = kt_error(rc == -EEXIST ? CLOAKFS_EXIT_REFUSED : CLOAKFS_EXIT_ERROR,
			      "%s", err[0] ? err : strerror(-rc));
		goto out;
	}
	err[0] = '\0';
	rc = volconf_read(path, &cfg, err, sizeof(err));
	if (rc) {
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: written but unreadable: %s",
			      path, err);
		created = false; /* leave the evidence */
		goto out;
	}
	kt_hex(cfg.key_id, sizeof(cfg.key_id), id);
	kt_format_cost(cfg.slots[0].opslimit, cfg.slots[0].memlimit, cost,
		       sizeof(cost));
	printf("created cloakfs volume %s\n", dir);
	printf("cipher:      %s%s%s%s\n", volume_cipher_info(cfg.cipher)->name,
	       !why[0] ? "" : a->integrity ? " (" : " (default: ", why,
	       why[0] ? ")" : "");
	printf("names:       %s\n", namemode_name(cfg.names));
	printf("sector size: %u\n", cfg.sector_size);
	printf("keyslot 0:   %s\n", cost);
	printf("key id:      %s\n", id);
	if (reckey)
		kt_print_recovery_key(dir, reckey);
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "Keep a copy of the config somewhere safe: %s "
			"backup-header %s FILE\n", KT_PROG, dir);
out:
	passphrase_free(&pass);
	secmem_free(reckey);
	if (rc && created)
		(void)rmdir(dir);
	return rc;
}

const struct kt_command kt_cmd_init = {
	.name = "init",
	.synopsis = "[--cipher NAME | --integrity] [--names MODE] [--sector-size N] [--name-max N] "
		    "[--kdf-time S] [--kdf-memory MiB] [--recovery-key] CIPHERDIR",
	.summary = "create a volume in an empty or new directory",
	.help =
		"Create a cloakfs volume in CIPHERDIR, which must be empty or not\n"
		"exist yet, with one keyslot for a new passphrase. Prints the key\n"
		"identifier.\n"
		"\n"
		"  --cipher NAME        speck128-xts, speck64-xts, aes256-xts, sm4-xts,\n"
		"                       camellia256-xts or adiantum; authenticated\n"
		"                       (every sector sealed with a tag, for storage\n"
		"                       others can write): aes256-gcm or\n"
		"                       xchacha20-poly1305\n"
		"                       (default: aes256-xts with hardware AES, else\n"
		"                       adiantum or speck128-xts, whichever is faster\n"
		"                       here: init times both and prints the figures)\n"
		"  --integrity          an authenticated volume: aes256-gcm with\n"
		"                       hardware AES and carry-less multiply, else\n"
		"                       xchacha20-poly1305\n"
		"  --names MODE         how names, symlink targets and xattr names are\n"
		"                       encrypted: cts (CBC-CS3, every cipher), hctr2\n"
		"                       (one wide block; aes256-xts, sm4-xts,\n"
		"                       camellia256-xts) or adiantum (one\n"
		"                       wide block; every cipher). Wide-block names\n"
		"                       share no ciphertext prefix. Default: adiantum\n"
		"                       for --cipher adiantum and xchacha20-poly1305,\n"
		"                       hctr2 for aes256-gcm, else cts (authenticated\n"
		"                       volumes take hctr2 or adiantum only)\n"
		"  --sector-size N      a power of two from 512 to 65536 (default 4096)\n"
		"  --name-max N         longest encrypted name stored as itself, 64..255\n"
		"                       (default 255; lower for cloud storage)\n"
		"  --kdf-time S         Argon2id time per unlock, seconds (default 1)\n"
		"  --kdf-memory MiB     Argon2id memory (default 256, at most 1024)\n"
		"  --passfile FILE, --new-passfile FILE\n"
		"                       the passphrase: first line of FILE\n"
		"  --extpass CMD, --new-extpass CMD\n"
		"                       the passphrase: first line CMD prints\n"
		"  --recovery-key       also make a recovery key and print it (on a\n"
		"                       terminal init asks)\n"
		"  --print-key          print the recovery key even when standard\n"
		"                       output is not a terminal\n",
	.opts = KT_OPT_PASS | KT_OPT_NEWPASS | KT_OPT_FORMAT | KT_OPT_KDF |
		KT_OPT_CONFIG | KT_OPT_RECOVERY | KT_OPT_PRINTKEY,
	.min_args = 1,
	.max_args = 1,
	.run = run_init,
};

/* whether the volume record holds a recovery key (docs/format.md 8);
 * says so without one: the record is not needed to mount */
static void print_recovery(const char *dir)
{
	struct volume_record r;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = fd < 0 ? -errno : volrec_read(fd, &r);

	if (fd >= 0)
		close(fd);
	if (!rc)
		printf("recovery:    %s\n", r.has_recovery
			? "a recovery key (in " VOLREC_FILE_NAME ")" : "none");
	else if (rc == -ENOENT)
		printf("recovery:    none (no " VOLREC_FILE_NAME ")\n");
	else
		printf("recovery:    unknown (%s/" VOLREC_FILE_NAME ": %s)\n", dir,
		       strerror(-rc));
}

static int run_info(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct volume_config cfg;
	char path[PATH_MAX], id[2 * VOLCONF_KEY_ID_SIZE + 1], cost[64];
	unsigned int n;
	int rc = kt_read_config(a, dir, path, &cfg);

	if (rc)
		return rc;
	kt_hex(cfg.key_id, sizeof(cfg.key_id), id);
	n = volconf_slot_count(&cfg);
	printf("volume:      %s\n", dir);
	printf("config:      %s\n", path);
	printf("format:      version %u\n", cfg.version);
	printf("uuid:        %s\n", cfg.uuid);
	printf("cipher:      %s\n", volume_cipher_info(cfg.cipher)->name);
	printf("names:       %s, name_max %u\n", namemode_name(cfg.names),
	       cfg.name_max);
	printf("sector size: %u\n", cfg.sector_size);
	printf("key id:      %s\n", id);
	if (cfg.features)
		printf("features:    0x%x\n", cfg.features);
	else
		printf("features:    none\n");
	printf("keyslots:    %u of %d\n", n, VOLCONF_MAX_KEYSLOTS);
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		if (!cfg.slots[i].used)
			continue; /* free: the numbers of the others stay */
		kt_format_cost(cfg.slots[i].opslimit, cfg.slots[i].memlimit, cost,
			       sizeof(cost));
		printf("  slot %u:    %s\n", i, cost);
	}
	print_recovery(dir);
	if (fflush(stdout) != 0)
		return kt_error(CLOAKFS_EXIT_ERROR, "writing output: %s",
				strerror(errno));
	return 0;
}

const struct kt_command kt_cmd_info = {
	.name = "info",
	.synopsis = "CIPHERDIR",
	.summary = "show a volume's parameters and keyslots (no passphrase)",
	.help =
		"Show the format version, uuid, cipher, name settings, sector size,\n"
		"key identifier, the keyslots (numbered from 0) with their KDF\n"
		"costs, and whether the volume has a recovery key. Needs no\n"
		"passphrase; the config is fully validated.\n",
	.opts = KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_info,
};
