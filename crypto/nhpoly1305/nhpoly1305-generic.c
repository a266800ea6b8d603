// SPDX-License-Identifier: MIT
/*
 * NHPoly1305 (see nhpoly1305.h): the message-length bookkeeping shared by
 * every "nhpoly1305" driver, and the generic driver over nh_generic. A
 * driver differs only by the NH function its setkey stores in the state;
 * Poly1305 runs twice per KiB, so the generic block function serves all.
 */
#include <errno.h>
#include <string.h>

#include "crypto/nhpoly1305/nhpoly1305.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"

int nhpoly1305_setkey(void *state, const uint8_t *key, size_t keylen, nh_fn *nh)
{
	struct nhpoly1305_state *s = state;

	if (keylen != NHPOLY1305_KEY_SIZE)
		return -EINVAL;
	memcpy(s->r, key, POLY1305_BLOCK_SIZE);
	for (size_t i = 0; i < NH_KEY_WORDS; i++)
		s->nh_key[i] = load_le32(key + POLY1305_BLOCK_SIZE + 4 * i);
	s->nh = nh;
	s->poly_blocks = NULL;
	nhpoly1305_init(s);
	return 0;
}

void nhpoly1305_init(void *state)
{
	struct nhpoly1305_state *s = state;

	poly1305_generic_core.setkey(&s->poly, s->r);
	memset(s->nh_sum, 0, sizeof(s->nh_sum));
	s->chunk_pos = 0;
	s->buflen = 0;
}

/* the finished chunk's NH hash into Poly1305: two 16-byte blocks */
static void nhpoly1305_chunk_done(struct nhpoly1305_state *s)
{
	uint8_t h[NH_HASH_BYTES];

	for (int i = 0; i < NH_NUM_PASSES; i++)
		store_le64(h + 8 * i, s->nh_sum[i]);
	poly1305_generic_core.blocks(&s->poly, h, NH_HASH_BYTES / POLY1305_BLOCK_SIZE, 1);
	memset(s->nh_sum, 0, sizeof(s->nh_sum));
	s->chunk_pos = 0;
	wipe(h, sizeof(h));
}

/*
 * whole units (len a multiple of 16): NH over each piece of a chunk,
 * keyed from the chunk position on (NH of a chunk is the sum of NH of
 * its pieces with the key advanced), its passes added to the chunk's
 */
static void nhpoly1305_units(struct nhpoly1305_state *s, const uint8_t *src,
			     size_t len)
{
	while (len) {
		size_t n = NH_MESSAGE_BYTES - s->chunk_pos;
		uint8_t h[NH_HASH_BYTES];

		if (n > len)
			n = len;
		s->nh(s->nh_key + s->chunk_pos / 4, src, n, h);
		for (int i = 0; i < NH_NUM_PASSES; i++)
			s->nh_sum[i] += load_le64(h + 8 * i);
		s->chunk_pos += n;
		if (s->chunk_pos == NH_MESSAGE_BYTES)
			nhpoly1305_chunk_done(s);
		src += n;
		len -= n;
		wipe(h, sizeof(h));
	}
}

void nhpoly1305_update(void *state, const uint8_t *data, size_t len)
{
	struct nhpoly1305_state *s = state;
	size_t whole;

	if (s->buflen) {
		size_t n = NH_MESSAGE_UNIT - s->buflen;

		if (n > len)
			n = len;
		memcpy(s->buf + s->buflen, data, n);
		s->buflen += n;
		data += n;
		len -= n;
		if (s->buflen < NH_MESSAGE_UNIT)
			return;
		nhpoly1305_units(s, s->buf, NH_MESSAGE_UNIT);
		s->buflen = 0;
	}
	whole = len - len % NH_MESSAGE_UNIT;
	if (whole)
		nhpoly1305_units(s, data, whole);
	if (len > whole) {
		memcpy(s->buf, data + whole, len - whole);
		s->buflen = len - whole;
	}
}

void nhpoly1305_final(void *state, uint8_t *out)
{
	struct nhpoly1305_state *s = state;

	if (s->buflen) {
		/* the last partial unit, zero-padded */
		memset(s->buf + s->buflen, 0, NH_MESSAGE_UNIT - s->buflen);
		nhpoly1305_units(s, s->buf, NH_MESSAGE_UNIT);
	}
	if (s->chunk_pos)
		nhpoly1305_chunk_done(s);
	poly1305_generic_core.emit(&s->poly, out);
	wipe(s->buf, sizeof(s->buf));
	/* the next message under the same key */
	nhpoly1305_init(s);
}

void nhpoly1305_digest(const struct nhpoly1305_state *ks, const uint8_t *msg,
		       size_t len, uint8_t out[NHPOLY1305_DIGEST_SIZE])
{
	_Alignas(16) union poly1305_core_state poly;
	/* the NH sums of up to DIGEST_BATCH chunks, one Poly1305 call for all */
	enum { DIGEST_BATCH = 4 };
	uint8_t hs[DIGEST_BATCH * NH_HASH_BYTES];
	unsigned int k = 0;

	poly1305_generic_core.setkey(&poly, ks->r);
	while (len) {
		size_t n = len < NH_MESSAGE_BYTES ? len : NH_MESSAGE_BYTES;
		uint8_t *h = hs + k * NH_HASH_BYTES;

		if (n % NH_MESSAGE_UNIT) {
			/* the last chunk ends in a partial unit: zero-padded copy */
			uint8_t last[NH_MESSAGE_BYTES];
			size_t padded = n + NH_MESSAGE_UNIT - n % NH_MESSAGE_UNIT;

			memcpy(last, msg, n);
			memset(last + n, 0, padded - n);
			ks->nh(ks->nh_key, last, padded, h);
			explicit_bzero(last, padded);
		} else {
			ks->nh(ks->nh_key, msg, n, h);
		}
		msg += n;
		len -= n;
		if (++k == DIGEST_BATCH || !len) {
			size_t nb = k * NH_HASH_BYTES / POLY1305_BLOCK_SIZE;

			if (ks->poly_blocks)
				ks->poly_blocks(ks, &poly, hs, nb);
			else
				poly1305_generic_core.blocks(&poly, hs, nb, 1);
			k = 0;
		}
	}
	poly1305_generic_core.emit(&poly, out);
	/* the generic core's state is its l44 (or smaller l26) member */
	wipe(&poly, sizeof(poly.l44));
	wipe(hs, sizeof(hs));
}

DEFINE_NHPOLY1305_DRIVER(nhpoly1305_generic_driver, "nhpoly1305-generic", 100,
			 0, nh_generic);

int nhpoly1305_generic_register(struct crypto_registry *reg)
{
	int err = crypto_register_driver(reg, &nhpoly1305_generic_driver);

	return err ? err : nhpoly1305_register_testvecs(reg);
}
