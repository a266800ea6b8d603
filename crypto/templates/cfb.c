/* SPDX-License-Identifier: MIT */
/*
 * cfb(X): full-block CFB (CFB128 for 16-byte blocks, NIST SP 800-38A
 * 6.3). Encryption is serial; decryption computes all keystream blocks
 * from known ciphertext at once. A final partial block uses the first
 * bytes of one more keystream block; the iv then no longer chains.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/templates/template.h"

static void cfb_final(const struct crypto_tfm *tfm, const uint8_t *iv,
		      uint8_t *dst, const uint8_t *src, size_t n)
{
	uint8_t ks[CRYPTO_MAX_BLOCKSIZE];

	tmpl_cipher(tfm)->encrypt(tfm->ctx, ks, iv);
	xor_bytes(dst, src, ks, n);
	explicit_bzero(ks, sizeof(ks));
}

static int cfb_encrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	size_t bs = c->blocksize, full = len - len % bs;

	for (size_t off = 0; off < full; off += bs) {
		c->encrypt(tfm->ctx, iv, iv);
		xor_bytes(iv, iv, src + off, bs);
		memcpy(dst + off, iv, bs);
	}
	if (len > full)
		cfb_final(tfm, iv, dst + full, src + full, len - full);
	return 0;
}

static int cfb_decrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	const struct crypto_bulk_ops *bulk = tfm->drv->bulk;
	uint8_t cbuf[TMPL_BATCH], ks[TMPL_BATCH];
	size_t bs = c->blocksize, full = len - len % bs, n;
	size_t used = len < TMPL_BATCH ? len : TMPL_BATCH;

	n = tmpl_bulk_len(bulk, bulk ? (const void *)bulk->cfb_decrypt : NULL, full);
	if (n) {
		bulk->cfb_decrypt(tfm->ctx, dst, src, n, iv);
		dst += n;
		src += n;
		len -= n;
		full -= n;
	}
	while (full) {
		n = full < TMPL_BATCH ? full : TMPL_BATCH;
		memcpy(cbuf, src, n);
		memcpy(ks, iv, bs);
		memcpy(ks + bs, cbuf, n - bs);
		tmpl_blocks(c, tfm->ctx, 1, ks, ks, n / bs);
		xor_bytes(dst, cbuf, ks, n);
		memcpy(iv, cbuf + n - bs, bs);
		dst += n;
		src += n;
		len -= n;
		full -= n;
	}
	if (len)
		cfb_final(tfm, iv, dst, src, len);
	explicit_bzero(ks, used);
	return 0;
}

int cfb_template_init(struct skcipher_alg *alg, const struct crypto_driver *child)
{
	const struct cipher_alg *c = child->u.cipher;

	alg->blocksize = 1;
	alg->ivsize = c->blocksize;
	alg->min_len = 0;
	tmpl_keysizes(alg->keysizes, c, 1);
	alg->ctxsize = c->ctxsize;
	alg->setkey = tmpl_setkey_single;
	alg->encrypt = cfb_encrypt;
	alg->decrypt = cfb_decrypt;
	return 0;
}
