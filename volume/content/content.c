/* SPDX-License-Identifier: MIT */
/* see content.h */
#include "volume/content/content.h"

#include "crypto/secmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int content_geom_init(struct content_geom *g, uint32_t sector_size,
		      uint32_t blocksize)
{
	if (sector_size < CONTENT_MIN_SECTOR || sector_size > CONTENT_MAX_SECTOR ||
	    (sector_size & (sector_size - 1)))
		return -EINVAL;
	if (blocksize != 8 && blocksize != 16)
		return -EINVAL;
	g->sector_size = sector_size;
	g->blocksize = blocksize;
	g->overhead = 0;
	g->nonce_size = 0;
	g->wide_tweak = 0;
	return 0;
}

int content_geom_sealed(struct content_geom *g, uint32_t sector_size,
			uint32_t nonce_size)
{
	int err = content_geom_init(g, sector_size, 16);

	if (err)
		return err;
	if (nonce_size != 12 && nonce_size != 24)
		return -EINVAL;
	/* a block of 1: no unit is ever padded or joined to another */
	g->blocksize = 1;
	g->overhead = CONTENT_SEALED_OVERHEAD;
	g->nonce_size = nonce_size;
	return 0;
}

int content_geom_wide(struct content_geom *g, uint32_t sector_size)
{
	/* Adiantum takes any length from 16 bytes: the units of a 16-byte
	 * block cipher are all at least that long */
	int err = content_geom_init(g, sector_size, 16);

	if (!err)
		g->wide_tweak = CONTENT_WIDE_TWEAK;
	return err;
}

int content_geom_of(struct content_geom *g, const struct volume_cipher_info *ci,
		    uint32_t sector_size)
{
	if (ci->wide_alg)
		return content_geom_wide(g, sector_size);
	if (ci->aead_alg)
		return content_geom_sealed(g, sector_size,
					   strcmp(ci->aead_alg, "gcm(aes)") == 0
						   ? 12 : 24);
	return content_geom_init(g, sector_size, ci->blocksize);
}

uint64_t content_unit_pos(const struct content_geom *g, uint64_t index)
{
	return HEADER_SIZE + index * ((uint64_t)g->sector_size + g->overhead);
}

int content_is_tiny(const struct content_geom *g, uint64_t plain)
{
	return plain > 0 && plain < g->blocksize;
}

uint64_t content_cipher_size(const struct content_geom *g, uint64_t plain)
{
	if (plain == 0)
		return 0;
	if (plain < g->blocksize)
		return HEADER_SIZE + g->blocksize;
	return HEADER_SIZE + plain + content_unit_count(g, plain) * g->overhead;
}

int content_size_needs_header(const struct content_geom *g, uint64_t cipher)
{
	return !g->overhead && cipher == HEADER_SIZE + (uint64_t)g->blocksize;
}

/* sealed: every unit but the last is S + overhead bytes, the last 1 to S
 * data bytes + overhead */
static int sealed_plain_size(const struct content_geom *g, uint64_t cipher,
			     uint64_t *plain)
{
	uint64_t stride = (uint64_t)g->sector_size + g->overhead;
	uint64_t body = cipher - HEADER_SIZE, rest = body % stride;

	if (rest && rest <= g->overhead)
		return -EBADMSG;
	*plain = body / stride * g->sector_size + (rest ? rest - g->overhead : 0);
	return 0;
}

int content_plain_size(const struct content_geom *g, uint64_t cipher,
		       const struct file_header *h, uint64_t *plain)
{
	uint64_t one_block = HEADER_SIZE + (uint64_t)g->blocksize;

	/* a header alone is an empty file too: a crash between a header
	 * written alone and the first data can leave one (fileio.c) */
	if (cipher == 0 || cipher == HEADER_SIZE) {
		*plain = 0;
		return 0;
	}
	if (cipher < one_block)
		return -EBADMSG;
	if (g->overhead)
		return h && (h->flags & HEADER_FLAG_PADDED)
			       ? -EBADMSG : sealed_plain_size(g, cipher, plain);
	if (h && (h->flags & HEADER_FLAG_PADDED) && cipher != one_block)
		return -EBADMSG;
	if (cipher > one_block) {
		*plain = cipher - HEADER_SIZE;
		return 0;
	}
	if (!h) {
		fprintf(stderr, "cloakfs: content_plain_size: header needed\n");
		abort();
	}
	if (!(h->flags & HEADER_FLAG_PADDED)) {
		*plain = g->blocksize;
		return 0;
	}
	if (h->tiny_len == 0 || h->tiny_len >= g->blocksize)
		return -EBADMSG;
	*plain = h->tiny_len;
	return 0;
}

uint64_t content_unit_count(const struct content_geom *g, uint64_t plain)
{
	uint64_t s = g->sector_size, n, last;

	if (plain == 0)
		return 0;
	n = (plain + s - 1) / s;
	last = plain - (n - 1) * s;
	/* a tail shorter than one block joins the sector before it */
	if (n > 1 && last < g->blocksize)
		n--;
	return n;
}

void content_unit(const struct content_geom *g, uint64_t plain, uint64_t index,
		  struct content_unit *u)
{
	uint64_t n = content_unit_count(g, plain), s = g->sector_size;

	if (index >= n) {
		fprintf(stderr, "cloakfs: content_unit: unit %llu of %llu\n",
			(unsigned long long)index, (unsigned long long)n);
		abort();
	}
	u->index = index;
	u->plain_off = index * s;
	u->cipher_off = content_unit_pos(g, index);
	if (index + 1 < n) {
		u->plain_len = (uint32_t)s;
		u->len = (uint32_t)s + g->overhead;
		return;
	}
	u->plain_len = (uint32_t)(plain - index * s);
	u->len = (u->plain_len < g->blocksize ? g->blocksize : u->plain_len) +
		 g->overhead;
}

uint64_t content_unit_of(const struct content_geom *g, uint64_t plain,
			 uint64_t off)
{
	uint64_t n = content_unit_count(g, plain), i = off / g->sector_size;

	if (off >= plain) {
		fprintf(stderr, "cloakfs: content_unit_of: offset past end\n");
		abort();
	}
	return i < n ? i : n - 1;
}

void content_explode_range(const struct content_geom *g, uint64_t plain,
			   uint64_t off, uint64_t len, struct content_range *r)
{
	struct content_unit last;
	uint64_t end;

	memset(r, 0, sizeof(*r));
	if (off >= plain || len == 0)
		return;
	end = len > plain - off ? plain : off + len;
	r->first_unit = content_unit_of(g, plain, off);
	content_unit(g, plain, content_unit_of(g, plain, end - 1), &last);
	r->nunits = last.index - r->first_unit + 1;
	r->plain_off = r->first_unit * g->sector_size;
	r->cipher_off = content_unit_pos(g, r->first_unit);
	r->cipher_len = last.cipher_off + last.len - r->cipher_off;
	r->skip = off - r->plain_off;
	r->len = end - off;
}

uint64_t content_units_len(const struct content_geom *g, uint64_t plain,
			   uint64_t first, uint64_t n)
{
	struct content_unit last;

	content_unit(g, plain, first + n - 1, &last);
	return last.cipher_off + last.len - content_unit_pos(g, first);
}

uint64_t content_units_plain(const struct content_geom *g, uint64_t plain,
			     uint64_t first, uint64_t n)
{
	struct content_unit last;

	content_unit(g, plain, first + n - 1, &last);
	return last.plain_off + last.plain_len - first * g->sector_size;
}

uint64_t content_whole_units(const struct content_geom *g, uint64_t plain,
			     uint64_t u, uint64_t last, uint64_t room,
			     uint64_t *bytes)
{
	uint64_t n = room / g->sector_size, start = u * g->sector_size, b;

	if (g->overhead)
		return 0;
	if (n > last - u + 1)
		n = last - u + 1;
	if (n == 0 && last == u)
		n = 1; /* a short last unit */
	if (n == 0)
		return 0;
	b = content_units_len(g, plain, u, n);
	if (b > room || start + b > plain) {
		/* a joined or padded last unit: all but it, if any */
		if (--n == 0)
			return 0;
		b = content_units_len(g, plain, u, n);
	}
	*bytes = b;
	return n;
}

static const struct content_span no_span = { 1, 0 };

static int span_empty(struct content_span sp)
{
	return sp.first > sp.last;
}

/* units of the layout of size plain overlapping [off, off+len) */
static struct content_span span_of(const struct content_geom *g,
				   uint64_t plain, uint64_t off, uint64_t len)
{
	struct content_span sp = no_span;

	if (len && off < plain) {
		uint64_t end = off + len < plain ? off + len : plain;

		sp.first = content_unit_of(g, plain, off);
		sp.last = content_unit_of(g, plain, end - 1);
	}
	return sp;
}

void content_change_write(const struct content_geom *g, uint64_t old_size,
			  uint64_t new_size, uint64_t off, uint64_t len,
			  struct content_change *c)
{
	struct content_span *sp = c->span;
	uint64_t last;

	*c = (struct content_change){ old_size, new_size, off, len,
				      { no_span, no_span }, 0 };
	if (old_size && new_size != old_size) {
		struct content_unit t;

		content_unit(g, old_size, content_unit_count(g, old_size) - 1, &t);
		sp[0] = span_of(g, new_size, t.plain_off, old_size - t.plain_off);
	}
	if (g->overhead && new_size > old_size) {
		/* sealed: no holes, so every unit from the old last one (its
		 * "last" flag goes) to the new end is written */
		sp[0].first = old_size ? content_unit_count(g, old_size) - 1 : 0;
		sp[0].last = content_unit_count(g, new_size) - 1;
	}
	sp[1] = span_of(g, new_size, off, len);
	if (!span_empty(sp[0]) && !span_empty(sp[1]) &&
	    sp[1].first <= sp[0].last + 1 && sp[0].first <= sp[1].last + 1) {
		/* overlapping or adjacent: one span */
		sp[0].first = sp[0].first < sp[1].first ? sp[0].first : sp[1].first;
		sp[0].last = sp[0].last > sp[1].last ? sp[0].last : sp[1].last;
		sp[1] = no_span;
	}
	/* a final unit in the gap is not written: extend with zeros (when
	 * the last unit is written the file gets its size from it) */
	last = new_size ? content_unit_count(g, new_size) - 1 : 0;
	c->set_size = new_size != old_size &&
		      !(!span_empty(sp[0]) && sp[0].last == last) &&
		      !(!span_empty(sp[1]) && sp[1].last == last);
}

void content_change_shrink(const struct content_geom *g, uint64_t old_size,
			   uint64_t new_size, struct content_change *c)
{
	uint64_t last = content_unit_count(g, new_size) - 1;

	*c = (struct content_change){ old_size, new_size, 0, 0,
				      { { last, last }, no_span }, 1 };
}

void content_fill_of(const struct content_geom *g,
		     const struct content_change *c, uint64_t first,
		     uint64_t n, struct content_fill *fl)
{
	uint64_t s = first * g->sector_size, e, oe, a, b;
	uint64_t new_end = c->off + c->len;

	memset(fl, 0, sizeof(*fl));
	fl->start = s;
	fl->bytes = content_units_len(g, c->new_size, first, n);
	e = s + fl->bytes - n * g->overhead;
	if (c->len && s >= c->off && e <= new_end && e <= c->new_size) {
		fl->direct = 1;
		return;
	}
	if (e > c->new_size)
		e = c->new_size; /* a padded unit: the rest stays zero */
	/*
	 * Old data where the new data does not cover it: at most a partial
	 * first and last unit of a write, and the old tail of a file whose
	 * size changes, are read back.
	 */
	oe = e < c->old_size ? e : c->old_size;
	a = c->len && c->off < oe ? c->off : oe; /* left of the new data */
	b = c->len && new_end > s ? new_end : s; /* right of it */
	if (s < a) {
		fl->old[0].off = s;
		fl->old[0].len = a - s;
	}
	if (b < oe && b >= a) {
		fl->old[1].off = b;
		fl->old[1].len = oe - b;
	}
	a = s > c->off ? s : c->off;
	b = e < new_end ? e : new_end;
	if (c->len && a < b) {
		fl->new_off = a;
		fl->new_len = b - a;
	}
}

/* for plaintext (padding): no early exit */
static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

/*
 * Is this ciphertext unit a hole? Ciphertext is public, so the answer may
 * come early: a real unit's first word is almost never zero, which makes
 * the check nearly free per sector (the byte loop above cost more than
 * the AES-XTS encryption itself on every write and read).
 */
static int is_hole(const uint8_t *p, size_t n)
{
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		uint64_t w[4];

		memcpy(w, p + i, sizeof(w));
		if (w[0] | w[1] | w[2] | w[3])
			return 0;
	}
	for (; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* the XTS IV of unit index: little-endian, zero-extended to the block */
static void xts_iv(uint8_t *iv, uint64_t index, const void *arg)
{
	const struct content_geom *g = arg;

	memset(iv, 0, g->blocksize);
	for (unsigned int i = 0; i < 8; i++)
		iv[i] = (uint8_t)(index >> (8 * i));
}

static int crypt_unit(struct crypto_tfm *tfm, const struct content_iv *civ,
		      int enc, uint64_t index, uint8_t *dst, const uint8_t *src,
		      size_t len)
{
	uint8_t iv[CONTENT_MAX_IV];

	civ->iv_of(iv, index, civ->arg);
	return enc ? crypto_encrypt(tfm, iv, dst, src, len)
		   : crypto_decrypt(tfm, iv, dst, src, len);
}

static int encrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			 const struct content_iv *iv, uint64_t plain,
			 uint64_t first, uint64_t nunits, uint8_t *dst,
			 const uint8_t *src)
{
	int err = 0;

	for (uint64_t i = first; !err && i < first + nunits; i++) {
		struct content_unit u;

		content_unit(g, plain, i, &u);
		if (u.len > u.plain_len && !all_zero(src + u.plain_len,
						     u.len - u.plain_len))
			return -EINVAL; /* padding must be zero */
		err = crypt_unit(tfm, iv, 1, i, dst, src, u.len);
		if (!err && is_hole(dst, u.len)) {
			/*
			 * Would read back as a hole. Fine only if the
			 * plaintext is zero too; src may be dst, so recover
			 * it by decrypting, then restore the ciphertext.
			 */
			int zero;

			err = crypt_unit(tfm, iv, 0, i, dst, dst, u.len);
			zero = all_zero(dst, u.len);
			if (!err)
				err = crypt_unit(tfm, iv, 1, i, dst, dst, u.len);
			if (!err && !zero)
				err = -EILSEQ;
		}
		src += u.len;
		dst += u.len;
	}
	secmem_scrub_stack();
	return err;
}

static int decrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			 const struct content_iv *iv, uint64_t plain,
			 uint64_t first, uint64_t nunits, uint8_t *dst,
			 const uint8_t *src)
{
	int err = 0;

	for (uint64_t i = first; !err && i < first + nunits; i++) {
		struct content_unit u;

		content_unit(g, plain, i, &u);
		if (is_hole(src, u.len))
			memset(dst, 0, u.len); /* a hole */
		else
			err = crypt_unit(tfm, iv, 0, i, dst, src, u.len);
		if (!err && u.len > u.plain_len &&
		    !all_zero(dst + u.plain_len, u.len - u.plain_len))
			err = -EBADMSG;
		src += u.len;
		dst += u.len;
	}
	secmem_scrub_stack();
	return err;
}

int content_crypt_units_iv(struct crypto_tfm *tfm, const struct content_geom *g,
			   const struct content_iv *iv, int enc, uint64_t plain,
			   uint64_t first, uint64_t nunits, uint8_t *dst,
			   const uint8_t *src)
{
	if (iv->ivsize > CONTENT_MAX_IV || crypto_ivsize(tfm) != iv->ivsize)
		return -EINVAL;
	return enc ? encrypt_units(tfm, g, iv, plain, first, nunits, dst, src)
		   : decrypt_units(tfm, g, iv, plain, first, nunits, dst, src);
}

int content_encrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			  uint64_t plain, uint64_t first, uint64_t nunits,
			  uint8_t *dst, const uint8_t *src)
{
	const struct content_iv iv = { g->blocksize, xts_iv, g };

	return content_crypt_units_iv(tfm, g, &iv, 1, plain, first, nunits,
				      dst, src);
}

int content_decrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			  uint64_t plain, uint64_t first, uint64_t nunits,
			  uint8_t *dst, const uint8_t *src)
{
	const struct content_iv iv = { g->blocksize, xts_iv, g };

	return content_crypt_units_iv(tfm, g, &iv, 0, plain, first, nunits,
				      dst, src);
}
