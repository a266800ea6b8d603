/* SPDX-License-Identifier: MIT */
/*
 * hmac(H), RFC 2104, over any hash driver (drv->child). The context holds
 * the hash state after the inner and after the outer padded key, so each
 * message costs no key processing, plus a working state.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/core.h"

#define HMAC_MAX_BLOCK 128
#define HMAC_MAX_DIGEST 64

static const struct hash_alg *hmac_hash(const struct crypto_tfm *tfm)
{
	return tfm->drv->child->u.hash;
}

static uint8_t *hmac_state(const struct crypto_tfm *tfm, int which)
{
	return (uint8_t *)tfm->ctx + (size_t)which * ctx_align(hmac_hash(tfm)->statesize);
}

enum { ISTATE, OSTATE, WORK };

int hmac_fits(const struct hash_alg *h)
{
	return !h->setkey && h->blocksize <= HMAC_MAX_BLOCK &&
	       h->digestsize <= HMAC_MAX_DIGEST && h->digestsize <= h->blocksize;
}

size_t hmac_ctxsize(const struct crypto_driver *drv)
{
	return 3 * ctx_align(drv->child->u.hash->statesize);
}

int hmac_setkey(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen)
{
	const struct hash_alg *h = hmac_hash(tfm);
	uint8_t k[HMAC_MAX_BLOCK], pad[HMAC_MAX_BLOCK];

	if (h->blocksize > HMAC_MAX_BLOCK || h->digestsize > HMAC_MAX_DIGEST)
		return -EINVAL; /* a hash this template was not sized for */
	memset(k, 0, sizeof(k));
	if (keylen > h->blocksize) {
		uint8_t *st = hmac_state(tfm, WORK);

		h->init(st);
		h->update(st, key, keylen);
		h->final(st, k);
	} else if (keylen) {
		memcpy(k, key, keylen);
	}
	for (unsigned int i = 0; i < h->blocksize; i++)
		pad[i] = k[i] ^ 0x36;
	h->init(hmac_state(tfm, ISTATE));
	h->update(hmac_state(tfm, ISTATE), pad, h->blocksize);
	for (unsigned int i = 0; i < h->blocksize; i++)
		pad[i] = k[i] ^ 0x5c;
	h->init(hmac_state(tfm, OSTATE));
	h->update(hmac_state(tfm, OSTATE), pad, h->blocksize);
	memcpy(hmac_state(tfm, WORK), hmac_state(tfm, ISTATE), h->statesize);
	explicit_bzero(k, sizeof(k));
	explicit_bzero(pad, sizeof(pad));
	return 0;
}

void hmac_init(struct crypto_tfm *tfm)
{
	memcpy(hmac_state(tfm, WORK), hmac_state(tfm, ISTATE),
	       hmac_hash(tfm)->statesize);
}

void hmac_update(struct crypto_tfm *tfm, const uint8_t *data, size_t len)
{
	hmac_hash(tfm)->update(hmac_state(tfm, WORK), data, len);
}

void hmac_final(struct crypto_tfm *tfm, uint8_t *out)
{
	const struct hash_alg *h = hmac_hash(tfm);
	uint8_t inner[HMAC_MAX_DIGEST];
	uint8_t *work = hmac_state(tfm, WORK);

	h->final(work, inner);
	memcpy(work, hmac_state(tfm, OSTATE), h->statesize);
	h->update(work, inner, h->digestsize);
	h->final(work, out);
	explicit_bzero(inner, sizeof(inner));
	hmac_init(tfm);
}
