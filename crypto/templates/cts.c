/* SPDX-License-Identifier: MIT */
/*
 * cts(cbc(X)): CBC with ciphertext stealing, variant CS3 of NIST SP
 * 800-38A Addendum (the Kerberos order of RFC 3962 and the Linux kernel's
 * cts template): the last two blocks are always swapped when the message
 * is longer than one block. cloakfs encrypts file names with it.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/templates/template.h"

/* bytes before the final two (possibly partial) blocks */
static size_t cts_head(size_t len, size_t bs)
{
	return ((len - 1) / bs - 1) * bs;
}

static int cts_encrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	size_t bs = c->blocksize, head, lastn;
	uint8_t x[CRYPTO_MAX_BLOCKSIZE], pn[CRYPTO_MAX_BLOCKSIZE];

	if (len < bs)
		return -EINVAL;
	if (len == bs) {
		tmpl_cbc_encrypt_blocks(tfm, iv, dst, src, len);
		return 0;
	}
	head = cts_head(len, bs);
	lastn = len - head - bs;
	tmpl_cbc_encrypt_blocks(tfm, iv, dst, src, head);
	/* X = E(P[n-1] ^ iv); C[n] = E(X ^ (P[n] || 0)) */
	memset(pn, 0, bs);
	memcpy(pn, src + head + bs, lastn);
	xor_bytes(x, iv, src + head, bs);
	c->encrypt(tfm->ctx, x, x);
	xor_bytes(pn, pn, x, bs);
	c->encrypt(tfm->ctx, dst + head, pn);
	memcpy(dst + head + bs, x, lastn);
	memcpy(iv, dst + head, bs);
	explicit_bzero(x, sizeof(x));
	explicit_bzero(pn, sizeof(pn));
	return 0;
}

static int cts_decrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	size_t bs = c->blocksize, head, lastn;
	uint8_t d[CRYPTO_MAX_BLOCKSIZE], x[CRYPTO_MAX_BLOCKSIZE];
	uint8_t cn[CRYPTO_MAX_BLOCKSIZE];

	if (len < bs)
		return -EINVAL;
	if (len == bs) {
		tmpl_cbc_decrypt_blocks(tfm, iv, dst, src, len);
		return 0;
	}
	head = cts_head(len, bs);
	lastn = len - head - bs;
	tmpl_cbc_decrypt_blocks(tfm, iv, dst, src, head);
	/* read both final blocks before writing: dst may be src */
	memcpy(cn, src + head, bs);
	memcpy(x, src + head + bs, lastn);
	c->decrypt(tfm->ctx, d, cn);          /* D = X ^ (P[n] || 0) */
	memcpy(x + lastn, d + lastn, bs - lastn);
	xor_bytes(dst + head + bs, d, x, lastn); /* P[n] */
	c->decrypt(tfm->ctx, d, x);
	xor_bytes(dst + head, d, iv, bs);        /* P[n-1] */
	memcpy(iv, cn, bs);
	explicit_bzero(d, sizeof(d));
	explicit_bzero(x, sizeof(x));
	return 0;
}

int cts_template_init(struct skcipher_alg *alg, const struct crypto_driver *child)
{
	const struct cipher_alg *c = child->u.cipher;

	alg->blocksize = 1;
	alg->ivsize = c->blocksize;
	alg->min_len = c->blocksize;
	tmpl_keysizes(alg->keysizes, c, 1);
	alg->ctxsize = c->ctxsize;
	alg->setkey = tmpl_setkey_single;
	alg->encrypt = cts_encrypt;
	alg->decrypt = cts_decrypt;
	return 0;
}
