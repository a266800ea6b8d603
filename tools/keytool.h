/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-keytool internals: the parsed command line, the subcommand
 * table, and the steps several subcommands share (read a volume's config,
 * open a keyslot, choose a KDF cost, rewrite the config). Each step
 * prints its own one-line error, naming the volume or file, and returns
 * a CLOAKFS_EXIT_* code (cli/exitcodes.h), 0 on success.
 */
#ifndef CLOAKFS_TOOLS_KEYTOOL_H
#define CLOAKFS_TOOLS_KEYTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/exitcodes.h"
#include "cli/passphrase.h"
#include "volume/keys/volconf.h"
#include "volume/keys/keyslot.h"
#include "volume/volume.h"

#define KT_PROG "cloakfs-keytool"

/* options a subcommand accepts (struct kt_command.opts) */
enum {
	KT_OPT_PASS = 1u << 0,       /* --passfile, --extpass */
	KT_OPT_NEWPASS = 1u << 1,    /* --new-passfile, --new-extpass */
	KT_OPT_FORMAT = 1u << 2,     /* --cipher, --names, --sector-size,
				      * --name-max */
	KT_OPT_KDF = 1u << 3,        /* --kdf-time, --kdf-memory */
	KT_OPT_SLOT = 1u << 4,       /* --slot */
	KT_OPT_FORCE = 1u << 5,      /* --force */
	KT_OPT_TTL = 1u << 6,        /* --ttl */
	KT_OPT_ALL = 1u << 7,        /* --all */
	KT_OPT_CONFIG = 1u << 8,     /* --config */
	KT_OPT_RECOVERY = 1u << 9,   /* --recovery-key (init) */
	KT_OPT_PRINTKEY = 1u << 10,  /* --print-key */
};

struct kt_args {
	const struct kt_command *cmd;
	struct passphrase_source pass;    /* an existing passphrase */
	struct passphrase_source newpass; /* a new one */
	const char *cipher;     /* NULL: chosen by kt_default_cipher() */
	const char *names;      /* NULL: the cipher's default names mode */
	uint32_t sector_size;   /* 0: default */
	uint32_t name_max;      /* 0: default */
	double kdf_time;        /* seconds; 0: not given */
	uint64_t kdf_memory;    /* bytes; 0: not given */
	int slot;               /* -1: not given */
	bool force, all;
	bool recovery_key;      /* init --recovery-key */
	bool integrity;         /* init --integrity: kt_integrity_cipher() */
	bool print_key;         /* --print-key: also when stdout is no tty */
	const char *ttl;        /* --ttl as given; NULL: not given */
	const char *config;     /* --config FILE; NULL: CIPHERDIR/cloakfs.conf */
	char **args;            /* positional arguments */
	int nargs;
};

struct kt_command {
	const char *name;
	const char *synopsis; /* after "cloakfs-keytool NAME " */
	const char *summary;  /* one line for the overview */
	const char *help;     /* description and options, for NAME --help */
	unsigned int opts;    /* KT_OPT_* */
	int min_args, max_args;
	int (*run)(const struct kt_args *a);
};

/* the subcommands, one group per file */
extern const struct kt_command kt_cmd_init, kt_cmd_info;            /* keytool-volume.c */
extern const struct kt_command kt_cmd_add, kt_cmd_change, kt_cmd_remove,
	kt_cmd_remove_pass, kt_cmd_test; /* keytool-slots.c */
extern const struct kt_command kt_cmd_backup, kt_cmd_restore;       /* keytool-header.c */
extern const struct kt_command kt_cmd_recovery_key, kt_cmd_recover; /* keytool-recovery.c */
extern const struct kt_command kt_cmd_unlock, kt_cmd_lock, kt_cmd_status; /* keytool-daemon.c */
extern const struct kt_command kt_cmd_upgrade;                      /* keytool-upgrade.c */

/*
 * The cipher of a new volume without --cipher (keytool-default.c says
 * the rule); why: one line saying how it was chosen, for the output.
 */
enum volume_cipher kt_default_cipher(char *why, size_t len);

/*
 * The authenticated cipher of init --integrity: aes256-gcm where a
 * hardware, constant-time gcm(aes) driver runs, else xchacha20-poly1305.
 */
enum volume_cipher kt_integrity_cipher(char *why, size_t len);

/* print "cloakfs-keytool: <message>" on stderr and return code */
int kt_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* hex of n bytes into out (2n + 1) */
void kt_hex(const uint8_t *p, size_t n, char *out);

/* --config FILE, else "<dir>/cloakfs.conf", into path (PATH_MAX bytes) */
int kt_config_path(const struct kt_args *a, const char *dir, char *path);

/* kt_open's how */
enum {
	KT_LOCK = 1u << 0,      /* hold the volume's lock (kt_lock_volume) */
	KT_UNLOCKING = 1u << 1, /* a passphrase follows: refuse another
				   volume's config (the record says) first */
	KT_NO_CONFIG = 1u << 2, /* no config (a recovery key, a restore) */
};

/*
 * Open the volume in dir (volume/volume.h) as how says. Errors: no such
 * directory or no config (BAD_VOLUME), a config the library refuses
 * (BAD_VOLUME, with its message: file, line, field), another volume's
 * config (BAD_VOLUME), I/O (ERROR). volume_close(v) afterwards.
 */
int kt_open(const struct kt_args *a, const char *dir, unsigned int how,
	    struct volume *v);

/* kt_open without lock, for the config alone: cfg and its path (PATH_MAX) */
int kt_read_config(const struct kt_args *a, const char *dir, char *path,
		   struct volume_config *cfg);

/*
 * Ask for an existing passphrase (from a->pass) and unlock v with it:
 * keyslot only_slot, or any when it is -1. On success *vmk
 * (VOLCONF_VMK_SIZE bytes of secmem the caller owns) holds the master
 * key, whose key identifier has been checked against v->cfg, and v->slot
 * the slot that opened. Wrong passphrase: WRONG_PASS, after the KDF cost.
 */
int kt_unlock(const struct kt_args *a, struct volume *v, int only_slot,
	      uint8_t **vmk);

/* ask for a new passphrase (from src) for the volume in dir */
int kt_new_passphrase(const struct passphrase_source *src, const char *dir,
		      struct passphrase *out);

/*
 * The Argon2id cost of a new keyslot: calibrated when --kdf-time or
 * --kdf-memory was given (the other one defaulting), else *reuse when not
 * NULL, else calibrated with the defaults. Says what it does on a tty.
 */
int kt_choose_cost(const struct kt_args *a, const struct keyslot_cost *reuse,
		   struct keyslot_cost *out);

/*
 * Hold the volume's lock (volume/dirlock.h) exclusively from before the
 * config is read until the process exits, so two keytools that rewrite
 * the same config never lose one another's change, and no mount starts
 * meanwhile. Waits for the other holder, saying so.
 */
int kt_lock_volume(const char *dir);

/*
 * Validate cfg and replace the config at path atomically, then bring the
 * volume record (volume/keys/volrec.h) of dir up to date with it (vmk: the
 * master key; a record that cannot be written is a warning).
 */
int kt_write_config(const char *dir, const char *path,
		    const struct volume_config *cfg, const uint8_t *vmk);

/* write dir's record for cfg unlocked with vmk; a warning on failure */
void kt_refresh_record(const char *dir, const struct volume_config *cfg,
		       const uint8_t *vmk);

/*
 * Print a recovery key with what it is for on stdout; 0, or a usage
 * error when stdout is not a terminal and --print-key was not given
 * (call kt_recovery_key_allowed first, before anything is made).
 */
int kt_recovery_key_allowed(const struct kt_args *a);
void kt_print_recovery_key(const char *dir, const char *text);

/* "3 passes, 256 MiB" into out */
void kt_format_cost(uint64_t opslimit, uint64_t memlimit, char *out, size_t len);

#endif
