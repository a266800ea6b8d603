/* SPDX-License-Identifier: MIT */
/*
 * fileio.h against a plaintext model: random writes (tiny, unaligned,
 * multi-sector, far past the end), truncates (shrink, grow, to zero) and
 * reads, for every cipher at sector sizes 512 and 4096. After each step
 * the ciphertext size must follow the format, a fresh handle must read the
 * same bytes, and sectors wholly inside a gap must stay holes.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/content/fileio.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"

#define MODEL_MAX (96 * 1024)

struct model {
	uint8_t data[MODEL_MAX];
	uint64_t size;
};

/* the cipher of the volume under test (fileio_open needs it) */
static enum volume_cipher cur_cipher;

static uint8_t readback[MODEL_MAX + 64];

static void verify(struct content_file *f, const struct model *m,
		   const char *what, int step)
{
	struct content_file fresh;
	struct stat st;
	uint64_t size = ~0ULL;
	ssize_t n;

	CHECK(fileio_size(f, &size) == 0 && size == m->size,
	      "%s step %d: size %llu, model %llu", what, step,
	      (unsigned long long)size, (unsigned long long)m->size);
	CHECK(fstat(f->fd, &st) == 0 &&
		      (uint64_t)st.st_size == content_cipher_size(&f->geom, m->size),
	      "%s step %d: ciphertext size %lld for %llu", what, step,
	      (long long)st.st_size, (unsigned long long)m->size);
	memset(readback, 0xee, sizeof(readback));
	n = fileio_read(f, readback, MODEL_MAX + 64, 0);
	CHECK(n == (ssize_t)m->size && memcmp(readback, m->data, m->size) == 0,
	      "%s step %d: content (read %zd)", what, step, n);
	/* a second handle sees the same, from the file alone */
	CHECK(fileio_open(&fresh, f->fd, f->kr, cur_cipher, f->geom.sector_size) == 0,
	      "%s step %d: reopen", what, step);
	n = fileio_read(&fresh, readback, MODEL_MAX + 64, 0);
	CHECK(n == (ssize_t)m->size && memcmp(readback, m->data, m->size) == 0,
	      "%s step %d: content after reopen", what, step);
	fileio_close(&fresh);
}

static void do_write(struct content_file *f, struct model *m, uint64_t off,
		     size_t len, const char *what, int step)
{
	uint8_t buf[MODEL_MAX];
	ssize_t n;

	if (off + len > MODEL_MAX)
		return;
	test_random_bytes(buf, len);
	if (test_rand_below(4) == 0)
		memset(buf, 0, len); /* zeros are data, not holes */
	n = fileio_write(f, buf, len, off);
	CHECK(n == (ssize_t)len, "%s step %d: write %zu at %llu: %zd", what, step,
	      len, (unsigned long long)off, n);
	if (off > m->size)
		memset(m->data + m->size, 0, off - m->size);
	memcpy(m->data + off, buf, len);
	if (off + len > m->size)
		m->size = off + len;
}

static void do_truncate(struct content_file *f, struct model *m, uint64_t size,
			const char *what, int step)
{
	if (size > MODEL_MAX)
		return;
	CHECK(fileio_truncate(f, size) == 0, "%s step %d: truncate %llu", what,
	      step, (unsigned long long)size);
	if (size > m->size)
		memset(m->data + m->size, 0, size - m->size);
	m->size = size;
}

/* a length that hits the edges: < bs, around a sector, several sectors */
static size_t pick_len(uint32_t s)
{
	switch (test_rand_below(6)) {
	case 0:
		return 1 + test_rand_below(15);
	case 1:
		return s - 8 + test_rand_below(24);
	case 2:
		return 1 + test_rand_below(3 * s);
	case 3:
		return s;
	default:
		return 1 + test_rand_below(64);
	}
}

static uint64_t pick_off(const struct model *m, uint32_t s)
{
	switch (test_rand_below(5)) {
	case 0:
		return m->size; /* append */
	case 1:
		return m->size + test_rand_below(6 * s); /* leave a gap */
	case 2:
		return test_rand_below(m->size + 1) / s * s; /* aligned */
	default:
		return test_rand_below(m->size + 1);
	}
}

/* sectors wholly inside [from, to) of plaintext must be all-zero ciphertext */
static void check_hole(int fd, const struct content_geom *g, uint64_t size,
		       uint64_t from, uint64_t to, const char *what)
{
	uint64_t s = g->sector_size, n = content_unit_count(g, size);
	uint8_t buf[65536 + 16];

	for (uint64_t i = (from + s - 1) / s; i + 1 < n && (i + 1) * s <= to; i++) {
		struct content_unit u;

		content_unit(g, size, i, &u);
		CHECK(pread(fd, buf, u.len, (off_t)u.cipher_off) == (ssize_t)u.len &&
			      voltest_all_zero(buf, u.len),
		      "%s: unit %llu in a gap is not a hole", what,
		      (unsigned long long)i);
	}
}

/*
 * fileio_zero of [off, off + len) (keep: within the size); whole units
 * inside it become holes in an XTS file
 */
static void do_zero(struct content_file *f, struct model *m, uint64_t off,
		    size_t len, int keep, const char *what, int step)
{
	uint64_t end = off + len;

	if (end > MODEL_MAX)
		return;
	CHECK(fileio_zero(f, off, len, keep) == 0, "%s step %d: zero%s %zu at %llu",
	      what, step, keep ? " keep" : "", len, (unsigned long long)off);
	if (keep && end > m->size)
		end = m->size;
	if (off < end)
		memset(m->data + off, 0, end - off);
	if (end > m->size) {
		memset(m->data + m->size, 0, off > m->size ? off - m->size : 0);
		m->size = end;
	}
	if (!f->geom.overhead && off < end)
		check_hole(f->fd, &f->geom, m->size, off, end, what);
}

static void run(struct keyring *keys, uint32_t sector, const char *name)
{
	static struct model m;
	struct content_file f;
	char what[64], path[4200];
	char *dir = voltest_tmpdir("fileio");
	uint8_t nonce1[16];
	int fd;

	snprintf(what, sizeof(what), "%s/S=%u", name, sector);
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0, "open");
	memset(&m, 0, sizeof(m));
	CHECK(fileio_open(&f, fd, keys, cur_cipher, sector) == 0 && !f.have_header,
	      "empty file has no header");
	verify(&f, &m, what, 0);

	/* fixed cases first: every tiny size, then growth out of tiny */
	for (size_t len = 1; len <= 17; len++) {
		do_truncate(&f, &m, 0, what, -1);
		do_write(&f, &m, 0, len, what, -1);
		verify(&f, &m, what, -(int)len);
	}
	do_write(&f, &m, 3, 2, what, -20);   /* inside a tiny file */
	verify(&f, &m, what, -20);
	do_truncate(&f, &m, 3, what, -21);   /* shrink into tiny */
	verify(&f, &m, what, -21);
	do_truncate(&f, &m, 2 * sector + 3, what, -22); /* grow from tiny */
	verify(&f, &m, what, -22);
	do_truncate(&f, &m, sector + 1, what, -23);     /* joined tail */
	verify(&f, &m, what, -23);
	do_write(&f, &m, 5 * sector + 100, 10, what, -24); /* far gap */
	verify(&f, &m, what, -24);
	check_hole(fd, &f.geom, m.size, 2 * sector, 5 * sector + 100, what);
	memcpy(nonce1, f.hdr.nonce, 16);
	do_truncate(&f, &m, 0, what, -25);
	verify(&f, &m, what, -25);
	do_write(&f, &m, 0, 40, what, -26);
	CHECK(memcmp(nonce1, f.hdr.nonce, 16) != 0,
	      "%s: a file emptied and rewritten gets a new nonce", what);
	do_truncate(&f, &m, 0, what, -27);
	do_truncate(&f, &m, 3 * sector + 5, what, -28); /* grow an empty file */
	verify(&f, &m, what, -28);
	check_hole(fd, &f.geom, m.size, 0, m.size, what);
	CHECK(fileio_zero(&f, 1, UINT64_MAX - 1, 0) == -EFBIG &&
		      fileio_zero(&f, (uint64_t)INT64_MAX, 1, 1) == -EFBIG,
	      "%s: a zeroing past the largest size: EFBIG", what);
	verify(&f, &m, what, -29);
	/* a zeroing that grows from inside a tail joined to its sector: that
	 * unit becomes a whole sector */
	do_truncate(&f, &m, 0, what, -30);
	do_write(&f, &m, 0, 2 * sector + 3, what, -30);
	do_zero(&f, &m, 2 * sector + 1, 3 * sector, 0, what, -30);
	verify(&f, &m, what, -30);

	for (int step = 1; step <= 250; step++) {
		uint64_t before = m.size, off;

		switch (test_rand_below(10)) {
		case 0:
		case 1:
			do_truncate(&f, &m, test_rand_below(m.size + 3 * sector),
				    what, step);
			break;
		case 2:
			if (test_rand_below(4) == 0)
				do_truncate(&f, &m, test_rand_below(20), what, step);
			break;
		case 3:
			do_zero(&f, &m, pick_off(&m, sector), pick_len(sector),
				(int)test_rand_below(2), what, step);
			break;
		default:
			off = pick_off(&m, sector);
			do_write(&f, &m, off, pick_len(sector), what, step);
			if (off > before + 2 * sector)
				check_hole(fd, &f.geom, m.size, before + sector, off,
					   what);
			break;
		}
		/* partial reads at random places */
		if (m.size) {
			uint64_t roff = test_rand_below(m.size);
			size_t rlen = 1 + test_rand_below(2 * sector);
			ssize_t n = fileio_read(&f, readback, rlen, roff);
			size_t want = rlen < m.size - roff ? rlen : m.size - roff;

			CHECK(n == (ssize_t)want &&
				      memcmp(readback, m.data + roff, want) == 0,
			      "%s step %d: read %zu at %llu", what, step, rlen,
			      (unsigned long long)roff);
		}
		CHECK(fileio_read(&f, readback, 10, m.size) == 0, "read at EOF");
		verify(&f, &m, what, step);
		if (test_failures > 20)
			break;
	}
	fileio_close(&f);
	close(fd);
	voltest_rmtree(dir);
	free(dir);
}

/* damaged files are reported, not misread */
static void damaged(struct keyring *keys)
{
	char *dir = voltest_tmpdir("fileio-bad");
	char path[4200];
	struct content_file f;
	uint8_t buf[64] = { 0 };
	int fd;

	snprintf(path, sizeof(path), "%s/bad", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0, "open");
	CHECK(pwrite(fd, "CLKF", 4, 0) == 4, "write");
	CHECK(fileio_open(&f, fd, keys, cur_cipher, 4096) == -EBADMSG, "4-byte file");
	CHECK(ftruncate(fd, 100) == 0 && pwrite(fd, buf, 32, 0) == 32, "zero hdr");
	CHECK(fileio_open(&f, fd, keys, cur_cipher, 4096) == -EBADMSG, "zero header");
	CHECK(ftruncate(fd, 0) == 0, "truncate");
	CHECK(fileio_open(&f, fd, keys, cur_cipher, 4096) == 0, "empty ok");
	CHECK(fileio_write(&f, "hello", 5, 0) == 5, "tiny write");
	CHECK(pwrite(fd, buf, 1, 12) == 1, "keep");
	buf[0] = 1;
	CHECK(pwrite(fd, buf, 1, 12) == 1, "reserved byte");
	{
		struct content_file g;

		CHECK(fileio_open(&g, fd, keys, cur_cipher, 4096) == -EBADMSG,
		      "reserved byte set");
	}
	fileio_close(&f);
	close(fd);
	voltest_rmtree(dir);
	free(dir);
}

int main(void)
{
	static const enum volume_cipher ciphers[] = {
		VOLUME_CIPHER_SPECK128_XTS, VOLUME_CIPHER_SPECK64_XTS,
		VOLUME_CIPHER_AES256_XTS, VOLUME_CIPHER_SM4_XTS,
		VOLUME_CIPHER_CAMELLIA256_XTS
	};
	int tested = 0;

	test_seed();
	for (size_t c = 0; c < 4; c++) {
		const struct volume_cipher_info *ci = volume_cipher_info(ciphers[c]);
		struct crypto_tfm *probe = voltest_alloc(ci->xts_alg);
		struct volume_keys *keys;
		struct keyring *kr;
		uint8_t vmk[64];

		if (!probe)
			continue;
		crypto_free(probe);
		test_random_bytes(vmk, sizeof(vmk));
		CHECK(keys_new(vmk, ciphers[c], &keys) == 0, "keys");
		CHECK(keyring_new(ciphers[c], &kr) == 0, "keyring");
		keyring_install(kr, keys);
		cur_cipher = ciphers[c];
		run(kr, 512, ci->name);
		run(kr, 4096, ci->name);
		if (c == 0)
			damaged(kr);
		keyring_free(kr);
		tested++;
	}
	if (!tested)
		return TEST_SKIP;
	return test_finish("test_fileio");
}
