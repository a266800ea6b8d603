/* SPDX-License-Identifier: MIT */
/*
 * SEEK_DATA/SEEK_HOLE (lseek(2)) in plaintext offsets, from where a
 * ciphertext file's data lies (docs/format.md: a unit whose ciphertext
 * is all zero bytes is a hole). The answers are whole units: SEEK_DATA
 * gives the start of the first unit at or after off holding data (off
 * itself inside one), SEEK_HOLE the start of the first hole unit at or
 * after off (off itself inside one), or the plaintext size, the
 * implicit hole at the end.
 *
 * A unit the backing store reports wholly unallocated is a hole; one it
 * reports allocated, wholly or in part, is read: a hole if its
 * ciphertext is all zero (a zero unit between two data units shares
 * backing blocks with both, since units start 32 bytes past the store's
 * blocks). A data unit's read stops at its first bytes; units wholly
 * allocated are read up to a bound per call (sparse.c), past which they
 * count as data (reporting zeros as data is allowed). A store that
 * cannot tell (its lseek refuses SEEK_DATA) has data everywhere, and so
 * has a sealed file (authenticated volumes store no holes). Pure
 * offset logic over the store's callbacks, so it is tested without
 * files.
 */
#ifndef CLOAKFS_VOLUME_CONTENT_SPARSE_H
#define CLOAKFS_VOLUME_CONTENT_SPARSE_H

#include <stdint.h>
#include <sys/types.h>

#include "volume/content/content.h"

/* the ciphertext file, in ciphertext offsets */
struct sparse_store {
	/* lseek(off, SEEK_DATA or SEEK_HOLE): 0 and *out, or -errno
	 * (-ENXIO: no data at or after off, or off past the end) */
	int (*seek)(void *ctx, uint64_t off, int whence, uint64_t *out);
	/* pread: bytes read (0 at the end) or -errno */
	ssize_t (*read)(void *ctx, void *buf, size_t len, uint64_t off);
	void *ctx;
};

/*
 * whence SEEK_DATA or SEEK_HOLE from plaintext offset off of a file of
 * plaintext size plain: 0 and *out; -ENXIO when off >= plain or, for
 * SEEK_DATA, no data follows; other -errno of the store.
 */
int sparse_seek(const struct content_geom *g, uint64_t plain,
		const struct sparse_store *st, uint64_t off, int whence,
		uint64_t *out);

#endif
