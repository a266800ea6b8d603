/* SPDX-License-Identifier: MIT */
/*
 * cbc(X). Encryption is serial by nature; decryption is parallel, so it
 * goes through the child's multi-block path (and a SIMD core if any).
 * The iv is updated to the last ciphertext block so messages chain.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/templates/template.h"

void tmpl_cbc_encrypt_blocks(const struct crypto_tfm *tfm, uint8_t *iv,
			     uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	size_t bs = c->blocksize;

	for (size_t off = 0; off < len; off += bs) {
		xor_bytes(iv, iv, src + off, bs);
		c->encrypt(tfm->ctx, dst + off, iv);
		memcpy(iv, dst + off, bs);
	}
}

void tmpl_cbc_decrypt_blocks(const struct crypto_tfm *tfm, uint8_t *iv,
			     uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	const struct crypto_bulk_ops *bulk = tfm->drv->bulk;
	uint8_t cbuf[TMPL_BATCH], pbuf[TMPL_BATCH];
	size_t bs = c->blocksize, n, used = len < TMPL_BATCH ? len : TMPL_BATCH;

	n = tmpl_bulk_len(bulk, bulk ? (const void *)bulk->cbc_decrypt : NULL, len);
	if (n) {
		bulk->cbc_decrypt(tfm->ctx, dst, src, n, iv);
		dst += n;
		src += n;
		len -= n;
	}
	while (len) {
		n = len < TMPL_BATCH ? len : TMPL_BATCH;
		/* keep the ciphertext: dst may be src */
		memcpy(cbuf, src, n);
		tmpl_blocks(c, tfm->ctx, 0, pbuf, cbuf, n / bs);
		xor_bytes(dst, pbuf, iv, bs);
		xor_bytes(dst + bs, pbuf + bs, cbuf, n - bs);
		memcpy(iv, cbuf + n - bs, bs);
		dst += n;
		src += n;
		len -= n;
	}
	explicit_bzero(pbuf, used);
}

static int cbc_encrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	if (len % tmpl_cipher(tfm)->blocksize)
		return -EINVAL;
	tmpl_cbc_encrypt_blocks(tfm, iv, dst, src, len);
	return 0;
}

static int cbc_decrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	if (len % tmpl_cipher(tfm)->blocksize)
		return -EINVAL;
	tmpl_cbc_decrypt_blocks(tfm, iv, dst, src, len);
	return 0;
}

int cbc_template_init(struct skcipher_alg *alg, const struct crypto_driver *child)
{
	const struct cipher_alg *c = child->u.cipher;

	alg->blocksize = c->blocksize;
	alg->ivsize = c->blocksize;
	alg->min_len = 0;
	tmpl_keysizes(alg->keysizes, c, 1);
	alg->ctxsize = c->ctxsize;
	alg->setkey = tmpl_setkey_single;
	alg->encrypt = cbc_encrypt;
	alg->decrypt = cbc_decrypt;
	return 0;
}
