// SPDX-License-Identifier: MIT
/*
 * rfc7539(chacha20,poly1305): AEAD_CHACHA20_POLY1305 (RFC 8439, section
 * 2.8) as a template over two children, as the kernel's rfc7539: a
 * "chacha20" skcipher driver (the stream; its 16-byte IV is the 32-bit
 * little-endian block counter then the 96-bit nonce, the counter written
 * back) and a "poly1305" keyed-hash driver (the one-time MAC). The
 * construction is written here once, for the generic and the SIMD
 * drivers alike:
 *   the first 32 bytes of keystream block 0 (counter 0) key Poly1305;
 *   the data is XORed with the keystream from block 1 on;
 *   tag = Poly1305(aad | pad16 | ciphertext | pad16 | le64(aadlen) |
 *   le64(len)).
 * Decryption computes the tag over the ciphertext and compares it in
 * constant time; on a mismatch dst is zeroed and -EBADMSG returned
 * (aead.h).
 *
 * The construction is the AEAD engine's (aead.c) with RFC 8439's framing
 * below: the one-time key from block 0, byte lengths, the MAC as the tag.
 * The 96-bit nonce follows a zero block counter in the child's IV.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/internal/core.h"
#include "crypto/internal/util.h"
#include "crypto/templates/aead.h"
#include "crypto/templates/template.h"

#define RFC7539_KS0 64
#define RFC7539_KEY 32
#define RFC7539_NONCE 12
#define RFC7539_IV 16
/* XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03, section 2.3) */
#define XCHACHA_NONCE 24
/* P_MAX of RFC 8439 2.8: 2^32 - 1 blocks, the 32-bit counter starts at 1 */
#define RFC7539_MAX_BLOCKS 0xffffffffu

/* ---- RFC 8439: the one-time key from block 0, byte lengths ------------ */

static int rfc7539_mac_key(const struct hash_alg *mac, const void *mac_ctx,
			   void *mst, const uint8_t *ks0)
{
	(void)mac_ctx;
	return mac->setkey(mst, ks0, RFC7539_KEY);
}

static void rfc7539_lengths(uint8_t out[AEAD_MAC_BLOCK], size_t aadlen, size_t len)
{
	store_le64(out, aadlen);
	store_le64(out + 8, len);
}

static void rfc7539_tag(uint8_t *tag, const uint8_t *mac_out, const uint8_t *ks0)
{
	(void)ks0;
	memcpy(tag, mac_out, AEAD_TAG_SIZE);
}

static const struct aead_framing rfc7539_framing = {
	.ks0len = RFC7539_KS0,
	.mac_key = rfc7539_mac_key,
	.lengths = rfc7539_lengths,
	.tag = rfc7539_tag,
};

/*
 * One message's start: the length checked against RFC 8439's limit, the
 * child's IV for the 96-bit nonce (block counter 0, then the nonce), the
 * stream child on this context.
 */
static struct crypto_tfm rfc7539_begin(const struct crypto_tfm *tfm,
				       const uint8_t *nonce, size_t len,
				       uint8_t iv[RFC7539_IV])
{
	aead_check_len(tfm, len, RFC7539_KS0, RFC7539_MAX_BLOCKS, "RFC 8439");
	memset(iv, 0, 4);
	memcpy(iv + 4, nonce, RFC7539_NONCE);
	return aead_stream_tfm(tfm);
}

static int rfc7539_setkey(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen)
{
	struct crypto_tfm s = aead_stream_tfm(tfm);

	return s.drv->u.skcipher->setkey(&s, key, keylen);
}

static int rfc7539_encrypt(const struct crypto_tfm *tfm, const uint8_t *nonce,
			   const uint8_t *aad, size_t aadlen, uint8_t *dst,
			   const uint8_t *src, size_t len, uint8_t *tag)
{
	uint8_t iv[RFC7539_IV];
	struct crypto_tfm s = rfc7539_begin(tfm, nonce, len, iv);

	return aead_seal(&rfc7539_framing, &s, tfm->drv->children[1], NULL, iv, aad,
			 aadlen, dst, src, len, tag);
}

static int rfc7539_decrypt(const struct crypto_tfm *tfm, const uint8_t *nonce,
			   const uint8_t *aad, size_t aadlen, uint8_t *dst,
			   const uint8_t *src, size_t len, const uint8_t *tag)
{
	uint8_t iv[RFC7539_IV];
	struct crypto_tfm s = rfc7539_begin(tfm, nonce, len, iv);

	return aead_open(&rfc7539_framing, &s, tfm->drv->children[1], NULL, iv, aad,
			 aadlen, dst, src, len, tag);
}

/*
 * xchacha20poly1305: the same construction under the subkey
 * HChaCha20(key, nonce[0..16]) with the 96-bit nonce 0^32 ||
 * nonce[16..24] (HChaCha20 by the stream child's core when it has one:
 * its hchacha); the subkey keys a stack copy of the stream child's
 * context (a struct chacha20_key: xchacha_fits), wiped after the message.
 */
struct xchacha_msg {
	alignas(CRYPTO_CTX_ALIGN) struct chacha20_key sub;
	struct crypto_tfm stream;
	uint8_t iv[RFC7539_IV];
};

static int xchacha_begin(const struct crypto_tfm *tfm, const uint8_t *nonce,
			 size_t len, struct xchacha_msg *m)
{
	uint8_t n12[RFC7539_NONCE], subkey[RFC7539_KEY];
	void (*hchacha)(uint8_t *, const struct chacha20_key *, const uint8_t *,
			unsigned int);
	int err;

	memset(n12, 0, 4);
	memcpy(n12 + 4, nonce + HCHACHA20_NONCE_SIZE, 8);
	m->stream = rfc7539_begin(tfm, n12, len, m->iv);
	hchacha = m->stream.drv->u.skcipher->hchacha;
	if (hchacha) /* the child's vector core */
		hchacha(subkey, tfm->ctx, nonce, 20);
	else
		hchacha20(subkey, tfm->ctx, nonce);
	m->stream.ctx = &m->sub;
	err = m->stream.drv->u.skcipher->setkey(&m->stream, subkey, sizeof(subkey));
	wipe(subkey, sizeof(subkey));
	return err;
}

static int xchacha_encrypt(const struct crypto_tfm *tfm, const uint8_t *nonce,
			   const uint8_t *aad, size_t aadlen, uint8_t *dst,
			   const uint8_t *src, size_t len, uint8_t *tag)
{
	struct xchacha_msg m;
	int err = xchacha_begin(tfm, nonce, len, &m);

	if (!err)
		err = aead_seal(&rfc7539_framing, &m.stream, tfm->drv->children[1],
				NULL, m.iv, aad, aadlen, dst, src, len, tag);
	wipe(&m.sub, sizeof(m.sub));
	return err;
}

static int xchacha_decrypt(const struct crypto_tfm *tfm, const uint8_t *nonce,
			   const uint8_t *aad, size_t aadlen, uint8_t *dst,
			   const uint8_t *src, size_t len, const uint8_t *tag)
{
	struct xchacha_msg m;
	int err = xchacha_begin(tfm, nonce, len, &m);

	if (!err)
		err = aead_open(&rfc7539_framing, &m.stream, tfm->drv->children[1],
				NULL, m.iv, aad, aadlen, dst, src, len, tag);
	else if (len)
		memset(dst, 0, len);
	wipe(&m.sub, sizeof(m.sub));
	return err;
}

int rfc7539_fits(unsigned int slot, const struct crypto_driver *d)
{
	if (slot == 0) {
		const struct skcipher_alg *a = d->u.skcipher;

		/* a stream cipher with chacha20's key and IV */
		return d->type == CRYPTO_TYPE_SKCIPHER && a &&
		       !strcmp(d->alg_name, "chacha20") && a->blocksize == 1 &&
		       a->min_len == 0 && a->ivsize == RFC7539_IV &&
		       a->keysizes[0] == RFC7539_KEY && !a->keysizes[1];
	}
	if (slot == 1) /* a one-time MAC keyed from block 0 */
		return tmpl_keyed_hash_fits(d, "poly1305", RFC7539_KEY, AEAD_TAG_SIZE,
					    AEAD_MAX_MAC_STATE);
	return 0;
}

int rfc7539_alg_name(char *out, size_t len, const struct crypto_driver *const *children)
{
	int n = snprintf(out, len, "rfc7539(%s,%s)", children[0]->alg_name,
			 children[1]->alg_name);

	return n < 0 || (size_t)n >= len ? -EINVAL : 0;
}

int rfc7539_template_init(struct aead_alg *alg,
			  const struct crypto_driver *const *children)
{
	alg->keysizes[0] = RFC7539_KEY;
	alg->noncesize = RFC7539_NONCE;
	alg->tagsize = AEAD_TAG_SIZE;
	alg->ctxsize = children[0]->u.skcipher->ctxsize;
	alg->setkey = rfc7539_setkey;
	alg->encrypt = rfc7539_encrypt;
	alg->decrypt = rfc7539_decrypt;
	return 0;
}

/* the stream child's context must be a ChaCha20 key, which HChaCha20 reads */
int xchacha_fits(unsigned int slot, const struct crypto_driver *d)
{
	return rfc7539_fits(slot, d) &&
	       (slot || d->u.skcipher->ctxsize == sizeof(struct chacha20_key));
}

int xchacha_alg_name(char *out, size_t len, const struct crypto_driver *const *children)
{
	(void)children;
	return snprintf(out, len, "xchacha20poly1305") >= (int)len ? -EINVAL : 0;
}

int xchacha_template_init(struct aead_alg *alg,
			  const struct crypto_driver *const *children)
{
	int err = rfc7539_template_init(alg, children);

	alg->noncesize = XCHACHA_NONCE;
	alg->encrypt = xchacha_encrypt;
	alg->decrypt = xchacha_decrypt;
	return err;
}
