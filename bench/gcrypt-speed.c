/* SPDX-License-Identifier: MIT */
/*
 * libgcrypt's speed on the ciphers cloakfs is compared with, timed the way
 * cloakfs-bench --cpu-time times ours (see crypto-peers.sh, which builds
 * and runs this):
 *
 *   gcrypt-speed [-t SECONDS] [-r RUNS] [-w] -c CIPHER[,...] -s SIZE[,...]
 *
 * CIPHER is aes256-xts, sm4-ecb, sm4-cbc, sm4-ctr, sm4-xts,
 * camellia256-ecb, camellia256-cbc, camellia256-ctr or camellia256-xts
 * (Camellia-256: 64-byte XTS key). Every
 * request is one call on SIZE bytes, out of place, with a fresh IV set
 * (none for ECB), as a filesystem encrypts one sector: for XTS the IV is
 * the sector's tweak. Prints "CIPHER OP SIZE MB/s" lines, encrypt and
 * decrypt, MB/s = 10^6 bytes per second, after '#' lines naming the
 * libgcrypt version and the CPU features it uses.
 *
 * Timing: a batch of requests is sized to ~1 ms of work (several MiB at
 * the large sizes), the clock read only between batches (a read costs
 * over a microsecond on our VMs); a run repeats batches for SECONDS, and
 * the best of RUNS runs is printed. The clock is the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so time other tasks take on a busy machine
 * is left out; -w uses the wall clock (CLOCK_MONOTONIC) instead.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <gcrypt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_LIST 16
#define MAX_SIZE (1u << 24)
#define BATCH_SECONDS 1e-3

struct cipher_spec {
	const char *name;
	int algo;
	int mode;
	size_t key_bytes; /* both halves for XTS */
	int has_iv;
};

static const struct cipher_spec specs[] = {
	{ "aes256-xts", GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_XTS, 64, 1 },
	{ "sm4-ecb", GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_ECB, 16, 0 },
	{ "sm4-cbc", GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC, 16, 1 },
	{ "sm4-ctr", GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CTR, 16, 1 },
	{ "sm4-xts", GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_XTS, 32, 1 },
	{ "camellia256-ecb", GCRY_CIPHER_CAMELLIA256, GCRY_CIPHER_MODE_ECB, 32, 0 },
	{ "camellia256-cbc", GCRY_CIPHER_CAMELLIA256, GCRY_CIPHER_MODE_CBC, 32, 1 },
	{ "camellia256-ctr", GCRY_CIPHER_CAMELLIA256, GCRY_CIPHER_MODE_CTR, 32, 1 },
	{ "camellia256-xts", GCRY_CIPHER_CAMELLIA256, GCRY_CIPHER_MODE_XTS, 64, 1 },
};

static clockid_t timer = CLOCK_THREAD_CPUTIME_ID;

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: gcrypt-speed [-t SECONDS] [-r RUNS] [-w] -c CIPHER[,...] -s SIZE[,...]\n"
		"libgcrypt cipher speed, one call per SIZE-byte request, encrypt and decrypt.\n"
		"  -c CIPHERS  aes256-xts, sm4-ecb, sm4-cbc, sm4-ctr, sm4-xts,\n"
		"              camellia256-ecb, camellia256-cbc, camellia256-ctr,\n"
		"              camellia256-xts\n"
		"  -s SIZES    request sizes in bytes (multiples of 16)\n"
		"  -t SECONDS  time of one run (default 0.2)\n"
		"  -r RUNS     runs per measurement, the best is printed (default 3)\n"
		"  -w          time with the wall clock, not the thread's CPU time\n"
		"Prints 'CIPHER OP SIZE MB/s' lines (MB/s = 10^6 bytes/s).\n");
}

static void fail(const char *what, gcry_error_t err)
{
	fprintf(stderr, "gcrypt-speed: %s: %s\n", what, gcry_strerror(err));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	if (clock_gettime(timer, &ts) != 0) {
		perror("gcrypt-speed: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const struct cipher_spec *find_spec(const char *name)
{
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		if (!strcmp(specs[i].name, name))
			return &specs[i];
	return NULL;
}

/* n requests of len bytes; exits on a libgcrypt error */
static void run_batch(gcry_cipher_hd_t hd, const struct cipher_spec *spec,
		      int enc, uint8_t *dst, const uint8_t *src, size_t len,
		      uint64_t n)
{
	static const uint8_t iv[16] = { 7, 6, 5, 4, 3, 2, 1 };
	gcry_error_t err;

	for (uint64_t i = 0; i < n; i++) {
		if (spec->has_iv) {
			err = gcry_cipher_setiv(hd, iv, sizeof(iv));
			if (err)
				fail("setiv", err);
		}
		err = enc ? gcry_cipher_encrypt(hd, dst, len, src, len) :
			    gcry_cipher_decrypt(hd, dst, len, src, len);
		if (err)
			fail(spec->name, err);
	}
}

/* bytes per second, best of runs runs of seconds each */
static double measure(const struct cipher_spec *spec, int enc, size_t len,
		      uint8_t *dst, const uint8_t *src, double seconds,
		      unsigned int runs)
{
	uint8_t key[64];
	gcry_cipher_hd_t hd;
	gcry_error_t err;
	uint64_t batch = 1;
	double t0, elapsed, best = 0;

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 37 + 11); /* XTS halves must differ */
	err = gcry_cipher_open(&hd, spec->algo, spec->mode, 0);
	if (err)
		fail(spec->name, err);
	err = gcry_cipher_setkey(hd, key, spec->key_bytes);
	if (err)
		fail("setkey", err);
	/* calibrate to ~1 ms batches (and warm caches, predictors, clocks) */
	for (;;) {
		t0 = now();
		run_batch(hd, spec, enc, dst, src, len, batch);
		elapsed = now() - t0;
		if (elapsed >= BATCH_SECONDS / 4 || batch >= (UINT64_C(1) << 40))
			break;
		batch *= 2;
	}
	if (elapsed > 0)
		batch = (uint64_t)((double)batch * BATCH_SECONDS / elapsed);
	if (batch == 0)
		batch = 1;
	for (unsigned int r = 0; r < runs; r++) {
		uint64_t done = 0;

		t0 = now();
		do {
			run_batch(hd, spec, enc, dst, src, len, batch);
			done += batch;
			elapsed = now() - t0;
		} while (elapsed < seconds);
		if ((double)done * (double)len / elapsed > best)
			best = (double)done * (double)len / elapsed;
	}
	gcry_cipher_close(hd);
	return best;
}

/* the "hwflist:" line of libgcrypt's configuration report */
static void print_hwflist(void)
{
	char *text = NULL, *line;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		return;
	gcry_control(GCRYCTL_PRINT_CONFIG, f);
	if (fclose(f) != 0 || !text) {
		free(text);
		return;
	}
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (!strncmp(line, "hwflist:", 8))
			printf("# libgcrypt %s\n", line);
	free(text);
}

/* comma list into items[]; returns the count, exits when it is bad */
static unsigned int split(char *arg, char **items)
{
	unsigned int n = 0;

	for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		if (n == MAX_LIST) {
			fprintf(stderr, "gcrypt-speed: too many list items\n");
			exit(2);
		}
		items[n++] = tok;
	}
	return n;
}

int main(int argc, char **argv)
{
	char *cipher_names[MAX_LIST], *size_names[MAX_LIST];
	const struct cipher_spec *ciphers[MAX_LIST];
	size_t sizes[MAX_LIST], max_size = 0;
	unsigned int nciphers = 0, nsizes = 0, runs = 3;
	double seconds = 0.2;
	uint8_t *src, *dst;
	int c;

	while ((c = getopt(argc, argv, "c:s:t:r:wh")) != -1) {
		switch (c) {
		case 'c':
			nciphers = split(optarg, cipher_names);
			break;
		case 's':
			nsizes = split(optarg, size_names);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 'r':
			runs = (unsigned int)atoi(optarg);
			break;
		case 'w':
			timer = CLOCK_MONOTONIC;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc || nciphers == 0 || nsizes == 0 || runs == 0 ||
	    runs > 1000 || !(seconds > 0 && seconds <= 60)) {
		fprintf(stderr, "gcrypt-speed: need -c and -s, RUNS 1..1000, "
				"SECONDS in (0, 60] (see -h)\n");
		return 2;
	}
	for (unsigned int i = 0; i < nciphers; i++) {
		ciphers[i] = find_spec(cipher_names[i]);
		if (!ciphers[i]) {
			fprintf(stderr, "gcrypt-speed: unknown cipher '%s'\n",
				cipher_names[i]);
			return 2;
		}
	}
	for (unsigned int i = 0; i < nsizes; i++) {
		char *end;
		unsigned long v = strtoul(size_names[i], &end, 10);

		if (*end || v == 0 || v > MAX_SIZE || v % 16) {
			fprintf(stderr, "gcrypt-speed: bad size '%s' "
					"(a multiple of 16 up to %u)\n",
				size_names[i], MAX_SIZE);
			return 2;
		}
		sizes[i] = v;
		if (v > max_size)
			max_size = v;
	}

	if (!gcry_check_version(GCRYPT_VERSION)) {
		fprintf(stderr, "gcrypt-speed: libgcrypt too old (built with %s)\n",
			GCRYPT_VERSION);
		return 1;
	}
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	printf("# libgcrypt %s; timer: %s\n", gcry_check_version(NULL),
	       timer == CLOCK_MONOTONIC ?
		       "wall clock (CLOCK_MONOTONIC)" :
		       "thread CPU time (CLOCK_THREAD_CPUTIME_ID)");
	print_hwflist();

	/* aligned_alloc wants a multiple of the alignment */
	src = aligned_alloc(64, (max_size + 63) & ~(size_t)63);
	dst = aligned_alloc(64, (max_size + 63) & ~(size_t)63);
	if (!src || !dst) {
		fprintf(stderr, "gcrypt-speed: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < max_size; i++)
		src[i] = (uint8_t)(i * 131 + 7);
	for (unsigned int i = 0; i < nciphers; i++)
		for (unsigned int s = 0; s < nsizes; s++)
			for (int enc = 1; enc >= 0; enc--) {
				double rate = measure(ciphers[i], enc, sizes[s],
						      dst, src, seconds, runs);

				printf("%s %s %zu %.3f\n", ciphers[i]->name,
				       enc ? "encrypt" : "decrypt", sizes[s],
				       rate / 1e6);
				fflush(stdout);
			}
	free(src);
	free(dst);
	return 0;
}
