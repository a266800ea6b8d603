/* SPDX-License-Identifier: MIT */
/* see fileio.h */
#include "volume/content/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/procfd.h"
#include "crypto/secmem.h"
#include "volume/cipher.h"
#include "volume/content/sealed.h"
#include "volume/content/sparse.h"
#include "volume/content/steps.h"
#include "volume/content/wide.h"
#include "volume/fdio.h"
#include "volume/rangelock.h"

/* plaintext bytes handled per pread/pwrite */
#define FILEIO_BATCH (128 * 1024)
/* and per pread of sealed units (read_batch_units) */
#define FILEIO_READ_BATCH_SEALED (1024 * 1024)

/* fdio_pread_all of a file's units: a file shorter than its size said
 * is damaged */
static int pread_units(int fd, void *buf, size_t len, uint64_t off)
{
	int err = fdio_pread_all(fd, buf, len, off);

	return err == -ENODATA ? -EBADMSG : err;
}

static int cipher_size_of(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

/* the size as the storage has it now, past any client's attribute cache
 * (a network filesystem's, which fstat may answer from) */
static int cipher_size_fresh(int fd, uint64_t *size)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC, STATX_SIZE,
		  &stx) != 0)
		return -errno;
	*size = stx.stx_size;
	return 0;
}

/*
 * The file's content key, in a key section of its own
 * (volume/keys/keyring.h) that key_leave ends: each en- or decryption of
 * units is one such section, so no I/O ever happens while the keys are
 * in use and a lock waits for this CPU work only. NULL and *err -EACCES
 * when locked (the section is then over).
 */
static struct crypto_tfm *key_enter(const struct content_file *f,
				    unsigned int *slot, int *err)
{
	struct crypto_tfm *tfm;

	keyring_enter(f->kr);
	tfm = keyring_get(f->kr, VKEY_CONTENTS, f->hdr.nonce, slot, err);
	if (!tfm)
		keyring_leave(f->kr);
	return tfm;
}

static void key_leave(const struct content_file *f, unsigned int slot)
{
	keyring_put(f->kr, slot);
	keyring_leave(f->kr);
}

/* units [first, first + n) of the layout of size plain, from src to dst */
static int encrypt_units(const struct content_file *f, uint64_t plain,
			 uint64_t first, uint64_t n, uint8_t *dst,
			 const uint8_t *src)
{
	unsigned int slot;
	int err;
	struct crypto_tfm *tfm = key_enter(f, &slot, &err);

	if (!tfm)
		return err;
	if (f->geom.overhead)
		err = sealed_encrypt_units(tfm, &f->geom, f->hdr.nonce, plain,
					   first, n, dst, src);
	else if (f->geom.wide_tweak)
		err = wide_encrypt_units(tfm, &f->geom, f->hdr.nonce, plain,
					 first, n, dst, src);
	else
		err = content_encrypt_units(tfm, &f->geom, plain, first, n, dst,
					    src);
	key_leave(f, slot);
	return err;
}

/* from buf to dst (sealed units; XTS and wide units are always
 * decrypted in place, dst == buf); a sealed unit that does not verify: -EBADMSG and
 * *bad */
static int decrypt_units(const struct content_file *f, uint64_t plain,
			 uint64_t first, uint64_t n, uint8_t *dst, uint8_t *buf,
			 uint64_t *bad)
{
	unsigned int slot;
	int err;
	struct crypto_tfm *tfm = key_enter(f, &slot, &err);

	if (!tfm)
		return err;
	if (f->geom.overhead)
		err = sealed_decrypt_units(tfm, &f->geom, f->hdr.nonce, plain,
					   first, n, dst, buf, bad);
	else if (f->geom.wide_tweak)
		err = wide_decrypt_units(tfm, &f->geom, f->hdr.nonce, plain,
					 first, n, buf, buf);
	else
		err = content_decrypt_units(tfm, &f->geom, plain, first, n, buf,
					    buf);
	key_leave(f, slot);
	return err;
}

int fileio_read_header(int fd, const struct content_geom *g, uint64_t csize,
		       struct file_header *h, uint64_t *plain,
		       struct fileio_bad *bad)
{
	struct fileio_bad b = { FILEIO_SHORT, HEADER_OK };
	uint8_t raw[HEADER_SIZE];
	int err;

	memset(h, 0, sizeof(*h));
	*plain = 0;
	if (csize == 0)
		return 0; /* an empty file has no header */
	if (csize < HEADER_SIZE) {
		err = -EBADMSG;
		goto out;
	}
	err = fdio_pread_all(fd, raw, HEADER_SIZE, 0);
	if (err)
		return err; /* -ENODATA: it shrank */
	err = header_decode(raw, h, &b.herr);
	b.what = FILEIO_HEADER;
	if (!err) {
		err = content_plain_size(g, csize, h, plain);
		/* sealed files have no tiny length: a size of theirs that
		 * no file has is a gap too */
		b.what = g->overhead ||
				 csize < HEADER_SIZE + (uint64_t)g->blocksize
				 ? FILEIO_GAP : FILEIO_TINY_LEN;
	}
out:
	if (err && bad)
		*bad = b;
	return err;
}

int fileio_plain_size(int fd, int pathfd, const struct content_geom *g,
		      uint64_t csize, uint64_t *plain)
{
	struct file_header h;
	char path[PROCFD_LEN];
	int own = -1, err;

	if (!content_size_needs_header(g, csize)) {
		err = content_plain_size(g, csize, NULL, plain);
	} else {
		if (fd < 0 && pathfd >= 0) {
			procfd_path(pathfd, path);
			fd = own = open(path, O_RDONLY | O_CLOEXEC);
		}
		if (fd < 0)
			err = pathfd < 0 ? -ESTALE : -errno;
		else
			err = fileio_read_header(fd, g, csize, &h, plain, NULL);
		if (own >= 0)
			close(own);
	}
	if (err)
		*plain = csize > HEADER_SIZE ? csize - HEADER_SIZE : 0;
	return err;
}

/* read, check and keep the header of f, of ciphertext size csize > 0 */
static int load_header(struct content_file *f, uint64_t csize)
{
	uint64_t plain;
	int err = fileio_read_header(f->fd, &f->geom, csize, &f->hdr, &plain,
				     NULL);

	if (err == -ENODATA)
		err = -EBADMSG; /* shorter than its size says */
	if (!err)
		f->have_header = 1;
	return err;
}

int fileio_open(struct content_file *f, int fd, struct keyring *kr,
		enum volume_cipher cipher, uint32_t sector_size)
{
	const struct volume_cipher_info *ci = volume_cipher_info(cipher);
	uint64_t csize;
	int err;

	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->kr = kr;
	err = content_geom_of(&f->geom, ci, sector_size);
	if (!err)
		err = cipher_size_of(fd, &csize);
	if (!err && csize)
		err = load_header(f, csize);
	/* the size hint of a shared file's first change (shared_begin) */
	if (!err && content_plain_size(&f->geom, csize,
				       f->have_header ? &f->hdr : NULL,
				       &f->seen_size) != 0)
		f->seen_size = 0;
	if (err)
		fileio_close(f);
	return err;
}

void fileio_lease_end(struct content_file *f)
{
	if (!f->lease)
		return;
	f->lease = 0;
	rangelock_drop(f->fd, 0, RANGELOCK_INTENT);
}

void fileio_close(struct content_file *f)
{
	fileio_lease_end(f);
	f->have_header = 0;
}

void fileio_fresh_view(int fd)
{
	/*
	 * An fdatasync of a file with nothing to write is how a network
	 * client is made to ask the storage: GlusterFS's answers from its
	 * metadata cache until then (a size a second old, seen), and takes
	 * the new one from the sync's reply. Then the clean pages go (ours
	 * are never dirty: written through). Both only speed: a failure
	 * leaves the cache to expire as it would.
	 */
	(void)fdatasync(fd);
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

void fileio_forget_cached(struct content_file *f)
{
	fileio_lease_end(f);
	f->have_header = 0;
	fileio_fresh_view(f->fd);
}

/*
 * Drop the cached pages of ciphertext [start, start + len), rounded
 * outward to whole pages. A unit (an XTS sector, or a GCM unit of
 * sector + 32 bytes, which spans two or more pages) is then fetched whole
 * from the storage by the next read, never half from a page cached
 * before another machine rewrote it (a torn unit: garbage under XTS, a
 * failed tag under GCM). The caller holds a lock on the range, so that
 * what is fetched is one version: a writer syncs before it unlocks.
 * Pages outside the range (read-ahead's) may be stale; every use of
 * them drops them first the same way.
 */
static void drop_pages(int fd, uint64_t start, uint64_t len)
{
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	uint64_t from = start - start % page, to = start + len;

	if (to % page)
		to += page - to % page;
	(void)posix_fadvise(fd, (off_t)from, (off_t)(to - from),
			    POSIX_FADV_DONTNEED);
}

/*
 * Under a lock covering the header (shared at least): the size and the
 * header as the storage has them, into *plain and f->hdr. The header's
 * page is dropped and read again first: GlusterFS's client takes a
 * file's attributes from a read's reply, so the size asked next is the
 * storage's, not its cache's (a second old, seen), in one round trip
 * where the fdatasync this replaces took one to several. A file that
 * looks empty may only look so (the kernel sends no read past the size
 * it has): with sync set it is asked again after an fdatasync, whose
 * reply refreshes the attributes whatever the size, before a caller
 * makes a header for it.
 */
static int fresh_look(struct content_file *f, int sync, uint64_t *plain)
{
	uint8_t probe[HEADER_SIZE];
	int err;

	f->have_header = 0;
	drop_pages(f->fd, 0, HEADER_SIZE);
	if (pread(f->fd, probe, sizeof(probe), 0) < 0)
		return -errno;
	err = fileio_size(f, plain);
	if (!err && !f->have_header && sync) {
		if (fdatasync(f->fd) != 0)
			return -errno;
		err = fileio_size(f, plain);
	}
	f->seen_size = err ? 0 : *plain;
	return err;
}

int fileio_lease_idle(struct content_file *f)
{
	if (f->lease &&
	    rangelock_now_ms() - f->lease_used_ms >= FILEIO_LEASE_IDLE_MS)
		fileio_lease_end(f);
	return f->lease;
}

/*
 * Why the pages kept under a lease are fresh: every change another
 * machine makes holds an exclusive lock on the bytes it changes and
 * syncs them to the storage before it unlocks (shared_end). A lease is a
 * shared lock on the whole file, so while it is held no such change
 * runs; one that ran before it was taken is on the storage. What this
 * client cached before the lease may be older than that, so a new lease
 * drops every cached page of the file and reads the header and size
 * afresh; pages fetched while it is held (a read's, read-ahead's) are
 * the storage's current bytes and stay so until it is given back. This
 * mount's own changes give it back first (shared_begin), as does a
 * reopen (fileio_forget_cached).
 */
int fileio_read_begin(struct content_file *f, uint64_t off, uint64_t len,
		      uint64_t *plain)
{
	long long now;
	int err;

	(void)off;
	(void)len;
	if (!f->shared)
		return fileio_size(f, plain);
	now = rangelock_now_ms();
	if (f->lease && now - f->lease_start_ms < FILEIO_LEASE_MAX_MS) {
		*plain = f->seen_size; /* set by fresh_look at its start */
		return 0;
	}
	fileio_lease_end(f);
	err = rangelock_take_after_writers(f->fd, 0, RANGELOCK_INTENT);
	if (err)
		return err;
	f->lease = 1;
	f->lease_start_ms = f->lease_used_ms = rangelock_now_ms();
	err = fresh_look(f, 0, plain);
	/* after the size is the storage's: a page cached past the old end
	 * goes too */
	(void)posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err)
		fileio_lease_end(f);
	return err;
}

void fileio_read_end(struct content_file *f)
{
	if (f->lease)
		f->lease_used_ms = rangelock_now_ms();
}

/*
 * With f->shared, before a change of plaintext [off, off + len) (len 0:
 * a change of the size or of anything): a lock, and what is cached of
 * the file forgotten where the change reads. A write inside the file's
 * size changes neither the size nor the header (a unit's shape depends
 * on the size alone): it takes the header shared and the ciphertext of
 * its units exclusive, so writers of other units and readers of other
 * ranges go on. Anything else (an append, a grow, a new header, a
 * truncate, a zeroed range) takes the whole file exclusive: a header is
 * created under it once, and the second machine finds and uses it.
 */
static int shared_begin(struct content_file *f, uint64_t off, uint64_t len)
{
	struct content_range r;
	uint64_t plain;
	int err;

	if (!f->shared)
		return 0;
	/* our own lease would turn into the exclusive lock taken below and
	 * go when it is dropped: give it back first */
	fileio_lease_end(f);
	/* a write past the size last seen most likely grows the file (a
	 * sequential write, a copy): the whole file at once, not the
	 * header first and then the whole file */
	if (len && off < f->seen_size && len <= f->seen_size - off) {
		err = rangelock_take(f->fd, 0, 0, HEADER_SIZE);
		if (err)
			return err;
		if (!fresh_look(f, 0, &plain) && f->have_header &&
		    off < plain && len <= plain - off) {
			content_explode_range(&f->geom, plain, off, len, &r);
			err = rangelock_take(f->fd, 1, (off_t)r.cipher_off,
					     (off_t)r.cipher_len);
			if (!err) {
				drop_pages(f->fd, r.cipher_off, r.cipher_len);
				return 0;
			}
		}
		rangelock_drop(f->fd, 0, 0);
		if (err)
			return err;
	}
	err = rangelock_take(f->fd, 1, 0, 0);
	if (err)
		return err;
	(void)posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	/* an error here is the change's own to find and report */
	(void)fresh_look(f, 1, &plain);
	return 0;
}

/* the change reaches the storage before the locks go (a client's write
 * cache, GlusterFS's write-behind, would otherwise keep it from the next
 * machine to take them): one sync per change; err, or the sync's error */
static int shared_end(const struct content_file *f, int err)
{
	if (!f->shared)
		return err;
	if (fdatasync(f->fd) != 0 && !err)
		err = -errno;
	rangelock_drop(f->fd, 0, 0);
	return err;
}

int fileio_size(struct content_file *f, uint64_t *plain)
{
	uint64_t csize;
	int err = f->shared ? cipher_size_fresh(f->fd, &csize)
			    : cipher_size_of(f->fd, &csize);

	if (err)
		return err;
	if (csize && !f->have_header) {
		/* written through another handle since we looked */
		err = load_header(f, csize);
		if (err)
			return err;
	}
	return content_plain_size(&f->geom, csize,
				  f->have_header ? &f->hdr : NULL, plain);
}

/* how many units from first fit a batch of batch plaintext bytes (at
 * least 1) */
static uint64_t units_in(const struct content_geom *g, uint64_t batch,
			 uint64_t first, uint64_t last)
{
	uint64_t n = batch / g->sector_size;

	if (n == 0)
		n = 1;
	return last - first + 1 < n ? last - first + 1 : n;
}

static uint64_t batch_units(const struct content_geom *g, uint64_t first,
			    uint64_t last)
{
	return units_in(g, FILEIO_BATCH, first, last);
}

/*
 * A read's batch: sealed units cannot be read into the caller's buffer
 * (each is 32 bytes longer than its data), so they go through a bounce
 * buffer; a whole READ of the kernel's (1 MiB at most) goes through it
 * in one pread and one key section, not 128 KiB at a time.
 */
static uint64_t read_batch_units(const struct content_geom *g, uint64_t first,
				 uint64_t last)
{
	return units_in(g, g->overhead ? FILEIO_READ_BATCH_SEALED : FILEIO_BATCH,
			first, last);
}

/* a bounce buffer for batches of up to n units from any unit */
static uint8_t *batch_alloc(const struct content_geom *g, uint64_t n,
			    size_t *size)
{
	/* + one sector and a block: the joined tail unit */
	*size = (size_t)((n + 1) * (g->sector_size + g->overhead) +
			 g->blocksize);
	return malloc(*size);
}

/* read plaintext [off, off+len) of the layout of size plain (in range);
 * *bad_off (may be NULL): the first byte of a sealed unit that fails */
static int read_plain(const struct content_file *f, uint64_t plain, uint8_t *out,
		      uint64_t off, uint64_t len, uint64_t *bad_off)
{
	struct content_range r;
	uint64_t u, last, done = 0;
	size_t bsize = 0, used = 0;
	uint8_t *buf = NULL;
	int err = 0;

	content_explode_range(&f->geom, plain, off, len, &r);
	if (r.nunits == 0)
		return 0;
	last = r.first_unit + r.nunits - 1;
	for (u = r.first_unit; !err && u <= last;) {
		uint64_t start = u * f->geom.sector_size, skip = off + done - start;
		uint64_t n = 0, take, bad = u;
		uint64_t bytes = 0;
		uint8_t *dst;
		int direct;

		if (skip == 0)
			n = content_whole_units(&f->geom, plain, u, last,
						len - done, &bytes);
		if (n) {
			dst = out + done;
		} else {
			n = read_batch_units(&f->geom, u, last);
			/* the first batch is the largest: fewer units are
			 * left for each later one */
			if (!buf && !(buf = batch_alloc(&f->geom, n, &bsize))) {
				err = -ENOMEM;
				break;
			}
			bytes = content_units_len(&f->geom, plain, u, n);
			dst = buf;
		}
		err = pread_units(f->fd, dst, (size_t)bytes,
				  content_unit_pos(&f->geom, u));
		/* the plaintext of these units is dst from start, clipped to
		 * the file (a padded unit is longer) */
		take = content_units_plain(&f->geom, plain, u, n) - skip;
		/* sealed units wholly wanted: decrypted from the batch
		 * buffer straight into out, not moved twice */
		direct = f->geom.overhead && dst == buf && skip == 0 &&
			 take <= len - done;
		if (dst == buf && !direct) /* buf held plaintext: wiped */
			used = bytes > used ? (size_t)bytes : used;
		if (!err)
			err = decrypt_units(f, plain, u, n,
					    direct ? out + done : dst, dst, &bad);
		if (err) {
			if (err == -EBADMSG && f->geom.overhead && bad_off)
				*bad_off = bad * f->geom.sector_size;
			break;
		}
		if (take > len - done)
			take = len - done;
		if (dst == buf && !direct)
			memcpy(out + done, buf + skip, (size_t)take);
		done += take;
		u += n;
	}
	wipe_free(buf, used); /* only the bytes that held plaintext */
	return err;
}

ssize_t fileio_read(struct content_file *f, void *buf, size_t len, uint64_t off)
{
	uint64_t plain;
	int err = fileio_size(f, &plain);

	return err ? err : fileio_read_sized(f, plain, buf, len, off);
}

ssize_t fileio_read_sized(const struct content_file *f, uint64_t plain,
			  void *buf, size_t len, uint64_t off)
{
	return fileio_read_checked(f, plain, buf, len, off, NULL);
}

ssize_t fileio_read_checked(const struct content_file *f, uint64_t plain,
			    void *buf, size_t len, uint64_t off,
			    uint64_t *bad_off)
{
	int err;

	if (off >= plain || len == 0)
		return 0;
	if (len > plain - off)
		len = (size_t)(plain - off);
	if (len > SSIZE_MAX)
		len = SSIZE_MAX;
	err = read_plain(f, plain, buf, off, len, bad_off);
	return err ? err : (ssize_t)len;
}

/*
 * The header for a file of size plain, in raw: 1 when it must be written
 * (new, or its tiny-file flag/length changed), else 0.
 */
static int header_due(struct content_file *f, uint64_t plain, int fresh,
		      uint8_t raw[HEADER_SIZE])
{
	uint16_t flags = content_is_tiny(&f->geom, plain) ? HEADER_FLAG_PADDED : 0;
	uint32_t tiny = flags ? (uint32_t)plain : 0;

	if (!fresh && f->hdr.flags == flags && f->hdr.tiny_len == tiny)
		return 0;
	f->hdr.flags = flags;
	f->hdr.tiny_len = tiny;
	header_encode(&f->hdr, raw);
	return 1;
}

/*
 * The plaintext of units [first, first + n) of c's new layout into buf
 * (fl: content_fill_of): old data read from the file, still in its old
 * layout, new data on top, zeros elsewhere.
 */
static int fill_units(const struct content_file *f,
		      const struct content_change *c,
		      const struct content_fill *fl, const uint8_t *data,
		      uint8_t *buf)
{
	int err = 0;

	memset(buf, 0, (size_t)fl->bytes);
	for (int i = 0; !err && i < 2; i++)
		if (fl->old[i].len)
			err = read_plain(f, c->old_size,
					 buf + (fl->old[i].off - fl->start),
					 fl->old[i].off, fl->old[i].len, NULL);
	if (!err && fl->new_len)
		memcpy(buf + (fl->new_off - fl->start),
		       data + (fl->new_off - c->off), (size_t)fl->new_len);
	return err;
}

/* units sp of c's new layout, encrypted into the next region of st */
static int add_span(struct content_file *f, const struct content_change *c,
		    struct content_span sp, const uint8_t *data,
		    struct steps *st)
{
	const struct content_geom *g = &f->geom;
	uint64_t base = content_unit_pos(g, sp.first);
	size_t bytes = (size_t)content_units_len(g, c->new_size, sp.first,
						 sp.last - sp.first + 1);
	uint8_t *region = steps_region(st, base, bytes);
	int err = 0;

	if (!region)
		return -ENOMEM;
	for (uint64_t u = sp.first; !err && u <= sp.last;) {
		uint64_t n = batch_units(g, u, sp.last);
		struct content_fill fl;
		const uint8_t *src;
		uint8_t *dst;

		content_fill_of(g, c, u, n, &fl);
		dst = region + (content_unit_pos(g, u) - base);
		/* wholly new data is encrypted straight from the caller's
		 * buffer, no copy (a truncate has no buffer: data is NULL
		 * and nothing of it is direct) */
		if (fl.direct) {
			src = data + (fl.start - c->off);
		} else {
			err = fill_units(f, c, &fl, data, dst);
			src = dst;
		}
		if (!err)
			err = encrypt_units(f, c->new_size, u, n, dst, src);
		u += n;
	}
	return err;
}

/*
 * Steps st, prepared up to err, for a file of new size new_size: the
 * header when it changes, then the steps run; freed either way.
 */
static int finish(struct content_file *f, struct steps *st,
		  uint64_t new_size, int fresh, int err)
{
	uint8_t raw[HEADER_SIZE];
	int prepared;

	if (!err && header_due(f, new_size, fresh, raw))
		steps_header(st, raw);
	prepared = !err;
	if (!err)
		err = steps_run(st);
	steps_free(st, !prepared);
	if (err)
		f->have_header = 0; /* the header may have changed in memory:
				     * the next call reads it back */
	return err;
}

/* change c prepared whole (its spans, then the header), then its steps */
static int apply(struct content_file *f, const struct content_change *c,
		 const uint8_t *data, int fresh)
{
	struct steps st;
	int err = steps_init(&st, f->fd,
			     content_cipher_size(&f->geom, c->new_size),
			     c->set_size);

	for (int i = 0; !err && i < 2; i++)
		if (c->span[i].first <= c->span[i].last)
			err = add_span(f, c, c->span[i], data, &st);
	return finish(f, &st, c->new_size, fresh, err);
}

/* grow (or keep) the file from old_size to new_size, writing data at off */
static int rewrite(struct content_file *f, uint64_t old_size,
		   uint64_t new_size, uint64_t off, const uint8_t *data,
		   uint64_t len)
{
	struct content_change c;
	int fresh = 0, err;

	if (!f->have_header) {
		err = header_new(&f->hdr);
		if (err)
			return err;
		f->have_header = 1;
		fresh = 1;
	}
	content_change_write(&f->geom, old_size, new_size, off, len, &c);
	return apply(f, &c, data, fresh);
}

/*
 * Writes are prepared whole in memory (struct change): one longer than
 * this goes in pieces, each a change of its own, and a failing piece
 * after the first gives the bytes done before it.
 */
#define FILEIO_WRITE_MAX (4u << 20)

/*
 * Sealed files have no holes: grow one of size *plain to target with
 * zeros written, in changes of at most FILEIO_WRITE_MAX bytes, each one
 * old or new (a failure leaves the file grown by the pieces done). A
 * gap up to that size is written with the change that makes it, whole.
 */
static int grow_sealed(struct content_file *f, uint64_t *plain,
		       uint64_t target)
{
	while (*plain < target) {
		uint64_t next = target - *plain > FILEIO_WRITE_MAX
					? *plain + FILEIO_WRITE_MAX : target;
		int err = rewrite(f, *plain, next, next, NULL, 0);

		if (err)
			return err;
		*plain = next;
	}
	return 0;
}

static ssize_t write_pieces(struct content_file *f, const void *buf,
			    size_t len, uint64_t off)
{
	const uint8_t *p = buf;
	size_t done = 0;

	if (len == 0)
		return 0;
	if (len > SSIZE_MAX)
		len = SSIZE_MAX;
	if (off > (uint64_t)INT64_MAX - HEADER_SIZE - len)
		return -EFBIG;
	while (done < len) {
		uint64_t at = off + done, plain, end;
		size_t n = len - done;
		int err;

		if (n > FILEIO_WRITE_MAX) /* pieces end on a multiple of it */
			n = FILEIO_WRITE_MAX - (size_t)(at % FILEIO_WRITE_MAX);
		err = fileio_size(f, &plain);
		if (!err && f->geom.overhead && at > plain &&
		    at - plain > FILEIO_WRITE_MAX)
			err = grow_sealed(f, &plain, at);
		end = at + n;
		if (!err)
			err = rewrite(f, plain, end > plain ? end : plain, at,
				      p + done, n);
		if (err)
			return done ? (ssize_t)done : err;
		done += n;
	}
	return (ssize_t)done;
}

ssize_t fileio_write(struct content_file *f, const void *buf, size_t len,
		     uint64_t off)
{
	ssize_t n;
	int err;

	if (len == 0)
		return 0;
	err = shared_begin(f, off, len);
	if (err)
		return err;
	n = write_pieces(f, buf, len, off);
	err = shared_end(f, n < 0 ? (int)n : 0);
	return err ? err : n;
}

ssize_t fileio_append(struct content_file *f, const void *buf, size_t len,
		      uint64_t *off)
{
	ssize_t n;
	int err = shared_begin(f, 0, 0);

	if (err)
		return err;
	n = fileio_size(f, off);
	if (!n && len)
		n = write_pieces(f, buf, len, *off);
	err = shared_end(f, n < 0 ? (int)n : 0);
	return err ? err : n;
}

/*
 * Shrink to new_size > 0: the new last unit, re-encrypted in its shape,
 * is written over the old units first and the file cut after it, so
 * that either step failing is undone from the saved bytes.
 */
static int shrink(struct content_file *f, uint64_t old_size, uint64_t new_size)
{
	struct content_change c;

	content_change_shrink(&f->geom, old_size, new_size, &c);
	return apply(f, &c, NULL, 0);
}

static int truncate_locked(struct content_file *f, uint64_t size)
{
	uint64_t plain;
	int err;

	if (size > (uint64_t)INT64_MAX - HEADER_SIZE - CONTENT_MAX_UNIT)
		return -EFBIG;
	err = fileio_size(f, &plain);
	/* a header alone (plain 0) still goes on a truncate to 0 */
	if (err || (size == plain && !(size == 0 && f->have_header)))
		return err;
	if (size == 0) {
		/* one step; the next write makes a new header and nonce */
		if (ftruncate(f->fd, 0) != 0)
			return -errno;
		f->have_header = 0;
		return 0;
	}
	if (size < plain)
		return shrink(f, plain, size);
	if (f->geom.overhead)
		return grow_sealed(f, &plain, size);
	return rewrite(f, plain, size, size, NULL, 0);
}

int fileio_truncate(struct content_file *f, uint64_t size)
{
	int err = shared_begin(f, 0, 0);

	if (err)
		return err;
	return shared_end(f, truncate_locked(f, size));
}

static int fd_seek(void *ctx, uint64_t off, int whence, uint64_t *out)
{
	off_t r = lseek(*(int *)ctx, (off_t)off, whence);

	if (r < 0)
		return -errno;
	*out = (uint64_t)r;
	return 0;
}

static ssize_t fd_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(*(int *)ctx, buf, len, (off_t)off);

	return n < 0 ? -errno : n;
}

int fileio_seek(int fd, const struct content_geom *g, uint64_t plain,
		int64_t off, int whence, int64_t *out)
{
	struct sparse_store st = { fd_seek, fd_read, &fd };
	uint64_t pos;
	int err;

	if (off < 0)
		return -ENXIO;
	err = sparse_seek(g, plain, &st, (uint64_t)off, whence, &pos);
	if (!err)
		*out = (int64_t)pos;
	return err;
}

int fileio_reserve(int fd, uint64_t off, uint64_t len)
{
	if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)(HEADER_SIZE + off),
		      (off_t)len) != 0 && errno != EOPNOTSUPP)
		return -errno;
	return 0;
}

/* zero plaintext for the partial units of a zeroed range */
static const uint8_t zero_unit[CONTENT_MAX_UNIT];

/*
 * Sealed files have no holes: zeros are written, in pieces of at most
 * FILEIO_WRITE_MAX as any write (each old or new).
 */
static int zero_sealed(struct content_file *f, uint64_t off, uint64_t end)
{
	while (off < end) {
		/* pieces end on multiples of 64 KiB, so on units */
		uint64_t plain, n = CONTENT_MAX_SECTOR - off % CONTENT_MAX_SECTOR;
		int err = fileio_size(f, &plain);

		if (n > end - off)
			n = end - off;
		if (!err)
			err = rewrite(f, plain, off + n > plain ? off + n : plain,
				      off, zero_unit, n);
		if (err)
			return err;
		off += n;
	}
	return 0;
}

/*
 * Unit u of the layout of size c->new_size, its part inside [off, end)
 * zeroed and the rest read back, encrypted into the next region of st.
 */
static int zero_edge(struct content_file *f, struct content_change *c,
		     uint64_t u, uint64_t off, uint64_t end, struct steps *st)
{
	struct content_unit cu;

	content_unit(&f->geom, c->new_size, u, &cu);
	c->off = off > cu.plain_off ? off : cu.plain_off;
	c->len = (end < cu.plain_off + cu.plain_len
			  ? end : cu.plain_off + cu.plain_len) - c->off;
	c->span[0].first = c->span[0].last = u;
	return add_span(f, c, c->span[0], zero_unit, st);
}

/*
 * Zero [off, end) of an XTS file of size plain > off, sized new_size
 * (plain, or end when it grows): in one run of steps, the partial units
 * at the edges re-encrypted, the size, then the whole units punched to
 * holes.
 */
static int zero_xts(struct content_file *f, uint64_t plain, uint64_t off,
		    uint64_t end, uint64_t new_size)
{
	const struct content_geom *g = &f->geom;
	uint64_t first = content_unit_of(g, new_size, off);
	uint64_t last = content_unit_of(g, new_size, end - 1);
	uint64_t w0 = first, wend = last + 1; /* whole units: [w0, wend) */
	struct content_unit a, b;
	struct content_change c = { .old_size = plain, .new_size = new_size };
	struct steps st;
	int err;

	content_unit(g, new_size, first, &a);
	content_unit(g, new_size, last, &b);
	err = steps_init(&st, f->fd, content_cipher_size(g, new_size),
			 new_size != plain);
	if (!err && new_size > plain &&
	    content_unit_of(g, plain, plain - 1) < first) {
		/* the old last unit, a sector joined with a short tail that
		 * the range starts in, becomes a whole sector: re-encrypted */
		struct content_span t = { first - 1, first - 1 };

		err = add_span(f, &c, t, zero_unit, &st);
	}
	if (!err && off > a.plain_off) { /* also the end when last == first */
		err = zero_edge(f, &c, first, off, end, &st);
		w0 = first + 1;
	}
	/* growing, the last unit is whole: at most two regions */
	if (!err && end < b.plain_off + b.plain_len && w0 <= last) {
		err = zero_edge(f, &c, last, off, end, &st);
		wend = last;
	}
	if (!err && w0 < wend) {
		content_unit(g, new_size, wend - 1, &b);
		steps_punch(&st, content_unit_pos(g, w0),
			    b.cipher_off + b.len - content_unit_pos(g, w0));
	}
	return finish(f, &st, new_size, 0, err);
}

/* fileio_zero inside shared_begin/shared_end: the size read there */
static int zero_locked(struct content_file *f, uint64_t off, uint64_t len,
		       int keep_size)
{
	uint64_t plain, end = off + len;
	int err = fileio_size(f, &plain);

	if (err)
		return err;
	if (keep_size && end > plain)
		end = plain;
	if (off >= end)
		return 0;
	if (off >= plain) /* all past the end: a grow, which reads zeros */
		return truncate_locked(f, end);
	if (f->geom.overhead)
		return zero_sealed(f, off, end);
	return zero_xts(f, plain, off, end, end > plain ? end : plain);
}

int fileio_zero(struct content_file *f, uint64_t off, uint64_t len,
		int keep_size)
{
	const uint64_t max = (uint64_t)INT64_MAX - HEADER_SIZE - CONTENT_MAX_UNIT;
	int err;

	if (len == 0)
		return 0;
	if (len > max || off > max - len)
		return -EFBIG;
	err = shared_begin(f, 0, 0);
	if (err)
		return err;
	return shared_end(f, zero_locked(f, off, len, keep_size));
}

/* fileio_allocate inside shared_begin/shared_end: whether it grows is
 * judged by the size read there, never by one another machine has
 * changed since (a stale smaller size would make the grow a shrink) */
static int allocate_locked(struct content_file *f, uint64_t off,
			   uint64_t len, int keep_size)
{
	/* off + len: both at most INT64_MAX (off_t), so no overflow;
	 * too large a size is truncate_locked's -EFBIG */
	uint64_t plain;
	int err = fileio_size(f, &plain);

	if (!err)
		err = fileio_reserve(f->fd, off, len);
	if (!err && !keep_size && off + len > plain)
		err = truncate_locked(f, off + len);
	return err;
}

int fileio_allocate(struct content_file *f, uint64_t off, uint64_t len,
		    int keep_size)
{
	int err = shared_begin(f, 0, 0);

	if (err)
		return err;
	return shared_end(f, allocate_locked(f, off, len, keep_size));
}
