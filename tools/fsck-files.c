/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: regular files (header, size, nonce, and with --deep every
 * unit) and symlink targets; the nonce table that finds two files
 * sharing one nonce, i.e. one XTS key (hard links share an inode, so
 * they are told apart by (dev, ino)). See fsck.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/fsck-files.h"
#include "tools/fsck-progress.h"
#include "tools/fsck-report.h"
#include "tools/fsck-targets.h"
#include "tools/fsck-zero.h"
#include "tools/fsck-keys.h"
#include "volume/fdio.h"
#include "volume/names/namemode.h"
#include "volume/content/fileio.h"
#include "volume/content/header.h"
#include "volume/names/symlink.h"
#include "volume/names/vname.h"

#define DEEP_BUF (1u << 20)

struct nonce_rec {
	uint8_t nonce[HEADER_NONCE_SIZE];
	dev_t dev;
	ino_t ino;
	char *path;  /* plaintext, or NULL */
	char *cpath;
	bool in_lf;
};

struct fsck_nonce_table {
	struct nonce_rec *recs;
	size_t n, cap;
};

int fsck_nonces_new(struct fsck *f)
{
	f->nonces = calloc(1, sizeof(*f->nonces));
	return f->nonces ? 0 : -ENOMEM;
}

void fsck_nonces_free(struct fsck *f)
{
	if (!f->nonces)
		return;
	for (size_t i = 0; i < f->nonces->n; i++) {
		free(f->nonces->recs[i].path);
		free(f->nonces->recs[i].cpath);
	}
	free(f->nonces->recs);
	free(f->nonces);
	f->nonces = NULL;
}

static int remember_nonce(struct fsck *f, const uint8_t nonce[HEADER_NONCE_SIZE],
			  const struct stat *st, const struct fsck_entry *e)
{
	struct fsck_nonce_table *t = f->nonces;
	struct nonce_rec *r;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		struct nonce_rec *recs = realloc(t->recs, cap * sizeof(*recs));

		if (!recs)
			return -ENOMEM;
		t->recs = recs;
		t->cap = cap;
	}
	r = &t->recs[t->n];
	memcpy(r->nonce, nonce, HEADER_NONCE_SIZE);
	r->dev = st->st_dev;
	r->ino = st->st_ino;
	r->in_lf = e->in_lf;
	r->path = e->path ? strdup(e->path) : NULL;
	r->cpath = strdup(e->cpath);
	if ((e->path && !r->path) || !r->cpath) {
		free(r->path);
		free(r->cpath);
		return -ENOMEM;
	}
	t->n++;
	return 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct nonce_rec *x = a, *y = b;
	int c = memcmp(x->nonce, y->nonce, HEADER_NONCE_SIZE);

	if (c)
		return c;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

/* is the entry at ciphertext path cpath a sync tool's conflict copy? */
static bool is_sync_copy(const char *cpath)
{
	const char *slash = strrchr(cpath, '/');

	return vname_classify(slash ? slash + 1 : cpath) == VNAME_ENTRY_CONFLICT;
}

void fsck_nonces_report(struct fsck *f)
{
	struct fsck_nonce_table *t = f->nonces;

	if (t->n) /* recs is NULL when no file had a header */
		qsort(t->recs, t->n, sizeof(*t->recs), cmp_rec);
	for (size_t i = 0; i < t->n;) {
		size_t j = i + 1;

		while (j < t->n && !memcmp(t->recs[j].nonce, t->recs[i].nonce,
					   HEADER_NONCE_SIZE))
			j++;
		/* a group of one inode is hard links: fine */
		for (size_t k = i + 1; k < j; k++) {
			const struct nonce_rec *a = &t->recs[i], *b = &t->recs[k];

			if (a->dev == b->dev && a->ino == b->ino)
				continue;
			/* two versions of one file a sync tool kept both
			 * of: what an overwrite in place shows anyway */
			if (is_sync_copy(a->cpath) || is_sync_copy(b->cpath)) {
				fsck_report(f, FC_SYNC_CONFLICT,
					    b->in_lf && a->in_lf, b->path,
					    b->cpath, FA_NONE, NULL,
					    "shares its file key with %s: two "
					    "versions of one file a sync tool "
					    "kept; copy the one you keep through "
					    "the mount to give it a new key",
					    a->path ? a->path : a->cpath);
				continue;
			}
			/* re-encrypting is a copy through the mount; fsck
			 * does not pick which copy to change */
			fsck_report(f, FC_NONCE_REUSE, b->in_lf && a->in_lf,
				    b->path, b->cpath, FA_NONE, NULL,
				    "shares its file nonce, hence its key, with "
				    "%s (not a hard link): copy one of them "
				    "through the mount to give it a new one",
				    a->path ? a->path : a->cpath);
		}
		i = j;
	}
}

static enum fsck_class header_class(enum header_error why)
{
	switch (why) {
	case HEADER_BAD_MAGIC: return FC_HEADER_MAGIC;
	case HEADER_BAD_VERSION: return FC_HEADER_VERSION;
	case HEADER_ZERO_NONCE: return FC_NONCE_ZERO;
	default: return FC_HEADER_DAMAGED;
	}
}

/*
 * The plaintext offset at or after off (a unit's first byte) where the
 * next data unit starts, by SEEK_DATA on the ciphertext: the units before
 * it are holes (all-zero ciphertext reads as zeros, docs/format.md 6),
 * so --deep skips them instead of reading them (a 1 TiB sparse file is
 * a few units of data). size when no data follows; off itself when the
 * backing filesystem cannot tell (then every unit is read).
 */
static uint64_t next_data(const struct fsck *f, int fd, uint64_t off,
			  uint64_t size)
{
	uint64_t s = f->geom.sector_size, c = HEADER_SIZE + off, unit;
	off_t d;

	if (c > (uint64_t)INT64_MAX)
		return off;
	d = lseek(fd, (off_t)c, SEEK_DATA);
	if (d < 0)
		return errno == ENXIO ? size : off;
	if ((uint64_t)d <= c)
		return off;
	/* the unit holding byte d: every unit before it is wholly a hole (a
	 * tail joined to the last unit is read with that unit) */
	unit = ((uint64_t)d - HEADER_SIZE) / s * s;
	if (unit <= off) /* off was not a unit's first byte */
		return off;
	return unit < size ? unit : size;
}

/*
 * --deep: decrypt every unit that holds data; 0 or the first error. In
 * an authenticated volume every unit is checked: each that fails its
 * tag is reported (e: by path and plaintext offset; zeroed only under
 * --zero-damaged, fsck-zero.h) and the check goes on after it.
 */
static int read_all(struct fsck *f, const struct fsck_entry *e, int fd,
		    uint64_t *done)
{
	struct content_file cf;
	struct fsck_zero z;
	uint64_t size = 0, off = 0, s = f->geom.sector_size;
	int rc;

	*done = 0;
	fsck_zero_init(&z);
	if (!f->deep_buf) {
		f->deep_buf = malloc(DEEP_BUF);
		if (!f->deep_buf)
			return -ENOMEM;
	}
	rc = fsck_keyring(f) ? fileio_open(&cf, fd, f->kr, f->cfg.cipher,
						f->cfg.sector_size)
			       : -ENOMEM;
	if (!rc) {
		rc = fileio_size(&cf, &size);
		while (!rc && off < size) {
			uint64_t next = f->geom.overhead ? off
					: next_data(f, fd, off, size);
			uint64_t bad_off = UINT64_MAX;
			ssize_t n;

			if (next > off) {
				fsck_progress_bytes(next - off);
				off = next;
				continue;
			}
			n = fileio_read_checked(&cf, size, f->deep_buf, DEEP_BUF,
						off, &bad_off);

			if (n == -EBADMSG && bad_off != UINT64_MAX) {
				uint64_t end = bad_off + s < size ? bad_off + s
								  : size;

				fsck_damaged_sector(f, e, fd, &z, bad_off, end);
				fsck_progress_bytes(end - off);
				off = end;
			} else if (n < 0) {
				rc = (int)n;
			} else if (n == 0) {
				break;
			} else {
				off += (uint64_t)n;
				fsck_progress_bytes((uint64_t)n);
			}
		}
		fileio_close(&cf);
	}
	fsck_zero_end(f, e, &z);
	/* plaintext: wipe what this file put there */
	explicit_bzero(f->deep_buf, size < DEEP_BUF ? (size_t)size : DEEP_BUF);
	*done = off;
	return rc;
}

void fsck_deep_free(struct fsck *f)
{
	if (!f->deep_buf)
		return;
	explicit_bzero(f->deep_buf, DEEP_BUF);
	free(f->deep_buf);
	f->deep_buf = NULL;
}

enum fsck_class fsck_check_file(struct fsck *f, const struct fsck_entry *e,
				const struct stat *st, char *why, size_t whylen)
{
	struct file_header h;
	struct fileio_bad bad;
	uint64_t plain, done;
	int fd, rc;

	*why = '\0';
	fsck_progress_file((uint64_t)st->st_size);
	if (st->st_size == 0)
		return FC_COUNT; /* an empty file has no header */
	/* a FIFO swapped in since the stat must not block the check */
	fd = fdio_open_regular(e->dirfd, e->cname, NULL);
	if (fd < 0) {
		fsck_report(f, FC_UNREADABLE, e->in_lf, e->path, e->cpath, FA_NONE,
			    NULL, "cannot open: %s", fd == -VOLUME_ENOTREG
			    ? "no longer a regular file" : strerror(-fd));
		return FC_COUNT;
	}
	rc = fileio_read_header(fd, &f->geom, (uint64_t)st->st_size, &h, &plain,
				&bad);
	if (rc && rc != -EBADMSG && rc != -EINVAL) {
		fsck_report(f, FC_UNREADABLE, e->in_lf, e->path, e->cpath, FA_NONE,
			    NULL, "cannot read the header: %s",
			    rc == -ENODATA ? "short read" : strerror(-rc));
		close(fd);
		return FC_COUNT;
	}
	if (rc) {
		close(fd);
		switch (bad.what) {
		case FILEIO_SHORT:
			snprintf(why, whylen, "%lld bytes: shorter than the %d-byte "
				 "header", (long long)st->st_size, HEADER_SIZE);
			return FC_HEADER_TRUNCATED;
		case FILEIO_HEADER:
			snprintf(why, whylen, "%s", header_strerror(bad.herr));
			return header_class(bad.herr);
		case FILEIO_GAP:
			if (f->geom.overhead)
				snprintf(why, whylen, "%lld bytes: no file of this "
					 "cipher has this size (its last sector "
					 "is cut inside its nonce or tag)",
					 (long long)st->st_size);
			else
				snprintf(why, whylen, "%lld bytes: no file of this "
					 "cipher has 33 to %u bytes",
					 (long long)st->st_size,
					 HEADER_SIZE + f->geom.blocksize - 1);
			return FC_CONTENT_TRUNCATED;
		default:
			snprintf(why, whylen, "tiny-file length %u does not fit "
				 "the file size", h.tiny_len);
			return FC_HEADER_DAMAGED;
		}
	}
	rc = remember_nonce(f, h.nonce, st, e);
	if (rc) {
		fsck_fail(f, "out of memory");
		close(fd);
		return FC_COUNT;
	}
	if (f->deep) {
		rc = read_all(f, e, fd, &done);
		f->bytes_checked += done;
		if (rc)
			fsck_report(f, FC_CONTENT_UNREADABLE, e->in_lf, e->path,
				    e->cpath, FA_NONE, NULL,
				    "reading plaintext byte %llu: %s",
				    (unsigned long long)done,
				    rc == -EBADMSG ? "damaged unit" : strerror(-rc));
	}
	close(fd);
	return FC_COUNT;
}

/* the class and words for a version-2 text that does not decode */
static enum fsck_class v2_fault(const struct symlink_verdict *v,
				const char *text, char *why, size_t len)
{
	const char *hash = text + strlen(SYMLINK_REF_PREFIX);

	switch (v->fault) {
	case SYMLINK_FAULT_MISSING:
		snprintf(why, len, "it refers to the stored target %s/%s, which "
			 "is not there", SYMLINK_STORE_DIR, hash);
		return FC_SYMLINK_TARGET_MISSING;
	case SYMLINK_FAULT_NOT_REGULAR:
		if (v->store)
			snprintf(why, len, "its target is stored in %s, which is "
				 "%s, not a directory", SYMLINK_STORE_DIR,
				 volume_type_name(v->type));
		else
			snprintf(why, len, "its stored target %s/%s is %s, not a "
				 "regular file", SYMLINK_STORE_DIR, hash,
				 volume_type_name(v->type));
		return FC_SYMLINK_TARGET_DAMAGED;
	case SYMLINK_FAULT_HASH:
		snprintf(why, len, "its stored target %s/%s does not hash to its "
			 "name", SYMLINK_STORE_DIR, hash);
		return FC_SYMLINK_TARGET_DAMAGED;
	case SYMLINK_FAULT_LENGTH:
		snprintf(why, len, "its stored target %s/%s has a length no "
			 "stored target has (%d to %d characters)",
			 SYMLINK_STORE_DIR, hash, SYMLINK_MAX_STORED + 1,
			 VNAME_TARGET_MAX_ENCODED);
		return FC_SYMLINK_TARGET_DAMAGED;
	case SYMLINK_FAULT_OPEN:
		snprintf(why, len, "its stored target %s/%s does not decrypt "
			 "under the volume's symlink key, or is over-padded",
			 SYMLINK_STORE_DIR, hash);
		return FC_SYMLINK_TARGET_DAMAGED;
	default:
		snprintf(why, len, "its target does not decrypt under the "
			 "volume's symlink key, or is over-padded");
		return FC_SYMLINK_UNDECODABLE;
	}
}

enum fsck_class fsck_check_symlink(struct fsck *f, const struct fsck_entry *e,
				   bool decode, char *why, size_t whylen)
{
	char enc[SYMLINK_MAX_STORED + 2];
	char plain[SYMLINK_MAX_PLAIN + 1];
	ssize_t n = readlinkat(e->dirfd, e->cname, enc, sizeof(enc));
	struct symlink_verdict v;
	enum symlink_form form;
	int rc;

	if (n < 0) {
		rc = errno;
		fsck_targets_unsure(f, e->cpath);
		snprintf(why, whylen, "readlink: %s", strerror(rc));
		if (!decode)
			return FC_COUNT; /* reported for its name already */
		return rc == EACCES || rc == EPERM ? FC_UNREADABLE
						   : FC_SYMLINK_UNDECODABLE;
	}
	if ((size_t)n >= sizeof(enc) - 1) {
		snprintf(why, whylen, "its text is longer than any target's");
		return decode ? FC_SYMLINK_UNDECODABLE : FC_COUNT;
	}
	enc[n] = '\0';
	fsck_targets_seen(f, e->cpath, enc, (size_t)n);
	if (!decode)
		return FC_COUNT;
	form = symlink_form(enc, (size_t)n, namemode_target_iv(f->cfg.cipher, f->cfg.names));
	if (form == SYMLINK_V1 && f->cfg.version >= 2) {
		snprintf(why, whylen, "a version-1 target in a version-2 volume");
		return FC_SYMLINK_UNDECODABLE;
	}
	if (form == SYMLINK_V1) {
		rc = e->names ? vname_symlink_decrypt(e->names, enc, (size_t)n,
						      plain, sizeof(plain))
			      : -EBADMSG;
		explicit_bzero(plain, sizeof(plain));
		if (rc >= 0)
			return FC_COUNT;
		snprintf(why, whylen, "its target does not decrypt under this "
			 "directory's key");
		return FC_SYMLINK_UNDECODABLE;
	}
	if (!fsck_keyring(f)) {
		fsck_fail(f, "out of memory");
		return FC_COUNT;
	}
	/* the stored target, too, is read and decoded by volume/ alone */
	rc = symlink_judge(fsck_keyring(f), f->rootfd, enc, (size_t)n, &v);
	if (!rc)
		return FC_COUNT;
	if (rc == -EBADMSG)
		return v2_fault(&v, enc, why, whylen);
	snprintf(why, whylen, "%s: %s", form == SYMLINK_REF ? "its stored target"
		 : "its target", strerror(-rc));
	if (rc == -EACCES || rc == -EPERM)
		return FC_UNREADABLE;
	return form == SYMLINK_REF ? FC_SYMLINK_TARGET_DAMAGED
				    : FC_SYMLINK_UNDECODABLE;
}
