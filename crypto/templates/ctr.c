/* SPDX-License-Identifier: MIT */
/*
 * ctr(X): the iv is a big-endian counter over the whole block (NIST SP
 * 800-38A 6.5, as the kernel's ctr template), incremented per block and
 * left at the next unused value, so pieces that are whole blocks chain.
 */
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/templates/template.h"

static void ctr_inc(uint8_t *ctr, size_t bs)
{
	/* the counter is public: a data-dependent carry loop is fine */
	for (size_t i = bs; i-- > 0;)
		if (++ctr[i])
			break;
}

/* the next counter block: the iv, then the iv incremented */
static void ctr_next(uint8_t *blk, size_t bs, void *iv)
{
	memcpy(blk, iv, bs);
	ctr_inc(iv, bs);
}

static int ctr_crypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		     const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	const struct crypto_bulk_ops *bulk = tfm->drv->bulk;
	size_t n;

	n = tmpl_bulk_len(bulk, bulk ? (const void *)bulk->ctr_crypt : NULL, len);
	if (n) {
		bulk->ctr_crypt(tfm->ctx, dst, src, n, iv);
		dst += n;
		src += n;
		len -= n;
	}
	tmpl_keystream_xor(c, tfm->ctx, dst, src, len, ctr_next, iv);
	return 0;
}

int ctr_template_init(struct skcipher_alg *alg, const struct crypto_driver *child)
{
	const struct cipher_alg *c = child->u.cipher;

	alg->blocksize = 1;
	alg->ivsize = c->blocksize;
	alg->min_len = 0;
	tmpl_keysizes(alg->keysizes, c, 1);
	alg->ctxsize = c->ctxsize;
	alg->setkey = tmpl_setkey_single;
	alg->encrypt = ctr_crypt;
	alg->decrypt = ctr_crypt;
	return 0;
}
