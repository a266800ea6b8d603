// SPDX-License-Identifier: MIT
/*
 * gcm_base(ctr(X),ghash): GCM (NIST SP 800-38D; McGrew & Viega, "The
 * Galois/Counter Mode of Operation") as a template over two children, as
 * the kernel's gcm_base: a "ctr(X)" skcipher instance over a 16-byte
 * block cipher (the stream; its IV the 128-bit big-endian counter block,
 * written back) and a "ghash" keyed-hash driver (the MAC). Instances are
 * listed as "gcm(aes)". The construction is written here once, for the
 * generic and the SIMD children alike, on the AEAD engine of aead.h:
 *   H = E_K(0^128), computed at setkey and kept keyed in a GHASH state
 *   after the stream child's key schedule in the context;
 *   J0 = nonce || 0^31 || 1 (96-bit nonces only, the one case cloakfs
 *   uses: no GHASH of the nonce);
 *   keystream block 0 is E_K(J0), which masks the tag; the data is
 *   XORed with E_K(J0 + 1), E_K(J0 + 2), ...;
 *   tag = GHASH(H, A | pad16 | C | pad16 | be64(8 |A|) | be64(8 |C|))
 *         ^ E_K(J0).
 * The 128-bit counter of ctr(X) equals GCM's inc32 here: from J0 + 1 it
 * reaches at most nonce || 0xffffffff within GCM's limit of 2^32 - 2
 * blocks (checked per message), so it never carries out of its low word.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "crypto/internal/core.h"
#include "crypto/internal/util.h"
#include "crypto/templates/aead.h"
#include "crypto/templates/template.h"

#define GCM_BLOCK 16
#define GCM_NONCE 12
/* SP 800-38D 5.2.1.1: len(P) <= 2^39 - 256 bits, 2^32 - 2 blocks */
#define GCM_MAX_BLOCKS 0xfffffffeu

/* where the keyed GHASH state starts: after the stream child's context */
static size_t gcm_mac_off(const struct crypto_driver *const *children)
{
	return ctx_align(children[0]->u.skcipher->ctxsize);
}

static const void *gcm_mac_ctx(const struct crypto_tfm *tfm)
{
	return (const uint8_t *)tfm->ctx + gcm_mac_off(tfm->drv->children);
}

/* ---- GCM's framing: a copy of the keyed GHASH, bit lengths, a mask ---- */

static int gcm_mac_key(const struct hash_alg *mac, const void *mac_ctx,
		       void *mst, const uint8_t *ks0)
{
	(void)ks0;
	memcpy(mst, mac_ctx, mac->statesize);
	return 0;
}

static void gcm_lengths(uint8_t out[AEAD_MAC_BLOCK], size_t aadlen, size_t len)
{
	store_be64(out, (uint64_t)aadlen * 8);
	store_be64(out + 8, (uint64_t)len * 8);
}

static void gcm_tag(uint8_t *tag, const uint8_t *mac_out, const uint8_t *ks0)
{
	xor_bytes(tag, mac_out, ks0, AEAD_TAG_SIZE);
}

static const struct aead_framing gcm_framing = {
	.ks0len = GCM_BLOCK,
	.mac_key = gcm_mac_key,
	.lengths = gcm_lengths,
	.tag = gcm_tag,
};

/*
 * One message's start: the length checked against GCM's limit, the
 * stream child's IV J0 for the 96-bit nonce, the stream child on this
 * context.
 */
static struct crypto_tfm gcm_begin(const struct crypto_tfm *tfm,
				   const uint8_t *nonce, size_t len,
				   uint8_t iv[GCM_BLOCK])
{
	aead_check_len(tfm, len, GCM_BLOCK, GCM_MAX_BLOCKS, "GCM");
	memcpy(iv, nonce, GCM_NONCE);
	store_be32(iv + GCM_NONCE, 1);
	return aead_stream_tfm(tfm);
}

static int gcm_setkey(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen)
{
	struct crypto_tfm s = aead_stream_tfm(tfm);
	const struct skcipher_alg *sc = s.drv->u.skcipher;
	const struct hash_alg *mac = tfm->drv->children[1]->u.hash;
	uint8_t iv[GCM_BLOCK] = { 0 }, h[GCM_BLOCK] = { 0 };
	int err = sc->setkey(&s, key, keylen);

	/* H = E_K(0^128): the counter mode's first block at counter 0 */
	if (!err)
		err = sc->encrypt(&s, iv, h, h, sizeof(h));
	if (!err)
		err = mac->setkey((uint8_t *)tfm->ctx + gcm_mac_off(tfm->drv->children),
				  h, sizeof(h));
	wipe(h, sizeof(h));
	return err;
}

static int gcm_encrypt(const struct crypto_tfm *tfm, const uint8_t *nonce,
		       const uint8_t *aad, size_t aadlen, uint8_t *dst,
		       const uint8_t *src, size_t len, uint8_t *tag)
{
	uint8_t iv[GCM_BLOCK];
	struct crypto_tfm s = gcm_begin(tfm, nonce, len, iv);

	return aead_seal(&gcm_framing, &s, tfm->drv->children[1], gcm_mac_ctx(tfm),
			 iv, aad, aadlen, dst, src, len, tag);
}

static int gcm_decrypt(const struct crypto_tfm *tfm, const uint8_t *nonce,
		       const uint8_t *aad, size_t aadlen, uint8_t *dst,
		       const uint8_t *src, size_t len, const uint8_t *tag)
{
	uint8_t iv[GCM_BLOCK];
	struct crypto_tfm s = gcm_begin(tfm, nonce, len, iv);

	return aead_open(&gcm_framing, &s, tfm->drv->children[1], gcm_mac_ctx(tfm),
			 iv, aad, aadlen, dst, src, len, tag);
}

int gcm_fits(unsigned int slot, const struct crypto_driver *d)
{
	if (slot == 0) {
		const struct skcipher_alg *a = d->u.skcipher;

		/* a ctr instance over a 16-byte block cipher */
		return d->type == CRYPTO_TYPE_SKCIPHER && a && d->child &&
		       d->child->type == CRYPTO_TYPE_CIPHER &&
		       !strncmp(d->alg_name, "ctr(", 4) &&
		       d->child->u.cipher->blocksize == GCM_BLOCK &&
		       a->blocksize == 1 && a->min_len == 0 &&
		       a->ivsize == GCM_BLOCK;
	}
	if (slot == 1) /* GHASH keyed with H, its state copied per message */
		return tmpl_keyed_hash_fits(d, "ghash", GCM_BLOCK, AEAD_TAG_SIZE,
					    AEAD_MAX_MAC_STATE);
	return 0;
}

int gcm_alg_name(char *out, size_t len, const struct crypto_driver *const *children)
{
	int n = snprintf(out, len, "gcm(%s)", children[0]->child->alg_name);

	return n < 0 || (size_t)n >= len ? -EINVAL : 0;
}

int gcm_template_init(struct aead_alg *alg,
		      const struct crypto_driver *const *children)
{
	/* the cipher's key sizes (AES: 16, 24 and 32) */
	memcpy(alg->keysizes, children[0]->u.skcipher->keysizes,
	       sizeof(alg->keysizes));
	alg->noncesize = GCM_NONCE;
	alg->tagsize = AEAD_TAG_SIZE;
	alg->ctxsize = gcm_mac_off(children) + children[1]->u.hash->statesize;
	alg->setkey = gcm_setkey;
	alg->encrypt = gcm_encrypt;
	alg->decrypt = gcm_decrypt;
	return 0;
}
