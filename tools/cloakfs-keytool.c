/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-keytool: create volumes and manage their passphrases, config
 * backups and the key daemon's keys. This file parses the command line
 * and dispatches; the subcommands live in keytool-*.c (keytool.h).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/nodump.h"
#include "cli/decimal.h"
#include "crypto/crypto.h"
#include "crypto/secmem.h"
#include "tools/keytool.h"

static const struct kt_command *const commands[] = {
	&kt_cmd_init,   &kt_cmd_info,    &kt_cmd_add,     &kt_cmd_change,
	&kt_cmd_remove, &kt_cmd_remove_pass, &kt_cmd_test, &kt_cmd_backup,
	&kt_cmd_restore, &kt_cmd_recovery_key, &kt_cmd_recover,
	&kt_cmd_unlock, &kt_cmd_lock,    &kt_cmd_status, &kt_cmd_upgrade,
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

enum {
	O_PASSFILE = 256, O_EXTPASS, O_NEW_PASSFILE, O_NEW_EXTPASS, O_CIPHER,
	O_SECTOR_SIZE, O_NAME_MAX, O_KDF_TIME, O_KDF_MEMORY, O_SLOT, O_FORCE,
	O_TTL, O_ALL, O_CONFIG, O_RECOVERY_KEY, O_PRINT_KEY, O_NAMES,
	O_INTEGRITY,
};

static const struct option options[] = {
	{ "passfile", required_argument, NULL, O_PASSFILE },
	{ "extpass", required_argument, NULL, O_EXTPASS },
	{ "new-passfile", required_argument, NULL, O_NEW_PASSFILE },
	{ "new-extpass", required_argument, NULL, O_NEW_EXTPASS },
	{ "cipher", required_argument, NULL, O_CIPHER },
	{ "names", required_argument, NULL, O_NAMES },
	{ "integrity", no_argument, NULL, O_INTEGRITY },
	{ "sector-size", required_argument, NULL, O_SECTOR_SIZE },
	{ "name-max", required_argument, NULL, O_NAME_MAX },
	{ "kdf-time", required_argument, NULL, O_KDF_TIME },
	{ "kdf-memory", required_argument, NULL, O_KDF_MEMORY },
	{ "slot", required_argument, NULL, O_SLOT },
	{ "force", no_argument, NULL, O_FORCE },
	{ "ttl", required_argument, NULL, O_TTL },
	{ "all", no_argument, NULL, O_ALL },
	{ "config", required_argument, NULL, O_CONFIG },
	{ "recovery-key", no_argument, NULL, O_RECOVERY_KEY },
	{ "print-key", no_argument, NULL, O_PRINT_KEY },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* which KT_OPT_* group an option belongs to */
static unsigned int option_group(int val)
{
	switch (val) {
	case O_PASSFILE: case O_EXTPASS: return KT_OPT_PASS;
	case O_NEW_PASSFILE: case O_NEW_EXTPASS: return KT_OPT_NEWPASS;
	case O_CIPHER: case O_NAMES: case O_INTEGRITY: case O_SECTOR_SIZE:
	case O_NAME_MAX:
		return KT_OPT_FORMAT;
	case O_KDF_TIME: case O_KDF_MEMORY: return KT_OPT_KDF;
	case O_SLOT: return KT_OPT_SLOT;
	case O_FORCE: return KT_OPT_FORCE;
	case O_TTL: return KT_OPT_TTL;
	case O_ALL: return KT_OPT_ALL;
	case O_CONFIG: return KT_OPT_CONFIG;
	case O_RECOVERY_KEY: return KT_OPT_RECOVERY;
	case O_PRINT_KEY: return KT_OPT_PRINTKEY;
	default: return 0;
	}
}

static const char *option_name(int val)
{
	for (const struct option *o = options; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
}

static void overview(FILE *f)
{
	fprintf(f, "Usage: %s COMMAND [OPTIONS] ARGS   (%s COMMAND --help for more)\n"
		"\nCommands:\n", KT_PROG, KT_PROG);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-18s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\nOptions:\n"
		"  -h, --help         this help (COMMAND --help: that command's)\n"
		"  -V, --version      the version\n");
	fprintf(f, "\nPassphrases come from --passfile FILE, --extpass CMD, a prompt when\n"
		"stdin is a terminal, else one line of stdin each (existing first).\n"
		"Exit status: 0 ok, 1 error, 2 wrong passphrase, 3 usage, 4 not a volume\n"
		"or damaged config, 5 refused, 6 no passphrase, 7 key daemon, 8 not\n"
		"unlocked; see cloakfs-keytool(1).\n");
}

static void command_help(const struct kt_command *c)
{
	printf("Usage: %s %s%s%s\n\n%s", KT_PROG, c->name,
	       c->synopsis[0] ? " " : "", c->synopsis, c->help);
	/* after the command's option lines, or as their own paragraph */
	if ((c->opts & KT_OPT_CONFIG) && !strstr(c->help, "\n  -"))
		putchar('\n');
	if (c->opts & KT_OPT_CONFIG)
		printf("  --config FILE        the volume's config is FILE, not\n"
		       "                       CIPHERDIR/cloakfs.conf (keep it out of\n"
		       "                       a synced folder)\n");
	printf("\n  -h, --help           this help\n");
}

static const struct kt_command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static int bad_value(const char *cmd, int val, const char *arg, const char *want)
{
	return kt_error(CLOAKFS_EXIT_USAGE, "%s: --%s: %s, not '%s'", cmd,
			option_name(val), want, arg);
}

/* decimal digits only, at most max */
static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long long v;
	int err = decimal_parse(s, max, &v);

	if (!err)
		*out = (unsigned long)v;
	return err;
}

static int set_source(const char *cmd, struct passphrase_source *src,
		      int val, const char *arg)
{
	bool is_file = val == O_PASSFILE || val == O_NEW_PASSFILE;

	if (src->file || src->extpass)
		return kt_error(CLOAKFS_EXIT_USAGE, "%s: give --%spassfile or "
				"--%sextpass, not both", cmd,
				val >= O_NEW_PASSFILE ? "new-" : "",
				val >= O_NEW_PASSFILE ? "new-" : "");
	if (is_file)
		src->file = arg;
	else
		src->extpass = arg;
	return 0;
}

static int parse_option(struct kt_args *a, int val, const char *arg)
{
	const char *cmd = a->cmd->name;
	unsigned long v;
	char *end;

	switch (val) {
	case O_PASSFILE: case O_EXTPASS:
		return set_source(cmd, &a->pass, val, arg);
	case O_NEW_PASSFILE: case O_NEW_EXTPASS:
		return set_source(cmd, &a->newpass, val, arg);
	case O_CIPHER:
		a->cipher = arg;
		return 0;
	case O_NAMES:
		a->names = arg;
		return 0;
	case O_INTEGRITY:
		a->integrity = true;
		return 0;
	case O_SECTOR_SIZE:
		if (parse_uint(arg, 1ul << 20, &v))
			return bad_value(cmd, val, arg, "a number of bytes");
		a->sector_size = (uint32_t)v;
		return 0;
	case O_NAME_MAX:
		if (parse_uint(arg, 4096, &v))
			return bad_value(cmd, val, arg, "a name length");
		a->name_max = (uint32_t)v;
		return 0;
	case O_KDF_TIME:
		errno = 0;
		a->kdf_time = strtod(arg, &end);
		if (errno || end == arg || *end || !isfinite(a->kdf_time) ||
		    !(a->kdf_time > 0 && a->kdf_time <= 3600))
			return bad_value(cmd, val, arg, "seconds, more than 0 and "
					 "at most 3600");
		return 0;
	case O_KDF_MEMORY:
		if (parse_uint(arg, KEYSLOT_MAX_MEMLIMIT >> 20, &v) || v == 0)
			return bad_value(cmd, val, arg, "MiB, from 1 to 1024");
		a->kdf_memory = (uint64_t)v << 20;
		return 0;
	case O_SLOT:
		if (parse_uint(arg, VOLCONF_MAX_KEYSLOTS - 1, &v))
			return bad_value(cmd, val, arg, "a slot number from 0 to 7");
		a->slot = (int)v;
		return 0;
	case O_FORCE:
		a->force = true;
		return 0;
	case O_TTL:
		a->ttl = arg;
		return 0;
	case O_ALL:
		a->all = true;
		return 0;
	case O_CONFIG:
		a->config = arg;
		return 0;
	case O_RECOVERY_KEY:
		a->recovery_key = true;
		return 0;
	case O_PRINT_KEY:
		a->print_key = true;
		return 0;
	}
	return kt_error(CLOAKFS_EXIT_USAGE, "%s: unknown option", cmd);
}

/*
 * Parse argv (argv[0] is the subcommand; options and arguments in any
 * order, "--" ends the options). 0, -1 for --help, or an exit code.
 */
static int parse_args(const struct kt_command *c, int argc, char **argv,
		      struct kt_args *a)
{
	int val, rc;

	memset(a, 0, sizeof(*a));
	a->cmd = c;
	a->slot = -1;
	opterr = 0; /* one error line, ours */
	optind = 0; /* glibc: start over */
	while ((val = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (val == 'h')
			return -1;
		if (val == ':')
			return kt_error(CLOAKFS_EXIT_USAGE, "%s: option '%s' needs "
					"an argument", c->name, argv[optind - 1]);
		if (val == '?')
			return kt_error(CLOAKFS_EXIT_USAGE, "%s: unknown option '%s' "
					"(try %s %s --help)", c->name,
					argv[optind - 1], KT_PROG, c->name);
		if (!(option_group(val) & c->opts))
			return kt_error(CLOAKFS_EXIT_USAGE, "%s: option --%s does "
					"not apply (try %s %s --help)", c->name,
					option_name(val), KT_PROG, c->name);
		rc = parse_option(a, val, optarg);
		if (rc)
			return rc;
	}
	a->args = argv + optind;
	a->nargs = argc - optind;
	if (a->nargs > c->max_args)
		return kt_error(CLOAKFS_EXIT_USAGE, "%s: unexpected argument '%s' "
				"(try %s %s --help)", c->name, a->args[c->max_args],
				KT_PROG, c->name);
	if (a->nargs < c->min_args)
		return kt_error(CLOAKFS_EXIT_USAGE, "%s: missing argument: usage: "
				"%s %s %s", c->name, KT_PROG, c->name, c->synopsis);
	return 0;
}

int main(int argc, char **argv)
{
	const struct kt_command *c;
	struct kt_args a;
	int rc;

	if (argc < 2) {
		overview(stderr);
		return CLOAKFS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		overview(stdout);
		return CLOAKFS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("%s %s\n", KT_PROG, CLOAKFS_VERSION);
		return CLOAKFS_EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc == 2) {
			overview(stdout);
			return CLOAKFS_EXIT_OK;
		}
		c = find_command(argv[2]);
		if (!c)
			return kt_error(CLOAKFS_EXIT_USAGE, "unknown command '%s' "
					"(try %s --help)", argv[2], KT_PROG);
		command_help(c);
		return CLOAKFS_EXIT_OK;
	}
	c = find_command(argv[1]);
	if (!c)
		return kt_error(CLOAKFS_EXIT_USAGE, "unknown command '%s' (try %s "
				"--help)", argv[1], KT_PROG);
	rc = parse_args(c, argc - 1, argv + 1, &a);
	if (rc == -1) {
		command_help(c);
		return CLOAKFS_EXIT_OK;
	}
	if (rc)
		return rc;
	/* before any passphrase or key: no core file, no same-uid ptrace */
	rc = process_no_dump();
	if (rc)
		return kt_error(CLOAKFS_EXIT_ERROR, "cannot make the process "
				"non-dumpable: %s", strerror(-rc));
	if (crypto_init())
		return kt_error(CLOAKFS_EXIT_ERROR, "%s", crypto_init_error());
	rc = c->run(&a);
	if (secmem_unlocked_count())
		fprintf(stderr, "%s: warning: %lu secret buffer(s) could not be "
			"locked in memory (RLIMIT_MEMLOCK) and may reach swap\n",
			KT_PROG, secmem_unlocked_count());
	if (fflush(stdout) != 0 && rc == 0)
		rc = kt_error(CLOAKFS_EXIT_ERROR, "writing output: %s",
			      strerror(errno));
	return rc;
}
