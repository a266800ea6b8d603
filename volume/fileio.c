/* SPDX-License-Identifier: MIT */
/* see fileio.h */
#include "volume/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/procfd.h"
#include "crypto/secmem.h"
#include "volume/cipher.h"

/* plaintext bytes handled per pread/pwrite */
#define FILEIO_BATCH (128 * 1024)

static int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EBADMSG; /* shorter than its size says */
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* pwritev until every byte is out (iov is consumed) */
static int pwritev_full(int fd, struct iovec *iov, int cnt, uint64_t off)
{
	while (cnt) {
		ssize_t n = pwritev(fd, iov, cnt, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		off += (uint64_t)n;
		while (cnt && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt) {
			iov->iov_base = (uint8_t *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

static int pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	struct iovec iov = { (void *)buf, len };

	return len ? pwritev_full(fd, &iov, 1, off) : 0;
}

/*
 * Units at ciphertext offset off; with the header in front when hdr is set,
 * which needs the units to start at unit 0 (off == HEADER_SIZE): one
 * pwritev, so a process killed between "header" and "first data" cannot
 * leave a header without its unit 0 (fsck: "a header alone").
 */
static int pwrite_units(int fd, const uint8_t *hdr, const void *buf,
			size_t len, uint64_t off)
{
	struct iovec iov[2] = { { (void *)hdr, HEADER_SIZE },
				{ (void *)buf, len } };

	if (!hdr)
		return pwrite_full(fd, buf, len, off);
	if (off != HEADER_SIZE)
		return -EINVAL; /* a caller bug: the header would land on data */
	return pwritev_full(fd, iov, 2, 0);
}

static int cipher_size_of(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

/*
 * Units [first, first + n) of the layout of size plain, en- or decrypted
 * from src into dst with the file's key: a key section of its own
 * (volume/keyring.h), so no I/O ever happens while the keys are in use
 * and a lock waits for this CPU work only. -EACCES when locked.
 */
static int crypt_units(const struct content_file *f, int encrypt,
		       uint64_t plain, uint64_t first, uint64_t n, uint8_t *dst,
		       const uint8_t *src)
{
	struct crypto_tfm *tfm;
	unsigned int slot;
	int err;

	vkeyring_enter(f->kr);
	tfm = vkeyring_get(f->kr, VKEY_CONTENTS, f->hdr.nonce, &slot, &err);
	if (tfm) {
		err = encrypt ? content_encrypt_units(tfm, &f->geom, plain, first,
						      n, dst, src)
			      : content_decrypt_units(tfm, &f->geom, plain, first,
						      n, dst, src);
		vkeyring_put(f->kr, slot);
	}
	vkeyring_leave(f->kr);
	return err;
}

int fileio_read_header(int fd, const struct content_geom *g, uint64_t csize,
		       struct file_header *h, uint64_t *plain,
		       struct fileio_bad *bad)
{
	struct fileio_bad b = { FILEIO_SHORT, HEADER_OK };
	uint8_t raw[HEADER_SIZE];
	ssize_t n;
	int err;

	memset(h, 0, sizeof(*h));
	*plain = 0;
	if (csize == 0)
		return 0; /* an empty file has no header */
	if (csize < HEADER_SIZE) {
		err = -EBADMSG;
		goto out;
	}
	do
		n = pread(fd, raw, HEADER_SIZE, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != HEADER_SIZE)
		return -ENODATA;
	err = header_decode(raw, h, &b.herr);
	b.what = FILEIO_HEADER;
	if (!err) {
		err = content_plain_size(g, csize, h, plain);
		b.what = csize < HEADER_SIZE + (uint64_t)g->blocksize
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

int fileio_open(struct content_file *f, int fd, struct vkeyring *kr,
		enum volume_cipher cipher, uint32_t sector_size)
{
	const struct volume_cipher_info *ci = volume_cipher_info(cipher);
	uint64_t csize;
	int err;

	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->kr = kr;
	err = content_geom_init(&f->geom, sector_size, ci->blocksize);
	if (!err)
		err = cipher_size_of(fd, &csize);
	if (!err && csize)
		err = load_header(f, csize);
	if (err)
		fileio_close(f);
	return err;
}

void fileio_close(struct content_file *f)
{
	f->have_header = 0;
}

int fileio_size(struct content_file *f, uint64_t *plain)
{
	uint64_t csize;
	int err = cipher_size_of(f->fd, &csize);

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

/* units [first, first+n) of the layout of size plain: their span */
static size_t units_bytes(const struct content_geom *g, uint64_t plain,
			  uint64_t first, uint64_t n)
{
	struct content_unit last;

	content_unit(g, plain, first + n - 1, &last);
	return (size_t)(last.cipher_off + last.len -
			(HEADER_SIZE + first * g->sector_size));
}

/* how many units from first fit one batch (at least 1) */
static uint64_t batch_units(const struct content_geom *g, uint64_t first,
			    uint64_t last)
{
	uint64_t n = FILEIO_BATCH / g->sector_size;

	if (n == 0)
		n = 1;
	return last - first + 1 < n ? last - first + 1 : n;
}

static uint8_t *batch_alloc(const struct content_geom *g, size_t *size)
{
	uint64_t n = FILEIO_BATCH / g->sector_size;

	/* + one sector and a block: the joined tail unit */
	*size = (size_t)((n ? n : 1) * g->sector_size + g->sector_size +
			 g->blocksize);
	return malloc(*size);
}

/*
 * Where units [u, ...) of a read can be decrypted straight into the
 * caller's buffer: they start at the requested offset and lie wholly
 * inside the request and the file (not a padded tiny unit). Then the
 * batch may be as long as the request, since no bounce buffer limits it.
 * Returns the unit count for that (0: use the bounce buffer) and sets
 * *bytes.
 */
static uint64_t direct_units(const struct content_geom *g, uint64_t plain,
			     uint64_t u, uint64_t last, uint64_t room,
			     size_t *bytes)
{
	uint64_t n = room / g->sector_size, start = u * g->sector_size;
	size_t b;

	if (n > last - u + 1)
		n = last - u + 1;
	if (n == 0 && last == u)
		n = 1; /* a short last unit */
	if (n == 0)
		return 0;
	b = units_bytes(g, plain, u, n);
	if (b > room || start + b > plain) {
		/* a joined or padded last unit: all but it, if any */
		if (--n == 0)
			return 0;
		b = units_bytes(g, plain, u, n);
	}
	*bytes = b;
	return n;
}

/* read plaintext [off, off+len) of the layout of size plain (in range) */
static int read_plain(const struct content_file *f, uint64_t plain, uint8_t *out,
		      uint64_t off, uint64_t len)
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
		uint64_t n = 0, take;
		size_t bytes = 0;
		uint8_t *dst;

		if (skip == 0)
			n = direct_units(&f->geom, plain, u, last, len - done,
					 &bytes);
		if (n) {
			dst = out + done;
		} else {
			if (!buf && !(buf = batch_alloc(&f->geom, &bsize))) {
				err = -ENOMEM;
				break;
			}
			n = batch_units(&f->geom, u, last);
			bytes = units_bytes(&f->geom, plain, u, n);
			used = bytes > used ? bytes : used;
			dst = buf;
		}
		err = pread_full(f->fd, dst, bytes, HEADER_SIZE + start);
		if (!err)
			err = crypt_units(f, 0, plain, u, n, dst, dst);
		if (err)
			break;
		/* the plaintext of these units is dst[0 .. bytes) from start,
		 * clipped to the file (a padded unit is longer) */
		take = bytes - skip;
		if (take > len - done)
			take = len - done;
		if (dst == buf)
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
	int err;

	if (off >= plain || len == 0)
		return 0;
	if (len > plain - off)
		len = (size_t)(plain - off);
	if (len > SSIZE_MAX)
		len = SSIZE_MAX;
	err = read_plain(f, plain, buf, off, len);
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

/* a range of unit indexes, inclusive; empty when first > last */
struct unit_span {
	uint64_t first, last;
};

/*
 * The plaintext of unit u of the new layout: old data (from the old units,
 * or from the saved old tail), new data on top, zeros elsewhere.
 */
struct rewrite {
	uint64_t old_size, new_size;
	uint64_t tail_start;       /* old tail unit start; old_size if none */
	const uint8_t *tail;       /* old plaintext [tail_start, old_size) */
	uint64_t off, len;         /* the new data */
	const uint8_t *data;
};

static int fill_units(struct content_file *f, const struct rewrite *w,
		      uint64_t first, uint64_t n, uint8_t *buf)
{
	size_t bytes = units_bytes(&f->geom, w->new_size, first, n);
	uint64_t s = first * f->geom.sector_size, e = s + bytes, a, b;
	int err;

	memset(buf, 0, bytes);
	if (e > w->new_size)
		e = w->new_size; /* a padded unit: the rest stays zero */
	/*
	 * Old data below the old tail (same units in both layouts), only
	 * where the new data does not cover it: at most a partial first
	 * and last unit of a write are read back.
	 */
	a = s;
	b = e < w->tail_start ? e : w->tail_start;
	if (a < b) {
		uint64_t lo = w->len ? w->off : b, hi = w->len ? w->off + w->len : b;
		uint64_t p0 = a, p1 = lo < b ? lo : b; /* left of the new data */
		uint64_t q0 = hi > a ? hi : a, q1 = b;  /* right of it */

		if (p0 < p1) {
			err = read_plain(f, w->old_size, buf, p0, p1 - p0);
			if (err)
				return err;
		}
		if (q0 < q1 && q0 >= p1) {
			err = read_plain(f, w->old_size, buf + (q0 - s), q0,
					 q1 - q0);
			if (err)
				return err;
		}
	}
	/* the saved old tail */
	a = s > w->tail_start ? s : w->tail_start;
	b = e < w->old_size ? e : w->old_size;
	if (a < b)
		memcpy(buf + (a - s), w->tail + (a - w->tail_start), (size_t)(b - a));
	/* the new data */
	a = s > w->off ? s : w->off;
	b = e < w->off + w->len ? e : w->off + w->len;
	if (w->len && a < b)
		memcpy(buf + (a - s), w->data + (a - w->off), (size_t)(b - a));
	return 0;
}

/* hdr: the header, written together with unit 0 (sp starts there) */
static int write_span(struct content_file *f, const struct rewrite *w,
		      struct unit_span sp, uint8_t *buf, const uint8_t *hdr)
{
	int err = 0;

	for (uint64_t u = sp.first; !err && u <= sp.last;) {
		uint64_t n = batch_units(&f->geom, u, sp.last);
		size_t bytes = units_bytes(&f->geom, w->new_size, u, n);
		uint64_t s = u * f->geom.sector_size;

		if (w->len && s >= w->off && s + bytes <= w->off + w->len &&
		    s + bytes <= w->new_size) {
			/* wholly new data: encrypt it straight from the
			 * caller's buffer, no copy */
			err = crypt_units(f, 1, w->new_size, u, n, buf,
					  w->data + (s - w->off));
		} else {
			err = fill_units(f, w, u, n, buf);
			if (!err)
				err = crypt_units(f, 1, w->new_size, u, n, buf,
						  buf);
		}
		if (!err)
			err = pwrite_units(f->fd, u == 0 ? hdr : NULL, buf, bytes,
					   HEADER_SIZE + u * f->geom.sector_size);
		u += n;
	}
	return err;
}

/* units of the layout of size plain overlapping [off, off+len) */
static struct unit_span span_of(const struct content_geom *g, uint64_t plain,
				uint64_t off, uint64_t len)
{
	struct unit_span sp = { 1, 0 };

	if (len && off < plain) {
		uint64_t end = off + len < plain ? off + len : plain;

		sp.first = content_unit_of(g, plain, off);
		sp.last = content_unit_of(g, plain, end - 1);
	}
	return sp;
}

/*
 * A write that grew the file failed part way (a full disk, say): take the
 * file back to old_size, as the caller was told (docs/format.md,
 * "Content"): the ciphertext is cut back, the old tail unit (tail holds
 * its plaintext) is encrypted again in its old shape,
 * which gives its old ciphertext, since XTS is deterministic for a key
 * and tweak, and the old header goes back. Nothing here needs new blocks
 * on the backing store. Units inside the old size that the write had
 * already replaced keep the new data.
 */
static int roll_back(struct content_file *f, uint64_t old_size,
		     const struct file_header *old_hdr, const uint8_t *tail,
		     uint8_t *buf)
{
	struct content_unit t;
	uint8_t raw[HEADER_SIZE];
	int err;

	if (old_size == 0) {
		f->have_header = 0;
		return ftruncate(f->fd, 0) == 0 ? 0 : -errno;
	}
	f->hdr = *old_hdr;
	content_unit(&f->geom, old_size,
		     content_unit_count(&f->geom, old_size) - 1, &t);
	memset(buf, 0, t.len);
	memcpy(buf, tail, (size_t)(old_size - t.plain_off));
	/* encrypted first: locked meanwhile, the file keeps its new size
	 * rather than lose its old tail */
	err = crypt_units(f, 1, old_size, t.index, 1, buf, buf);
	if (err)
		return err;
	if (ftruncate(f->fd, (off_t)content_cipher_size(&f->geom, old_size)) != 0)
		return -errno;
	err = pwrite_full(f->fd, buf, t.len, t.cipher_off);
	header_encode(old_hdr, raw);
	if (!err)
		err = pwrite_full(f->fd, raw, HEADER_SIZE, 0);
	return err;
}

/*
 * Grow (or keep) the file from old_size to new_size, writing data at off:
 * the old tail unit changes shape when the size changes, so it is saved
 * first and rewritten in the new layout; units wholly in a gap stay holes.
 */
static int rewrite(struct content_file *f, uint64_t old_size,
		   uint64_t new_size, uint64_t off, const uint8_t *data,
		   uint64_t len)
{
	struct rewrite w = { old_size, new_size, old_size, NULL, off, len, data };
	struct unit_span a, b, first;
	struct file_header old_hdr = f->hdr;
	uint64_t last;
	uint8_t *tail = NULL, *buf = NULL, raw[HEADER_SIZE];
	size_t tail_size = 0, bsize = 0;
	int fresh = 0, hdr_due, err = 0, started = 0;

	if (!f->have_header) {
		err = header_new(&f->hdr);
		if (err)
			return err;
		f->have_header = 1;
		fresh = 1;
	}
	if (old_size && new_size != old_size) {
		struct content_unit t;

		content_unit(&f->geom, old_size,
			     content_unit_count(&f->geom, old_size) - 1, &t);
		w.tail_start = t.plain_off;
		tail_size = (size_t)(old_size - t.plain_off);
		tail = malloc(tail_size);
		if (!tail)
			return -ENOMEM;
		err = read_plain(f, old_size, tail, t.plain_off, tail_size);
		w.tail = tail;
	}
	buf = err ? NULL : batch_alloc(&f->geom, &bsize);
	if (!err && !buf)
		err = -ENOMEM;
	hdr_due = err ? 0 : header_due(f, new_size, fresh, raw);
	a = span_of(&f->geom, new_size, w.tail_start, old_size - w.tail_start);
	b = span_of(&f->geom, new_size, off, len);
	if (!err && a.first <= a.last && b.first <= b.last &&
	    b.first <= a.last + 1 && a.first <= b.last + 1) {
		/* overlapping or adjacent: one span */
		a.first = a.first < b.first ? a.first : b.first;
		a.last = a.last > b.last ? a.last : b.last;
		b.first = 1;
		b.last = 0;
	}
	/*
	 * The header goes out in one write with unit 0 when the first span
	 * starts there (always, for a new file written from its start);
	 * otherwise (a sparse first write, a grow by truncate) alone, first:
	 * a kill after it leaves a header alone, which reads as empty.
	 */
	first = a.first <= a.last ? a : b;
	started = !err; /* from here on the disk may change */
	if (!err && hdr_due && !(first.first == 0 && first.first <= first.last)) {
		err = pwrite_full(f->fd, raw, HEADER_SIZE, 0);
		hdr_due = 0;
	}
	if (!err && a.first <= a.last)
		err = write_span(f, &w, a, buf, hdr_due ? raw : NULL);
	if (!err && b.first <= b.last)
		err = write_span(f, &w, b, buf, hdr_due && a.first > a.last ? raw : NULL);
	/* a final unit in the gap was not written: extend with zeros (when
	 * the last unit was written the file has its size already) */
	last = new_size ? content_unit_count(&f->geom, new_size) - 1 : 0;
	if (!err && new_size != old_size &&
	    !(a.first <= a.last && a.last == last) &&
	    !(b.first <= b.last && b.last == last) &&
	    ftruncate(f->fd, (off_t)content_cipher_size(&f->geom, new_size)) != 0)
		err = -errno;
	if (err && started && new_size != old_size)
		(void)roll_back(f, old_size, &old_hdr, tail, buf); /* keeps err */
	/* after whole write_spans buf holds only ciphertext (every
	 * plaintext byte put there was encrypted in place): no wipe */
	wipe_free(buf, err ? bsize : 0);
	wipe_free(tail, tail_size);
	if (err)
		f->have_header = 0; /* the disk may hold the old header or none:
				     * the next call reads it back */
	return err;
}

ssize_t fileio_write(struct content_file *f, const void *buf, size_t len,
		     uint64_t off)
{
	uint64_t plain, end;
	int err;

	if (len == 0)
		return 0;
	if (len > SSIZE_MAX)
		len = SSIZE_MAX;
	if (off > (uint64_t)INT64_MAX - HEADER_SIZE - len)
		return -EFBIG;
	err = fileio_size(f, &plain);
	if (err)
		return err;
	end = off + len;
	err = rewrite(f, plain, end > plain ? end : plain, off, buf, len);
	return err ? err : (ssize_t)len;
}

/* shrink to new_size > 0: the new last unit is re-encrypted in its shape */
static int shrink(struct content_file *f, uint64_t old_size, uint64_t new_size)
{
	struct content_unit t;
	uint8_t *buf, raw[HEADER_SIZE];
	size_t bsize;
	int hdr_due, err;

	content_unit(&f->geom, new_size,
		     content_unit_count(&f->geom, new_size) - 1, &t);
	buf = batch_alloc(&f->geom, &bsize);
	if (!buf)
		return -ENOMEM;
	memset(buf, 0, t.len);
	err = read_plain(f, old_size, buf, t.plain_off, t.plain_len);
	/* a changed header (only when the new size is one block or less,
	 * so the tail is unit 0) goes out with the new tail in one write */
	hdr_due = err ? 0 : header_due(f, new_size, 0, raw);
	if (!err && ftruncate(f->fd, (off_t)content_cipher_size(&f->geom,
								new_size)) != 0)
		err = -errno;
	if (!err)
		err = crypt_units(f, 1, new_size, t.index, 1, buf, buf);
	if (!err && hdr_due && t.index != 0)
		err = pwrite_full(f->fd, raw, HEADER_SIZE, 0);
	if (!err)
		err = pwrite_units(f->fd, hdr_due && t.index == 0 ? raw : NULL,
				   buf, t.len, t.cipher_off);
	wipe_free(buf, bsize);
	if (err)
		f->have_header = 0; /* as in rewrite() */
	return err;
}

int fileio_truncate(struct content_file *f, uint64_t size)
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
		/* the next write makes a new header and nonce */
		if (ftruncate(f->fd, 0) != 0)
			return -errno;
		f->have_header = 0;
		return 0;
	}
	if (size < plain)
		return shrink(f, plain, size);
	return rewrite(f, plain, size, size, NULL, 0);
}

int fileio_seek(int fd, uint64_t plain, int64_t off, int whence,
		int64_t *out)
{
	off_t r;

	if (off < 0 || (uint64_t)off >= plain)
		return -ENXIO;
	r = lseek(fd, (off_t)HEADER_SIZE + off, whence);
	if (r < 0)
		return -errno;
	if (r - HEADER_SIZE >= (off_t)plain) {
		/* the ciphertext's tail (a last unit's stolen bytes) */
		if (whence != SEEK_HOLE)
			return -ENXIO;
		r = (off_t)plain + HEADER_SIZE;
	}
	*out = r - HEADER_SIZE;
	return 0;
}

int fileio_reserve(int fd, uint64_t off, uint64_t len)
{
	if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)(HEADER_SIZE + off),
		      (off_t)len) != 0 && errno != EOPNOTSUPP)
		return -errno;
	return 0;
}
