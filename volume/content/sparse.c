/* SPDX-License-Identifier: MIT */
/* SEEK_DATA/SEEK_HOLE in plaintext units: see sparse.h */
#include "volume/content/sparse.h"

#include <errno.h>
#include <unistd.h>

/* the backing store has no SEEK_DATA/SEEK_HOLE: everything is data */
static int unsupported(int err)
{
	return err == -EINVAL || err == -EOPNOTSUPP;
}

/*
 * How many units the store reports wholly allocated one call reads, to
 * find all-zero ones among them; past that, such units count as data,
 * so a call's cost is bounded. (Partly allocated units, at the edges of
 * the store's extents, are always read.) Reading a data unit stops at
 * its first bytes: ciphertext is random.
 */
#define SPARSE_READ_UNITS 4096u
#define SPARSE_PREFIX 64u

/* is ciphertext [c0, c1) all zero? (bytes past the end count as zero) */
static int read_all_zero(const struct sparse_store *st, uint64_t c0,
			 uint64_t c1, int *zero)
{
	uint8_t buf[4096];
	size_t chunk = SPARSE_PREFIX;

	*zero = 1;
	while (c0 < c1) {
		size_t want = c1 - c0 < chunk ? (size_t)(c1 - c0) : chunk;
		ssize_t n = st->read(st->ctx, buf, want, c0);

		if (n < 0)
			return (int)n;
		if (n == 0)
			return 0;
		/* ciphertext is public: an early exit leaks nothing */
		for (ssize_t i = 0; i < n; i++)
			if (buf[i]) {
				*zero = 0;
				return 0;
			}
		c0 += (uint64_t)n;
		chunk = sizeof(buf);
	}
	return 0;
}

/* is the unit at ciphertext [c0, c1) a hole? *budget: whole units it
 * may still read */
static int unit_is_hole(const struct sparse_store *st, uint64_t c0,
			uint64_t c1, unsigned int *budget, int *hole)
{
	uint64_t d, h;
	int err = st->seek(st->ctx, c0, SEEK_DATA, &d);

	*hole = 1;
	if (err == -ENXIO || (!err && d >= c1))
		return 0; /* wholly unallocated */
	if (err)
		return err;
	err = st->seek(st->ctx, c0, SEEK_HOLE, &h);
	if (err && err != -ENXIO)
		return err;
	if (!err && d == c0 && h >= c1) { /* wholly allocated */
		if (!*budget) {
			*hole = 0;
			return 0;
		}
		(*budget)--;
	}
	return read_all_zero(st, c0, c1, hole);
}

/* the unit holding ciphertext offset c, or the unit count past the end */
static uint64_t unit_at(const struct content_geom *g, uint64_t plain,
			uint64_t c)
{
	if (c < HEADER_SIZE)
		return 0;
	if (c - HEADER_SIZE >= plain)
		return content_unit_count(g, plain);
	return content_unit_of(g, plain, c - HEADER_SIZE);
}

int sparse_seek(const struct content_geom *g, uint64_t plain,
		const struct sparse_store *st, uint64_t off, int whence,
		uint64_t *out)
{
	uint64_t n = content_unit_count(g, plain), i, next;
	unsigned int budget = SPARSE_READ_UNITS;

	if (off >= plain)
		return -ENXIO;
	if (whence != SEEK_DATA && whence != SEEK_HOLE)
		return -EINVAL;
	if (g->overhead) {
		/* sealed: no holes, and a zeroed unit is damage, not one */
		*out = whence == SEEK_DATA ? off : plain;
		return 0;
	}
	for (i = content_unit_of(g, plain, off); i < n; i = next) {
		struct content_unit u;
		uint64_t c0, c1, at;
		int err, hole;

		content_unit(g, plain, i, &u);
		c0 = u.cipher_off;
		c1 = c0 + u.len;
		/* where the next candidate lies: skip runs the store reports
		 * unallocated (SEEK_DATA), or allocated (SEEK_HOLE) once
		 * the read budget is spent */
		err = st->seek(st->ctx, c0, whence, &at);
		if (unsupported(err)) {
			*out = whence == SEEK_DATA ? off : plain;
			return 0;
		}
		if (err == -ENXIO)
			/* no data after c0; past the end (the file shrank
			 * meanwhile): a hole */
			at = whence == SEEK_DATA ? UINT64_MAX : c0;
		else if (err)
			return err;
		if (at >= c1 && (whence == SEEK_DATA || !budget)) {
			next = unit_at(g, plain, at);
			if (next <= i)
				next = i + 1;
			continue;
		}
		err = unit_is_hole(st, c0, c1, &budget, &hole);
		if (err)
			return err;
		if (hole == (whence == SEEK_HOLE)) {
			*out = u.plain_off > off ? u.plain_off : off;
			return 0;
		}
		next = i + 1;
	}
	if (whence == SEEK_DATA)
		return -ENXIO;
	*out = plain;
	return 0;
}
