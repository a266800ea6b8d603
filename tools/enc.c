/* SPDX-License-Identifier: MIT */
/* see enc.h */
#include "tools/enc.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/exitcodes.h"
#include "crypto/crypto.h"
#include "crypto/hex.h"
#include "tools/cli.h"

#define MAX_INPUT (1ul << 30)

static const char *const prog = "cloakfs-enc";

/* one run's resources, released by run_free whatever the exit path */
struct enc_run {
	FILE *err;
	int out_fd;
	struct crypto_tfm *tfm;
	uint8_t *key, *iv, *aad, *in, *out;
	size_t klen, ivlen, aadlen, len;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s --list\n"
		"       %s --alg ALG [--driver DRIVER] [--key HEX] [--iv HEX] [--aad HEX]\n"
		"                   (--encrypt | --decrypt)   < input > output\n"
		"       %s --alg sha512|hmac(sha512)|ghash|polyval [--key HEX] < input > digest\n"
		"       %s --selftest ALG [--driver DRIVER]\n"
		"\n"
		"Encrypt, decrypt or hash stdin with one cloakfs crypto driver.\n"
		"\n"
		"  -l, --list           list every driver: ALG DRIVER PRIORITY flags\n"
		"  -t, --selftest ALG   run ALG's published known-answer vectors through\n"
		"                       the driver (the best one, or --driver), one line\n"
		"                       per vector, e.g. adiantum(xchacha12,aes)\n"
		"  -a, --alg ALG        algorithm, e.g. xts(aes), xts(speck128), xts(speck64),\n"
		"                       xts(sm4), ecb(sm4), cbc(aes), cfb(sm4), ctr(aes),\n"
		"                       cts(cbc(aes)), chacha20, rfc7539(chacha20,poly1305),\n"
		"                       xchacha20poly1305, gcm(aes), adiantum(xchacha12,aes),\n"
		"                       sha512, hmac(sha512)\n"
		"  -d, --driver NAME    force one driver (default: the best allowed one)\n"
		"  -k, --key HEX        key; its length selects the variant (64 bytes for\n"
		"                       xts(aes) is AES-256-XTS)\n"
		"  -i, --iv HEX         IV, XTS tweak (16 bytes; 8 for xts(speck64)) or\n"
		"                       AEAD nonce (12 bytes; 24 for xchacha20poly1305)\n"
		"  -A, --aad HEX        AEAD associated data\n"
		"  -e, --encrypt        encrypt (AEAD: output is ciphertext || 16-byte tag)\n"
		"  -D, --decrypt        decrypt (AEAD: input is ciphertext || tag, verified)\n"
		"  -v, --verbose        say which driver runs (on stderr)\n"
		"  -h, --help           this help\n"
		"  -V, --version        version\n"
		"\n"
		"Environment: CLOAKFS_CRYPTO (driver policy, see cloakfs-enc(1)).\n",
		prog, prog, prog, prog);
}

static int fail(struct enc_run *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* one error line; returns code for the caller to pass up */
static int fail(struct enc_run *r, int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(r->err, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(r->err, fmt, ap);
	va_end(ap);
	fputc('\n', r->err);
	return code;
}

static int parse_hex(struct enc_run *r, const char *what, const char *hex,
		     uint8_t **out, size_t *len)
{
	size_t n = strlen(hex), bad = 0;
	long got;

	if (n % 2)
		return fail(r, CLOAKFS_EXIT_USAGE, "--%s: odd number of hex digits", what);
	*out = malloc(n / 2 + 1);
	if (!*out)
		return fail(r, CLOAKFS_EXIT_ERROR, "out of memory");
	got = hex_decode_str(hex, *out, n / 2, &bad);
	if (got < 0)
		return fail(r, CLOAKFS_EXIT_USAGE, "--%s: not a hex string (bad character "
			    "at position %zu)", what, bad + 1);
	*len = (size_t)got;
	return CLOAKFS_EXIT_OK;
}

/* the whole of in_fd into r->in, r->len */
static int read_all(struct enc_run *r, int fd)
{
	size_t cap = 1 << 16, n = 0;

	r->in = malloc(cap);
	while (r->in) {
		ssize_t got = read(fd, r->in + n, cap - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return fail(r, CLOAKFS_EXIT_ERROR, "reading input: %s",
				    strerror(errno));
		if (got == 0)
			break;
		n += (size_t)got;
		if (n == cap) {
			uint8_t *nb;

			if (cap >= MAX_INPUT)
				return fail(r, CLOAKFS_EXIT_ERROR,
					    "input larger than %lu bytes", MAX_INPUT);
			cap *= 2;
			nb = realloc(r->in, cap);
			if (!nb) {
				free(r->in);
				r->in = NULL;
			} else {
				r->in = nb;
			}
		}
	}
	if (!r->in)
		return fail(r, CLOAKFS_EXIT_ERROR, "out of memory reading input");
	r->len = n;
	return CLOAKFS_EXIT_OK;
}

static int write_all(struct enc_run *r, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(r->out_fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(r, CLOAKFS_EXIT_ERROR, "writing output: %s",
				    strerror(errno));
		p += n;
		len -= (size_t)n;
	}
	return CLOAKFS_EXIT_OK;
}

static int explain_alloc_error(struct enc_run *r, const char *alg,
			       const char *driver, int err)
{
	struct crypto_driver_info info;
	unsigned int n = crypto_driver_count();

	if (driver) {
		for (unsigned int i = 0; i < n; i++) {
			if (crypto_driver_info(i, &info) || strcmp(info.driver_name, driver))
				continue;
			if (alg && strcmp(info.alg_name, alg))
				return fail(r, CLOAKFS_EXIT_ERROR, "driver '%s' "
					    "implements %s, not %s", driver,
					    info.alg_name, alg);
			if (err == -ENODEV)
				return fail(r, CLOAKFS_EXIT_ERROR, "driver '%s' needs "
					    "CPU features this machine lacks: %s",
					    driver, info.missing);
			if (err == -EPERM)
				return fail(r, CLOAKFS_EXIT_ERROR, "driver '%s' is "
					    "disabled by the crypto policy "
					    "(CLOAKFS_CRYPTO or crypto.conf)", driver);
			if (err == -ELIBBAD)
				return fail(r, CLOAKFS_EXIT_ERROR, "driver '%s' failed "
					    "its self-test: %s", driver,
					    info.selftest_reason);
		}
		return fail(r, CLOAKFS_EXIT_ERROR, "unknown driver '%s' (see %s "
			    "--list)", driver, prog);
	}
	if (err == -ENOENT)
		return fail(r, CLOAKFS_EXIT_ERROR, "unknown algorithm '%s' (see %s "
			    "--list)", alg, prog);
	return fail(r, CLOAKFS_EXIT_ERROR, "no usable driver for '%s' (features "
		    "missing, disabled by policy, variable-time not allowed, or "
		    "self-test failed)", alg);
}

static int check_keylen(struct enc_run *r, size_t klen)
{
	const uint16_t *ks = crypto_keysizes(r->tfm);
	char sizes[64] = "";

	for (int i = 0; i < 4 && ks[i]; i++) {
		if (ks[i] == klen)
			return CLOAKFS_EXIT_OK;
		snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%u",
			 i ? ", " : "", ks[i]);
	}
	return fail(r, CLOAKFS_EXIT_USAGE, "%s: key is %zu bytes; valid: %s bytes",
		    crypto_tfm_alg_name(r->tfm), klen, sizes);
}

static int hash(struct enc_run *r, const char *alg, int dir, int in_fd,
		int has_iv, int has_aad)
{
	uint8_t digest[128];
	unsigned int ds = crypto_digestsize(r->tfm);
	int rc;

	if (dir)
		return fail(r, CLOAKFS_EXIT_USAGE, "%s is a hash: no --encrypt/--decrypt", alg);
	if (has_iv || has_aad)
		return fail(r, CLOAKFS_EXIT_USAGE, "%s takes no --iv or --aad", alg);
	/* keyed: hmac(...), and the hashes that list key sizes (ghash, polyval) */
	if ((!strncmp(alg, "hmac(", 5) || crypto_keysizes(r->tfm)[0]) != !!r->key)
		return fail(r, CLOAKFS_EXIT_USAGE, r->key ? "%s takes no key" :
			    "%s needs --key", alg);
	if (ds > sizeof(digest))
		return fail(r, CLOAKFS_EXIT_ERROR, "%s: digest too long", alg);
	if (r->key && crypto_setkey(r->tfm, r->key, r->klen))
		return fail(r, CLOAKFS_EXIT_USAGE, "%s: key rejected", alg);
	rc = read_all(r, in_fd);
	if (rc)
		return rc;
	if (crypto_hash_digest(r->tfm, r->in, r->len, digest))
		return fail(r, CLOAKFS_EXIT_ERROR, "%s failed", alg);
	return write_all(r, digest, ds);
}

static int aead(struct enc_run *r, const char *alg, int dir)
{
	size_t ts = crypto_tagsize(r->tfm), len = r->len;

	if (dir > 0) {
		r->out = malloc(len + ts + 1);
		if (!r->out)
			return fail(r, CLOAKFS_EXIT_ERROR, "out of memory");
		if (crypto_aead_encrypt(r->tfm, r->iv, r->aad, r->aadlen, r->out,
					r->in, len, r->out + len))
			return fail(r, CLOAKFS_EXIT_ERROR, "%s: encryption failed",
				    alg);
		return write_all(r, r->out, len + ts);
	}
	if (len < ts)
		return fail(r, CLOAKFS_EXIT_ERROR, "input is %zu bytes, shorter "
			    "than the %zu-byte tag", len, ts);
	r->out = malloc(len + 1);
	if (!r->out)
		return fail(r, CLOAKFS_EXIT_ERROR, "out of memory");
	if (crypto_aead_decrypt(r->tfm, r->iv, r->aad, r->aadlen, r->out, r->in,
				len - ts, r->in + len - ts))
		return fail(r, CLOAKFS_EXIT_AUTH, "authentication failed: the ciphertext, "
			    "tag, AAD, nonce or key is wrong; no output written");
	return write_all(r, r->out, len - ts);
}

static int cipher(struct enc_run *r, const char *alg, int dir)
{
	unsigned int bs = crypto_blocksize(r->tfm), minlen = crypto_min_len(r->tfm);
	size_t len = r->len;
	int err;

	if (len < minlen)
		return fail(r, CLOAKFS_EXIT_ERROR, "input is %zu bytes; %s needs "
			    "at least %u (one block)", len, alg, minlen);
	if (bs > 1 && !minlen && len % bs)
		return fail(r, CLOAKFS_EXIT_ERROR, "input is %zu bytes; %s needs "
			    "a multiple of the %u-byte block", len, alg, bs);
	r->out = malloc(len + 1);
	if (!r->out)
		return fail(r, CLOAKFS_EXIT_ERROR, "out of memory");
	err = dir > 0 ? crypto_encrypt(r->tfm, r->iv, r->out, r->in, len) :
			crypto_decrypt(r->tfm, r->iv, r->out, r->in, len);
	if (err)
		return fail(r, CLOAKFS_EXIT_ERROR, "%s failed: %s",
			    dir > 0 ? "encryption" : "decryption", strerror(-err));
	return write_all(r, r->out, len);
}

/* encrypt or decrypt: check the arguments against the algorithm, key it */
static int crypt_input(struct enc_run *r, const char *alg, int dir, int in_fd,
		       int has_iv, int has_aad)
{
	unsigned int ivsize = crypto_ivsize(r->tfm);
	int rc;

	if (!dir)
		return fail(r, CLOAKFS_EXIT_USAGE, "--encrypt or --decrypt is required");
	if (!r->key)
		return fail(r, CLOAKFS_EXIT_USAGE, "--key is required for %s", alg);
	if (crypto_tagsize(r->tfm) == 0 && has_aad)
		return fail(r, CLOAKFS_EXIT_USAGE, "%s takes no --aad", alg);
	if (!ivsize && has_iv)
		return fail(r, CLOAKFS_EXIT_USAGE, "%s takes no --iv", alg);
	if (ivsize != r->ivlen && (has_iv || ivsize))
		return fail(r, CLOAKFS_EXIT_USAGE, "%s: %s is %zu bytes; it must be %u bytes",
			    alg, crypto_tagsize(r->tfm) ? "nonce (--iv)" : "--iv",
			    r->ivlen, ivsize);
	if (crypto_tagsize(r->tfm)) {
		if (r->klen != 32)
			return fail(r, CLOAKFS_EXIT_USAGE, "%s: key is %zu bytes; valid: 32 "
				    "bytes", alg, r->klen);
	} else {
		rc = check_keylen(r, r->klen);
		if (rc)
			return rc;
	}
	if (crypto_setkey(r->tfm, r->key, r->klen))
		return fail(r, CLOAKFS_EXIT_USAGE, "%s: key rejected", alg);
	explicit_bzero(r->key, r->klen);

	rc = read_all(r, in_fd);
	if (rc)
		return rc;
	return crypto_tagsize(r->tfm) ? aead(r, alg, dir) : cipher(r, alg, dir);
}

/* --selftest: the counts of the vectors reported so far */
struct kat_tally {
	FILE *out;
	unsigned int passed, skipped, failed;
};

static void kat_line(void *arg, const struct crypto_kat_report *k)
{
	struct kat_tally *t = arg;

	fprintf(t->out, "%s %s: %s #%u, %zu bytes%s%s\n",
		k->status > 0 ? "ok" : k->status == 0 ? "skipped" : "FAILED",
		k->alg_name, k->source, k->index, k->len,
		k->status < 0 ? ": " : "", k->reason);
	if (k->status > 0)
		t->passed++;
	else if (k->status == 0)
		t->skipped++;
	else
		t->failed++;
}

/* --selftest ALG [--driver DRIVER]: the vectors, a line each, and a count */
static int selftest(struct enc_run *r, const char *alg, const char *driver)
{
	struct kat_tally t = { 0 };
	struct crypto_driver_info info;
	int err, rc = CLOAKFS_EXIT_OK;

	if (!driver) {
		driver = crypto_best_driver(alg);
		if (!driver) {
			r->tfm = crypto_alloc(alg, NULL, &err);
			return r->tfm ? fail(r, CLOAKFS_EXIT_ERROR, "%s: no driver",
					     alg) :
				        explain_alloc_error(r, alg, NULL, err);
		}
	}
	for (unsigned int i = 0, n = crypto_driver_count(); i < n; i++)
		if (!crypto_driver_info(i, &info) && !strcmp(info.driver_name, driver) &&
		    strcmp(info.alg_name, alg))
			return fail(r, CLOAKFS_EXIT_ERROR, "driver '%s' implements %s, "
				    "not %s", driver, info.alg_name, alg);
	t.out = fdopen(dup(r->out_fd), "w");
	if (!t.out)
		return fail(r, CLOAKFS_EXIT_ERROR, "writing output: %s", strerror(errno));
	err = crypto_kat_run(driver, kat_line, &t);
	if (err == 0 || err == -EBADMSG)
		fprintf(t.out, "%s by %s: %u passed, %u skipped, %u failed\n", alg,
			driver, t.passed, t.skipped, t.failed);
	if (fclose(t.out))
		return fail(r, CLOAKFS_EXIT_ERROR, "writing output: %s", strerror(errno));
	if (err == -ENOENT)
		rc = fail(r, CLOAKFS_EXIT_ERROR, "unknown driver '%s' (see %s --list)",
			  driver, prog);
	else if (err == -ENODEV)
		rc = explain_alloc_error(r, alg, driver, err);
	else if (err == -ENODATA)
		rc = fail(r, CLOAKFS_EXIT_ERROR, "%s has no known-answer vectors", alg);
	else if (err)
		rc = fail(r, CLOAKFS_EXIT_ERROR, "%u of %u vectors of %s failed on %s",
			  t.failed, t.passed + t.skipped + t.failed, alg, driver);
	else if (!t.passed)
		rc = fail(r, CLOAKFS_EXIT_ERROR, "no vector of %s has a key size %s "
			  "takes", alg, driver);
	return rc;
}

static void run_free(struct enc_run *r)
{
	if (r->tfm)
		crypto_free(r->tfm);
	if (r->key)
		explicit_bzero(r->key, r->klen);
	if (r->out)
		explicit_bzero(r->out, r->len);
	if (r->in) /* plaintext when encrypting */
		explicit_bzero(r->in, r->len);
	free(r->key);
	free(r->iv);
	free(r->aad);
	free(r->in);
	free(r->out);
}

int cloakfs_enc_main(int argc, char **argv, int in_fd, int out_fd, FILE *err)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "selftest", required_argument, NULL, 't' },
		{ "alg", required_argument, NULL, 'a' },
		{ "driver", required_argument, NULL, 'd' },
		{ "key", required_argument, NULL, 'k' },
		{ "iv", required_argument, NULL, 'i' },
		{ "aad", required_argument, NULL, 'A' },
		{ "encrypt", no_argument, NULL, 'e' },
		{ "decrypt", no_argument, NULL, 'D' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	const char *alg = NULL, *driver = NULL, *keyhex = NULL, *ivhex = NULL,
		   *aadhex = NULL, *kat_alg = NULL;
	int list = 0, dir = 0, verbose = 0, c, e, rc;
	struct enc_run r = { .err = err, .out_fd = out_fd };
	FILE *out;

	optind = 0; /* glibc: 0 starts a fresh scan, for a second call */
	opterr = 0; /* one error line, ours */
	while ((c = getopt_long(argc, argv, ":lt:a:d:k:i:A:eDvhV", opts, NULL)) != -1) {
		switch (c) {
		case 'l': list = 1; break;
		case 't': kat_alg = optarg; break;
		case 'a': alg = optarg; break;
		case 'd': driver = optarg; break;
		case 'k': keyhex = optarg; break;
		case 'i': ivhex = optarg; break;
		case 'A': aadhex = optarg; break;
		case 'v': verbose = 1; break;
		case 'e': dir = dir ? -2 : 1; break;
		case 'D': dir = dir ? -2 : -1; break;
		case 'h':
		case 'V':
			out = fdopen(dup(out_fd), "w");
			if (!out)
				return fail(&r, CLOAKFS_EXIT_ERROR, "writing output: %s",
					    strerror(errno));
			if (c == 'h')
				usage(out);
			else
				fprintf(out, "cloakfs-enc %s\n", CLOAKFS_VERSION);
			return fclose(out) ? fail(&r, CLOAKFS_EXIT_ERROR,
						  "writing output: %s", strerror(errno))
					   : CLOAKFS_EXIT_OK;
		case ':':
			return fail(&r, CLOAKFS_EXIT_USAGE, "option '%s' needs an argument "
				    "(try --help)", argv[optind - 1]);
		default:
			return fail(&r, CLOAKFS_EXIT_USAGE, "unknown option '%s' (try --help)",
				    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return fail(&r, CLOAKFS_EXIT_USAGE, "unexpected argument '%s' (input comes "
			    "from stdin)", argv[optind]);
	if (crypto_init())
		return fail(&r, CLOAKFS_EXIT_ERROR, "%s", crypto_init_error());
	if (list) {
		out = fdopen(dup(out_fd), "w");
		if (!out)
			return fail(&r, CLOAKFS_EXIT_ERROR, "writing output: %s",
				    strerror(errno));
		rc = cli_list_drivers(out);
		return fclose(out) && rc == CLOAKFS_EXIT_OK ? CLOAKFS_EXIT_ERROR : rc;
	}
	if (kat_alg) {
		if (alg || keyhex || ivhex || aadhex || dir)
			return fail(&r, CLOAKFS_EXIT_USAGE, "--selftest takes only --driver "
				    "(and --verbose)");
		rc = selftest(&r, kat_alg, driver);
		run_free(&r);
		return rc;
	}
	if (!alg && !driver)
		return fail(&r, CLOAKFS_EXIT_USAGE, "--alg or --driver is required (try --help)");
	if (dir == -2)
		return fail(&r, CLOAKFS_EXIT_USAGE, "give one of --encrypt and --decrypt, not "
			    "both");

	r.tfm = crypto_alloc(alg, driver, &e);
	if (!r.tfm)
		return explain_alloc_error(&r, alg, driver, e);
	alg = crypto_tfm_alg_name(r.tfm);
	/* the tool en/decrypts messages: a bare block cipher has no mode */
	if (crypto_tfm_type(r.tfm) == CRYPTO_TYPE_CIPHER) {
		rc = fail(&r, CLOAKFS_EXIT_USAGE, "%s is a single-block cipher, not a "
			  "mode: name a mode over it, e.g. xts(%s), cbc(%s) or "
			  "ecb(%s) (try --list)", alg, alg, alg, alg);
		run_free(&r);
		return rc;
	}
	if (verbose)
		fprintf(err, "%s: %s by driver %s\n", prog, alg,
			crypto_tfm_driver_name(r.tfm));
	rc = CLOAKFS_EXIT_OK;
	if (keyhex)
		rc = parse_hex(&r, "key", keyhex, &r.key, &r.klen);
	if (!rc && ivhex)
		rc = parse_hex(&r, "iv", ivhex, &r.iv, &r.ivlen);
	if (!rc && aadhex)
		rc = parse_hex(&r, "aad", aadhex, &r.aad, &r.aadlen);
	if (!rc)
		rc = crypto_digestsize(r.tfm) ?
			     hash(&r, alg, dir, in_fd, !!ivhex, !!aadhex) :
			     crypt_input(&r, alg, dir, in_fd, !!ivhex, !!aadhex);
	run_free(&r);
	return rc;
}
