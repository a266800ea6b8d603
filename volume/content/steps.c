/* SPDX-License-Identifier: MIT */
/* see steps.h */
#include "volume/content/steps.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "volume/fdio.h"

int steps_init(struct steps *s, int fd, uint64_t new_csize, int set_size)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->new_csize = new_csize;
	s->set_size = set_size;
	if (fstat(fd, &st) != 0)
		return -errno;
	s->old_csize = (uint64_t)st.st_size;
	return 0;
}

void steps_free(struct steps *s, int wipe)
{
	for (int i = 0; i < s->n; i++) {
		wipe_free(s->r[i].mem, wipe ? s->r[i].mem_size : 0);
		free(s->r[i].old); /* ciphertext */
	}
	s->n = 0;
}

uint8_t *steps_region(struct steps *s, uint64_t off, size_t len)
{
	struct steps_region *r = &s->r[s->n];

	if (s->n >= STEPS_REGIONS - 1) {
		fprintf(stderr, "cloakfs: steps_region: more than %d regions\n",
			STEPS_REGIONS - 1);
		abort(); /* the header's place would be taken */
	}
	memset(r, 0, sizeof(*r));
	r->mem_size = HEADER_SIZE + len;
	r->mem = malloc(r->mem_size);
	if (!r->mem)
		return NULL;
	s->n++;
	r->off = off;
	r->len = len;
	r->bytes = r->mem + HEADER_SIZE;
	return r->bytes;
}

void steps_header(struct steps *s, const uint8_t raw[HEADER_SIZE])
{
	for (int i = 0; i < s->n; i++) {
		struct steps_region *r = &s->r[i];

		if (r->off == HEADER_SIZE) {
			memcpy(r->mem, raw, HEADER_SIZE);
			r->bytes = r->mem;
			r->off = 0;
			r->len += HEADER_SIZE;
			return;
		}
	}
	memmove(&s->r[1], &s->r[0], (size_t)s->n * sizeof(s->r[0]));
	memset(&s->r[0], 0, sizeof(s->r[0]));
	memcpy(s->hdr, raw, HEADER_SIZE);
	s->r[0].len = HEADER_SIZE;
	s->r[0].bytes = s->hdr;
	s->n++;
}

void steps_punch(struct steps *s, uint64_t off, uint64_t len)
{
	s->punch_off = off;
	s->punch_len = len;
}

/* the old bytes every region will overwrite, read before any step */
static int save_old(struct steps *s)
{
	for (int i = 0; i < s->n; i++) {
		struct steps_region *r = &s->r[i];
		int err;

		if (r->off >= s->old_csize)
			continue;
		r->old_len = (size_t)(s->old_csize - r->off) < r->len
				     ? (size_t)(s->old_csize - r->off) : r->len;
		r->old = malloc(r->old_len);
		if (!r->old)
			return -ENOMEM;
		err = fdio_pread_all(s->fd, r->old, r->old_len, r->off);
		if (err)
			return err == -ENODATA ? -EBADMSG : err;
	}
	return 0;
}

/*
 * Undo the first `done` regions (the last of them may be written in
 * part): the file cut back to its old size where it grew, the saved
 * bytes written back. No key, no new blocks beyond the old size.
 */
static int undo(const struct steps *s, int done, int sized)
{
	int err = 0, grew = sized && s->new_csize > s->old_csize;

	for (int i = 0; i < done; i++)
		grew |= s->r[i].off + s->r[i].len > s->old_csize;
	if (grew && ftruncate(s->fd, (off_t)s->old_csize) != 0)
		err = -errno;
	for (int i = done - 1; i >= 0; i--) {
		const struct steps_region *r = &s->r[i];
		int e = fdio_pwrite_all(s->fd, r->old, r->old_len, r->off);

		err = err ? err : e;
	}
	return err;
}

int steps_run(struct steps *s)
{
	int i, sized, err = save_old(s);

	if (err)
		return err;
	/* each region in order, then the size */
	for (i = 0; !err && i < s->n; i++)
		err = fdio_pwrite_all(s->fd, s->r[i].bytes, s->r[i].len,
				      s->r[i].off);
	if (!err && s->set_size && ftruncate(s->fd, (off_t)s->new_csize) != 0)
		err = -errno;
	sized = !err && s->set_size;
	if (!err && s->punch_len &&
	    fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)s->punch_off, (off_t)s->punch_len) != 0)
		err = -errno;
	if (err)
		(void)undo(s, i, sized); /* keeps the step's error */
	return err;
}
