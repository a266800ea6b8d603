/* SPDX-License-Identifier: MIT */
/*
 * sparse_seek against a model backing store (bytes plus an allocation
 * map of blk-byte blocks, with lseek(2)'s SEEK_DATA/SEEK_HOLE rules):
 * every answer checked against units judged one by one as sparse.h
 * says, over random layouts, tails, padded tiny files, both block
 * sizes, and a store that cannot tell. No files, no FUSE.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/crypto/testutil.h"
#include "volume/content/content.h"
#include "volume/content/sparse.h"

struct model {
	uint8_t *bytes;
	uint8_t *alloc; /* per block */
	uint64_t size, blk;
	int unsupported;
};

static int model_seek(void *ctx, uint64_t off, int whence, uint64_t *out)
{
	struct model *m = ctx;

	if (m->unsupported)
		return -EINVAL;
	if (off >= m->size)
		return -ENXIO;
	for (uint64_t b = off / m->blk; b * m->blk < m->size; b++) {
		if (!!m->alloc[b] == (whence == SEEK_DATA)) {
			uint64_t at = b * m->blk;

			*out = at > off ? at : off;
			return 0;
		}
	}
	if (whence == SEEK_DATA)
		return -ENXIO;
	*out = m->size;
	return 0;
}

static ssize_t model_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	struct model *m = ctx;

	if (off >= m->size)
		return 0;
	if (len > m->size - off)
		len = (size_t)(m->size - off);
	memcpy(buf, m->bytes + off, len);
	return (ssize_t)len;
}

/* the format's rule for one unit (within the read bound): a hole if
 * its ciphertext is all zero; unallocated bytes read as zero */
static int ref_unit_hole(const struct model *m, uint64_t c0, uint64_t c1)
{
	for (uint64_t c = c0; c < c1 && c < m->size; c++)
		if (m->bytes[c])
			return 0;
	return 1;
}

/* the expected answer: units judged one by one from off's unit */
static int ref_seek(const struct content_geom *g, uint64_t plain,
		    const struct model *m, uint64_t off, int whence,
		    uint64_t *out)
{
	uint64_t n = content_unit_count(g, plain);

	if (off >= plain)
		return -ENXIO;
	if (m->unsupported) {
		*out = whence == SEEK_DATA ? off : plain;
		return 0;
	}
	for (uint64_t i = content_unit_of(g, plain, off); i < n; i++) {
		struct content_unit u;

		content_unit(g, plain, i, &u);
		if (ref_unit_hole(m, u.cipher_off, u.cipher_off + u.len) ==
		    (whence == SEEK_HOLE)) {
			*out = u.plain_off > off ? u.plain_off : off;
			return 0;
		}
	}
	if (whence == SEEK_DATA)
		return -ENXIO;
	*out = plain;
	return 0;
}

static void model_init(struct model *m, uint64_t csize, uint64_t blk)
{
	m->size = csize;
	m->blk = blk;
	m->unsupported = 0;
	m->bytes = calloc(csize + 1, 1);
	m->alloc = calloc(csize / blk + 2, 1);
	if (!m->bytes || !m->alloc)
		abort();
}

static void model_free(struct model *m)
{
	free(m->bytes);
	free(m->alloc);
}

/* ciphertext bytes [c0, c1) written (nonzero) or reserved (zero) */
static void model_fill(struct model *m, uint64_t c0, uint64_t c1, int data)
{
	if (c1 > m->size)
		c1 = m->size;
	for (uint64_t c = c0; c < c1; c++) {
		m->bytes[c] = data ? (uint8_t)(1 + test_rand_below(255)) : 0;
		m->alloc[c / m->blk] = 1;
	}
}

static void check_offset(const struct content_geom *g, uint64_t plain,
			 struct model *m, uint64_t off, const char *what)
{
	static const int whences[] = { SEEK_DATA, SEEK_HOLE };
	struct sparse_store st = { model_seek, model_read, m };

	for (int w = 0; w < 2; w++) {
		uint64_t got = 0, want = 0;
		int eg = sparse_seek(g, plain, &st, off, whences[w], &got);
		int ew = ref_seek(g, plain, m, off, whences[w], &want);

		CHECK(eg == ew && (eg || got == want),
		      "%s: S %u bs %u size %llu blk %llu off %llu %s: got %d/%llu, want %d/%llu",
		      what, g->sector_size, g->blocksize,
		      (unsigned long long)plain, (unsigned long long)m->blk,
		      (unsigned long long)off,
		      whences[w] == SEEK_DATA ? "SEEK_DATA" : "SEEK_HOLE", eg,
		      (unsigned long long)got, ew, (unsigned long long)want);
	}
}

static void check_all(const struct content_geom *g, uint64_t plain,
		      struct model *m, const char *what)
{
	uint64_t n = content_unit_count(g, plain);

	for (uint64_t i = 0; i < n; i++) {
		struct content_unit u;

		content_unit(g, plain, i, &u);
		check_offset(g, plain, m, u.plain_off, what);
		check_offset(g, plain, m, u.plain_off + 1, what);
		check_offset(g, plain, m, u.plain_off + u.plain_len - 1, what);
	}
	check_offset(g, plain, m, plain, what);
	check_offset(g, plain, m, plain + 4096, what);
}

/* random layouts of written and reserved ranges, all offsets checked */
static void random_layouts(const struct content_geom *g)
{
	static const uint64_t blks[] = { 1, 512, 4096, 65536 };

	for (int round = 0; round < 200; round++) {
		uint64_t s = g->sector_size, r = test_rand_below(4), plain;
		struct model m;

		/* tails: a whole sector, a CTS tail, a joined short tail, a
		 * padded tiny file */
		plain = (1 + test_rand_below(24)) * s;
		if (r == 1)
			plain += g->blocksize + test_rand_below(s - g->blocksize);
		else if (r == 2)
			plain += 1 + test_rand_below(g->blocksize - 1);
		else if (r == 3 && round % 8 == 3)
			plain = 1 + test_rand_below(g->blocksize - 1);
		model_init(&m, content_cipher_size(g, plain),
			   blks[test_rand_below(4)]);
		model_fill(&m, 0, HEADER_SIZE, 1);
		for (int k = (int)test_rand_below(6); k > 0; k--) {
			uint64_t a = HEADER_SIZE + test_rand_below(plain);
			uint64_t len = 1 + test_rand_below(3 * s);

			model_fill(&m, a, a + len, test_rand_below(4) != 0);
		}
		check_all(g, plain, &m, "random");
		m.unsupported = 1;
		check_all(g, plain, &m, "unsupported");
		model_free(&m);
	}
}

/* the layout of the report: 1 MiB written at 0 and at 5 MiB, 4 KiB
 * blocks: data and holes exactly on the plaintext's 1 MiB marks */
static void whole_units(void)
{
	struct content_geom g;
	struct sparse_store st;
	uint64_t plain = 6u << 20, got = 0;
	struct model m;

	CHECK(content_geom_init(&g, 4096, 16) == 0, "geom");
	model_init(&m, content_cipher_size(&g, plain), 4096);
	st = (struct sparse_store){ model_seek, model_read, &m };
	model_fill(&m, 0, HEADER_SIZE + (1u << 20), 1);
	model_fill(&m, HEADER_SIZE + (5u << 20), m.size, 1);
	CHECK(sparse_seek(&g, plain, &st, 0, SEEK_HOLE, &got) == 0 &&
	      got == 1u << 20, "hole at %llu", (unsigned long long)got);
	CHECK(sparse_seek(&g, plain, &st, 1u << 20, SEEK_DATA, &got) == 0 &&
	      got == 5u << 20, "data at %llu", (unsigned long long)got);
	CHECK(sparse_seek(&g, plain, &st, 5u << 20, SEEK_HOLE, &got) == 0 &&
	      got == plain, "end hole at %llu", (unsigned long long)got);
	CHECK(sparse_seek(&g, plain, &st, plain, SEEK_DATA, &got) == -ENXIO,
	      "past the end");
	model_free(&m);
}

/* past the read bound, allocated units count as data: a zero unit deep
 * in an allocated run is found from near it, not from far before it */
static void read_bound(void)
{
	struct content_geom g;
	struct sparse_store st;
	uint64_t plain = 6000 * 512, zero = 5000 * 512, got = 0;
	struct model m;

	CHECK(content_geom_init(&g, 512, 16) == 0, "geom");
	model_init(&m, content_cipher_size(&g, plain), 4096);
	st = (struct sparse_store){ model_seek, model_read, &m };
	model_fill(&m, 0, m.size, 1);
	model_fill(&m, HEADER_SIZE + zero, HEADER_SIZE + zero + 512, 0);
	CHECK(sparse_seek(&g, plain, &st, 0, SEEK_HOLE, &got) == 0 &&
	      got == plain, "far: hole at %llu", (unsigned long long)got);
	CHECK(sparse_seek(&g, plain, &st, zero - 4000 * 512, SEEK_HOLE,
			  &got) == 0 && got == zero,
	      "near: hole at %llu", (unsigned long long)got);
	CHECK(sparse_seek(&g, plain, &st, zero, SEEK_DATA, &got) == 0 &&
	      got == zero + 512, "data at %llu", (unsigned long long)got);
	model_free(&m);
}

int main(void)
{
	static const uint32_t sectors[] = { 512, 4096 };
	static const uint32_t bss[] = { 16, 8 };

	test_seed();
	whole_units();
	read_bound();
	for (size_t s = 0; s < 2; s++)
		for (size_t b = 0; b < 2; b++) {
			struct content_geom g;

			CHECK(content_geom_init(&g, sectors[s], bss[b]) == 0,
			      "geom");
			random_layouts(&g);
		}
	return test_finish("test_sparse");
}
