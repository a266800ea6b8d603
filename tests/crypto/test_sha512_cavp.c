/* SPDX-License-Identifier: MIT */
/*
 * Every sha512 driver this CPU runs against the NIST CAVP SHA-512 test
 * vectors for byte-oriented messages (SHAVS, CAVS 11.0/11.1, from NIST's
 * shabytetestvectors.zip): SHA512ShortMsg.rsp (129 messages of 0 to 128
 * bytes) and SHA512Monte.rsp (the SHAVS Monte Carlo test: 100 checkpoints
 * of 1,000 chained hashes), kept unmodified in tests/crypto/vectors/, and
 * SHA512LongMsg.rsp (128 messages of 227 to 12,827 bytes, 1.7 MB of hex),
 * read from the copy Debian's python3-cryptography-vectors installs
 * (scripts/deps.sh installs it; $CLOAKFS_CAVP_SHA2 names another folder).
 * Long messages are hashed in one call and in random pieces.
 *
 *   test_sha512_cavp VECTOR_DIR
 *
 * TEST_QUICK=1 runs the first 10 Monte Carlo checkpoints only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "testutil.h"

#define MAX_DRIVERS 16
#define DEFAULT_LONG_DIR \
	"/usr/lib/python3/dist-packages/cryptography_vectors/hashes/SHA2"

/* a .rsp file: "Name = value" lines; values handed to fn in order */
struct rsp {
	char *text;
	char *pos;
};

static int rsp_open(struct rsp *r, const char *dir, const char *file)
{
	char path[1024];
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "test_sha512_cavp: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	r->text = malloc((size_t)n + 1);
	if (!r->text || fread(r->text, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(r->text);
		return -1;
	}
	r->text[n] = '\0';
	r->pos = r->text;
	fclose(f);
	return 0;
}

/* the next "name = value" line's value for name (NUL-terminated in place) */
static char *rsp_next(struct rsp *r, const char *name)
{
	size_t nl = strlen(name);

	while (*r->pos) {
		char *line = r->pos, *end = strchr(line, '\n');

		r->pos = end ? end + 1 : line + strlen(line);
		if (end)
			*end = '\0';
		if (end && end > line && end[-1] == '\r')
			end[-1] = '\0';
		if (!strncmp(line, name, nl) && !strncmp(line + nl, " = ", 3))
			return line + nl + 3;
	}
	return NULL;
}

static uint8_t *unhex(const char *hex, size_t *len)
{
	size_t n = strlen(hex) / 2;
	uint8_t *out = malloc(n + 1);

	if (!out)
		return NULL;
	*len = hex_decode(hex, out, n);
	if (*len == (size_t)-1) {
		free(out);
		return NULL;
	}
	return out;
}

static void digest_pieces(struct crypto_tfm *t, const uint8_t *m, size_t len,
			  uint8_t *out)
{
	size_t off = 0;

	crypto_hash_init(t);
	while (off < len) {
		size_t n = test_rand_below(len - off + 1);

		crypto_hash_update(t, m + off, n);
		off += n;
	}
	crypto_hash_final(t, out);
}

/* ShortMsg / LongMsg: Len (bits), Msg, MD; returns the vectors checked */
static unsigned int run_msgs(struct crypto_tfm *t, const char *dir,
			     const char *file, int pieces)
{
	struct rsp r;
	unsigned int count = 0;
	char *len_s;

	if (rsp_open(&r, dir, file)) {
		CHECK(0, "%s/%s missing (Debian: python3-cryptography-vectors)",
		      dir, file);
		return 0;
	}
	while ((len_s = rsp_next(&r, "Len"))) {
		char *msg_s = rsp_next(&r, "Msg"), *md_s = rsp_next(&r, "MD");
		size_t bits = strtoul(len_s, NULL, 10), mlen = 0, dlen = 0;
		uint8_t *m = msg_s ? unhex(msg_s, &mlen) : NULL;
		uint8_t *md = md_s ? unhex(md_s, &dlen) : NULL, out[64];

		CHECK(m && md && dlen == 64 && bits % 8 == 0 && mlen >= bits / 8,
		      "%s: malformed vector %u", file, count);
		if (m && md && dlen == 64) {
			mlen = bits / 8; /* "Msg = 00" for Len = 0 */
			crypto_hash_digest(t, m, mlen, out);
			CHECK(!memcmp(out, md, 64), "%s: %s: Len = %zu: digest differs",
			      crypto_tfm_driver_name(t), file, bits);
			if (pieces) {
				digest_pieces(t, m, mlen, out);
				CHECK(!memcmp(out, md, 64),
				      "%s: %s: Len = %zu in pieces: digest differs",
				      crypto_tfm_driver_name(t), file, bits);
			}
		}
		free(m);
		free(md);
		count++;
	}
	free(r.text);
	return count;
}

/*
 * SHAVS 6.4 (Monte Carlo): MD0 = MD1 = MD2 = Seed; for i = 3..1002:
 * MDi = SHA(MDi-3 || MDi-2 || MDi-1); the checkpoint is MD1002, which
 * seeds the next of the 100 checkpoints.
 */
static unsigned int run_monte(struct crypto_tfm *t, const char *dir,
			      unsigned int max)
{
	uint8_t md[3][64], m[192], out[64], *want;
	unsigned int count = 0;
	struct rsp r;
	char *s;
	size_t n;

	if (rsp_open(&r, dir, "SHA512Monte.rsp")) {
		CHECK(0, "SHA512Monte.rsp missing in %s", dir);
		return 0;
	}
	s = rsp_next(&r, "Seed");
	CHECK(s && hex_decode(s, md[2], 64) == 64, "Monte: bad seed");
	while (s && count < max && (s = rsp_next(&r, "MD"))) {
		memcpy(md[0], md[2], 64);
		memcpy(md[1], md[2], 64);
		for (int i = 3; i < 1003; i++) {
			memcpy(m, md[0], 64);
			memcpy(m + 64, md[1], 64);
			memcpy(m + 128, md[2], 64);
			crypto_hash_digest(t, m, sizeof(m), out);
			memcpy(md[0], md[1], 64);
			memcpy(md[1], md[2], 64);
			memcpy(md[2], out, 64);
		}
		want = unhex(s, &n);
		CHECK(want && n == 64 && !memcmp(md[2], want, 64),
		      "%s: Monte checkpoint %u differs", crypto_tfm_driver_name(t),
		      count);
		free(want);
		count++;
	}
	free(r.text);
	return count;
}

int main(int argc, char **argv)
{
	const char *names[MAX_DRIVERS];
	const char *long_dir = getenv("CLOAKFS_CAVP_SHA2");
	int quick = getenv("TEST_QUICK") && strcmp(getenv("TEST_QUICK"), "0");
	unsigned int n;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: test_sha512_cavp VECTOR_DIR\n");
		return 2;
	}
	if (!long_dir || !*long_dir)
		long_dir = DEFAULT_LONG_DIR;
	test_seed();
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	n = test_drivers_for("sha512", names, MAX_DRIVERS);
	CHECK(n >= 1, "no sha512 driver");
	for (unsigned int d = 0; d < n; d++) {
		struct crypto_tfm *t = crypto_alloc(NULL, names[d], &err);
		unsigned int s, l, mc;

		CHECK(t != NULL, "%s: alloc failed (%d)", names[d], err);
		if (!t)
			continue;
		s = run_msgs(t, argv[1], "SHA512ShortMsg.rsp", 0);
		l = run_msgs(t, long_dir, "SHA512LongMsg.rsp", 1);
		mc = run_monte(t, argv[1], quick ? 10 : 100);
		CHECK(s == 129 && l == 128 && mc == (quick ? 10u : 100u),
		      "%s: %u short, %u long, %u Monte vectors (want 129, 128, %u)",
		      names[d], s, l, mc, quick ? 10 : 100);
		printf("  %-24s %u short, %u long, %u Monte Carlo checkpoints\n",
		       names[d], s, l, mc);
		crypto_free(t);
	}
	return test_finish("test_sha512_cavp");
}
