/* SPDX-License-Identifier: MIT */
/*
 * adiantum(xchacha<r>,aes): Adiantum (Crowley and Biggers, "Adiantum:
 * length-preserving encryption for entry-level processors", ToSC
 * 2018(4)), a wide-block tweakable cipher over three children, named as
 * the kernel names them: an XChaCha12 or XChaCha20 skcipher (slot 0), an
 * AES driver used on single blocks with a 256-bit key (slot 1) and an
 * nhpoly1305 keyed hash (slot 2). Its base name is
 * "adiantum(xchacha12,aes,nhpoly1305)"; callers ask for the short form
 * "adiantum(xchacha12,aes)".
 *
 * The tweak (the iv) is 32 bytes, as the kernel's; messages are 16 bytes
 * or longer, any length, one call each (the iv is left unchanged).
 *
 *   key K (32 bytes): XChaCha_K(nonce 1 || 0^23, position 0) over 1136
 *     zero bytes gives K_E (32, AES-256) || K_T (16) || K_M (16) || K_N
 *     (1072); K_M || K_N is the nhpoly1305 key.
 *   H(T, X) = Poly1305_{K_T}(le64(8 |X|) || 0^64 || T) + NHPoly1305(X)
 *     mod 2^128, each Poly1305 without its "+ s" (fully reduced, low
 *     128 bits, little-endian);
 *   encrypt P_L || P_R (P_R the last 16 bytes):
 *     P_M = P_R + H(T, P_L), C_M = AES_{K_E}(P_M),
 *     C_L = P_L ^ XChaCha_K(nonce C_M || 1 || 0^7, position 0),
 *     C_R = C_M - H(T, C_L); output C_L || C_R
 *   (+ and - on 16-byte little-endian integers mod 2^128); decryption
 *   runs the same steps backwards.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "crypto/chacha20poly1305/chacha.h"
#include "crypto/chacha20poly1305/poly1305.h"
#include "crypto/nhpoly1305/nhpoly1305.h"
#include "crypto/internal/util.h"
#include "crypto/templates/template.h"

#define ADIANTUM_TWEAK 32
#define ADIANTUM_BLOCK 16
#define ADIANTUM_KEY 32
#define ADIANTUM_AES_KEY 32
/* K_E || K_T || K_M || K_N */
#define ADIANTUM_DERIVED (ADIANTUM_AES_KEY + POLY1305_BLOCK_SIZE + NHPOLY1305_KEY_SIZE)

static const struct crypto_driver *adiantum_stream(const struct crypto_tfm *tfm)
{
	return tfm->drv->children[0];
}

static const struct cipher_alg *adiantum_cipher(const struct crypto_tfm *tfm)
{
	return tfm->drv->children[1]->u.cipher;
}

/*
 * context: the stream child's (the user key), the AES key schedule, the
 * keyed nhpoly1305 state, K_T
 */
static size_t adiantum_aes_off(const struct crypto_driver *const *c)
{
	return ctx_align(c[0]->u.skcipher->ctxsize);
}

static size_t adiantum_hash_off(const struct crypto_driver *const *c)
{
	return adiantum_aes_off(c) + ctx_align(c[1]->u.cipher->ctxsize);
}

static size_t adiantum_kt_off(const struct crypto_driver *const *c)
{
	return adiantum_hash_off(c) + ctx_align(c[2]->u.hash->statesize);
}

static void *adiantum_aes_ctx(const struct crypto_tfm *tfm)
{
	return (uint8_t *)tfm->ctx + adiantum_aes_off(tfm->drv->children);
}

static struct nhpoly1305_state *adiantum_hash_state(const struct crypto_tfm *tfm)
{
	return (struct nhpoly1305_state *)((uint8_t *)tfm->ctx +
					   adiantum_hash_off(tfm->drv->children));
}

static uint8_t *adiantum_kt(const struct crypto_tfm *tfm)
{
	return (uint8_t *)tfm->ctx + adiantum_kt_off(tfm->drv->children);
}

/* the stream child run on this context (its key comes first) */
static struct crypto_tfm adiantum_stream_tfm(const struct crypto_tfm *tfm)
{
	return (struct crypto_tfm){
		.drv = adiantum_stream(tfm),
		.ctx = tfm->ctx,
		.ctxsize = adiantum_stream(tfm)->u.skcipher->ctxsize,
		.keyed = 1,
	};
}

int adiantum_fits(unsigned int slot, const struct crypto_driver *d)
{
	if (slot == 0) {
		const struct skcipher_alg *a = d->u.skcipher;

		/* an XChaCha stream whose context is the 32-byte key */
		return d->type == CRYPTO_TYPE_SKCIPHER && !d->children[0] &&
		       (!strcmp(d->alg_name, XCHACHA12_ALG_NAME) ||
			!strcmp(d->alg_name, XCHACHA20_ALG_NAME)) &&
		       a->ivsize == XCHACHA_IV_SIZE && a->blocksize == 1 &&
		       a->keysizes[0] == ADIANTUM_KEY && !a->keysizes[1] &&
		       a->ctxsize == sizeof(struct chacha20_key);
	}
	if (slot == 1) {
		const struct cipher_alg *c = d->u.cipher;
		int k256 = 0;

		if (d->type != CRYPTO_TYPE_CIPHER || strcmp(d->alg_name, "aes") ||
		    c->blocksize != ADIANTUM_BLOCK)
			return 0;
		for (int i = 0; i < CRYPTO_MAX_KEYSIZES && c->keysizes[i]; i++)
			k256 |= c->keysizes[i] == ADIANTUM_AES_KEY;
		return k256;
	}
	if (slot == 2) {
		const struct hash_alg *h = d->u.hash;

		/* the shared nhpoly1305 state, whatever the driver's NH */
		return d->type == CRYPTO_TYPE_HASH && h &&
		       !strcmp(d->alg_name, NHPOLY1305_ALG_NAME) &&
		       h->init == nhpoly1305_init &&
		       h->statesize == sizeof(struct nhpoly1305_state) &&
		       h->keysizes[0] == NHPOLY1305_KEY_SIZE;
	}
	return 0;
}

int adiantum_alg_name(char *out, size_t len, const struct crypto_driver *const *c)
{
	int n = snprintf(out, len, "adiantum(%s,%s)", c[0]->alg_name, c[1]->alg_name);

	return n < 0 || (size_t)n >= len ? -EINVAL : 0;
}

static int adiantum_setkey(struct crypto_tfm *tfm, const uint8_t *key,
			   size_t keylen)
{
	struct crypto_tfm s = adiantum_stream_tfm(tfm);
	uint8_t iv[XCHACHA_IV_SIZE] = { 1 }; /* nonce 1 || 0^23, position 0 */
	uint8_t derived[ADIANTUM_DERIVED];
	const uint8_t *p = derived;
	int err;

	if (keylen != ADIANTUM_KEY)
		return -EINVAL;
	err = s.drv->u.skcipher->setkey(&s, key, keylen);
	if (err)
		return err;
	memset(derived, 0, sizeof(derived));
	err = s.drv->u.skcipher->encrypt(&s, iv, derived, derived, sizeof(derived));
	if (!err)
		err = adiantum_cipher(tfm)->setkey(adiantum_aes_ctx(tfm), p,
						   ADIANTUM_AES_KEY);
	p += ADIANTUM_AES_KEY;
	memcpy(adiantum_kt(tfm), p, POLY1305_BLOCK_SIZE);
	p += POLY1305_BLOCK_SIZE;
	if (!err)
		err = tfm->drv->children[2]->u.hash->setkey(adiantum_hash_state(tfm),
							    p, NHPOLY1305_KEY_SIZE);
	explicit_bzero(derived, sizeof(derived));
	return err;
}

/* r = a + b, or a - b when sub, as 128-bit little-endian integers */
static void le128_addsub(uint8_t r[16], const uint8_t a[16], const uint8_t b[16],
			 int sub)
{
	uint64_t alo = load_le64(a), ahi = load_le64(a + 8);
	uint64_t blo = load_le64(b), bhi = load_le64(b + 8);
	/* the carry or borrow out of the low half, by bit arithmetic */
	uint64_t lo = sub ? alo - blo : alo + blo;
	uint64_t c = sub ? ((~alo & blo) | (~(alo ^ blo) & lo)) >> 63 :
			   ((alo & blo) | ((alo | blo) & ~lo)) >> 63;

	store_le64(r, lo);
	store_le64(r + 8, sub ? ahi - bhi - c : ahi + bhi + c);
}

/*
 * The tweak's half of H: Poly1305_{K_T}(le64(8 len) || 0^64 || T), the
 * same for both hashes of one message (same T, same bulk length), so
 * computed once a call. The generic core's state is its l44/l26 member.
 */
static void adiantum_hash_tweak(const struct crypto_tfm *tfm, const uint8_t *tweak,
				size_t len, uint8_t out[16])
{
	_Alignas(16) union poly1305_core_state ht;
	/* the length block and T in one buffer: one call of the block function */
	uint8_t msg[POLY1305_BLOCK_SIZE + ADIANTUM_TWEAK] = { 0 };

	store_le64(msg, (uint64_t)len * 8);
	memcpy(msg + POLY1305_BLOCK_SIZE, tweak, ADIANTUM_TWEAK);
	poly1305_generic_core.setkey(&ht, adiantum_kt(tfm));
	poly1305_generic_core.blocks(&ht, msg, sizeof(msg) / POLY1305_BLOCK_SIZE, 1);
	poly1305_generic_core.emit(&ht, out);
	wipe(&ht, sizeof(ht.l44));
}

/* r = m + H(T, X) (or m - H when sub), th the tweak's half of H */
static void adiantum_hash_add(const struct crypto_tfm *tfm, const uint8_t th[16],
			      const uint8_t *x, size_t len, uint8_t r[16],
			      const uint8_t m[16], int sub)
{
	uint8_t h[16];

	nhpoly1305_digest(adiantum_hash_state(tfm), x, len, h);
	le128_addsub(h, th, h, 0);
	le128_addsub(r, m, h, sub);
	wipe(h, sizeof(h));
}

static int adiantum_crypt(const struct crypto_tfm *tfm, int enc, const uint8_t *tweak,
			  uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct cipher_alg *aes = adiantum_cipher(tfm);
	struct crypto_tfm s = adiantum_stream_tfm(tfm);
	uint8_t th[16], m[16], iv[XCHACHA_IV_SIZE] = { 0 };
	size_t n = len - ADIANTUM_BLOCK;
	int err;

	if (len < ADIANTUM_BLOCK)
		return -EINVAL;
	adiantum_hash_tweak(tfm, tweak, n, th);
	/* encrypt: P_M = P_R + H(T, P_L); decrypt: C_M = C_R + H(T, C_L) */
	adiantum_hash_add(tfm, th, src, n, m, src + n, 0);
	/* the stream's nonce is C_M (1 || 0^7 after it, position 0) */
	if (enc)
		aes->encrypt(adiantum_aes_ctx(tfm), iv, m);
	else
		memcpy(iv, m, ADIANTUM_BLOCK);
	iv[ADIANTUM_BLOCK] = 1;
	err = s.drv->u.skcipher->encrypt(&s, iv, dst, src, n);
	if (!err) {
		/* encrypt: C_R = C_M - H(T, C_L); decrypt: P_R = P_M - H(T, P_L) */
		if (enc)
			memcpy(m, iv, ADIANTUM_BLOCK);
		else
			aes->decrypt(adiantum_aes_ctx(tfm), m, m);
		adiantum_hash_add(tfm, th, dst, n, dst + n, m, 1);
	}
	wipe(th, sizeof(th));
	wipe(m, sizeof(m));
	wipe(iv, sizeof(iv));
	return err;
}

static int adiantum_encrypt(const struct crypto_tfm *tfm, uint8_t *iv,
			    uint8_t *dst, const uint8_t *src, size_t len)
{
	return adiantum_crypt(tfm, 1, iv, dst, src, len);
}

static int adiantum_decrypt(const struct crypto_tfm *tfm, uint8_t *iv,
			    uint8_t *dst, const uint8_t *src, size_t len)
{
	return adiantum_crypt(tfm, 0, iv, dst, src, len);
}

int adiantum_template_init(struct skcipher_alg *alg,
			   const struct crypto_driver *const *children)
{
	alg->blocksize = 1;
	alg->ivsize = ADIANTUM_TWEAK;
	alg->min_len = ADIANTUM_BLOCK;
	memset(alg->keysizes, 0, sizeof(alg->keysizes));
	alg->keysizes[0] = ADIANTUM_KEY;
	alg->ctxsize = adiantum_kt_off(children) + POLY1305_BLOCK_SIZE;
	alg->setkey = adiantum_setkey;
	alg->encrypt = adiantum_encrypt;
	alg->decrypt = adiantum_decrypt;
	return 0;
}
