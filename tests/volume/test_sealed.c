/* SPDX-License-Identifier: MIT */
/*
 * Authenticated volumes (sealed.h, docs/format.md 6.2) through fileio.h:
 * round trips at every sector size for aes256-gcm and
 * xchacha20-poly1305 against a model, a fresh nonce at every write, no
 * holes, and each tampering done to the ciphertext bytes of a file (a
 * flipped bit, a unit copied from another file, units swapped, whole
 * units cut off the end, an old last unit appended again, a zeroed
 * unit, a flipped header nonce): the damaged unit reads -EBADMSG with
 * its offset, and every other unit still reads its data.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/content/fileio.h"
#include "volume/content/sealed.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"

#define MAX_FILE (6 * 65536 + 100)

static uint8_t model[MAX_FILE], back[MAX_FILE], tmp[MAX_FILE + 6 * 32 + 64];

struct ctx {
	struct keyring *kr;
	enum volume_cipher cipher;
	struct content_geom g;
	const char *name;
	char path[4200], other[4200];
};

static int open_file(const char *path, int trunc)
{
	int fd = open(path, O_RDWR | O_CREAT | (trunc ? O_TRUNC : 0), 0600);

	CHECK(fd >= 0, "open %s", path);
	return fd;
}

/* a fresh file of size bytes of data (from model) */
static int make(struct ctx *c, const char *path, uint64_t size)
{
	struct content_file f;
	int fd = open_file(path, 1);

	CHECK(fileio_open(&f, fd, c->kr, c->cipher, c->g.sector_size) == 0,
	      "%s: fileio_open", c->name);
	CHECK(fileio_write(&f, model, size, 0) == (ssize_t)size, "%s: write %llu",
	      c->name, (unsigned long long)size);
	fileio_close(&f);
	return fd;
}

static void raw_read(int fd, void *buf, size_t len, uint64_t off)
{
	CHECK(pread(fd, buf, len, (off_t)off) == (ssize_t)len, "pread");
}

static void raw_write(int fd, const void *buf, size_t len, uint64_t off)
{
	CHECK(pwrite(fd, buf, len, (off_t)off) == (ssize_t)len, "pwrite");
}

/*
 * Read unit i of fd through a fresh handle: 0 when it gives model's
 * bytes, -EBADMSG when it fails with *bad_off its first byte.
 */
static int read_unit(struct ctx *c, int fd, uint64_t i, uint64_t *bad_off)
{
	struct content_file f;
	uint64_t plain, s = c->g.sector_size, len;
	ssize_t n;

	*bad_off = UINT64_MAX;
	if (fileio_open(&f, fd, c->kr, c->cipher, c->g.sector_size) != 0)
		return -EINVAL;
	if (fileio_size(&f, &plain) != 0 || i * s >= plain) {
		fileio_close(&f);
		return -ERANGE;
	}
	len = plain - i * s < s ? plain - i * s : s;
	n = fileio_read_checked(&f, plain, back, len, i * s, bad_off);
	fileio_close(&f);
	if (n < 0)
		return (int)n;
	return n == (ssize_t)len && memcmp(back, model + i * s, len) == 0
		       ? 0 : -EIO;
}

/* units [0, n) read their data except bad, which fails with its offset */
static void expect(struct ctx *c, int fd, uint64_t n, uint64_t bad,
		   const char *what)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t at;
		int r = read_unit(c, fd, i, &at);

		if (i == bad)
			CHECK(r == -EBADMSG && at == i * c->g.sector_size,
			      "%s S=%u: %s: unit %llu gave %d (at %llu), not "
			      "-EBADMSG", c->name, c->g.sector_size, what,
			      (unsigned long long)i, r, (unsigned long long)at);
		else
			CHECK(r == 0, "%s S=%u: %s: unit %llu gave %d", c->name,
			      c->g.sector_size, what, (unsigned long long)i, r);
	}
}

/* random writes and truncates against a model, read back whole */
static void round_trip(struct ctx *c)
{
	uint64_t s = c->g.sector_size, size = 0, max = 5 * s + 77;
	struct content_file f;
	struct stat st;
	int fd = open_file(c->path, 1);

	memset(model, 0, (size_t)max);
	CHECK(fileio_open(&f, fd, c->kr, c->cipher, c->g.sector_size) == 0,
	      "open");
	for (int k = 0; k < 40; k++) {
		uint64_t off = test_rand_below(max), len = 1 + test_rand_below(2 * s);

		if (off + len > max)
			len = max - off;
		if (k % 5 == 4) {
			CHECK(fileio_truncate(&f, off) == 0, "truncate");
			if (off > size)
				memset(model + size, 0, (size_t)(off - size));
			size = off;
		} else {
			test_random_bytes(tmp, (size_t)len);
			CHECK(fileio_write(&f, tmp, (size_t)len, off) ==
				      (ssize_t)len, "write");
			if (off > size)
				memset(model + size, 0, (size_t)(off - size));
			memcpy(model + off, tmp, (size_t)len);
			size = off + len > size ? off + len : size;
		}
		CHECK(fstat(fd, &st) == 0 && (uint64_t)st.st_size ==
			      content_cipher_size(&c->g, size),
		      "%s S=%u: ciphertext size", c->name, c->g.sector_size);
		CHECK(fileio_read(&f, back, sizeof(back), 0) == (ssize_t)size &&
			      memcmp(back, model, (size_t)size) == 0,
		      "%s S=%u: step %d: read back %llu bytes", c->name,
		      c->g.sector_size, k, (unsigned long long)size);
	}
	fileio_close(&f);
	close(fd);
}

/* the nonce fields of units [0, n) of the ciphertext in buf */
static void nonce_fields(struct ctx *c, const uint8_t *buf, uint64_t n,
			 uint8_t *out)
{
	for (uint64_t i = 0; i < n; i++)
		memcpy(out + i * SEALED_NONCE_FIELD,
		       buf + content_unit_pos(&c->g, i), SEALED_NONCE_FIELD);
}

/*
 * The same data written twice over, each time in one call of many units
 * (more than one batch of drawn nonces): no two units of either version
 * share a nonce field, and every unit's bytes differ between them.
 */
static void fresh_nonces(struct ctx *c)
{
	uint64_t s = c->g.sector_size, n = MAX_FILE / s - 1, size, clen;
	uint8_t *first = malloc(MAX_FILE + 512), *seen;
	struct content_file f;
	int fd;

	if (n > 70)
		n = 70;
	size = n * s;
	seen = malloc((size_t)(2 * n * SEALED_NONCE_FIELD));
	CHECK(first && seen, "malloc");
	test_random_bytes(model, (size_t)size);
	fd = make(c, c->path, size);
	clen = content_cipher_size(&c->g, size);
	raw_read(fd, first, (size_t)clen, 0);
	CHECK(fileio_open(&f, fd, c->kr, c->cipher, c->g.sector_size) == 0,
	      "open");
	CHECK(fileio_write(&f, model, (size_t)size, 0) == (ssize_t)size,
	      "rewrite");
	fileio_close(&f);
	raw_read(fd, tmp, (size_t)clen, 0);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t p = content_unit_pos(&c->g, i);

		CHECK(memcmp(first + p + SEALED_NONCE_FIELD,
			     tmp + p + SEALED_NONCE_FIELD, 64) != 0,
		      "%s S=%u: unit %llu rewritten with the same data is the "
		      "same ciphertext", c->name, c->g.sector_size,
		      (unsigned long long)i);
	}
	nonce_fields(c, first, n, seen);
	nonce_fields(c, tmp, n, seen + n * SEALED_NONCE_FIELD);
	for (uint64_t i = 0; i < 2 * n; i++)
		for (uint64_t j = i + 1; j < 2 * n; j++)
			CHECK(memcmp(seen + i * SEALED_NONCE_FIELD,
				     seen + j * SEALED_NONCE_FIELD,
				     SEALED_NONCE_FIELD) != 0,
			      "%s S=%u: units %llu and %llu of %llu (two writes) "
			      "share a nonce", c->name, c->g.sector_size,
			      (unsigned long long)i, (unsigned long long)j,
			      (unsigned long long)(2 * n));
	expect(c, fd, n, UINT64_MAX, "rewritten");
	free(seen);
	free(first);
	close(fd);
}

/* a gap is written: no zero units, SEEK_HOLE finds none, reads zeros */
static void no_holes(struct ctx *c)
{
	uint64_t s = c->g.sector_size, plain = 3 * s + 10;
	struct content_file f;
	int64_t at;
	int fd = open_file(c->path, 1);

	CHECK(fileio_open(&f, fd, c->kr, c->cipher, c->g.sector_size) == 0,
	      "open");
	test_random_bytes(tmp, 10);
	CHECK(fileio_write(&f, tmp, 10, 3 * s) == 10, "write after a gap");
	memset(model, 0, (size_t)(3 * s));
	memcpy(model + 3 * s, tmp, 10);
	fileio_close(&f);
	for (uint64_t i = 0; i < 3; i++) {
		raw_read(fd, tmp, s + 32, content_unit_pos(&c->g, i));
		CHECK(!voltest_all_zero(tmp, s + 32), "%s S=%u: gap unit %llu "
		      "left a hole", c->name, c->g.sector_size,
		      (unsigned long long)i);
	}
	CHECK(fileio_seek(fd, &c->g, plain, 0, SEEK_HOLE, &at) == 0 &&
		      (uint64_t)at == plain, "%s: SEEK_HOLE", c->name);
	expect(c, fd, 4, UINT64_MAX, "gap");
	close(fd);
}

/* each tampering with a file of 5 units (the last short) */
static void tamper(struct ctx *c)
{
	uint64_t s = c->g.sector_size, size = 4 * s + s / 2, u = s + 32;
	uint64_t p1 = content_unit_pos(&c->g, 1), p2 = content_unit_pos(&c->g, 2);
	uint64_t p4 = content_unit_pos(&c->g, 4);
	uint8_t *a = malloc(u), *b = malloc(u), *old_last = malloc(u);
	int fd, other;

	test_random_bytes(model, (size_t)size);

	/* a flipped bit anywhere in unit 2 */
	fd = make(c, c->path, size);
	expect(c, fd, 5, UINT64_MAX, "untouched");
	{
		uint64_t at = p2 + test_rand_below(u);

		raw_read(fd, a, 1, at);
		a[0] ^= (uint8_t)(1u << test_rand_below(8));
		raw_write(fd, a, 1, at);
	}
	expect(c, fd, 5, 2, "flipped bit");
	close(fd);

	/* unit 2 copied from another file of the same data and key */
	fd = make(c, c->path, size);
	other = make(c, c->other, size);
	raw_read(other, a, (size_t)u, p2);
	raw_write(fd, a, (size_t)u, p2);
	expect(c, fd, 5, 2, "unit from another file");
	close(other);

	/* unit 2 moved to index 1 (copied over it) */
	memcpy(model + 2 * s, model + s, (size_t)s); /* same data: only the
							 * index tells them apart */
	close(fd);
	fd = make(c, c->path, size);
	raw_read(fd, b, (size_t)u, p2);
	raw_write(fd, b, (size_t)u, p1);
	expect(c, fd, 5, 1, "unit 2 moved to 1");
	close(fd);
	test_random_bytes(model, (size_t)size);

	/* the last unit cut off (at a unit boundary): unit 3, now the
	 * last, lacks the flag */
	fd = make(c, c->path, size);
	CHECK(ftruncate(fd, (off_t)p4) == 0, "cut");
	expect(c, fd, 4, 3, "last unit cut off");
	close(fd);

	/* an old last unit appended again after a truncate: it verifies
	 * (its index and flag are its own), unit 3 carries the flag */
	fd = make(c, c->path, 5 * s);
	raw_read(fd, old_last, (size_t)u, p4);
	{
		struct content_file f;

		CHECK(fileio_open(&f, fd, c->kr, c->cipher, s) == 0 &&
			      fileio_truncate(&f, 4 * s) == 0, "truncate");
		fileio_close(&f);
	}
	raw_write(fd, old_last, (size_t)u, p4);
	expect(c, fd, 5, 3, "old last unit appended");
	close(fd);

	/* a zeroed unit: never read as zeros */
	fd = make(c, c->path, size);
	memset(a, 0, (size_t)u);
	raw_write(fd, a, (size_t)u, p2);
	expect(c, fd, 5, 2, "zeroed unit");
	close(fd);

	/* the header's file nonce flipped: the file's key and AAD change,
	 * unit 0 fails first */
	fd = make(c, c->path, size);
	raw_read(fd, a, 1, 16);
	a[0] ^= 1;
	raw_write(fd, a, 1, 16);
	expect(c, fd, 1, 0, "header nonce flipped");
	close(fd);
	free(a);
	free(b);
	free(old_last);
}

int main(void)
{
	static const enum volume_cipher ciphers[] = {
		VOLUME_CIPHER_AES256_GCM, VOLUME_CIPHER_XCHACHA20_POLY1305,
	};
	char *dir = voltest_tmpdir("sealed");
	int tested = 0;

	test_seed();
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++) {
		const struct volume_cipher_info *ci = volume_cipher_info(ciphers[i]);
		struct crypto_tfm *probe = voltest_alloc(ci->aead_alg);
		struct volume_keys *keys;
		struct ctx c = { .cipher = ciphers[i], .name = ci->name };
		uint8_t vmk[64];

		if (!probe)
			continue;
		crypto_free(probe);
		snprintf(c.path, sizeof(c.path), "%s/file", dir);
		snprintf(c.other, sizeof(c.other), "%s/other", dir);
		test_random_bytes(vmk, sizeof(vmk));
		CHECK(keys_new(vmk, ciphers[i], &keys) == 0, "keys");
		CHECK(keyring_new(ciphers[i], &c.kr) == 0, "keyring");
		keyring_install(c.kr, keys);
		for (uint32_t s = CONTENT_MIN_SECTOR; s <= CONTENT_MAX_SECTOR; s *= 2) {
			CHECK(content_geom_of(&c.g, ci, s) == 0 &&
				      c.g.overhead == 32, "geometry");
			round_trip(&c);
			fresh_nonces(&c);
			no_holes(&c);
			tamper(&c);
		}
		keyring_free(c.kr);
		tested++;
	}
	return voltest_done(dir, tested, "test_sealed");
}
