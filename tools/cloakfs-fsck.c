/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: check an unmounted cloakfs volume and, with --repair,
 * repair what can be repaired without guessing and move what cannot into
 * lost+found.cloakfs/ (docs/fsck.md, cloakfs-fsck(8)). This file parses
 * the command line and runs the steps of fsck-*.c in order: mount check,
 * config, key, directory walk, nonce reuse, summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mountinfo.h"
#include "base/nodump.h"
#include "cli/passphrase.h"
#include "crypto/crypto.h"
#include "crypto/secmem.h"
#include "tools/fsck-config.h"
#include "tools/fsck-files.h"
#include "tools/fsck-progress.h"
#include "tools/fsck-report.h"
#include "tools/fsck-targets.h"
#include "tools/fsck-walk.h"
#include "tools/fsck-keys.h"

static const char usage_text[] =
	"Usage: " FSCK_PROG " [OPTIONS] CIPHERDIR\n"
	"Check a cloakfs volume; with --repair, repair it.\n"
	"\n"
	"  --config FILE     the volume's config is FILE, not\n"
	"                    CIPHERDIR/cloakfs.conf\n"
	"  --passfile FILE   the passphrase is FILE's first line\n"
	"  --extpass CMD     the passphrase is the first line CMD prints\n"
	"  --no-cloakfsd     do not ask cloakfsd for the key\n"
	"  --repair          repair what can be repaired, move what cannot into\n"
	"                    " FSCK_LOST_FOUND "/ (never on a mounted volume)\n"
	"  --deep            also decrypt every sector of every file\n"
	"  --zero-damaged    with --repair (implies --deep): seal each sector\n"
	"                    that fails its tag (authenticated volumes) anew as\n"
	"                    zeros, after copying the file's ciphertext into\n"
	"                    " FSCK_LOST_FOUND "/NAME.ciphertext; without it,\n"
	"                    damaged sectors are only reported\n"
	"  --json            findings and summary as one JSON object on stdout\n"
	"  --progress        show progress from the start (on a terminal it\n"
	"                    is shown anyway once a check takes more than a\n"
	"                    second; never when stderr is not a terminal)\n"
	"  -h, --help        this text\n"
	"  -V, --version     the version\n"
	"\n"
	"Without --passfile or --extpass the key comes from cloakfsd when it\n"
	"holds it, else the passphrase is asked for (terminal or stdin).\n"
	"Exit status (fsck(8), added up): 0 clean, 1 errors corrected,\n"
	"4 errors left uncorrected, 8 operational error, 16 usage error.\n"
	"See cloakfs-fsck(8).\n";

enum { O_PASSFILE = 256, O_EXTPASS, O_NO_CLOAKFSD, O_REPAIR, O_DEEP, O_JSON,
       O_PROGRESS, O_CONFIG, O_ZERO_DAMAGED };

static const struct option options[] = {
	{ "passfile", required_argument, NULL, O_PASSFILE },
	{ "extpass", required_argument, NULL, O_EXTPASS },
	{ "no-cloakfsd", no_argument, NULL, O_NO_CLOAKFSD },
	{ "repair", no_argument, NULL, O_REPAIR },
	{ "deep", no_argument, NULL, O_DEEP },
	{ "zero-damaged", no_argument, NULL, O_ZERO_DAMAGED },
	{ "json", no_argument, NULL, O_JSON },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "config", required_argument, NULL, O_CONFIG },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", FSCK_PROG);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see %s --help)\n", FSCK_PROG);
	return FSCK_EXIT_USAGE;
}

/* one descriptor per directory level is held during the walk */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* refuse to repair under a mount; checking one gets a warning */
static int check_mounted(struct fsck *f)
{
	char mnt[PATH_MAX];
	int rc = mountinfo_find_volume(f->root, mnt, sizeof(mnt));

	if (rc < 0) {
		fsck_note("cannot read /proc/self/mountinfo (%s): not checking "
			  "whether %s is mounted", strerror(-rc), f->dir);
		return f->repair ? -1 : 0;
	}
	if (rc == 0)
		return 0;
	if (f->repair) {
		fsck_fail(f, "%s is mounted at %s: refusing to repair a mounted "
			  "volume (unmount it first)", f->dir, mnt);
		return -1;
	}
	fsck_note("warning: %s is mounted at %s: what the mount changes while "
		  "this runs may show up as findings", f->dir, mnt);
	return 0;
}

/* fsck_check_config's hook: under --repair's lock */
static int check_mounted_locked(void *f)
{
	return check_mounted(f);
}

static void run(struct fsck *f, const struct passphrase_source *src,
		bool use_daemon)
{
	struct stat st;

	if (!realpath(f->dir, f->root)) {
		fsck_fail(f, "%s: %s", f->dir, strerror(errno));
		return;
	}
	if (stat(f->root, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fsck_fail(f, "%s: not a directory", f->dir);
		return;
	}
	/* the lock before the mount check: a mount holds it until it shows
	 * in mountinfo (volume/dirlock.h) */
	if (fsck_check_config(f, check_mounted_locked) ||
	    fsck_unlock(f, src, use_daemon))
		return;
	fsck_check_record(f);
	f->rootfd = open(f->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (f->rootfd < 0) {
		fsck_fail(f, "%s: %s", f->dir, strerror(errno));
		return;
	}
	if (fsck_nonces_new(f) || fsck_targets_new(f)) {
		fsck_fail(f, "out of memory");
		return;
	}
	fsck_progress_start(f);
	if (f->deep)
		fsck_progress_count(f); /* --deep reads every byte: say how far */
	fsck_walk(f);
	if (!f->operational_error)
		fsck_nonces_report(f);
	fsck_nonces_free(f);
	fsck_targets_free(f);
	fsck_deep_free(f);
	close(f->rootfd);
}

int main(int argc, char **argv)
{
	struct passphrase_source src = { NULL, NULL };
	struct fsck f;
	bool use_daemon = true;
	int c, rc;

	memset(&f, 0, sizeof(f));
	f.vol = (struct volume)VOLUME_CLOSED;
	f.rootfd = f.lf_fd = f.note_fd = -1;
	while ((c = getopt_long(argc, argv, "hV", options, NULL)) != -1) {
		switch (c) {
		case O_PASSFILE: src.file = optarg; break;
		case O_EXTPASS: src.extpass = optarg; break;
		case O_NO_CLOAKFSD: use_daemon = false; break;
		case O_REPAIR: f.repair = true; break;
		case O_DEEP: f.deep = true; break;
		case O_ZERO_DAMAGED: f.zero_damaged = f.deep = true; break;
		case O_JSON: f.json = true; break;
		case O_PROGRESS: f.progress_forced = true; break;
		case O_CONFIG: f.config = optarg; break;
		case 'h':
			fputs(usage_text, stdout);
			return FSCK_EXIT_OK;
		case 'V':
			printf("%s %s\n", FSCK_PROG, CLOAKFS_VERSION);
			return FSCK_EXIT_OK;
		default:
			return usage_error("%s", "bad option");
		}
	}
	if (f.zero_damaged && !f.repair)
		return usage_error("%s", "--zero-damaged changes files: it needs "
				   "--repair");
	if (src.file && src.extpass)
		return usage_error("%s", "--passfile and --extpass exclude each other");
	if (argc - optind != 1)
		return usage_error("%s", argc - optind ? "one CIPHERDIR, please"
					 : "no CIPHERDIR given");
	f.dir = argv[optind];
	raise_fd_limit();
	fsck_output_begin(&f);
	/* before any passphrase or key: no core file, no same-uid ptrace */
	rc = process_no_dump();
	if (rc)
		fsck_fail(&f, "cannot make the process non-dumpable: %s",
			  strerror(-rc));
	else if ((rc = crypto_init()))
		fsck_fail(&f, "crypto: %s", crypto_init_error() ? crypto_init_error()
								 : strerror(-rc));
	else
		run(&f, &src, use_daemon);
	rc = fsck_output_end(&f);
	fsck_keys_free(&f);
	return rc;
}
