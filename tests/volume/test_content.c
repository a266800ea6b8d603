/* SPDX-License-Identifier: MIT */
/*
 * content.h: sector arithmetic and unit encryption for every plaintext
 * size from 0 to two sectors + 20 bytes, sector sizes 512 and 4096, every
 * v1 cipher. The expected layout is restated here from docs/format.md and
 * each unit is checked against a direct XTS call with its tweak; the
 * plans of writes, grows and shrinks (content_change_*, content_fill_of)
 * against a byte-by-byte model of where each plaintext byte comes from.
 */
#include <errno.h>
#include <string.h>

#include "tests/volume/voltest.h"
#include "volume/content/content.h"

#define MAXP (2 * 4096 + 20)

/* the format rule, restated independently of content.c */
struct expect {
	uint64_t nunits;
	uint64_t last_off, last_len; /* plaintext span of the last unit */
	uint64_t csize;
};

static struct expect expected(uint64_t p, uint64_t s, uint64_t bs)
{
	struct expect e = { 0, 0, 0, 0 };
	uint64_t n, r;

	if (p == 0)
		return e;
	if (p < bs) {
		e.nunits = 1;
		e.last_len = p;
		e.csize = 32 + bs;
		return e;
	}
	n = (p + s - 1) / s;
	r = p - (n - 1) * s;
	if (n > 1 && r < bs)
		n--;
	e.nunits = n;
	e.last_off = (n - 1) * s;
	e.last_len = p - e.last_off;
	e.csize = 32 + p;
	return e;
}

static void set_iv(uint8_t *iv, unsigned int ivsize, uint64_t i)
{
	memset(iv, 0, 16);
	for (unsigned int b = 0; b < 8 && b < ivsize; b++)
		iv[b] = (uint8_t)(i >> (8 * b));
}

static void check_layout(const struct content_geom *g, uint64_t p)
{
	struct expect e = expected(p, g->sector_size, g->blocksize);
	uint64_t n = content_unit_count(g, p), covered = 0;
	struct file_header h = { .version = 1 };
	uint64_t back = ~0ULL;

	CHECK(n == e.nunits, "S=%u bs=%u P=%llu: %llu units, want %llu",
	      g->sector_size, g->blocksize, (unsigned long long)p,
	      (unsigned long long)n, (unsigned long long)e.nunits);
	CHECK(content_cipher_size(g, p) == e.csize, "P=%llu csize",
	      (unsigned long long)p);
	CHECK(content_is_tiny(g, p) == (p > 0 && p < g->blocksize), "tiny %llu",
	      (unsigned long long)p);
	for (uint64_t i = 0; i < n; i++) {
		struct content_unit u;

		content_unit(g, p, i, &u);
		CHECK(u.index == i && u.plain_off == covered &&
			      u.cipher_off == 32 + covered,
		      "P=%llu unit %llu offsets", (unsigned long long)p,
		      (unsigned long long)i);
		CHECK(u.len >= g->blocksize && u.len >= u.plain_len &&
			      u.len < g->sector_size + g->blocksize,
		      "P=%llu unit %llu len %u", (unsigned long long)p,
		      (unsigned long long)i, u.len);
		if (i + 1 < n)
			CHECK(u.plain_len == g->sector_size && u.len == u.plain_len,
			      "full sector");
		else
			CHECK(u.plain_off == e.last_off && u.plain_len == e.last_len,
			      "P=%llu last unit", (unsigned long long)p);
		covered += u.plain_len;
		/* unit_of agrees at both ends of the unit */
		CHECK(content_unit_of(g, p, u.plain_off) == i &&
			      content_unit_of(g, p, u.plain_off + u.plain_len - 1) == i,
		      "unit_of");
	}
	CHECK(covered == p, "units cover the file");
	/* size back from the ciphertext size */
	if (p > 0 && p < g->blocksize) {
		h.flags = HEADER_FLAG_PADDED;
		h.tiny_len = (uint32_t)p;
	}
	CHECK(content_plain_size(g, e.csize, &h, &back) == 0 && back == p,
	      "plain size of %llu", (unsigned long long)p);
	if (!content_size_needs_header(g, e.csize))
		CHECK(content_plain_size(g, e.csize, NULL, &back) == 0 && back == p,
		      "no header needed");
}

static void check_explode(const struct content_geom *g, uint64_t p)
{
	for (int k = 0; k < 8 && p; k++) {
		uint64_t off = test_rand_below(p + 2), len = test_rand_below(p + 3);
		struct content_range r;

		content_explode_range(g, p, off, len, &r);
		if (off >= p || len == 0) {
			CHECK(r.nunits == 0, "empty range");
			continue;
		}
		uint64_t end = off + len > p ? p : off + len;
		struct content_unit a, b;

		content_unit(g, p, r.first_unit, &a);
		content_unit(g, p, r.first_unit + r.nunits - 1, &b);
		CHECK(a.plain_off <= off && off < a.plain_off + a.plain_len,
		      "first unit holds off");
		CHECK(b.plain_off < end && end <= b.plain_off + b.plain_len,
		      "last unit holds end");
		CHECK(r.cipher_off == a.cipher_off &&
			      r.cipher_len == b.cipher_off + b.len - a.cipher_off,
		      "cipher range");
		CHECK(r.skip == off - a.plain_off && r.len == end - off,
		      "skip/len");
	}
}

/*
 * content_change_*: the units a change rewrites are exactly those of the
 * new layout that hold new data or any of the old last unit (whose shape
 * changes with the size), and content_fill_of puts every byte of them
 * together from the right source, restated here byte by byte: new data
 * on [off, off + len), else the old file below old, else zeros.
 */
enum src { SRC_ZERO, SRC_OLD, SRC_NEW };

static enum src source_of(uint64_t x, uint64_t old, uint64_t nsize,
			  uint64_t off, uint64_t len)
{
	if (x >= nsize)
		return SRC_ZERO; /* a padded unit's padding */
	if (x >= off && x - off < len)
		return SRC_NEW;
	return x < old ? SRC_OLD : SRC_ZERO;
}

static int overlaps(const struct content_unit *u, uint64_t a, uint64_t b)
{
	return a < b && u->plain_off < b && a < u->plain_off + u->plain_len;
}

static void check_fill(const struct content_geom *g,
		       const struct content_change *c, uint64_t first,
		       uint64_t n)
{
	static uint8_t tag[4 * 4096 + 64];
	struct content_fill fl;

	content_fill_of(g, c, first, n, &fl);
	CHECK(fl.start == first * g->sector_size &&
		      fl.bytes == content_units_len(g, c->new_size, first, n) &&
		      fl.bytes <= sizeof(tag),
	      "fill extent");
	memset(tag, SRC_ZERO, (size_t)fl.bytes);
	if (fl.direct) {
		memset(tag, SRC_NEW, (size_t)fl.bytes);
	} else {
		for (int i = 0; i < 2; i++) {
			uint64_t o = fl.old[i].off, l = fl.old[i].len;

			if (!l)
				continue;
			CHECK(o >= fl.start && o + l <= fl.start + fl.bytes &&
				      o + l <= c->old_size, "old piece in range");
			memset(tag + (o - fl.start), SRC_OLD, (size_t)l);
		}
		if (fl.new_len) {
			CHECK(fl.new_off >= c->off &&
				      fl.new_off + fl.new_len <= c->off + c->len &&
				      fl.new_off >= fl.start &&
				      fl.new_off + fl.new_len <= fl.start + fl.bytes,
			      "new piece in range");
			memset(tag + (fl.new_off - fl.start), SRC_NEW,
			       (size_t)fl.new_len);
		}
	}
	for (uint64_t b = 0; b < fl.bytes; b++) {
		uint64_t x = fl.start + b;

		if (tag[b] != source_of(x, c->old_size, c->new_size, c->off,
					c->len)) {
			CHECK(0, "byte %llu of %llu -> %llu, [%llu, +%llu)%s",
			      (unsigned long long)x,
			      (unsigned long long)c->old_size,
			      (unsigned long long)c->new_size,
			      (unsigned long long)c->off,
			      (unsigned long long)c->len,
			      fl.direct ? " direct" : "");
			return;
		}
	}
}

/* shrink: the new last unit is rewritten (the cut is a step of its own) */
static void check_change_of(const struct content_geom *g,
			    const struct content_change *c, int shrink)
{
	uint64_t n = content_unit_count(g, c->new_size), want = 0, got = 0;
	uint64_t prev_end = 0;
	struct content_unit t = { 0 };
	int resized = c->old_size && c->new_size != c->old_size;

	if (resized)
		content_unit(g, c->old_size,
			     content_unit_count(g, c->old_size) - 1, &t);
	for (uint64_t i = 0; i < n; i++) {
		struct content_unit u;
		int in = 0;

		content_unit(g, c->new_size, i, &u);
		for (int k = 0; k < 2; k++)
			in |= c->span[k].first <= i && i <= c->span[k].last;
		if (shrink ? i == n - 1
			   : overlaps(&u, c->off, c->off + c->len) ||
				     (resized &&
				      overlaps(&u, t.plain_off, c->old_size))) {
			want++;
			got += (uint64_t)in;
		} else if (in) {
			CHECK(0, "unit %llu rewritten for nothing",
			      (unsigned long long)i);
		}
	}
	CHECK(want == got, "units rewritten: %llu of %llu",
	      (unsigned long long)got, (unsigned long long)want);
	for (int k = 0; k < 2; k++) {
		struct content_span sp = c->span[k];

		if (sp.first > sp.last)
			continue;
		CHECK(sp.last < n && (k == 0 || sp.first >= prev_end),
		      "spans in order");
		prev_end = sp.last + 2; /* adjacent spans would be one */
		for (uint64_t u = sp.first; u <= sp.last;) {
			uint64_t m = 1 + test_rand_below(3);

			if (m > sp.last - u + 1)
				m = sp.last - u + 1;
			check_fill(g, c, u, m);
			u += m;
		}
	}
	if (shrink) {
		CHECK(c->set_size && c->len == 0, "shrink: the cut");
	} else if (c->new_size != c->old_size) {
		int last_written = n && ((c->span[0].first <= n - 1 &&
					  n - 1 <= c->span[0].last) ||
					 (c->span[1].first <= n - 1 &&
					  n - 1 <= c->span[1].last));

		CHECK(c->set_size == !last_written, "set_size");
	} else {
		CHECK(!c->set_size, "no size step when the size stays");
	}
}

static void check_change(const struct content_geom *g, uint64_t p)
{
	uint64_t maxp = 2 * (uint64_t)g->sector_size + 20;
	struct content_change c;

	for (int k = 0; k < 4; k++) {
		uint64_t off = test_rand_below(maxp + 1);
		uint64_t len = test_rand_below(maxp + 1 - off) + (k == 0);
		uint64_t end = off + len;

		/* a write (k == 0 is never empty), and a grow with no data */
		content_change_write(g, p, end > p ? end : p, off, len, &c);
		check_change_of(g, &c, 0);
		if (off > p) {
			content_change_write(g, p, off, off, 0, &c);
			check_change_of(g, &c, 0);
		}
		if (off && off < p) {
			content_change_shrink(g, p, off, &c);
			check_change_of(g, &c, 1);
		}
	}
}

static void check_roundtrip(struct crypto_tfm *tfm, const struct content_geom *g,
			    uint64_t p, uint8_t *plain, uint8_t *ct,
			    uint8_t *back, uint8_t *ref)
{
	struct expect e = expected(p, g->sector_size, g->blocksize);
	size_t clen = e.csize ? (size_t)(e.csize - 32) : 0;
	uint64_t n = e.nunits;
	int rc;

	/* plaintext with zero padding to the ciphertext length */
	test_random_bytes(plain, p);
	memset(plain + p, 0, clen - p);
	rc = content_encrypt_units(tfm, g, p, 0, n, ct, plain);
	CHECK(rc == 0, "encrypt P=%llu: %d", (unsigned long long)p, rc);
	rc = content_decrypt_units(tfm, g, p, 0, n, back, ct);
	CHECK(rc == 0 && memcmp(back, plain, clen) == 0, "round trip P=%llu",
	      (unsigned long long)p);
	if (clen >= 16)
		CHECK(memcmp(ct, plain, clen) != 0, "encrypted");
	/* in place gives the same */
	memcpy(ref, plain, clen);
	rc = content_encrypt_units(tfm, g, p, 0, n, ref, ref);
	CHECK(rc == 0 && memcmp(ref, ct, clen) == 0, "in place P=%llu",
	      (unsigned long long)p);
	/* each unit = one XTS message with its index as tweak */
	for (uint64_t i = 0; i < n; i++) {
		struct content_unit u;
		uint8_t iv[16];

		content_unit(g, p, i, &u);
		set_iv(iv, crypto_ivsize(tfm), i);
		CHECK(crypto_encrypt(tfm, iv, ref, plain + u.plain_off, u.len) == 0 &&
			      memcmp(ref, ct + u.plain_off, u.len) == 0,
		      "P=%llu unit %llu is XTS with tweak %llu",
		      (unsigned long long)p, (unsigned long long)i,
		      (unsigned long long)i);
	}
}

/* hole, padding and all-zero-ciphertext rules */
static void check_special(struct crypto_tfm *tfm, const struct content_geom *g,
			  uint8_t *buf, uint8_t *out)
{
	uint32_t s = g->sector_size, bs = g->blocksize;
	uint64_t p = 2 * (uint64_t)s + 3; /* units: S, S+3 (or S, S, 3) */
	uint64_t n = content_unit_count(g, p);
	size_t clen = (size_t)p;
	uint8_t iv[16];

	/* a hole unit (all-zero ciphertext) reads as zeros, others decrypt */
	test_random_bytes(buf, clen);
	CHECK(content_encrypt_units(tfm, g, p, 0, n, buf, buf) == 0, "enc");
	memset(buf, 0, s); /* unit 0 becomes a hole */
	CHECK(content_decrypt_units(tfm, g, p, 0, n, out, buf) == 0 &&
		      voltest_all_zero(out, s),
	      "hole reads as zeros");
	memset(buf, 0, clen); /* whole file a hole */
	CHECK(content_decrypt_units(tfm, g, p, 0, n, out, buf) == 0 &&
		      voltest_all_zero(out, clen),
	      "all holes");

	/* plaintext whose ciphertext is all zero: refused, never written */
	memset(buf, 0, s);
	set_iv(iv, crypto_ivsize(tfm), 0);
	CHECK(crypto_decrypt(tfm, iv, buf, buf, s) == 0, "D(0)");
	CHECK(content_encrypt_units(tfm, g, 4 * (uint64_t)s, 0, 1, out, buf) ==
		      -EILSEQ,
	      "nonzero plaintext to zero ciphertext refused");
	CHECK(content_encrypt_units(tfm, g, 4 * (uint64_t)s, 0, 1, buf, buf) ==
		      -EILSEQ,
	      "same in place");
	/* zero plaintext encrypts normally (not to zeros) */
	memset(buf, 0, s);
	CHECK(content_encrypt_units(tfm, g, 4 * (uint64_t)s, 0, 1, out, buf) == 0 &&
		      !voltest_all_zero(out, s),
	      "zeros encrypt");

	/* tiny file: padding must be zero going in and coming out */
	memset(buf, 0, bs);
	buf[0] = 'x';
	buf[bs - 1] = 1;
	CHECK(content_encrypt_units(tfm, g, 1, 0, 1, out, buf) == -EINVAL,
	      "nonzero padding refused");
	set_iv(iv, crypto_ivsize(tfm), 0);
	CHECK(crypto_encrypt(tfm, iv, out, buf, bs) == 0, "raw enc");
	CHECK(content_decrypt_units(tfm, g, 1, 0, 1, buf, out) == -EBADMSG,
	      "decrypted padding not zero: EBADMSG");

	/* a tfm of the wrong block size is refused */
	{
		struct content_geom other = *g;

		other.blocksize = bs == 16 ? 8 : 16;
		CHECK(content_encrypt_units(tfm, &other, p, 0, 1, out, buf) == -EINVAL,
		      "tfm/geometry mismatch");
	}
}

static void check_sizes_errors(void)
{
	struct content_geom g;
	struct file_header h = { .version = 1, .flags = HEADER_FLAG_PADDED,
				 .tiny_len = 16 };
	uint64_t p;

	CHECK(content_geom_init(&g, 4096, 16) == 0, "geom");
	CHECK(content_geom_init(&g, 256, 16) == -EINVAL &&
		      content_geom_init(&g, 131072, 16) == -EINVAL &&
		      content_geom_init(&g, 4095, 16) == -EINVAL &&
		      content_geom_init(&g, 4096, 12) == -EINVAL,
	      "bad geometry");
	CHECK(content_geom_init(&g, 4096, 16) == 0, "geom");
	for (uint64_t c = 1; c < 48; c++)
		if (c != HEADER_SIZE)
			CHECK(content_plain_size(&g, c, NULL, &p) == -EBADMSG,
			      "impossible size %llu", (unsigned long long)c);
	/* a header alone (a crash before the first data) reads as empty */
	p = 1;
	CHECK(content_plain_size(&g, HEADER_SIZE, NULL, &p) == 0 && p == 0,
	      "header alone");
	CHECK(content_plain_size(&g, 48, &h, &p) == -EBADMSG, "tiny_len >= bs");
	h.tiny_len = 5;
	CHECK(content_plain_size(&g, 49, &h, &p) == -EBADMSG,
	      "padded flag on a longer file");
	CHECK(content_plain_size(&g, 48, &h, &p) == 0 && p == 5, "padded 5");
	h.flags = 0;
	h.tiny_len = 0;
	CHECK(content_plain_size(&g, 48, &h, &p) == 0 && p == 16, "one block");
	CHECK(content_size_needs_header(&g, 48) && !content_size_needs_header(&g, 49),
	      "needs header");
	/* Speck64: 8-byte blocks */
	CHECK(content_geom_init(&g, 512, 8) == 0, "geom 8");
	CHECK(content_cipher_size(&g, 7) == 40 && content_cipher_size(&g, 8) == 40 &&
		      content_cipher_size(&g, 9) == 41,
	      "speck64 sizes");
	CHECK(content_unit_count(&g, 512 + 7) == 1 &&
		      content_unit_count(&g, 512 + 8) == 2,
	      "speck64 joins tails under 8 bytes");
}

int main(void)
{
	static const enum volume_cipher ciphers[] = {
		VOLUME_CIPHER_SPECK128_XTS, VOLUME_CIPHER_SPECK64_XTS,
		VOLUME_CIPHER_AES256_XTS, VOLUME_CIPHER_SM4_XTS,
		VOLUME_CIPHER_CAMELLIA256_XTS
	};
	static const uint32_t sectors[] = { 512, 4096 };
	uint8_t *plain = malloc(MAXP + 64), *ct = malloc(MAXP + 64);
	uint8_t *back = malloc(MAXP + 64), *ref = malloc(MAXP + 64);
	int tested = 0;

	test_seed();
	check_sizes_errors();
	for (size_t c = 0; c < 4; c++) {
		const struct volume_cipher_info *ci = volume_cipher_info(ciphers[c]);
		struct crypto_tfm *tfm = voltest_alloc(ci->xts_alg);
		uint8_t key[64];

		if (!tfm)
			continue;
		test_random_bytes(key, sizeof(key));
		CHECK(crypto_setkey(tfm, key, ci->xts_keysize) == 0, "setkey %s",
		      ci->name);
		for (size_t s = 0; s < 2; s++) {
			struct content_geom g;
			uint64_t maxp = 2 * (uint64_t)sectors[s] + 20;

			CHECK(content_geom_init(&g, sectors[s], ci->blocksize) == 0,
			      "geom");
			for (uint64_t p = 0; p <= maxp; p++) {
				check_layout(&g, p);
				check_explode(&g, p);
				check_change(&g, p);
				check_roundtrip(tfm, &g, p, plain, ct, back, ref);
			}
			check_special(tfm, &g, plain, back);
		}
		fprintf(stderr, "%s (%s): sizes 0..2S+20 for S=512,4096 done\n",
			ci->name, crypto_tfm_driver_name(tfm));
		crypto_free(tfm);
		tested++;
	}
	free(plain);
	free(ct);
	free(back);
	free(ref);
	if (!tested) {
		fprintf(stderr, "no volume cipher available\n");
		return TEST_SKIP;
	}
	return test_finish("test_content");
}
