/* SPDX-License-Identifier: MIT */
/*
 * Adiantum volumes (wide.h, docs/format.md 6.3) through fileio.h, at
 * every sector size: each unit on disk is the documented Adiantum message
 * (key = the file's "contents" subkey, tweak = file nonce || le64(i) ||
 * 0^8, built here, not by wide.c) and docs/format.md's test vector;
 * random writes and truncates against a
 * model, tails and tiny files included; one bit of plaintext changes
 * every block of its unit's ciphertext, one bit of ciphertext every block
 * of its unit's plaintext; the same plaintext in two files, at two
 * indexes, or under one key with two nonces gives unrelated ciphertext;
 * holes stay holes; mismatched geometry or transform is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/content/fileio.h"
#include "volume/content/wide.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"

#define MAX_FILE (3 * 65536 + 100)

static uint8_t model[MAX_FILE], back[MAX_FILE], raw[MAX_FILE + 64];
static uint8_t data[MAX_FILE];

struct ctx {
	struct keyring *kr;
	struct volume_keys *keys;    /* the keyring's, for the oracle */
	const struct volume_cipher_info *ci;
	struct content_geom g;
	char path[4200], other[4200];
};

static struct crypto_tfm *adiantum(void)
{
	return voltest_alloc(volume_cipher_info(VOLUME_CIPHER_ADIANTUM)->wide_alg);
}

static int open_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0, "open %s", path);
	return fd;
}

static uint64_t cipher_size(int fd)
{
	struct stat st;

	CHECK(fstat(fd, &st) == 0, "fstat");
	return (uint64_t)st.st_size;
}

static void raw_read(int fd, void *buf, size_t len, uint64_t off)
{
	CHECK(pread(fd, buf, len, (off_t)off) == (ssize_t)len, "pread");
}

/* the whole file reads back as model[0, size) and has its XTS size */
static void check_file(struct ctx *c, int fd, uint64_t size, const char *what)
{
	struct content_file f;
	uint64_t plain = 0;

	CHECK(fileio_open(&f, fd, c->kr, VOLUME_CIPHER_ADIANTUM,
			  c->g.sector_size) == 0 &&
		      fileio_size(&f, &plain) == 0 && plain == size,
	      "S=%u %s: size %llu, want %llu", c->g.sector_size, what,
	      (unsigned long long)plain, (unsigned long long)size);
	memset(back, 0xee, (size_t)size + 1);
	CHECK(fileio_read(&f, back, (size_t)size + 1, 0) == (ssize_t)size &&
		      memcmp(back, model, (size_t)size) == 0,
	      "S=%u %s: contents of %llu bytes", c->g.sector_size, what,
	      (unsigned long long)size);
	CHECK(cipher_size(fd) == content_cipher_size(&c->g, size),
	      "S=%u %s: ciphertext size", c->g.sector_size, what);
	fileio_close(&f);
}

/* a file of these bytes, written through fileio */
static int make(struct ctx *c, const char *path, const uint8_t *buf,
		uint64_t size)
{
	struct content_file f;
	int fd = open_file(path);

	CHECK(fileio_open(&f, fd, c->kr, VOLUME_CIPHER_ADIANTUM,
			  c->g.sector_size) == 0 &&
		      fileio_write(&f, buf, (size_t)size, 0) == (ssize_t)size,
	      "S=%u: write %llu", c->g.sector_size, (unsigned long long)size);
	fileio_close(&f);
	return fd;
}

/*
 * The oracle: decrypt every unit of fd straight with the crypto layer,
 * key and tweak made here from docs/format.md 6.3, and compare with
 * model (a padded unit's padding must be zeros). An all-zero unit is a
 * hole.
 */
static void oracle(struct ctx *c, int fd, uint64_t size, const char *what)
{
	struct crypto_tfm *t = adiantum();
	uint8_t nonce[16], key[32], tweak[32];
	uint64_t n = content_unit_count(&c->g, size);

	CHECK(t != NULL, "alloc adiantum");
	if (!t || !size)
		goto out;
	raw_read(fd, nonce, sizeof(nonce), 16);
	CHECK(keys_derive(c->keys, "contents", nonce, 16, key, 32) == 0 &&
		      crypto_setkey(t, key, 32) == 0, "oracle key");
	for (uint64_t i = 0; i < n; i++) {
		struct content_unit u;

		content_unit(&c->g, size, i, &u);
		raw_read(fd, raw, u.len, u.cipher_off);
		if (voltest_all_zero(raw, u.len)) {
			CHECK(voltest_all_zero(model + u.plain_off, u.plain_len),
			      "S=%u %s: unit %llu a hole over data",
			      c->g.sector_size, what, (unsigned long long)i);
			continue;
		}
		memset(tweak, 0, sizeof(tweak));
		memcpy(tweak, nonce, 16);
		for (int b = 0; b < 8; b++)
			tweak[16 + b] = (uint8_t)(i >> (8 * b));
		CHECK(crypto_decrypt(t, tweak, raw, raw, u.len) == 0 &&
			      memcmp(raw, model + u.plain_off, u.plain_len) == 0 &&
			      voltest_all_zero(raw + u.plain_len,
					       u.len - u.plain_len),
		      "S=%u %s: unit %llu is not the documented message",
		      c->g.sector_size, what, (unsigned long long)i);
	}
out:
	crypto_free(t);
}

/* random writes (also past the end) and truncates against the model */
static void round_trip(struct ctx *c)
{
	uint64_t s = c->g.sector_size, size = 0, max = 3 * s + 40;
	struct content_file f;
	int fd = open_file(c->path);

	memset(model, 0, sizeof(model));
	for (int op = 0; op < 24; op++) {
		uint64_t off = test_rand_below(max), len;

		CHECK(fileio_open(&f, fd, c->kr, VOLUME_CIPHER_ADIANTUM,
				  (uint32_t)s) == 0, "open");
		if (test_rand_below(4) == 0) {
			/* truncate, often to a tail or tiny size */
			uint64_t to = test_rand_below(2) ? off
				     : test_rand_below(3) * s + test_rand_below(18);

			CHECK(fileio_truncate(&f, to) == 0, "truncate %llu",
			      (unsigned long long)to);
			if (to < size)
				memset(model + to, 0, (size_t)(size - to));
			size = to;
		} else {
			len = 1 + test_rand_below(max - off);
			test_random_bytes(model + off, (size_t)len);
			CHECK(fileio_write(&f, model + off, (size_t)len, off) ==
				      (ssize_t)len, "write %llu@%llu",
			      (unsigned long long)len, (unsigned long long)off);
			if (off > size)
				memset(model + size, 0, (size_t)(off - size));
			if (off + len > size)
				size = off + len;
		}
		fileio_close(&f);
		check_file(c, fd, size, "round trip");
		oracle(c, fd, size, "round trip");
	}
	close(fd);
}

/* every size with a tail or padding around the first two sectors */
static void tails(struct ctx *c)
{
	uint64_t s = c->g.sector_size;
	const uint64_t sizes[] = { 1, 15, 16, 17, s - 1, s, s + 1, s + 15,
				   s + 16, s + 17, 2 * s + 20 };

	test_random_bytes(model, sizeof(model));
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int fd = make(c, c->path, model, sizes[i]);

		check_file(c, fd, sizes[i], "tail");
		oracle(c, fd, sizes[i], "tail");
		close(fd);
	}
}

/* no 16-byte block of a equals the block at the same place of b */
static int all_blocks_differ(const uint8_t *a, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i + 16 <= len; i += 16)
		if (memcmp(a + i, b + i, 16) == 0)
			return 0;
	return 1;
}

/* one bit in, the whole unit out, both ways */
static void wide_block(struct ctx *c)
{
	uint64_t s = c->g.sector_size, size = 2 * s;
	uint64_t bit = test_rand_below(s * 8);
	uint8_t *before = malloc((size_t)size), *after = malloc((size_t)size);
	int fd;

	CHECK(before && after, "malloc");
	test_random_bytes(model, (size_t)size);
	fd = make(c, c->path, model, size);
	raw_read(fd, before, (size_t)size, HEADER_SIZE);
	close(fd);
	/* the same file nonce: rewrite unit 0 in place with one bit flipped */
	{
		struct content_file f;

		fd = open(c->path, O_RDWR);
		CHECK(fd >= 0, "reopen");
		model[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		CHECK(fileio_open(&f, fd, c->kr, VOLUME_CIPHER_ADIANTUM,
				  (uint32_t)s) == 0 &&
			      fileio_write(&f, model + bit / 8, 1, bit / 8) == 1,
		      "rewrite a byte");
		fileio_close(&f);
	}
	raw_read(fd, after, (size_t)size, HEADER_SIZE);
	CHECK(all_blocks_differ(before, after, (size_t)s),
	      "S=%u: plaintext bit %llu left a ciphertext block of its unit "
	      "unchanged", (unsigned)s, (unsigned long long)bit);
	CHECK(memcmp(before + s, after + s, (size_t)s) == 0,
	      "S=%u: the other unit changed", (unsigned)s);
	check_file(c, fd, size, "bit flipped");

	/* one ciphertext bit: unit 0 reads as other data in every block */
	after[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	CHECK(pwrite(fd, after, 1 + bit / 8, HEADER_SIZE) ==
		      (ssize_t)(1 + bit / 8), "pwrite");
	{
		struct content_file f;

		CHECK(fileio_open(&f, fd, c->kr, VOLUME_CIPHER_ADIANTUM,
				  (uint32_t)s) == 0 &&
			      fileio_read(&f, back, (size_t)size, 0) ==
				      (ssize_t)size, "read tampered");
		fileio_close(&f);
	}
	CHECK(all_blocks_differ(back, model, (size_t)s) &&
		      memcmp(back + s, model + s, (size_t)s) == 0,
	      "S=%u: a ciphertext bit did not scramble exactly its unit",
	      (unsigned)s);
	close(fd);
	free(before);
	free(after);
}

/* the same plaintext in two files, at two indexes, under two nonces */
static void bound(struct ctx *c)
{
	uint64_t s = c->g.sector_size;
	uint8_t *a = malloc(2 * (size_t)s), *b = malloc(2 * (size_t)s);
	uint8_t n1[HEADER_NONCE_SIZE] = { 1 }, n2[HEADER_NONCE_SIZE] = { 2 };
	uint8_t key[32];
	struct crypto_tfm *t = adiantum();
	int fa, fb;

	CHECK(a && b && t, "alloc");
	test_random_bytes(data, (size_t)s);
	memcpy(data + s, data, (size_t)s); /* units 0 and 1 alike */
	fa = make(c, c->path, data, 2 * s);
	fb = make(c, c->other, data, 2 * s);
	raw_read(fa, a, 2 * (size_t)s, HEADER_SIZE);
	raw_read(fb, b, 2 * (size_t)s, HEADER_SIZE);
	CHECK(all_blocks_differ(a, a + s, (size_t)s),
	      "S=%u: the same data at indexes 0 and 1 shares ciphertext",
	      (unsigned)s);
	CHECK(all_blocks_differ(a, b, 2 * (size_t)s),
	      "S=%u: the same data in two files shares ciphertext", (unsigned)s);
	close(fa);
	close(fb);

	/* one key, two nonces: the tweak alone separates them */
	test_random_bytes(key, sizeof(key));
	CHECK(t && crypto_setkey(t, key, 32) == 0, "setkey");
	CHECK(wide_encrypt_units(t, &c->g, n1, s, 0, 1, a, data) == 0 &&
		      wide_encrypt_units(t, &c->g, n2, s, 0, 1, b, data) == 0,
	      "encrypt units");
	CHECK(all_blocks_differ(a, b, (size_t)s),
	      "S=%u: two file nonces under one key share ciphertext",
	      (unsigned)s);
	CHECK(wide_decrypt_units(t, &c->g, n2, s, 0, 1, b, b) == 0 &&
		      memcmp(b, data, (size_t)s) == 0, "decrypt units");
	crypto_free(t);
	free(a);
	free(b);
}

/* a grow by truncate leaves all-zero units that read as zeros */
static void holes(struct ctx *c)
{
	uint64_t s = c->g.sector_size, size = 3 * s + 5;
	struct content_file f;
	int fd;

	memset(model, 0, (size_t)size);
	test_random_bytes(model, 100);
	fd = make(c, c->path, model, 100);
	CHECK(fileio_open(&f, fd, c->kr, VOLUME_CIPHER_ADIANTUM,
			  (uint32_t)s) == 0 && fileio_truncate(&f, size) == 0,
	      "grow");
	fileio_close(&f);
	raw_read(fd, raw, (size_t)s, content_unit_pos(&c->g, 1));
	CHECK(voltest_all_zero(raw, (size_t)s), "S=%u: unit 1 not a hole",
	      (unsigned)s);
	check_file(c, fd, size, "holes");
	oracle(c, fd, size, "holes");
	close(fd);
}

/* wide units need a wide geometry and a 32-byte tweak, XTS ones not */
static void refused(struct ctx *c)
{
	struct content_geom xts;
	struct crypto_tfm *adi = adiantum();
	struct crypto_tfm *x = voltest_alloc("xts(aes)");
	uint8_t key[64] = { 0 }, nonce[HEADER_NONCE_SIZE] = { 0 };

	CHECK(adi && x && crypto_setkey(adi, key, 32) == 0 &&
		      crypto_setkey(x, key, 64) == 0, "alloc");
	CHECK(content_geom_init(&xts, c->g.sector_size, 16) == 0, "geom");
	memset(data, 0, 64);
	CHECK(wide_encrypt_units(adi, &xts, nonce, 64, 0, 1, raw, data) ==
		      -EINVAL, "wide units on an XTS geometry");
	CHECK(wide_encrypt_units(x, &c->g, nonce, 64, 0, 1, raw, data) ==
		      -EINVAL, "wide units with an XTS transform");
	CHECK(content_encrypt_units(adi, &c->g, 64, 0, 1, raw, data) == -EINVAL,
	      "XTS units with the Adiantum transform");
	crypto_free(adi);
	crypto_free(x);
}

/* docs/format.md 6.3's test vector, through keys.h and wide.h */
static void known_answer(void)
{
	static const uint8_t want_k[32] = {
		0xc9, 0x16, 0xb0, 0xcb, 0xda, 0xb3, 0xfa, 0x7c, 0xc2, 0x4b, 0x0f,
		0xbc, 0xdc, 0x45, 0x48, 0x01, 0x0b, 0x8b, 0xa5, 0x0a, 0x82, 0x30,
		0x66, 0x2f, 0xd4, 0x2a, 0x83, 0x91, 0xc8, 0xb6, 0x4c, 0xb8,
	};
	static const uint8_t want_c[32] = {
		0xc6, 0xb2, 0x42, 0x23, 0xc2, 0xe2, 0x79, 0xea, 0xf1, 0x88, 0x21,
		0x0f, 0x14, 0x27, 0x6f, 0xb0, 0x67, 0x0f, 0x52, 0x0b, 0x12, 0x3a,
		0x3a, 0x4c, 0x8c, 0x08, 0x30, 0x31, 0x50, 0x2c, 0x13, 0xbf,
	};
	uint8_t vmk[64], nonce[HEADER_NONCE_SIZE], p[32], c[32];
	struct volume_keys *keys = NULL;
	struct content_geom g;
	struct crypto_tfm *t;
	int err = -1;

	for (int i = 0; i < 64; i++)
		vmk[i] = (uint8_t)i;
	for (int i = 0; i < 16; i++)
		nonce[i] = (uint8_t)(0xf0 + i);
	for (int i = 0; i < 32; i++)
		p[i] = (uint8_t)i;
	CHECK(keys_new(vmk, VOLUME_CIPHER_ADIANTUM, &keys) == 0 &&
		      content_geom_wide(&g, 512) == 0, "keys, geometry");
	if (!keys)
		return;
	CHECK(keys_derive(keys, "contents", nonce, 16, c, 32) == 0 &&
		      memcmp(c, want_k, 32) == 0, "the contents subkey");
	t = keys_contents_tfm(keys, nonce, &err);
	CHECK(t != NULL, "keys_contents_tfm: %d", err);
	if (t) {
		/* unit 1 (32 bytes) of a file of 512 + 32 bytes */
		CHECK(wide_encrypt_units(t, &g, nonce, 512 + 32, 1, 1, c, p) == 0 &&
			      memcmp(c, want_c, 32) == 0,
		      "unit 1 is not the test vector");
		CHECK(wide_decrypt_units(t, &g, nonce, 512 + 32, 1, 1, c, c) == 0 &&
			      memcmp(c, p, 32) == 0, "test vector decrypts");
		crypto_free(t);
	}
	keys_free(keys);
}

int main(void)
{
	const struct volume_cipher_info *ci =
		volume_cipher_info(VOLUME_CIPHER_ADIANTUM);
	struct crypto_tfm *probe = voltest_alloc(ci->wide_alg);
	char *dir = voltest_tmpdir("wide");
	struct ctx c = { .ci = ci };
	uint8_t vmk[64];

	if (!probe)
		return voltest_done(dir, 0, "test_wide");
	crypto_free(probe);
	test_seed();
	CHECK(!strcmp(volume_cipher_contents_alg(ci), "adiantum(xchacha12,aes)") &&
		      volume_cipher_contents_keysize(ci) == 32 &&
		      !strcmp(ci->cts_alg, "cts(cbc(aes))") &&
		      ci->name_keysize == 32 && ci->blocksize == 16,
	      "the adiantum row");
	snprintf(c.path, sizeof(c.path), "%s/file", dir);
	snprintf(c.other, sizeof(c.other), "%s/other", dir);
	test_random_bytes(vmk, sizeof(vmk));
	CHECK(keys_new(vmk, VOLUME_CIPHER_ADIANTUM, &c.keys) == 0, "keys");
	CHECK(keyring_new(VOLUME_CIPHER_ADIANTUM, &c.kr) == 0, "keyring");
	keyring_install(c.kr, c.keys);
	known_answer();
	for (uint32_t s = CONTENT_MIN_SECTOR; s <= CONTENT_MAX_SECTOR; s *= 2) {
		CHECK(content_geom_of(&c.g, ci, s) == 0 && c.g.overhead == 0 &&
			      c.g.blocksize == 16 &&
			      c.g.wide_tweak == WIDE_TWEAK_SIZE, "geometry");
		round_trip(&c);
		tails(&c);
		wide_block(&c);
		bound(&c);
		holes(&c);
		refused(&c);
	}
	keyring_free(c.kr);
	return voltest_done(dir, 1, "test_wide");
}
