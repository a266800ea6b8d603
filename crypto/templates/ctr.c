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

static int ctr_crypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		     const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	const struct crypto_bulk_ops *bulk = tfm->drv->bulk;
	uint8_t ks[TMPL_BATCH];
	size_t bs = c->blocksize, n, used = len < TMPL_BATCH ? len + bs : TMPL_BATCH;

	n = tmpl_bulk_len(bulk, bulk ? (const void *)bulk->ctr_crypt : NULL, len);
	if (n) {
		bulk->ctr_crypt(tfm->ctx, dst, src, n, iv);
		dst += n;
		src += n;
		len -= n;
	}
	while (len) {
		size_t nb;

		n = len < TMPL_BATCH ? len : TMPL_BATCH;
		nb = (n + bs - 1) / bs;
		for (size_t i = 0; i < nb; i++) {
			memcpy(ks + i * bs, iv, bs);
			ctr_inc(iv, bs);
		}
		tmpl_blocks(c, tfm->ctx, 1, ks, ks, nb);
		xor_bytes(dst, src, ks, n);
		dst += n;
		src += n;
		len -= n;
	}
	explicit_bzero(ks, used < TMPL_BATCH ? used : TMPL_BATCH);
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
