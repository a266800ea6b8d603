/* SPDX-License-Identifier: MIT */
/*
 * xts(X): IEEE 1619-2007 XTS with ciphertext stealing, over a 16-byte
 * block cipher (tweak multiplied by x in GF(2^128) mod x^128+x^7+x^2+x+1)
 * or an 8-byte one (GF(2^64) mod x^64+x^4+x^3+x+1, as the kernel's
 * xts(speck64)). The key is K1 || K2: K1 encrypts data, K2 the tweak.
 *
 * Data flow per request: T = E_K2(iv); a SIMD core (drv->bulk) takes the
 * longest run of whole chunks, carrying T; C takes the remaining whole
 * blocks in batches through the child's multi-block path; the last full
 * block and a partial one are done with ciphertext stealing here.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/util.h"
#include "crypto/templates/template.h"

static void *xts_k1(const struct crypto_tfm *tfm)
{
	return tfm->ctx;
}

static void *xts_k2(const struct crypto_tfm *tfm)
{
	return (uint8_t *)tfm->ctx + ctx_align(tmpl_cipher(tfm)->ctxsize);
}

static int xts_setkey(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	size_t half = keylen / 2;
	int err;

	err = c->setkey(xts_k1(tfm), key, half);
	if (!err)
		err = c->setkey(xts_k2(tfm), key + half, half);
	return err;
}

static void xts_tweak(const struct crypto_tfm *tfm, const uint8_t *iv,
		      uint8_t *tweak)
{
	tmpl_cipher(tfm)->encrypt(xts_k2(tfm), tweak, iv);
}

/* T <- T * x; the carry select is a mask, not a branch (T is secret) */
static inline void gf128_mul_x(uint64_t *lo, uint64_t *hi)
{
	uint64_t carry = *hi >> 63;

	*hi = (*hi << 1) | (*lo >> 63);
	*lo = (*lo << 1) ^ (0x87 & (0 - carry));
}

static inline uint64_t gf64_mul_x(uint64_t t)
{
	return (t << 1) ^ (0x1b & (0 - (t >> 63)));
}

/* whole 16-byte blocks in C batches */
static void xts128_blocks(const struct cipher_alg *c, const void *k1, int enc,
			  uint8_t *tweak, uint8_t *dst, const uint8_t *src,
			  size_t len)
{
	uint64_t tw[TMPL_BATCH / 8], lo = load_le64(tweak), hi = load_le64(tweak + 8);
	uint8_t buf[TMPL_BATCH];
	/* wipe only what was used: short requests must stay cheap */
	size_t used = len < TMPL_BATCH ? len : TMPL_BATCH;

	while (len) {
		size_t n = len < TMPL_BATCH ? len : TMPL_BATCH;

		for (size_t i = 0; i < n / 8; i += 2) {
			tw[i] = lo;
			tw[i + 1] = hi;
			store_le64(buf + 8 * i, load_le64(src + 8 * i) ^ lo);
			store_le64(buf + 8 * i + 8, load_le64(src + 8 * i + 8) ^ hi);
			gf128_mul_x(&lo, &hi);
		}
		tmpl_blocks(c, k1, enc, buf, buf, n / 16);
		for (size_t i = 0; i < n / 8; i++)
			store_le64(dst + 8 * i, load_le64(buf + 8 * i) ^ tw[i]);
		src += n;
		dst += n;
		len -= n;
	}
	store_le64(tweak, lo);
	store_le64(tweak + 8, hi);
	explicit_bzero(buf, used);
	explicit_bzero(tw, used);
}

/* whole 8-byte blocks (Speck64) */
static void xts64_blocks(const struct cipher_alg *c, const void *k1, int enc,
			 uint8_t *tweak, uint8_t *dst, const uint8_t *src,
			 size_t len)
{
	uint64_t tw[TMPL_BATCH / 8], t = load_le64(tweak);
	uint8_t buf[TMPL_BATCH];
	size_t used = len < TMPL_BATCH ? len : TMPL_BATCH;

	while (len) {
		size_t n = len < TMPL_BATCH ? len : TMPL_BATCH;

		for (size_t i = 0; i < n / 8; i++) {
			tw[i] = t;
			store_le64(buf + 8 * i, load_le64(src + 8 * i) ^ t);
			t = gf64_mul_x(t);
		}
		tmpl_blocks(c, k1, enc, buf, buf, n / 8);
		for (size_t i = 0; i < n / 8; i++)
			store_le64(dst + 8 * i, load_le64(buf + 8 * i) ^ tw[i]);
		src += n;
		dst += n;
		len -= n;
	}
	store_le64(tweak, t);
	explicit_bzero(buf, used);
	explicit_bzero(tw, used);
}

static void xts_crypt(const struct crypto_tfm *tfm, int enc, uint8_t *tweak,
		      uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	const struct crypto_bulk_ops *bulk = tfm->drv->bulk;
	void (*hook)(const void *, uint8_t *, const uint8_t *, size_t, uint8_t *) =
		bulk ? (enc ? bulk->xts_encrypt : bulk->xts_decrypt) : NULL;
	size_t n = tmpl_bulk_len(bulk, (const void *)hook, len);

	if (n) {
		hook(xts_k1(tfm), dst, src, n, tweak);
		dst += n;
		src += n;
		len -= n;
	}
	if (!len)
		return;
	if (c->blocksize == 16)
		xts128_blocks(c, xts_k1(tfm), enc, tweak, dst, src, len);
	else
		xts64_blocks(c, xts_k1(tfm), enc, tweak, dst, src, len);
}

static void tweak_next(uint8_t *t, size_t bs)
{
	if (bs == 16) {
		uint64_t lo = load_le64(t), hi = load_le64(t + 8);

		gf128_mul_x(&lo, &hi);
		store_le64(t, lo);
		store_le64(t + 8, hi);
	} else {
		store_le64(t, gf64_mul_x(load_le64(t)));
	}
}

/* one block with tweak t: dst = E(src ^ t) ^ t */
static void xts_one(const struct cipher_alg *c, const void *k1, int enc,
		    const uint8_t *t, uint8_t *dst, const uint8_t *src)
{
	uint8_t b[CRYPTO_MAX_BLOCKSIZE];

	xor_bytes(b, src, t, c->blocksize);
	(enc ? c->encrypt : c->decrypt)(k1, b, b);
	xor_bytes(dst, b, t, c->blocksize);
	explicit_bzero(b, sizeof(b));
}

static int xts_request(const struct crypto_tfm *tfm, int enc, const uint8_t *iv,
		       uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct cipher_alg *c = tmpl_cipher(tfm);
	size_t bs = c->blocksize, tail = len % bs, whole;
	uint8_t t[CRYPTO_MAX_BLOCKSIZE], t2[CRYPTO_MAX_BLOCKSIZE];
	uint8_t cc[CRYPTO_MAX_BLOCKSIZE], pp[CRYPTO_MAX_BLOCKSIZE];

	if (len < bs)
		return -EINVAL;
	xts_tweak(tfm, iv, t);
	/* with stealing, the last whole block is done below */
	whole = tail ? len - tail - bs : len;
	xts_crypt(tfm, enc, t, dst, src, whole);
	if (tail) {
		const uint8_t *s = src + whole;
		uint8_t *d = dst + whole;

		memcpy(t2, t, bs);
		tweak_next(t2, bs);
		/*
		 * IEEE 1619 5.3.2: encrypt uses T(m-1) then T(m); decrypt
		 * the other way round. Read the tail before writing it.
		 */
		xts_one(c, xts_k1(tfm), enc, enc ? t : t2, cc, s);
		memcpy(pp, s + bs, tail);
		memcpy(pp + tail, cc + tail, bs - tail);
		memcpy(d + bs, cc, tail);
		xts_one(c, xts_k1(tfm), enc, enc ? t2 : t, d, pp);
		explicit_bzero(cc, sizeof(cc));
		explicit_bzero(pp, sizeof(pp));
		explicit_bzero(t2, sizeof(t2));
	}
	explicit_bzero(t, sizeof(t));
	return 0;
}

static int xts_encrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	return xts_request(tfm, 1, iv, dst, src, len);
}

static int xts_decrypt(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len)
{
	return xts_request(tfm, 0, iv, dst, src, len);
}

int xts_template_init(struct skcipher_alg *alg, const struct crypto_driver *child)
{
	const struct cipher_alg *c = child->u.cipher;

	if (c->blocksize != 16 && c->blocksize != 8)
		return -EINVAL;
	alg->blocksize = c->blocksize;
	alg->ivsize = c->blocksize;
	alg->min_len = c->blocksize;
	tmpl_keysizes(alg->keysizes, c, 2);
	alg->ctxsize = 2 * ctx_align(c->ctxsize);
	alg->setkey = xts_setkey;
	alg->encrypt = xts_encrypt;
	alg->decrypt = xts_decrypt;
	alg->xts_tweak = xts_tweak;
	alg->xts_crypt = xts_crypt;
	return 0;
}
