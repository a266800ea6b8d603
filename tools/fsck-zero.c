/* SPDX-License-Identifier: MIT */
/*
 * see fsck-zero.h. The copy is a file of the volume whose plaintext is
 * the damaged file's ciphertext, byte for byte (header and every sector
 * as they were): read through a mount it is what to put back in the
 * ciphertext directory to undo the zeroing. A raw copy of the ciphertext
 * would be a second file with the same nonce, which fsck reports.
 */
#include "tools/fsck-zero.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/fsck-keys.h"
#include "tools/fsck-repair.h"
#include "tools/fsck-report.h"

#define COPY_BUF (1u << 20)

void fsck_zero_init(struct fsck_zero *z)
{
	memset(z, 0, sizeof(*z));
	z->fd = -1;
}

/* fd's whole ciphertext into the new lost+found file out: 0 or -errno */
static int copy_ciphertext(struct fsck *f, int fd, int out)
{
	struct content_file cf;
	uint8_t *buf = malloc(COPY_BUF);
	uint64_t at = 0;
	int err = buf ? fileio_open(&cf, out, f->kr, f->cfg.cipher,
				    f->cfg.sector_size)
		      : -ENOMEM;

	while (!err) {
		ssize_t n = pread(fd, buf, COPY_BUF, (off_t)at), w;

		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		w = fileio_write(&cf, buf, (size_t)n, at);
		if (w != n)
			err = w < 0 ? (int)w : -EIO;
		at += (uint64_t)n;
	}
	if (buf)
		fileio_close(&cf);
	free(buf);
	if (!err && fsync(out) != 0)
		err = -errno;
	return err;
}

/* before the first zeroing: the copy, then the file opened for writing */
static int zero_begin(struct fsck *f, const struct fsck_entry *e, int fd,
		      struct fsck_zero *z)
{
	const char *base = e->path ? strrchr(e->path, '/') : NULL;
	char plain[VNAME_MAX_PLAIN + 1];
	int out, err;

	if (base)
		snprintf(plain, sizeof(plain), "%s.ciphertext", base + 1);
	out = fsck_keyring(f) ? fsck_lost_found_create(f, base ? plain : NULL,
						       "damaged-ciphertext",
						       z->copy)
			      : -ENOMEM;
	if (out < 0)
		return out;
	err = copy_ciphertext(f, fd, out);
	close(out);
	if (err)
		return err;
	z->fd = openat(e->dirfd, e->cname, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (z->fd < 0)
		return -errno;
	err = fileio_open(&z->cf, z->fd, f->kr, f->cfg.cipher,
			  f->cfg.sector_size);
	if (err) {
		close(z->fd);
		z->fd = -1;
	}
	return err;
}

/* seal [off, end) anew as zeros: 0 or -errno */
static int zero_sector(struct fsck_zero *z, uint64_t off, uint64_t end)
{
	size_t len = (size_t)(end - off);
	uint8_t *zeros = calloc(1, len ? len : 1);
	ssize_t n;

	if (!zeros)
		return -ENOMEM;
	n = fileio_write(&z->cf, zeros, len, off);
	free(zeros);
	return n == (ssize_t)len ? 0 : n < 0 ? (int)n : -EIO;
}

void fsck_damaged_sector(struct fsck *f, const struct fsck_entry *e, int fd,
			 struct fsck_zero *z, uint64_t off, uint64_t end)
{
	enum fsck_action act = FA_NONE;
	char done[VNAME_MAX_PLAIN + 160] = "";
	int err;

	if (f->zero_damaged && !e->in_lf) {
		if (z->fd < 0 && !z->err)
			z->err = zero_begin(f, e, fd, z);
		err = z->err ? z->err : zero_sector(z, off, end);
		act = err ? FA_FAILED : FA_FIXED;
		if (err)
			snprintf(done, sizeof(done), "not zeroed: %s",
				 strerror(-err));
		else
			snprintf(done, sizeof(done), "sealed anew as zeros; the "
				 "file's ciphertext as it was is in /%s/%s",
				 FSCK_LOST_FOUND, z->copy);
		(void)fsck_log(f, "%s (%s): sector at offset %llu %s",
			       e->path ? e->path : e->cpath, e->cpath,
			       (unsigned long long)off, done);
	}
	fsck_report(f, FC_CONTENT_UNREADABLE, e->in_lf, e->path, e->cpath, act,
		    done[0] ? done : NULL,
		    "sector at offset %llu (bytes %llu to %llu) fails its tag",
		    (unsigned long long)off, (unsigned long long)off,
		    (unsigned long long)end - 1);
}

void fsck_zero_end(struct fsck *f, const struct fsck_entry *e,
		   struct fsck_zero *z)
{
	if (z->fd < 0)
		return;
	fileio_close(&z->cf);
	if (fsync(z->fd) != 0)
		fsck_fail(f, "%s: syncing the zeroed sectors: %s",
			  e->path ? e->path : e->cpath, strerror(errno));
	close(z->fd);
	z->fd = -1;
}
