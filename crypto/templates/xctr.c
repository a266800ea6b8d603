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

struct xctr_state {
	const uint8_t *nonce;
	uint64_t i; /* the next block's index, from 1 */
};

/* N XOR le128(i): the counter's low 64 bits XORed into the nonce's */
static void xctr_next(uint8_t *blk, size_t bs, void *arg)
{
	struct xctr_state *x = arg;

	(void)bs;
	store_le64(blk, load_le64(x->nonce) ^ x->i++);
	memcpy(blk + 8, x->nonce + 8, 8);
}

static int xctr_crypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		      const uint8_t *src, size_t len)
{
	struct xctr_state x = { .nonce = iv, .i = 1 };

	tmpl_keystream_xor(tmpl_cipher(tfm), tfm->ctx, dst, src, len, xctr_next, &x);
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
