/* SPDX-License-Identifier: MIT */
/* see cmdline.h */
#include "fs/cmdline.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/decimal.h"
#include "fs/readahead.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: cloakfs [options] CIPHERDIR MOUNTPOINT\n"
		"\n"
		"Mount the cloakfs volume in CIPHERDIR at MOUNTPOINT. The key comes\n"
		"from cloakfsd when the volume is unlocked there (cloakfs-keytool\n"
		"unlock), else from a passphrase.\n"
		"\n"
		"  -f, --foreground      stay in the foreground\n"
		"  -d, --debug           FUSE debug output (implies -f)\n"
		"  -s, --single-thread   serve one request at a time\n"
		"  -o OPT[,OPT...]       mount options: ro, allow_other,\n"
		"                        default_permissions, ... and cloakfs' own\n"
		"                        config=FILE, passfile=FILE, extpass=CMD,\n"
		"                        idle=TIME, readahead=KB, nocloakfsd, badname\n"
		"                        (as the long options below), nonempty (mount\n"
		"                        over a directory that is not empty),\n"
		"                        shared (other machines mount the same\n"
		"                        CIPHERDIR on shared storage: locks, no\n"
		"                        cache kept across opens), shared_timeout=\n"
		"                        SECONDS (attributes and entries may be that\n"
		"                        old with -o shared; default 1, 0 allowed),\n"
		"                        acl / noacl (POSIX ACLs set and enforced, or\n"
		"                        refused; default: acl with allow_other only)\n"
		"      --ro              read-only (as -o ro)\n"
		"      --config FILE     the volume's config is FILE, not\n"
		"                        CIPHERDIR/cloakfs.conf\n"
		"      --passfile FILE   the passphrase: first line of FILE\n"
		"      --extpass CMD     the passphrase: first line CMD prints\n"
		"      --idle TIME       unmount after TIME without use: 90s, 10m,\n"
		"                        2h, 1d; a plain number is minutes\n"
		"      --readahead KB    the kernel's read-ahead window for this\n"
		"                        mount (default 4096; 0 keeps the kernel's)\n"
		"      --no-cloakfsd     do not ask cloakfsd for the key\n"
		"      --recovery-key    unlock with the volume's recovery key (asked\n"
		"                        on the terminal, else stdin, or from\n"
		"                        --passfile/--extpass; one line or the two it\n"
		"                        was printed on); no config needed\n"
		"      --show-undecodable  list entries whose names cannot be decrypted\n"
		"                        as CIPHERNAME.undecodable (rename or delete\n"
		"                        them; as -o badname)\n"
		"  -h, --help            this help\n"
		"  -V, --version         version\n"
		"\n"
		"Without --passfile or --extpass the passphrase is asked on the\n"
		"terminal (or read as one line from standard input).\n");
}

/* 10m, 2h, 90s, 1d; a plain number is minutes (as --idle always took);
 * fractions allowed ("0.5"); at most a year */
static int parse_idle(const char *s, unsigned long long *ms)
{
	return duration_parse(s, 60, 365ULL * 86400 * 1000, ms);
}

#define IDLE_WANTS "a time (90s, 10m, 2h, 1d; a plain number is minutes) " \
	"up to a year"

/* seconds, fractions allowed ("0.5"), at most an hour */
static int parse_shared_timeout(const char *s, unsigned long long *ms)
{
	return duration_parse(s, 1, 3600ULL * 1000, ms);
}

/* KiB, 0 to 65536 */
static int parse_kb(const char *s, unsigned int *out)
{
	unsigned long long v;
	int err = decimal_parse(s, 65536, &v);

	if (!err)
		*out = (unsigned int)v;
	return err;
}

/* options mount(8) hands every helper that mean nothing to FUSE */
static int mount_only(const char *opt)
{
	static const char *const names[] = {
		"defaults", "auto", "noauto", "user", "nouser", "users",
		"owner", "group", "_netdev", "nofail", "loop", NULL,
	};

	for (size_t i = 0; names[i]; i++)
		if (!strcmp(opt, names[i]))
			return 1;
	return !strncmp(opt, "x-", 2) || !strncmp(opt, "comment=", 8);
}

static int add_fuse_opt(struct cloakfs_options *o, const char *opt)
{
	size_t old = o->fuse_opts ? strlen(o->fuse_opts) : 0;
	char *n = realloc(o->fuse_opts, old + strlen(opt) + 2);

	if (!n)
		return -ENOMEM;
	if (old)
		n[old++] = ',';
	strcpy(n + old, opt);
	o->fuse_opts = n;
	return 0;
}

/* one -o list: cloakfs' own options, mount(8)'s, and FUSE's */
static int parse_o(struct cloakfs_options *o, char *list, char *err,
		   size_t errlen)
{
	char *save = NULL;

	for (char *opt = strtok_r(list, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		if (!strncmp(opt, "passfile=", 9)) {
			o->pass.file = opt + 9;
		} else if (!strncmp(opt, "extpass=", 8)) {
			o->pass.extpass = opt + 8;
		} else if (!strncmp(opt, "config=", 7)) {
			o->config = opt + 7;
		} else if (!strncmp(opt, "idle=", 5)) {
			if (parse_idle(opt + 5, &o->idle_ms)) {
				snprintf(err, errlen, "-o idle: takes %s, not "
					 "'%s'", IDLE_WANTS, opt + 5);
				return -EINVAL;
			}
		} else if (!strncmp(opt, "readahead=", 10)) {
			if (parse_kb(opt + 10, &o->readahead_kb)) {
				snprintf(err, errlen, "-o readahead: takes KiB "
					 "from 0 to 65536, not '%s'", opt + 10);
				return -EINVAL;
			}
		} else if (!strcmp(opt, "nocloakfsd")) {
			o->use_cloakfsd = 0;
		} else if (!strcmp(opt, "badname")) {
			o->show_undecodable = 1;
		} else if (!strcmp(opt, "shared")) {
			o->shared = 1;
		} else if (!strncmp(opt, "shared_timeout=", 15)) {
			if (parse_shared_timeout(opt + 15,
						 &o->shared_timeout_ms)) {
				snprintf(err, errlen, "-o shared_timeout: takes "
					 "seconds from 0 to 3600, not '%s'",
					 opt + 15);
				return -EINVAL;
			}
			o->shared_timeout_set = 1;
		} else if (!strcmp(opt, "acl") || !strcmp(opt, "noacl")) {
			o->acl = opt[0] == 'a';
		} else if (!strcmp(opt, "nonempty")) {
			o->nonempty = 1; /* ours: FUSE 3 dropped the option */
		} else if (mount_only(opt)) {
			continue;
		} else {
			if (!strcmp(opt, "allow_other"))
				o->allow_other = 1;
			if (!strcmp(opt, "ro"))
				o->read_only = 1;
			else if (!strcmp(opt, "rw"))
				o->read_only = 0;
			if (add_fuse_opt(o, opt)) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
		}
	}
	return 0;
}

enum cmdline_result cmdline_parse(int argc, char **argv,
				  struct cloakfs_options *o, char *err,
				  size_t errlen)
{
	enum { OPT_PASSFILE = 256, OPT_EXTPASS, OPT_IDLE, OPT_READAHEAD,
	       OPT_NO_CLOAKFSD, OPT_CONFIG, OPT_RO, OPT_RECOVERY_KEY,
	       OPT_SHOW_UNDECODABLE };
	static const struct option longopts[] = {
		{ "foreground", no_argument, NULL, 'f' },
		{ "debug", no_argument, NULL, 'd' },
		{ "single-thread", no_argument, NULL, 's' },
		{ "passfile", required_argument, NULL, OPT_PASSFILE },
		{ "extpass", required_argument, NULL, OPT_EXTPASS },
		{ "idle", required_argument, NULL, OPT_IDLE },
		{ "readahead", required_argument, NULL, OPT_READAHEAD },
		{ "no-cloakfsd", no_argument, NULL, OPT_NO_CLOAKFSD },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "ro", no_argument, NULL, OPT_RO },
		{ "recovery-key", no_argument, NULL, OPT_RECOVERY_KEY },
		{ "show-undecodable", no_argument, NULL, OPT_SHOW_UNDECODABLE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->use_cloakfsd = 1;
	o->readahead_kb = CLOAKFS_READAHEAD_KB_DEFAULT;
	o->shared_timeout_ms = 1000;
	o->acl = -1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:fdso:hV", longopts, NULL)) != -1 ||
	       optind < argc) {
		if (c == -1) {
			/* a directory; options may follow it (mount.fuse3) */
			const char *arg = argv[optind++];

			if (!o->cipherdir) {
				o->cipherdir = arg;
			} else if (!o->mountpoint) {
				o->mountpoint = arg;
			} else {
				snprintf(err, errlen, "unexpected argument '%s'", arg);
				return CMDLINE_USAGE;
			}
			continue;
		}
		switch (c) {
		case 'f':
			o->foreground = 1;
			break;
		case 'd':
			o->debug = 1;
			o->foreground = 1;
			break;
		case 's':
			o->single_thread = 1;
			break;
		case 'o':
			if (parse_o(o, optarg, err, errlen))
				return CMDLINE_USAGE;
			break;
		case OPT_PASSFILE:
			o->pass.file = optarg;
			break;
		case OPT_EXTPASS:
			o->pass.extpass = optarg;
			break;
		case OPT_IDLE:
			if (parse_idle(optarg, &o->idle_ms)) {
				snprintf(err, errlen, "--idle takes %s, not '%s'",
					 IDLE_WANTS, optarg);
				return CMDLINE_USAGE;
			}
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_RECOVERY_KEY:
			o->recovery_key = 1;
			break;
		case OPT_SHOW_UNDECODABLE:
			o->show_undecodable = 1;
			break;
		case OPT_RO:
			o->read_only = 1;
			if (add_fuse_opt(o, "ro")) {
				snprintf(err, errlen, "out of memory");
				return CMDLINE_USAGE;
			}
			break;
		case OPT_READAHEAD:
			if (parse_kb(optarg, &o->readahead_kb)) {
				snprintf(err, errlen, "--readahead takes KiB from 0 "
					 "to 65536, not '%s'", optarg);
				return CMDLINE_USAGE;
			}
			break;
		case OPT_NO_CLOAKFSD:
			o->use_cloakfsd = 0;
			break;
		case 'h':
			usage(stdout);
			return CMDLINE_EXIT;
		case 'V':
			printf("cloakfs %s\n", CLOAKFS_VERSION);
			return CMDLINE_EXIT;
		case ':':
			snprintf(err, errlen, "option '%s' needs an argument",
				 argv[optind - 1]);
			return CMDLINE_USAGE;
		default:
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return CMDLINE_USAGE;
		}
	}
	if (!o->cipherdir || !o->mountpoint) {
		snprintf(err, errlen, "give CIPHERDIR and MOUNTPOINT (try cloakfs "
			 "--help)");
		return CMDLINE_USAGE;
	}
	if (o->shared_timeout_set && !o->shared) {
		snprintf(err, errlen, "-o shared_timeout applies to -o shared "
			 "only: give both");
		return CMDLINE_USAGE;
	}
	if (o->pass.file && o->pass.extpass) {
		snprintf(err, errlen, "give --passfile or --extpass, not both");
		return CMDLINE_USAGE;
	}
	return CMDLINE_OK;
}

void cmdline_free(struct cloakfs_options *o)
{
	free(o->fuse_opts);
	o->fuse_opts = NULL;
}
