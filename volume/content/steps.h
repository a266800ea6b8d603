/* SPDX-License-Identifier: MIT */
/*
 * One change of a file's ciphertext that takes several steps (a write,
 * a grow, a shrink: docs/design.md, "Operations that fail"), prepared
 * whole before its first step: the new ciphertext of every region it
 * writes, and the old bytes there as they are on disk. A failing step
 * (EIO, ENOSPC) is undone from the saved bytes alone, so the undo needs
 * no key, and a lock between two steps finds nothing left to encrypt:
 * the file ends in its old state or in its new one. Ciphertext only;
 * fileio.c encrypts into the regions.
 */
#ifndef CLOAKFS_VOLUME_CONTENT_STEPS_H
#define CLOAKFS_VOLUME_CONTENT_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "volume/content/header.h"

#define STEPS_REGIONS 3 /* a header alone, the old tail, the new data */

struct steps_region {
	uint64_t off;    /* ciphertext offset */
	size_t len;
	uint8_t *bytes;  /* the new ciphertext: into mem, or the steps' hdr */
	uint8_t *mem;    /* owned: room for a header, then the units */
	size_t mem_size;
	uint8_t *old;    /* owned: the old bytes of [off, off + old_len) */
	size_t old_len;  /* the part of the region inside the old file */
};

struct steps {
	int fd;
	struct steps_region r[STEPS_REGIONS]; /* written in this order */
	int n;
	uint8_t hdr[HEADER_SIZE];        /* a header written alone */
	uint64_t old_csize, new_csize;
	int set_size;                    /* after the regions: the new size */
	uint64_t punch_off, punch_len;   /* last step: ciphertext made holes */
};

/*
 * A change of ciphertext file fd (O_RDWR) to size new_csize; set_size:
 * the size is a step of its own, the last. 0 or -errno (fstat).
 */
int steps_init(struct steps *s, int fd, uint64_t new_csize, int set_size);

/*
 * The next region: room for len bytes of new ciphertext at offset off
 * (units, off > 0), to be filled before steps_run. NULL when out of
 * memory (-ENOMEM). At most STEPS_REGIONS - 1 of them.
 */
uint8_t *steps_region(struct steps *s, uint64_t off, size_t len);

/*
 * The header, written in one step with the region that starts at unit 0
 * (a kill between the two cannot leave a header alone, which fsck
 * reports); without one, alone and first. After the regions.
 */
void steps_header(struct steps *s, const uint8_t raw[HEADER_SIZE]);

/*
 * The last step (after the size): ciphertext [off, off + len) punched
 * to all-zero bytes in one fallocate(2) (FALLOC_FL_PUNCH_HOLE; holes,
 * content.h), for whole units that become holes. Nothing is saved for
 * it: it must come after every step that can fail and be undone, and
 * the size may only grow or stay, so a failing punch (one call that
 * changes nothing when it fails; -EOPNOTSUPP where the store cannot
 * punch) undoes the regions and cuts the file back to its old size.
 */
void steps_punch(struct steps *s, uint64_t off, uint64_t len);

/*
 * Read and keep the old bytes every region will overwrite, then take the
 * steps in order; a failing step undoes those before it and itself. 0,
 * or -errno (of the step that failed; -EBADMSG: the file is shorter
 * than its size said).
 */
int steps_run(struct steps *s);

/* free; wipe: a preparation failed, plaintext may be left in a region */
void steps_free(struct steps *s, int wipe);

#endif
