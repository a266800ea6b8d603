/* SPDX-License-Identifier: MIT */
/*
 * hctr2_base(xctr(X),polyval): HCTR2 (Crowley, Huckleberry, Biggers,
 * "Length-preserving encryption with HCTR2", eprint 2021/1441, section
 * 3), a wide-block tweakable cipher over a 16-byte block cipher X, with
 * two children: the xctr(X) instance (XCTR keystream; its context is X's
 * key schedule, shared with this template for the single blocks) and a
 * polyval driver (the hash). The kernel calls the short form hctr2(X)
 * and so does cloakfs: instances are listed as "hctr2(aes)".
 *
 * The tweak (the iv) is 32 bytes, as the kernel's; messages are 16 bytes
 * or longer, any length, one call each (the iv is left unchanged).
 *
 *   h = E_K(0^128), L = E_K(le128(1)); H(T, X) = POLYVAL_h(le128(2|T| +
 *   2 + (|X| mod 128 != 0)) || T || X || (0x01 0^* when |X| is not whole
 *   blocks)), lengths in bits;
 *   encrypt M || N: MM = M ^ H(T, N), UU = E_K(MM), S = MM ^ UU ^ L,
 *   V = N ^ XCTR_K(S), U = UU ^ H(T, V); output U || V.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/templates/template.h"

#define HCTR2_TWEAK 32
#define HCTR2_BLOCK 16
/* the largest polyval state this template keeps a working copy of */
#define HCTR2_MAX_HASH_STATE 1024

static const struct crypto_driver *hctr2_xctr(const struct crypto_tfm *tfm)
{
	return tfm->drv->children[0];
}

static const struct hash_alg *hctr2_hash(const struct crypto_tfm *tfm)
{
	return tfm->drv->children[1]->u.hash;
}

static const struct cipher_alg *hctr2_cipher(const struct crypto_tfm *tfm)
{
	return hctr2_xctr(tfm)->child->u.cipher;
}

/* context: X's key schedule (the xctr child's whole context), the keyed
 * polyval state, L */
static size_t hctr2_hash_off(const struct crypto_driver *const *children)
{
	return ctx_align(children[0]->u.skcipher->ctxsize);
}

static size_t hctr2_l_off(const struct crypto_driver *const *children)
{
	return hctr2_hash_off(children) + ctx_align(children[1]->u.hash->statesize);
}

static void *hctr2_hash_state(const struct crypto_tfm *tfm)
{
	return (uint8_t *)tfm->ctx + hctr2_hash_off(tfm->drv->children);
}

static const uint8_t *hctr2_l(const struct crypto_tfm *tfm)
{
	return (const uint8_t *)tfm->ctx + hctr2_l_off(tfm->drv->children);
}

/* the xctr child run on this context (its key schedule comes first) */
static struct crypto_tfm hctr2_xctr_tfm(const struct crypto_tfm *tfm)
{
	return (struct crypto_tfm){
		.drv = hctr2_xctr(tfm),
		.ctx = tfm->ctx,
		.ctxsize = hctr2_xctr(tfm)->u.skcipher->ctxsize,
		.keyed = 1,
	};
}

int hctr2_fits(unsigned int slot, const struct crypto_driver *d)
{
	if (slot == 0) {
		const struct skcipher_alg *a = d->u.skcipher;

		/* an xctr instance whose context is its cipher's key schedule */
		return d->type == CRYPTO_TYPE_SKCIPHER && d->child &&
		       d->child->type == CRYPTO_TYPE_CIPHER &&
		       !strncmp(d->alg_name, "xctr(", 5) && a->ivsize == HCTR2_BLOCK &&
		       d->child->u.cipher->blocksize == HCTR2_BLOCK &&
		       a->ctxsize == d->child->u.cipher->ctxsize;
	}
	if (slot == 1)
		return tmpl_keyed_hash_fits(d, "polyval", HCTR2_BLOCK, HCTR2_BLOCK,
					    HCTR2_MAX_HASH_STATE);
	return 0;
}

int hctr2_alg_name(char *out, size_t len, const struct crypto_driver *const *children)
{
	int n = snprintf(out, len, "hctr2(%s)", children[0]->child->alg_name);

	return n < 0 || (size_t)n >= len ? -EINVAL : 0;
}

static int hctr2_setkey(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen)
{
	const struct cipher_alg *c = hctr2_cipher(tfm);
	struct crypto_tfm x = hctr2_xctr_tfm(tfm);
	uint8_t h[HCTR2_BLOCK] = { 0 };
	uint8_t *l = (uint8_t *)hctr2_l(tfm);
	int err = x.drv->u.skcipher->setkey(&x, key, keylen);

	if (err)
		return err;
	c->encrypt(tfm->ctx, h, h);
	memset(l, 0, HCTR2_BLOCK);
	l[0] = 1; /* le128(1) */
	c->encrypt(tfm->ctx, l, l);
	err = hctr2_hash(tfm)->setkey(hctr2_hash_state(tfm), h, sizeof(h));
	explicit_bzero(h, sizeof(h));
	return err;
}

/* out = H(T, X) for tweak T and X of len bytes, on a copy of the keyed state */
static void hctr2_hash_msg(const struct crypto_tfm *tfm, const uint8_t *tweak,
			   const uint8_t *x, size_t len, uint8_t *out)
{
	const struct hash_alg *hash = hctr2_hash(tfm);
	alignas(CRYPTO_CTX_ALIGN) uint8_t st[HCTR2_MAX_HASH_STATE];
	uint8_t blk[HCTR2_BLOCK] = { 0 };
	size_t rem = len % HCTR2_BLOCK;

	memcpy(st, hctr2_hash_state(tfm), hash->statesize);
	store_le64(blk, (uint64_t)HCTR2_TWEAK * 8 * 2 + 2 + (rem != 0));
	hash->update(st, blk, sizeof(blk));
	hash->update(st, tweak, HCTR2_TWEAK);
	hash->update(st, x, len);
	if (rem) {
		memset(blk, 0, sizeof(blk));
		blk[0] = 1;
		hash->update(st, blk, HCTR2_BLOCK - rem);
	}
	hash->final(st, out);
	explicit_bzero(st, hash->statesize);
}

static int hctr2_crypt(const struct crypto_tfm *tfm, int enc, uint8_t *iv,
		       uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = hctr2_cipher(tfm);
	struct crypto_tfm x = hctr2_xctr_tfm(tfm);
	uint8_t first[HCTR2_BLOCK], mm[HCTR2_BLOCK], uu[HCTR2_BLOCK], s[HCTR2_BLOCK];
	size_t n = len - HCTR2_BLOCK;
	int err;

	if (len < HCTR2_BLOCK)
		return -EINVAL;
	/* encrypt: first = M, the hash over N; decrypt: first = U, over V */
	memcpy(first, src, HCTR2_BLOCK);
	hctr2_hash_msg(tfm, iv, src + HCTR2_BLOCK, n, s);
	if (enc) {
		xor_bytes(mm, first, s, HCTR2_BLOCK);
		c->encrypt(tfm->ctx, uu, mm);
	} else {
		xor_bytes(uu, first, s, HCTR2_BLOCK);
		c->decrypt(tfm->ctx, mm, uu);
	}
	xor_bytes(s, mm, uu, HCTR2_BLOCK);
	xor_bytes(s, s, hctr2_l(tfm), HCTR2_BLOCK);
	err = x.drv->u.skcipher->encrypt(&x, s, dst + HCTR2_BLOCK, src + HCTR2_BLOCK, n);
	if (!err) {
		hctr2_hash_msg(tfm, iv, dst + HCTR2_BLOCK, n, s);
		xor_bytes(dst, enc ? uu : mm, s, HCTR2_BLOCK);
	}
	explicit_bzero(first, sizeof(first));
	explicit_bzero(mm, sizeof(mm));
	explicit_bzero(uu, sizeof(uu));
	explicit_bzero(s, sizeof(s));
	return err;
}

static int hctr2_encrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
			 const uint8_t *src, size_t len)
{
	return hctr2_crypt(tfm, 1, iv, dst, src, len);
}

static int hctr2_decrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
			 const uint8_t *src, size_t len)
{
	return hctr2_crypt(tfm, 0, iv, dst, src, len);
}

int hctr2_template_init(struct skcipher_alg *alg,
			const struct crypto_driver *const *children)
{
	alg->blocksize = 1;
	alg->ivsize = HCTR2_TWEAK;
	alg->min_len = HCTR2_BLOCK;
	memcpy(alg->keysizes, children[0]->u.skcipher->keysizes, sizeof(alg->keysizes));
	alg->ctxsize = hctr2_l_off(children) + HCTR2_BLOCK;
	alg->setkey = hctr2_setkey;
	alg->encrypt = hctr2_encrypt;
	alg->decrypt = hctr2_decrypt;
	return 0;
}
