/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-enc: drive any crypto driver from the command line (in the
 * spirit of libkcapi's kcapi-enc). Reads stdin, writes stdout.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "crypto/hex.h"
#include "tools/cli.h"
#include "tools/exitcodes.h"

#define MAX_INPUT (1ul << 30)

static const char *prog = "cloakfs-enc";

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s --list\n"
		"       %s --alg ALG [--driver DRIVER] [--key HEX] [--iv HEX] [--aad HEX]\n"
		"                   (--encrypt | --decrypt)   < input > output\n"
		"       %s --alg sha512|hmac(sha512) [--key HEX] < input > digest\n"
		"\n"
		"Encrypt, decrypt or hash stdin with one cloakfs crypto driver.\n"
		"\n"
		"  -l, --list           list every driver: ALG DRIVER PRIORITY flags\n"
		"  -a, --alg ALG        algorithm, e.g. xts(aes), xts(speck128), xts(speck64),\n"
		"                       xts(sm4), ecb(sm4), cbc(aes), cfb(sm4), ctr(aes),\n"
		"                       cts(cbc(aes)), chacha20, rfc7539(chacha20,poly1305),\n"
		"                       sha512, hmac(sha512)\n"
		"  -d, --driver NAME    force one driver (default: the best allowed one)\n"
		"  -k, --key HEX        key; its length selects the variant (64 bytes for\n"
		"                       xts(aes) is AES-256-XTS)\n"
		"  -i, --iv HEX         IV, XTS tweak (16 bytes; 8 for xts(speck64)) or\n"
		"                       AEAD nonce (12 bytes)\n"
		"  -A, --aad HEX        AEAD associated data\n"
		"  -e, --encrypt        encrypt (AEAD: output is ciphertext || 16-byte tag)\n"
		"  -D, --decrypt        decrypt (AEAD: input is ciphertext || tag, verified)\n"
		"  -v, --verbose        say which driver runs (on stderr)\n"
		"  -h, --help           this help\n"
		"  -V, --version        version\n"
		"\n"
		"Environment: CLOAKFS_CRYPTO (driver policy, see cloakfs-enc(1)).\n",
		prog, prog, prog);
}

static void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static uint8_t *parse_hex(const char *what, const char *hex, size_t *len)
{
	size_t n = strlen(hex), bad = 0;
	uint8_t *out;
	long r;

	if (n % 2)
		die(EXIT_USAGE, "--%s: odd number of hex digits", what);
	out = malloc(n / 2 + 1);
	if (!out)
		die(EXIT_FAILURE_GENERIC, "out of memory");
	r = hex_decode_str(hex, out, n / 2, &bad);
	if (r < 0)
		die(EXIT_USAGE, "--%s: not a hex string (bad character at position %zu)",
		    what, bad + 1);
	*len = (size_t)r;
	return out;
}

static uint8_t *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);

	while (buf) {
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (r == 0)
			break;
		if (n == cap) {
			if (cap >= MAX_INPUT)
				die(EXIT_FAILURE_GENERIC, "input larger than %lu bytes",
				    MAX_INPUT);
			cap *= 2;
			uint8_t *nb = realloc(buf, cap);

			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	if (!buf)
		die(EXIT_FAILURE_GENERIC, "out of memory reading input");
	if (ferror(f))
		die(EXIT_FAILURE_GENERIC, "reading input: %s", strerror(errno));
	*len = n;
	return buf;
}

static void write_all(const uint8_t *p, size_t len)
{
	if (fwrite(p, 1, len, stdout) != len || fflush(stdout))
		die(EXIT_FAILURE_GENERIC, "writing output: %s", strerror(errno));
}

static void explain_alloc_error(const char *alg, const char *driver, int err)
{
	struct crypto_driver_info info;
	unsigned int n = crypto_driver_count();

	if (driver) {
		for (unsigned int i = 0; i < n; i++) {
			if (crypto_driver_info(i, &info) || strcmp(info.driver_name, driver))
				continue;
			if (alg && strcmp(info.alg_name, alg))
				die(EXIT_FAILURE_GENERIC, "driver '%s' implements %s, not %s",
				    driver, info.alg_name, alg);
			if (err == -ENODEV)
				die(EXIT_FAILURE_GENERIC, "driver '%s' needs CPU features "
				    "this machine lacks: %s", driver, info.missing);
			if (err == -EPERM)
				die(EXIT_FAILURE_GENERIC, "driver '%s' is disabled by the "
				    "crypto policy (CLOAKFS_CRYPTO or crypto.conf)", driver);
			if (err == -ELIBBAD)
				die(EXIT_FAILURE_GENERIC, "driver '%s' failed its self-test: %s",
				    driver, info.selftest_reason);
		}
		die(EXIT_FAILURE_GENERIC, "unknown driver '%s' (see %s --list)", driver,
		    prog);
	}
	if (err == -ENOENT)
		die(EXIT_FAILURE_GENERIC, "unknown algorithm '%s' (see %s --list)", alg,
		    prog);
	die(EXIT_FAILURE_GENERIC, "no usable driver for '%s' (features missing, "
	    "disabled by policy, variable-time not allowed, or self-test failed)",
	    alg);
}

static void check_keylen(struct crypto_tfm *tfm, size_t klen)
{
	const unsigned char *ks = crypto_keysizes(tfm);
	char sizes[64] = "";

	for (int i = 0; i < 4 && ks[i]; i++) {
		if (ks[i] == klen)
			return;
		snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%u",
			 i ? ", " : "", ks[i]);
	}
	die(EXIT_USAGE, "%s: key is %zu bytes; valid: %s bytes",
	    crypto_tfm_alg_name(tfm), klen, sizes);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
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
		   *aadhex = NULL;
	int list = 0, dir = 0, verbose = 0, c, err;
	uint8_t *key = NULL, *iv = NULL, *aad = NULL, *in, *out;
	size_t klen = 0, ivlen = 0, aadlen = 0, len;
	struct crypto_tfm *tfm;

	opterr = 0; /* one error line, ours */
	while ((c = getopt_long(argc, argv, ":la:d:k:i:A:eDvhV", opts, NULL)) != -1) {
		switch (c) {
		case 'l': list = 1; break;
		case 'a': alg = optarg; break;
		case 'd': driver = optarg; break;
		case 'k': keyhex = optarg; break;
		case 'i': ivhex = optarg; break;
		case 'A': aadhex = optarg; break;
		case 'v': verbose = 1; break;
		case 'e': dir = dir ? -2 : 1; break;
		case 'D': dir = dir ? -2 : -1; break;
		case 'h': usage(stdout); return EXIT_OK;
		case 'V': printf("cloakfs-enc %s\n", CLOAKFS_VERSION); return EXIT_OK;
		case ':':
			die(EXIT_USAGE, "option '%s' needs an argument (try --help)",
			    argv[optind - 1]);
			break;
		default:
			die(EXIT_USAGE, "unknown option '%s' (try --help)",
			    argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s' (input comes from stdin)",
		    argv[optind]);
	if (crypto_init())
		die(EXIT_FAILURE_GENERIC, "%s", crypto_init_error());
	if (list)
		return cli_list_drivers();
	if (!alg && !driver)
		die(EXIT_USAGE, "--alg or --driver is required (try --help)");
	if (dir == -2)
		die(EXIT_USAGE, "give one of --encrypt and --decrypt, not both");

	tfm = crypto_alloc(alg, driver, &err);
	if (!tfm)
		explain_alloc_error(alg, driver, err);
	alg = crypto_tfm_alg_name(tfm);
	if (verbose)
		fprintf(stderr, "%s: %s by driver %s\n", prog, alg,
			crypto_tfm_driver_name(tfm));
	if (keyhex)
		key = parse_hex("key", keyhex, &klen);
	if (ivhex)
		iv = parse_hex("iv", ivhex, &ivlen);
	if (aadhex)
		aad = parse_hex("aad", aadhex, &aadlen);

	if (crypto_digestsize(tfm)) {
		uint8_t digest[128];
		unsigned int ds = crypto_digestsize(tfm);

		if (dir)
			die(EXIT_USAGE, "%s is a hash: no --encrypt/--decrypt", alg);
		if (ivhex || aadhex)
			die(EXIT_USAGE, "%s takes no --iv or --aad", alg);
		if (!strncmp(alg, "hmac(", 5) != !!key)
			die(EXIT_USAGE, key ? "%s takes no key" : "%s needs --key", alg);
		if (key && crypto_setkey(tfm, key, klen))
			die(EXIT_USAGE, "%s: key rejected", alg);
		in = read_all(stdin, &len);
		crypto_hash_digest(tfm, in, len, digest);
		write_all(digest, ds);
		crypto_free(tfm);
		return EXIT_OK;
	}

	if (!dir)
		die(EXIT_USAGE, "--encrypt or --decrypt is required");
	if (!key)
		die(EXIT_USAGE, "--key is required for %s", alg);
	if (crypto_tagsize(tfm) == 0 && aadhex)
		die(EXIT_USAGE, "%s takes no --aad", alg);
	if (!crypto_ivsize(tfm) && ivhex)
		die(EXIT_USAGE, "%s takes no --iv", alg);
	if (crypto_ivsize(tfm) != ivlen && (ivhex || crypto_ivsize(tfm)))
		die(EXIT_USAGE, "%s: %s is %zu bytes; it must be %u bytes", alg,
		    crypto_tagsize(tfm) ? "nonce (--iv)" : "--iv", ivlen,
		    crypto_ivsize(tfm));
	if (crypto_tagsize(tfm)) {
		if (klen != 32)
			die(EXIT_USAGE, "%s: key is %zu bytes; valid: 32 bytes", alg, klen);
	} else {
		check_keylen(tfm, klen);
	}
	if (crypto_setkey(tfm, key, klen))
		die(EXIT_USAGE, "%s: key rejected", alg);
	explicit_bzero(key, klen);

	in = read_all(stdin, &len);
	if (crypto_tagsize(tfm)) {
		size_t ts = crypto_tagsize(tfm);

		if (dir > 0) {
			out = malloc(len + ts + 1);
			if (!out)
				die(EXIT_FAILURE_GENERIC, "out of memory");
			crypto_aead_encrypt(tfm, iv, aad, aadlen, out, in, len, out + len);
			write_all(out, len + ts);
		} else {
			if (len < ts)
				die(EXIT_FAILURE_GENERIC, "input is %zu bytes, shorter than "
				    "the %zu-byte tag", len, ts);
			out = malloc(len + 1);
			if (!out)
				die(EXIT_FAILURE_GENERIC, "out of memory");
			if (crypto_aead_decrypt(tfm, iv, aad, aadlen, out, in, len - ts,
						in + len - ts))
				die(EXIT_AUTH, "authentication failed: the ciphertext, tag, "
				    "AAD, nonce or key is wrong; no output written");
			write_all(out, len - ts);
		}
	} else {
		unsigned int bs = crypto_blocksize(tfm), minlen = crypto_min_len(tfm);

		if (len < minlen)
			die(EXIT_FAILURE_GENERIC, "input is %zu bytes; %s needs at "
			    "least %u (one block)", len, alg, minlen);
		if (bs > 1 && !minlen && len % bs)
			die(EXIT_FAILURE_GENERIC, "input is %zu bytes; %s needs a "
			    "multiple of the %u-byte block", len, alg, bs);
		out = malloc(len + 1);
		if (!out)
			die(EXIT_FAILURE_GENERIC, "out of memory");
		err = dir > 0 ? crypto_encrypt(tfm, iv, out, in, len) :
				crypto_decrypt(tfm, iv, out, in, len);
		if (err)
			die(EXIT_FAILURE_GENERIC, "%s failed: %s",
			    dir > 0 ? "encryption" : "decryption", strerror(-err));
		write_all(out, len);
	}
	crypto_free(tfm);
	return EXIT_OK;
}
