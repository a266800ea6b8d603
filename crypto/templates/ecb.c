/* SPDX-License-Identifier: MIT */
/* ecb(X): independent blocks; the length must be a multiple of the block. */
#include <errno.h>

#include "crypto/templates/template.h"

int tmpl_setkey_single(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen)
{
	return tmpl_cipher(tfm)->setkey(tfm->ctx, key, keylen);
}

static int ecb_crypt(const struct crypto_tfm *tfm, int enc, uint8_t *dst,
		     const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	const struct crypto_bulk_ops *bulk = tfm->drv->bulk;
	void (*hook)(const void *, uint8_t *, const uint8_t *, size_t) =
		bulk ? (enc ? bulk->ecb_encrypt : bulk->ecb_decrypt) : NULL;
	size_t n;

	if (len % c->blocksize)
		return -EINVAL;
	n = tmpl_bulk_len(bulk, (const void *)hook, len);
	if (n) {
		hook(tfm->ctx, dst, src, n);
		dst += n;
		src += n;
		len -= n;
	}
	tmpl_blocks(c, tfm->ctx, enc, dst, src, len / c->blocksize);
	return 0;
}

static int ecb_encrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	(void)iv;
	return ecb_crypt(tfm, 1, dst, src, len);
}

static int ecb_decrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	(void)iv;
	return ecb_crypt(tfm, 0, dst, src, len);
}

int ecb_template_init(struct skcipher_alg *alg, const struct crypto_driver *child)
{
	const struct cipher_alg *c = child->u.cipher;

	alg->blocksize = c->blocksize;
	alg->ivsize = 0;
	alg->min_len = 0;
	tmpl_keysizes(alg->keysizes, c, 1);
	alg->ctxsize = c->ctxsize;
	alg->setkey = tmpl_setkey_single;
	alg->encrypt = ecb_encrypt;
	alg->decrypt = ecb_decrypt;
	return 0;
}
