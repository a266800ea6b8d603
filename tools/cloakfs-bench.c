/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-bench: a kernel-tcrypt-style speed table of every crypto driver,
 * operation and buffer size, in MB/s (10^6 bytes/s) and core cycles/byte,
 * with the driver that "auto" picks marked. It uses only the public API of
 * crypto/crypto.h, so what it measures is what the filesystem gets.
 *
 * See docs/man/cloakfs-bench.1 for the options and the output.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/decimal.h"
#include "cli/exitcodes.h"
#include "crypto/crypto.h"
#include "tools/cli.h"
#include "tools/cycles.h"
#include "volume/cipher.h"

#ifndef CLOAKFS_VERSION
#define CLOAKFS_VERSION "unknown"
#endif

#define PROG "cloakfs-bench"

#define MAX_LIST 64           /* entries of --alg, --driver, --size */
#define MAX_SIZE (64u << 20)  /* largest --size */
#define MAX_KEY CRYPTO_MAX_KEYLEN
#define BUF_ALIGN 64
/* work between two clock reads (a read costs ~1.3 us on our VMs) */
#define CLOCK_CHECK_SECONDS 1e-3

static const size_t default_sizes[] = { 16, 64, 256, 1024, 1420, 4096, 65536 };

/* ---- command line ----------------------------------------------------- */

struct options {
	const char *algs[MAX_LIST];
	unsigned int nalgs;
	const char *drivers[MAX_LIST];
	unsigned int ndrivers;
	size_t sizes[MAX_LIST];
	unsigned int nsizes;
	double seconds;
	unsigned int runs;
	int json;
	int list;
	int cpu_time;        /* time with the thread's CPU time, not wall time */
	double ghz;          /* 0: measure */
	unsigned int keysize; /* 0: largest the driver accepts */
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: " PROG " [OPTION]...\n"
		"Measure the speed of the cloakfs crypto drivers: MB/s (10^6 bytes/s)\n"
		"and core cycles/byte for every driver, operation and buffer size.\n"
		"\n"
		"  -a, --alg ALG        only algorithm ALG, e.g. 'xts(aes)' (repeatable,\n"
		"                       or a comma-separated list)\n"
		"  -C, --cipher NAME    only the contents algorithm of volume cipher NAME,\n"
		"                       e.g. adiantum (its 'adiantum(xchacha12,aes)'),\n"
		"                       aes256-xts (repeatable, or a comma-separated list)\n"
		"  -d, --driver DRIVER  only driver DRIVER, e.g. xts-aes-generic (repeatable)\n"
		"  -s, --size N         buffer size in bytes, k/m suffixes allowed\n"
		"                       (repeatable; default 16,64,256,1024,1420,4096,65536)\n"
		"  -t, --seconds S      time per measurement run (default 0.2)\n"
		"  -r, --runs N         runs per measurement; the best is reported (default 3)\n"
		"  -k, --keysize N      key size in bytes (default: largest the driver accepts)\n"
		"  -g, --ghz F          core clock in GHz instead of measuring it\n"
		"  -c, --cpu-time       time with this thread's CPU time instead of the\n"
		"                       wall clock (leaves out other tasks on a busy machine)\n"
		"  -j, --json           print one JSON array of result objects\n"
		"  -l, --list           list the drivers and exit\n"
		"  -h, --help           show this help and exit\n"
		"  -V, --version        show the version and exit\n"
		"\n"
		"The driver that \"auto\" picks for an algorithm is marked '*'.\n"
		"Exit status: 0 ok, 1 a driver or measurement failed, 3 bad usage.\n");
}

__attribute__((format(printf, 1, 2))) _Noreturn static void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see --help)\n", stderr);
	exit(CLOAKFS_EXIT_USAGE);
}

/*
 * Split a comma list into list[], in place. Commas inside parentheses
 * belong to the name: "rfc7539(chacha20,poly1305)" is one algorithm.
 */
static void split_names(char *arg, const char **list, unsigned int *n,
			const char *what)
{
	char *start = arg;
	int depth = 0;

	for (char *p = arg;; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		else if ((*p == ',' && depth == 0) || *p == '\0') {
			int end = *p == '\0';

			*p = '\0';
			if (*start == '\0')
				usage_error("empty %s name", what);
			if (*n >= MAX_LIST)
				usage_error("too many --%s values (at most %d)", what,
					    MAX_LIST);
			list[(*n)++] = start;
			if (end)
				return;
			start = p + 1;
		}
	}
}

/* a byte count: decimal with an optional k/K or m/M (binary) suffix */
static size_t parse_size(const char *s)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		usage_error("bad size '%s'", s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == 0 && (*end == 'k' || *end == 'K') && v <= MAX_SIZE) {
		v <<= 10;
		end++;
	} else if (errno == 0 && (*end == 'm' || *end == 'M') && v <= MAX_SIZE) {
		v <<= 20;
		end++;
	}
	if (errno || *end != '\0' || v == 0 || v > MAX_SIZE)
		usage_error("bad size '%s' (1 to %u bytes)", s, MAX_SIZE);
	return (size_t)v;
}

static void add_sizes(char *arg, struct options *opt)
{
	char *save = NULL;

	if (*arg == '\0')
		usage_error("empty --size");
	for (char *tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t size = parse_size(tok);
		int dup = 0;

		for (unsigned int i = 0; i < opt->nsizes; i++)
			dup |= opt->sizes[i] == size;
		if (dup)
			continue;
		if (opt->nsizes >= MAX_LIST)
			usage_error("too many sizes (at most %d)", MAX_LIST);
		opt->sizes[opt->nsizes++] = size;
	}
}

static double parse_double(const char *s, const char *what, double lo,
			   double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !isfinite(v) || v <= lo ||
	    v > hi)
		usage_error("bad %s '%s' (more than %g, at most %g)", what, s, lo,
			    hi);
	return v;
}

static unsigned int parse_uint(const char *s, const char *what,
			       unsigned int lo, unsigned int hi)
{
	unsigned long long v;

	if (decimal_parse(s, hi, &v) || v < lo)
		usage_error("bad %s '%s' (%u to %u)", what, s, lo, hi);
	return (unsigned int)v;
}

/* --cipher: each volume cipher's contents algorithm joins the --alg list */
static void add_volume_ciphers(char *arg, struct options *opt)
{
	const char *names[MAX_LIST];
	unsigned int n = 0;

	split_names(arg, names, &n, "cipher");
	for (unsigned int i = 0; i < n; i++) {
		enum volume_cipher c;

		if (cipher_by_name(names[i], &c))
			usage_error("unknown volume cipher '%s' (one of %s)",
				    names[i], volume_cipher_list());
		if (opt->nalgs == MAX_LIST)
			usage_error("too many --alg and --cipher values (at most "
				    "%d)", MAX_LIST);
		opt->algs[opt->nalgs++] =
			volume_cipher_contents_alg(volume_cipher_info(c));
	}
}

static void parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "alg", required_argument, NULL, 'a' },
		{ "cipher", required_argument, NULL, 'C' },
		{ "driver", required_argument, NULL, 'd' },
		{ "size", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 't' },
		{ "runs", required_argument, NULL, 'r' },
		{ "keysize", required_argument, NULL, 'k' },
		{ "ghz", required_argument, NULL, 'g' },
		{ "cpu-time", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->seconds = 0.2;
	opt->runs = 3;
	opterr = 0; /* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":a:C:d:s:t:r:k:g:cjlhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			split_names(optarg, opt->algs, &opt->nalgs, "alg");
			break;
		case 'C':
			add_volume_ciphers(optarg, opt);
			break;
		case 'd':
			split_names(optarg, opt->drivers, &opt->ndrivers, "driver");
			break;
		case 's':
			add_sizes(optarg, opt);
			break;
		case 't':
			opt->seconds = parse_double(optarg, "--seconds", 0, 3600);
			break;
		case 'r':
			opt->runs = parse_uint(optarg, "--runs", 1, 1000);
			break;
		case 'k':
			opt->keysize = parse_uint(optarg, "--keysize", 1, MAX_KEY);
			break;
		case 'g':
			opt->ghz = parse_double(optarg, "--ghz", 0, 100);
			break;
		case 'c':
			opt->cpu_time = 1;
			break;
		case 'j':
			opt->json = 1;
			break;
		case 'l':
			opt->list = 1;
			break;
		case 'h':
			usage(stdout);
			exit(CLOAKFS_EXIT_OK);
		case 'V':
			printf(PROG " " CLOAKFS_VERSION "\n");
			exit(CLOAKFS_EXIT_OK);
		case ':':
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			/* optopt: 0 for an unknown long option, else the short name */
			if (optopt == 0)
				usage_error("unknown option '%s'", argv[optind - 1]);
			if (strncmp(argv[optind - 1], "--", 2) == 0)
				usage_error("option '%s' takes no argument",
					    argv[optind - 1]);
			usage_error("unknown option '-%c'", optopt);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (opt->nsizes == 0) {
		for (size_t i = 0; i < (sizeof(default_sizes) / sizeof(default_sizes[0])); i++)
			opt->sizes[i] = default_sizes[i];
		opt->nsizes = (sizeof(default_sizes) / sizeof(default_sizes[0]));
	}
}

/* ---- messages and the progress line ------------------------------------ */

static int progress_shown;
static int progress_enabled;

static void progress_clear(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

static void progress(unsigned int done, unsigned int total, const char *driver,
		     const char *op, size_t size)
{
	if (!progress_enabled)
		return;
	fprintf(stderr, "\r[%*u/%u] %s %s %zu\033[K", total >= 1000 ? 4 : 3,
		done, total, driver, op, size);
	fflush(stderr);
	progress_shown = 1;
}

__attribute__((format(printf, 1, 2))) static void note(const char *fmt, ...)
{
	va_list ap;

	progress_clear();
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- what to measure ---------------------------------------------------- */

enum bench_op {
	OP_ENCRYPT,  /* skcipher, cipher or AEAD */
	OP_DECRYPT,
	OP_DIGEST,   /* hash and hmac */
};

static const char *const op_names[] = {
	[OP_ENCRYPT] = "encrypt",
	[OP_DECRYPT] = "decrypt",
	[OP_DIGEST] = "digest",
};

struct bench_driver {
	struct crypto_driver_info info;
	unsigned int index;     /* for crypto_driver_info() */
	struct crypto_tfm *tfm; /* NULL: skipped */
	unsigned int key_bytes; /* 0: unkeyed */
	int is_auto;            /* what crypto_best_driver() picks */
};

static int name_in(const char *name, const char *const *list, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return 1;
	return 0;
}

static int compare_drivers(const void *a, const void *b)
{
	const struct bench_driver *x = a, *y = b;
	int c = strcmp(x->info.alg_name, y->info.alg_name);

	if (c)
		return c;
	if (x->info.priority != y->info.priority)
		return x->info.priority > y->info.priority ? -1 : 1;
	return strcmp(x->info.driver_name, y->info.driver_name);
}

/*
 * The drivers matching --alg and --driver, sorted by algorithm, then by
 * priority (highest first). Unknown names are errors.
 */
static int select_drivers(const struct options *opt,
			  struct bench_driver **out, unsigned int *nout)
{
	unsigned int count = crypto_driver_count();
	int alg_known[MAX_LIST] = { 0 }, driver_known[MAX_LIST] = { 0 };
	struct bench_driver *sel;
	unsigned int n = 0;
	int err;

	sel = calloc(count ? count : 1, sizeof(*sel));
	if (!sel) {
		note("out of memory");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < count; i++) {
		struct crypto_driver_info info;

		err = crypto_driver_info(i, &info);
		if (err) {
			note("cannot read driver %u: %s", i, strerror(-err));
			free(sel);
			return err;
		}
		for (unsigned int a = 0; a < opt->nalgs; a++)
			alg_known[a] |= strcmp(info.alg_name, opt->algs[a]) == 0;
		for (unsigned int d = 0; d < opt->ndrivers; d++)
			driver_known[d] |= strcmp(info.driver_name, opt->drivers[d]) == 0;
		if (opt->nalgs && !name_in(info.alg_name, opt->algs, opt->nalgs))
			continue;
		if (opt->ndrivers &&
		    !name_in(info.driver_name, opt->drivers, opt->ndrivers))
			continue;
		sel[n].info = info;
		sel[n].index = i;
		n++;
	}
	err = 0;
	for (unsigned int a = 0; a < opt->nalgs; a++)
		if (!alg_known[a]) {
			note("unknown algorithm '%s' (see --list)", opt->algs[a]);
			err = -ENOENT;
		}
	for (unsigned int d = 0; d < opt->ndrivers; d++)
		if (!driver_known[d]) {
			note("unknown driver '%s' (see --list)", opt->drivers[d]);
			err = -ENOENT;
		}
	if (!err && n == 0) {
		note("no driver matches both --alg and --driver");
		err = -ENOENT;
	}
	if (err) {
		free(sel);
		return err;
	}
	qsort(sel, n, sizeof(*sel), compare_drivers);
	*out = sel;
	*nout = n;
	return 0;
}

/* deterministic filler: benchmark data and keys are not secrets */
static void fill_pattern(uint8_t *buf, size_t len, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15u + 1;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)(x >> 24);
	}
}

static int is_hmac(const char *alg)
{
	return strncmp(alg, "hmac(", 5) == 0;
}

static int try_setkey(struct crypto_tfm *tfm, unsigned int keylen)
{
	uint8_t key[MAX_KEY];
	int err;

	/* distinct halves: XTS may refuse K1 == K2 */
	fill_pattern(key, keylen, keylen);
	err = crypto_setkey(tfm, key, keylen);
	explicit_bzero(key, sizeof(key));
	return err;
}

/*
 * Key the transform: --keysize, else the largest size it lists. A keyed
 * hash (hmac) takes any length; a driver that lists no sizes (AEAD) is
 * tried with the usual ones.
 */
static int choose_key(struct bench_driver *bd, unsigned int want,
		      char *why, size_t whylen)
{
	static const unsigned char guesses[] = { 32, 64, 16, 24, 48 };
	const uint16_t *sizes = crypto_keysizes(bd->tfm);
	int err;

	bd->key_bytes = 0;
	if (sizes && sizes[0]) {
		unsigned int pick = 0;
		size_t off = 0;

		for (unsigned int i = 0; i < 4 && sizes[i]; i++) {
			if (!want || sizes[i] == want)
				pick = sizes[i];
			off += (size_t)snprintf(why + off, off < whylen ? whylen - off : 0,
						"%s%u", i ? " " : "", sizes[i]);
		}
		if (!pick) {
			char valid[64];

			snprintf(valid, sizeof(valid), "%s", why);
			snprintf(why, whylen, "key size %u not supported (valid: %s)",
				 want, valid);
			return -EINVAL;
		}
		err = try_setkey(bd->tfm, pick);
		if (err) {
			snprintf(why, whylen, "setkey(%u bytes) failed: %s", pick,
				 strerror(-err));
			return err;
		}
		bd->key_bytes = pick;
		return 0;
	}
	if (bd->info.type == CRYPTO_TYPE_HASH && !is_hmac(bd->info.alg_name))
		return 0; /* unkeyed */
	if (bd->info.type == CRYPTO_TYPE_HASH || want) {
		unsigned int len = want ? want : 64;

		err = try_setkey(bd->tfm, len);
		if (err) {
			snprintf(why, whylen, "setkey(%u bytes) failed: %s", len,
				 strerror(-err));
			return err;
		}
		bd->key_bytes = len;
		return 0;
	}
	for (size_t i = 0; i < sizeof(guesses); i++) {
		if (try_setkey(bd->tfm, guesses[i]) == 0) {
			bd->key_bytes = guesses[i];
			return 0;
		}
	}
	snprintf(why, whylen, "no key size accepted");
	return -EINVAL;
}

/* allocate and key one driver, or say on stderr why it is skipped */
static int prepare_driver(struct bench_driver *bd, unsigned int keysize)
{
	const struct crypto_driver_info *info = &bd->info;
	const char *best;
	char why[160];
	int err;

	err = crypto_driver_info(bd->index, &bd->info);
	if (err) {
		note("cannot read driver %s: %s", info->driver_name, strerror(-err));
		return err;
	}
	if (!info->available) {
		note("skipping %s: CPU lacks %s", info->driver_name,
		     *info->missing ? info->missing : "a feature");
		return -ENODEV;
	}
	if (info->disabled) {
		note("skipping %s: disabled by policy", info->driver_name);
		return -EPERM;
	}
	if (info->selftest && strcmp(info->selftest, "failed") == 0) {
		note("skipping %s: self-test failed%s%s", info->driver_name,
		     info->selftest_reason && *info->selftest_reason ? ": " : "",
		     info->selftest_reason ? info->selftest_reason : "");
		return -ELIBBAD;
	}
	bd->tfm = crypto_alloc(NULL, info->driver_name, &err);
	if (!bd->tfm) {
		struct crypto_driver_info now;

		if (err == -ELIBBAD && crypto_driver_info(bd->index, &now) == 0 &&
		    now.selftest_reason && *now.selftest_reason)
			note("skipping %s: self-test failed: %s", info->driver_name,
			     now.selftest_reason);
		else if (err == -ELIBBAD)
			note("skipping %s: self-test failed", info->driver_name);
		else if (err == -EPERM)
			note("skipping %s: not allowed by policy", info->driver_name);
		else if (err == -ENODEV)
			note("skipping %s: CPU lacks a feature", info->driver_name);
		else
			note("skipping %s: %s", info->driver_name, strerror(-err));
		return err ? err : -EIO;
	}
	why[0] = '\0';
	err = choose_key(bd, keysize, why, sizeof(why));
	if (err) {
		note("skipping %s: %s", info->driver_name, why);
		crypto_free(bd->tfm);
		bd->tfm = NULL;
		return err;
	}
	best = crypto_best_driver(info->alg_name);
	bd->is_auto = best && strcmp(best, info->driver_name) == 0;
	return 0;
}

static unsigned int driver_ops(const struct bench_driver *bd,
			       enum bench_op ops[2])
{
	if (bd->info.type == CRYPTO_TYPE_HASH) {
		ops[0] = OP_DIGEST;
		return 1;
	}
	ops[0] = OP_ENCRYPT;
	ops[1] = OP_DECRYPT;
	return 2;
}

/* ---- one measurement ---------------------------------------------------- */

struct bench_job {
	struct crypto_tfm *tfm;
	int type;           /* CRYPTO_TYPE_* */
	enum bench_op op;
	size_t len;
	size_t nblocks;     /* single-block ciphers */
	const uint8_t *src;
	uint8_t *dst;
	uint8_t iv[64];
	uint8_t tag[64];
	uint8_t digest[128];
};

/* n operations back to back; the first error stops them */
static int run_ops(struct bench_job *job, uint64_t n)
{
	struct crypto_tfm *tfm = job->tfm;
	int err = 0;

	switch (job->type) {
	case CRYPTO_TYPE_SKCIPHER:
		for (uint64_t i = 0; i < n && !err; i++)
			err = job->op == OP_ENCRYPT ?
				crypto_encrypt(tfm, job->iv, job->dst, job->src, job->len) :
				crypto_decrypt(tfm, job->iv, job->dst, job->src, job->len);
		break;
	case CRYPTO_TYPE_CIPHER:
		for (uint64_t i = 0; i < n && !err; i++)
			err = job->op == OP_ENCRYPT ?
				crypto_cipher_encrypt(tfm, job->dst, job->src, job->nblocks) :
				crypto_cipher_decrypt(tfm, job->dst, job->src, job->nblocks);
		break;
	case CRYPTO_TYPE_HASH:
		for (uint64_t i = 0; i < n && !err; i++)
			err = crypto_hash_digest(tfm, job->src, job->len, job->digest);
		break;
	case CRYPTO_TYPE_AEAD:
		for (uint64_t i = 0; i < n && !err; i++)
			err = job->op == OP_ENCRYPT ?
				crypto_aead_encrypt(tfm, job->iv, NULL, 0, job->dst,
						    job->src, job->len, job->tag) :
				crypto_aead_decrypt(tfm, job->iv, NULL, 0, job->dst,
						    job->src, job->len, job->tag);
		break;
	default:
		err = -EOPNOTSUPP;
	}
	return err;
}

/* the clock measurements read: CLOCK_MONOTONIC or, with --cpu-time, ours */
static clockid_t timer_clock = CLOCK_MONOTONIC;

static const char *timer_name(void)
{
	return timer_clock == CLOCK_MONOTONIC ? "wall clock (CLOCK_MONOTONIC)" :
						"thread CPU time (CLOCK_THREAD_CPUTIME_ID)";
}

static double timer_seconds(void)
{
	struct timespec ts;

	/* both clocks always exist on Linux; cannot fail with a valid pointer */
	if (clock_gettime(timer_clock, &ts) != 0)
		abort();
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Bytes per second, best of opt->runs runs of opt->seconds each. The clock
 * is read only every batch operations, batch calibrated to ~1 ms of work.
 */
static int measure(struct bench_job *job, const struct options *opt,
		   double *best_rate)
{
	uint64_t batch = 1;
	double t0, elapsed;
	int err;

	/* calibrate (and warm caches and branch predictors) */
	for (;;) {
		t0 = timer_seconds();
		err = run_ops(job, batch);
		if (err)
			return err;
		elapsed = timer_seconds() - t0;
		if (elapsed >= CLOCK_CHECK_SECONDS / 4 || batch >= (UINT64_C(1) << 40))
			break;
		batch *= 2;
	}
	if (elapsed > 0)
		batch = (uint64_t)((double)batch * CLOCK_CHECK_SECONDS / elapsed);
	if (batch == 0)
		batch = 1;

	*best_rate = 0;
	for (unsigned int run = 0; run < opt->runs; run++) {
		uint64_t done = 0;

		t0 = timer_seconds();
		do {
			err = run_ops(job, batch);
			if (err)
				return err;
			done += batch;
			elapsed = timer_seconds() - t0;
		} while (elapsed < opt->seconds);
		if ((double)done * (double)job->len / elapsed > *best_rate)
			*best_rate = (double)done * (double)job->len / elapsed;
	}
	return 0;
}

/*
 * Set up the job for (driver, op, size). Returns 0, 1 when the size is not
 * valid for the driver ("n/a"), or -errno.
 */
static int setup_job(struct bench_job *job, const struct bench_driver *bd,
		     enum bench_op op, size_t len, uint8_t *src, uint8_t *dst)
{
	int err;

	memset(job, 0, sizeof(*job));
	job->tfm = bd->tfm;
	job->type = bd->info.type;
	job->op = op;
	job->len = len;
	job->src = src;
	job->dst = dst;
	fill_pattern(job->iv, sizeof(job->iv), 7);
	if (crypto_ivsize(bd->tfm) > sizeof(job->iv) ||
	    crypto_tagsize(bd->tfm) > sizeof(job->tag) ||
	    crypto_digestsize(bd->tfm) > sizeof(job->digest))
		return -EOVERFLOW;

	if (job->type == CRYPTO_TYPE_CIPHER) {
		unsigned int bs = crypto_blocksize(bd->tfm);

		if (bs == 0 || len % bs)
			return 1;
		job->nblocks = len / bs;
	}
	if (job->type == CRYPTO_TYPE_AEAD && op == OP_DECRYPT) {
		/* decrypt a real ciphertext so the tag verifies */
		err = crypto_aead_encrypt(bd->tfm, job->iv, NULL, 0, src, src, len,
					  job->tag);
		if (err)
			return err;
	}
	/* one trial call: a mode refuses lengths it cannot take (-EINVAL) */
	err = run_ops(job, 1);
	if (err == -EINVAL &&
	    (job->type == CRYPTO_TYPE_SKCIPHER || job->type == CRYPTO_TYPE_CIPHER))
		return 1;
	return err;
}

/* ---- output -------------------------------------------------------------- */

struct table {
	int alg_width;
	int driver_width;
	double core_hz;
	const char *clock_method;
	unsigned int rows;
};

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_header(const struct options *opt, struct table *t,
			 const struct bench_driver *sel, unsigned int n)
{
	char date[64];
	time_t now = time(NULL);
	struct tm tm;

	t->alg_width = (int)strlen("alg");
	t->driver_width = (int)strlen("driver");
	for (unsigned int i = 0; i < n; i++) {
		int a = (int)strlen(sel[i].info.alg_name);
		int d = (int)strlen(sel[i].info.driver_name) + 2; /* " *" */

		if (!sel[i].tfm)
			continue;
		if (a > t->alg_width)
			t->alg_width = a;
		if (d > t->driver_width)
			t->driver_width = d;
	}
	if (opt->json) {
		printf("[");
		return;
	}
	if (localtime_r(&now, &tm) == NULL ||
	    strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S %z", &tm) == 0)
		snprintf(date, sizeof(date), "(unknown date)");
	printf("# " PROG " " CLOAKFS_VERSION ", %s\n", date);
	if (t->core_hz > 0)
		printf("# core clock: %.2f GHz (%s)\n", t->core_hz / 1e9,
		       t->clock_method);
	else
		printf("# core clock: unknown (%s)\n", t->clock_method);
	printf("# best of %u run%s of %g s each; MB/s = 10^6 bytes/s; "
	       "cyc/B = core cycles per byte\n",
	       opt->runs, opt->runs == 1 ? "" : "s", opt->seconds);
	printf("# timer: %s\n", timer_name());
	printf("# * = the driver \"auto\" picks for the algorithm\n");
	printf("%-*s  %-*s  %4s  %4s  %-7s  %6s  %10s  %7s\n", t->alg_width, "alg",
	       t->driver_width, "driver", "prio", "key", "op", "size", "MB/s",
	       "cyc/B");
}

static void print_row(struct table *t, const struct options *opt,
		      const struct bench_driver *bd, enum bench_op op,
		      size_t size, int valid, double rate)
{
	double mbps = rate / 1e6;
	double cpb = t->core_hz > 0 && rate > 0 ? t->core_hz / rate : 0;

	progress_clear();
	if (opt->json) {
		printf("%s\n  {\"alg\": ", t->rows ? "," : "");
		json_string(bd->info.alg_name);
		printf(", \"driver\": ");
		json_string(bd->info.driver_name);
		printf(", \"priority\": %d, \"auto\": %s, \"const_time\": %s, "
		       "\"key_bits\": %u, \"op\": \"%s\", \"size\": %zu, ",
		       bd->info.priority, bd->is_auto ? "true" : "false",
		       bd->info.const_time ? "true" : "false", bd->key_bytes * 8,
		       op_names[op], size);
		if (valid)
			printf("\"status\": \"ok\", \"mb_per_s\": %.3f, ", mbps);
		else
			printf("\"status\": \"n/a\", \"mb_per_s\": null, ");
		if (valid && cpb > 0)
			printf("\"cycles_per_byte\": %.4f, ", cpb);
		else
			printf("\"cycles_per_byte\": null, ");
		if (t->core_hz > 0)
			printf("\"core_ghz\": %.4f, ", t->core_hz / 1e9);
		else
			printf("\"core_ghz\": null, ");
		printf("\"clock_method\": ");
		json_string(t->clock_method);
		printf(", \"timer\": ");
		json_string(timer_name());
		printf("}");
	} else {
		char driver[160], key[16];

		snprintf(driver, sizeof(driver), "%s%s", bd->info.driver_name,
			 bd->is_auto ? " *" : "");
		if (bd->key_bytes)
			snprintf(key, sizeof(key), "%u", bd->key_bytes * 8);
		else
			snprintf(key, sizeof(key), "-");
		printf("%-*s  %-*s  %4d  %4s  %-7s  %6zu  ", t->alg_width,
		       bd->info.alg_name, t->driver_width, driver,
		       bd->info.priority, key, op_names[op], size);
		if (!valid)
			printf("%10s  %7s\n", "n/a", "n/a");
		else if (cpb > 0)
			printf("%10.1f  %7.2f\n", mbps, cpb);
		else
			printf("%10.1f  %7s\n", mbps, "-");
	}
	fflush(stdout);
	t->rows++;
}

static void print_footer(const struct options *opt)
{
	if (opt->json)
		printf("\n]\n");
	fflush(stdout);
}

/* ---- main ----------------------------------------------------------------- */

static int core_clock(const struct options *opt, struct table *t)
{
	struct core_clock clock;
	int err;

	if (opt->ghz > 0) {
		t->core_hz = opt->ghz * 1e9;
		t->clock_method = "--ghz";
		return 0;
	}
	err = cycles_measure_core_clock(&clock);
	if (err) {
		note("cannot measure the core clock: %s", strerror(-err));
		return err;
	}
	t->core_hz = clock.hz;
	t->clock_method = clock.method;
	return 0;
}

static int run_all(const struct options *opt, struct bench_driver *sel,
		   unsigned int n, struct table *t)
{
	size_t max_size = 0;
	unsigned int total = 0, done = 0;
	uint8_t *src, *dst;
	int status = CLOAKFS_EXIT_OK;

	for (unsigned int i = 0; i < opt->nsizes; i++)
		if (opt->sizes[i] > max_size)
			max_size = opt->sizes[i];
	max_size = (max_size + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;
	src = aligned_alloc(BUF_ALIGN, max_size);
	dst = aligned_alloc(BUF_ALIGN, max_size);
	if (!src || !dst) {
		note("out of memory");
		free(src);
		free(dst);
		return CLOAKFS_EXIT_ERROR;
	}
	for (unsigned int i = 0; i < n; i++) {
		enum bench_op ops[2];

		if (sel[i].tfm)
			total += driver_ops(&sel[i], ops) * opt->nsizes;
	}

	print_header(opt, t, sel, n);
	for (unsigned int i = 0; i < n; i++) {
		struct bench_driver *bd = &sel[i];
		enum bench_op ops[2];
		unsigned int nops;

		if (!bd->tfm)
			continue;
		nops = driver_ops(bd, ops);
		for (unsigned int o = 0; o < nops; o++) {
			for (unsigned int s = 0; s < opt->nsizes; s++) {
				size_t size = opt->sizes[s];
				struct bench_job job;
				double rate = 0;
				int err;

				progress(++done, total, bd->info.driver_name,
					 op_names[ops[o]], size);
				fill_pattern(src, size, size);
				err = setup_job(&job, bd, ops[o], size, src, dst);
				if (err == 0)
					err = measure(&job, opt, &rate);
				if (err < 0) {
					note("%s %s %zu bytes failed: %s",
					     bd->info.driver_name, op_names[ops[o]], size,
					     strerror(-err));
					status = CLOAKFS_EXIT_ERROR;
					continue;
				}
				print_row(t, opt, bd, ops[o], size, err == 0, rate);
			}
		}
	}
	progress_clear();
	print_footer(opt);
	free(src);
	free(dst);
	return status;
}

int main(int argc, char **argv)
{
	struct bench_driver *sel = NULL;
	struct options opt;
	struct table t = { 0 };
	unsigned int n = 0, usable = 0;
	int err, status = CLOAKFS_EXIT_OK;

	parse_options(argc, argv, &opt);
	if (opt.cpu_time)
		timer_clock = CLOCK_THREAD_CPUTIME_ID;
	progress_enabled = isatty(STDERR_FILENO);

	err = crypto_init();
	if (err) {
		const char *msg = crypto_init_error();

		note("crypto init failed: %s", msg && *msg ? msg : strerror(-err));
		return CLOAKFS_EXIT_ERROR;
	}
	if (opt.list)
		return cli_list_drivers(stdout);

	if (select_drivers(&opt, &sel, &n))
		return CLOAKFS_EXIT_ERROR;
	if (core_clock(&opt, &t)) {
		free(sel);
		return CLOAKFS_EXIT_ERROR;
	}
	for (unsigned int i = 0; i < n; i++) {
		err = prepare_driver(&sel[i], opt.keysize);
		if (!err)
			usable++;
		/* a driver asked for by name that cannot run is an error */
		else if (opt.ndrivers)
			status = CLOAKFS_EXIT_ERROR;
	}
	if (usable == 0) {
		note("no usable driver to measure");
		status = CLOAKFS_EXIT_ERROR;
	} else if (run_all(&opt, sel, n, &t) != CLOAKFS_EXIT_OK) {
		status = CLOAKFS_EXIT_ERROR;
	}
	for (unsigned int i = 0; i < n; i++)
		if (sel[i].tfm)
			crypto_free(sel[i].tfm);
	free(sel);
	return status;
}
