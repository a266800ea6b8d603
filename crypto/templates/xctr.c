/* SPDX-License-Identifier: MIT */
/*
 * xctr(X): XCTR, the counter mode of HCTR2 (Crowley, Huckleberry, Biggers,
 * "Length-preserving encryption with HCTR2", 2021, section 3): keystream
 * block i (from 1) is E_K(N XOR le128(i)) for the 16-byte nonce N (the
 * iv), so the counter is XORed in little-endian, never carried. Only for
 * 16-byte blocks (modes[] in registry.c). The iv is left unchanged: block
 * i depends on N and i in a way no updated 16-byte value can carry, so a
 * message is one call (as XTS's).
 */
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/templates/template.h"

static int xctr_crypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		      const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	uint8_t ks[TMPL_BATCH];
	uint64_t n_lo = load_le64(iv), i = 1;
	size_t used = len < TMPL_BATCH ? len + 16 : TMPL_BATCH;

	while (len) {
		size_t n = len < TMPL_BATCH ? len : TMPL_BATCH, nb = (n + 15) / 16;

		for (size_t b = 0; b < nb; b++, i++) {
			store_le64(ks + 16 * b, n_lo ^ i);
			memcpy(ks + 16 * b + 8, iv + 8, 8);
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

int xctr_template_init(struct skcipher_alg *alg, const struct crypto_driver *child)
{
	const struct cipher_alg *c = child->u.cipher;

	alg->blocksize = 1;
	alg->ivsize = 16;
	alg->min_len = 0;
	tmpl_keysizes(alg->keysizes, c, 1);
	alg->ctxsize = c->ctxsize;
	alg->setkey = tmpl_setkey_single;
	alg->encrypt = xctr_crypt;
	alg->decrypt = xctr_crypt;
	return 0;
}
