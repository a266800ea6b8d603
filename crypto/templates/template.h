/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the mode templates. A template instance's driver has
 * drv->child (the block cipher driver) and maybe drv->bulk (a SIMD core
 * that takes whole chunks); the C code here does everything else.
 */
#ifndef CLOAKFS_CRYPTO_TEMPLATES_TEMPLATE_H
#define CLOAKFS_CRYPTO_TEMPLATES_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/internal/core.h"
#include "crypto/internal/util.h"

/* bytes per C batch: enough blocks for bitsliced children, fits in L1 */
#define TMPL_BATCH 1024

static inline const struct cipher_alg *tmpl_cipher(const struct crypto_tfm *tfm)
{
	return tfm->drv->child->u.cipher;
}

/* bytes a bulk hook may take of len, 0 if it does not apply */
static inline size_t tmpl_bulk_len(const struct crypto_bulk_ops *bulk,
				   const void *hook, size_t len)
{
	if (!bulk || !hook || len < bulk->min_bytes || len < bulk->chunk)
		return 0;
	return len - len % bulk->chunk;
}

/* nblocks independent blocks through the child, batched when it can */
static inline void tmpl_blocks(const struct cipher_alg *c, const void *ctx,
			       int enc, uint8_t *dst, const uint8_t *src,
			       size_t nblocks)
{
	void (*many)(const void *, uint8_t *, const uint8_t *, size_t) =
		enc ? c->encrypt_blocks : c->decrypt_blocks;
	void (*one)(const void *, uint8_t *, const uint8_t *) =
		enc ? c->encrypt : c->decrypt;

	if (many) {
		many(ctx, dst, src, nblocks);
		return;
	}
	for (size_t i = 0; i < nblocks; i++)
		one(ctx, dst + i * c->blocksize, src + i * c->blocksize);
}

/*
 * Counter-style keystream (ctr, xctr): dst = src ^ E(block 0) ^ E(block 1)
 * ..., each counter block written by next(blk, bs, arg), encrypted in
 * batches through the child; the keystream buffer is wiped.
 */
static inline void tmpl_keystream_xor(const struct cipher_alg *c, const void *ctx,
				      uint8_t *dst, const uint8_t *src, size_t len,
				      void (*next)(uint8_t *blk, size_t bs, void *arg),
				      void *arg)
{
	uint8_t ks[TMPL_BATCH];
	size_t bs = c->blocksize, used = len < TMPL_BATCH ? len + bs : TMPL_BATCH;

	while (len) {
		size_t n = len < TMPL_BATCH ? len : TMPL_BATCH, nb = (n + bs - 1) / bs;

		for (size_t i = 0; i < nb; i++)
			next(ks + i * bs, bs, arg);
		tmpl_blocks(c, ctx, 1, ks, ks, nb);
		xor_bytes(dst, src, ks, n);
		dst += n;
		src += n;
		len -= n;
	}
	explicit_bzero(ks, used < TMPL_BATCH ? used : TMPL_BATCH);
}

/* copy the child's key sizes, each scaled (XTS takes two keys) */
static inline void tmpl_keysizes(uint16_t *out, const struct cipher_alg *c,
				 unsigned int mul)
{
	for (int i = 0; i < CRYPTO_MAX_KEYSIZES; i++)
		out[i] = (uint16_t)(c->keysizes[i] * mul);
}

/*
 * A multi-child template's MAC slot: d is a keyed hash of algorithm alg
 * with keylen-byte keys, a digestsize-byte digest and a state of at most
 * maxstate bytes (the template keeps one on its stack)
 */
static inline int tmpl_keyed_hash_fits(const struct crypto_driver *d,
				       const char *alg, size_t keylen,
				       size_t digestsize, size_t maxstate)
{
	const struct hash_alg *h = d->u.hash;

	return d->type == CRYPTO_TYPE_HASH && h && h->setkey &&
	       !strcmp(d->alg_name, alg) && h->keysizes[0] == keylen &&
	       h->digestsize == digestsize && h->statesize <= maxstate;
}

/* setkey for templates with one child key at the start of ctx */
int tmpl_setkey_single(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen);

/* CBC encryption of whole blocks, iv updated; shared by cbc and cts */
void tmpl_cbc_encrypt_blocks(const struct crypto_tfm *tfm, uint8_t *iv,
			     uint8_t *dst, const uint8_t *src, size_t len);
void tmpl_cbc_decrypt_blocks(const struct crypto_tfm *tfm, uint8_t *iv,
			     uint8_t *dst, const uint8_t *src, size_t len);

#endif
