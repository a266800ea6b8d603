/* SPDX-License-Identifier: MIT */
/* see sealed.h */
#include "volume/content/sealed.h"

#include <errno.h>
#include <string.h>

#include "crypto/secmem.h"
#include "volume/random.h"

static void put_le64(uint8_t *p, uint64_t v)
{
	for (unsigned int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* the AAD of unit u of a file of plaintext size plain */
static void unit_aad(uint8_t aad[SEALED_AAD_SIZE],
		     const uint8_t file_nonce[HEADER_NONCE_SIZE],
		     const struct content_geom *g, uint64_t plain, uint64_t u)
{
	memcpy(aad, file_nonce, HEADER_NONCE_SIZE);
	put_le64(aad + HEADER_NONCE_SIZE, u);
	aad[HEADER_NONCE_SIZE + 8] = u + 1 == content_unit_count(g, plain);
}

/* the AEAD nonce of a unit from its nonce field; -EBADMSG when gcm's
 * reserved bytes are not zero (public data: no constant time needed) */
static int unit_nonce(const struct content_geom *g, const uint8_t *field,
		      uint64_t u, uint8_t nonce[24])
{
	if (g->nonce_size == 12) {
		for (unsigned int i = 12; i < SEALED_NONCE_FIELD; i++)
			if (field[i])
				return -EBADMSG;
		memcpy(nonce, field, 12);
		return 0;
	}
	memcpy(nonce, field, SEALED_NONCE_FIELD);
	put_le64(nonce + SEALED_NONCE_FIELD, u);
	return 0;
}

/* units whose nonce fields one getrandom(2) call fills */
#define SEALED_RANDOM_BATCH 64

static int check_tfm(struct crypto_tfm *tfm, const struct content_geom *g)
{
	if (g->overhead != SEALED_NONCE_FIELD + SEALED_TAG ||
	    crypto_ivsize(tfm) != g->nonce_size ||
	    crypto_tagsize(tfm) != SEALED_TAG)
		return -EINVAL;
	return 0;
}

int sealed_encrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			 const uint8_t file_nonce[HEADER_NONCE_SIZE],
			 uint64_t plain, uint64_t first, uint64_t n,
			 uint8_t *dst, const uint8_t *src)
{
	int err = check_tfm(tfm, g);
	/* the units' random nonce fields, drawn SEALED_RANDOM_BATCH at a
	 * time: one getrandom(2) per batch, not per unit */
	uint8_t rnd[SEALED_RANDOM_BATCH * SEALED_NONCE_FIELD];
	uint64_t left = 0;

	/*
	 * Last unit first: in place, unit i's sealed bytes start at or
	 * after its data and end before the data of unit i + 1 began, so
	 * going down never overwrites data still to be sealed.
	 */
	for (uint64_t i = first + n; !err && i-- > first;) {
		struct content_unit u;
		uint8_t aad[SEALED_AAD_SIZE], nonce[24], *out;
		const uint8_t *in;
		uint64_t at = (i - first) * g->sector_size;

		content_unit(g, plain, i, &u);
		out = dst + (u.cipher_off - content_unit_pos(g, first));
		/* apart (a write's own buffer): sealed straight from it; in
		 * place the data moves to its slot first */
		in = src + at;
		if (src == dst) {
			memmove(out + SEALED_NONCE_FIELD, in, u.plain_len);
			in = out + SEALED_NONCE_FIELD;
		}
		memset(out, 0, SEALED_NONCE_FIELD);
		if (!left) {
			left = i - first + 1 < SEALED_RANDOM_BATCH ?
				       i - first + 1 : SEALED_RANDOM_BATCH;
			err = random_bytes(rnd, (size_t)left * SEALED_NONCE_FIELD);
		}
		left--;
		memcpy(out, rnd + left * SEALED_NONCE_FIELD,
		       g->nonce_size == 12 ? 12 : SEALED_NONCE_FIELD);
		if (!err)
			err = unit_nonce(g, out, i, nonce);
		unit_aad(aad, file_nonce, g, plain, i);
		if (!err)
			err = crypto_aead_encrypt(tfm, nonce, aad, sizeof(aad),
						  out + SEALED_NONCE_FIELD, in,
						  u.plain_len,
						  out + SEALED_NONCE_FIELD +
							  u.plain_len);
	}
	secmem_scrub_stack();
	return err;
}

int sealed_decrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			 const uint8_t file_nonce[HEADER_NONCE_SIZE],
			 uint64_t plain, uint64_t first, uint64_t n,
			 uint8_t *dst, const uint8_t *src, uint64_t *bad)
{
	int err = check_tfm(tfm, g);
	uint64_t i;

	if (err)
		return err;
	/* first unit first: in place, unit i's data goes at or before its
	 * sealed bytes, after the data of the units before it */
	for (i = first; !err && i < first + n; i++) {
		struct content_unit u;
		uint8_t aad[SEALED_AAD_SIZE], nonce[24];
		const uint8_t *in;
		uint8_t *out = dst + (i - first) * g->sector_size;

		content_unit(g, plain, i, &u);
		in = src + (u.cipher_off - content_unit_pos(g, first));
		unit_aad(aad, file_nonce, g, plain, i);
		err = unit_nonce(g, in, i, nonce);
		if (!err && dst == src) {
			/* in place: open where it lies, then move it down */
			uint8_t *at = (uint8_t *)in + SEALED_NONCE_FIELD;

			err = crypto_aead_decrypt(tfm, nonce, aad, sizeof(aad), at,
						  at, u.plain_len,
						  at + u.plain_len);
			if (!err)
				memmove(out, at, u.plain_len);
		} else if (!err) {
			err = crypto_aead_decrypt(tfm, nonce, aad, sizeof(aad), out,
						  in + SEALED_NONCE_FIELD,
						  u.plain_len,
						  in + SEALED_NONCE_FIELD +
							  u.plain_len);
		}
		if (err == -EBADMSG && bad)
			*bad = i;
	}
	if (err) /* no plaintext of any unit from the failed one on (i is
		  * one past it) */
		memset(dst + (i - 1 - first) * g->sector_size, 0,
		       (size_t)content_units_plain(g, plain, i - 1,
						   first + n - i + 1));
	secmem_scrub_stack();
	return err;
}
