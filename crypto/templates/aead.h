/* SPDX-License-Identifier: MIT */
/*
 * The AEAD engine the AEAD templates share: encryption and
 * decryption over a stream child (an skcipher driver whose IV carries a
 * block counter it writes back: chacha20; ctr(aes) for GCM) and a MAC
 * child (a keyed hash driver: poly1305; ghash for GCM), in the pattern
 *   keystream block 0 -> MAC key or tag mask;
 *   data ^ keystream from block 1 on;
 *   MAC(aad | pad16 | ciphertext | pad16 | lengths block) -> tag.
 * What the constructions do differently is their struct aead_framing.
 *
 * The stream child gives keystream block 0 with the first data in one
 * call (its crypt_ks0: a vector core computes block 0 in the same pass,
 * and a short message with it in one pass; without the hook, block 0
 * alone first). An encryption then alternates stream and MAC over
 * AEAD_PIECE pieces, so that the MAC reads the ciphertext from L1
 * (measured against the fused x86 ChaCha20-Poly1305 driver the rfc7539
 * template replaced: docs/crypto.md).
 * A decryption computes the tag over the ciphertext and compares it in
 * constant time; on a mismatch dst is zeroed and -EBADMSG returned, so
 * no plaintext of a forged message is given back. Into a dst apart from
 * src it runs as an encryption does (block 0 with the first piece, then
 * MAC and stream alternating, each piece MACed before it is decrypted):
 * one pass, the plaintext in dst before the check, as the fused drivers
 * have it. In place, the first AEAD_OPEN_FIRST bytes of plaintext wait
 * on the stack (the ciphertext is still to be MACed) and the rest is
 * decrypted after the check.
 * The templates over it: rfc7539.c (ChaCha20-Poly1305, XChaCha20-Poly1305)
 * and gcm.c (gcm(aes)); docs/crypto.md says how each fits.
 */
#ifndef CLOAKFS_CRYPTO_TEMPLATES_AEAD_H
#define CLOAKFS_CRYPTO_TEMPLATES_AEAD_H

#include <errno.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/internal/core.h"
#include "crypto/internal/ct.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"

#define AEAD_TAG_SIZE 16
/* the block both constructions pad the AAD and the ciphertext to */
#define AEAD_MAC_BLOCK 16
/* the largest MAC state the engine keeps on its stack (a multiple of 64) */
#define AEAD_MAX_MAC_STATE 512
/* the largest keystream block 0 (chacha20's) */
#define AEAD_MAX_KS0 64

struct aead_framing {
	/* bytes of keystream block 0: 64 (chacha20), 16 (GCM's E_K(J0)) */
	size_t ks0len;
	/*
	 * Start the MAC state mst (of driver mac) for one message: RFC 8439
	 * keys it with the first 32 bytes of ks0; GCM copies the GHASH
	 * state keyed once per key, mac_ctx (the template's context). 0 or
	 * -errno.
	 */
	int (*mac_key)(const struct hash_alg *mac, const void *mac_ctx,
		       void *mst, const uint8_t *ks0);
	/* the last MAC block: le64 byte lengths (RFC 8439), be64 bit lengths (GCM) */
	void (*lengths)(uint8_t out[AEAD_MAC_BLOCK], size_t aadlen, size_t len);
	/* the tag from the MAC's output: itself (RFC 8439), ^ E_K(J0) (GCM) */
	void (*tag)(uint8_t *tag, const uint8_t *mac_out, const uint8_t *ks0);
};

/* a decryption's plaintext computed before the tag check */
#define AEAD_OPEN_FIRST 1024
/* encryption piece: a multiple of the keystream blocks and MAC blocks */
#define AEAD_PIECE 4096

/* an instance's stream child (children[0]) run on its context, whose
 * start is the child's */
static inline struct crypto_tfm aead_stream_tfm(const struct crypto_tfm *tfm)
{
	const struct crypto_driver *s = tfm->drv->children[0];

	return (struct crypto_tfm){
		.drv = s,
		.ctx = tfm->ctx,
		.ctxsize = s->u.skcipher->ctxsize,
		.keyed = 1,
	};
}

/*
 * Programmer misuse: a message longer than the construction's limit
 * (max_blocks keystream blocks of block bytes; a longer one would reuse
 * keystream when the counter wraps) aborts with the limit's name.
 * Written on the index of the last block so that it is no always-false
 * comparison where size_t is 32 bits.
 */
static inline void aead_check_len(const struct crypto_tfm *tfm, size_t len,
				  size_t block, size_t max_blocks, const char *limit)
{
	if (len && (len - 1) / block >= max_blocks) {
		fprintf(stderr, "%s: message of %zu bytes exceeds the %s limit\n",
			tfm->drv->alg_name, len, limit);
		abort();
	}
}

/*
 * For decryptions into dst in the pass that computes the tag (fused
 * drivers, aead_open into a dst apart from src): 0 when expected equals
 * tag (compared in constant time), else -EBADMSG with dst's len bytes
 * zeroed; expected is wiped either way.
 */
static inline int aead_check_tag(uint8_t *expected, const uint8_t *tag,
				 uint8_t *dst, size_t len)
{
	/* the outcome is public; only its computation must be constant time */
	uint32_t ok = ct_declassify32(ct_memeq(expected, tag, AEAD_TAG_SIZE));

	wipe(expected, AEAD_TAG_SIZE);
	if (!ok && len) /* dst may be NULL when len is 0 */
		memset(dst, 0, len);
	return ok ? 0 : -EBADMSG;
}

/* the zeros that pad n bytes of MAC input to a whole block */
static inline void aead_mac_pad(const struct hash_alg *mac, void *mst, size_t n)
{
	static const uint8_t zero[AEAD_MAC_BLOCK];

	if (n % AEAD_MAC_BLOCK)
		mac->update(mst, zero, (0 - n) % AEAD_MAC_BLOCK);
}

/* ks0 = keystream block 0, dst = src ^ the keystream after it */
static inline int aead_ks0_crypt(const struct crypto_tfm *stream, size_t ks0len,
				 uint8_t *iv, uint8_t *ks0, uint8_t *dst,
				 const uint8_t *src, size_t len)
{
	const struct skcipher_alg *sc = stream->drv->u.skcipher;
	int err;

	if (sc->crypt_ks0)
		return sc->crypt_ks0(stream, iv, ks0, dst, src, len);
	memset(ks0, 0, ks0len);
	err = sc->encrypt(stream, iv, ks0, ks0, ks0len);
	return err || !len ? err : sc->encrypt(stream, iv, dst, src, len);
}

/*
 * Keystream block 0 into ks0 and the first *done bytes of the message
 * (a piece of an encryption, into dst; up to AEAD_OPEN_FIRST bytes of a
 * decryption, into buf until the tag is checked), in one call of the
 * stream child.
 */
static inline int aead_first(const struct crypto_tfm *stream, size_t ks0len,
			     int enc, uint8_t *iv, uint8_t *ks0, uint8_t *buf,
			     uint8_t *dst,
			     const uint8_t *src, size_t len, size_t *done)
{
	/*
	 * A decryption without crypt_ks0 gains nothing from data in the
	 * call that gives block 0 (two calls either way): it takes none, and
	 * all of its plaintext goes straight to dst after the check, not
	 * through the stack (GCM: 4 KiB decryptions ~7% faster on Zen 4).
	 */
	size_t max = enc			       ? AEAD_PIECE :
		     stream->drv->u.skcipher->crypt_ks0 ? AEAD_OPEN_FIRST :
							  0;

	*done = len < max ? len : max;
	return aead_ks0_crypt(stream, ks0len, iv, ks0, enc ? dst : buf, src, *done);
}

/* mac (state mst) over aad and its padding, keyed as the framing says */
static inline int aead_mac_start(const struct aead_framing *f,
				 const struct hash_alg *mac, const void *mac_ctx,
				 void *mst, const uint8_t *ks0,
				 const uint8_t *aad, size_t aadlen)
{
	int err = f->mac_key(mac, mac_ctx, mst, ks0);

	if (err)
		return err;
	if (aadlen) {
		mac->update(mst, aad, aadlen);
		aead_mac_pad(mac, mst, aadlen);
	}
	return 0;
}

/* the ciphertext's padding, the lengths block, the tag */
static inline void aead_mac_finish(const struct aead_framing *f,
				   const struct hash_alg *mac, void *mst,
				   const uint8_t *ks0, size_t aadlen, size_t len,
				   uint8_t tag[AEAD_TAG_SIZE])
{
	uint8_t lengths[AEAD_MAC_BLOCK], out[AEAD_TAG_SIZE];

	aead_mac_pad(mac, mst, len);
	f->lengths(lengths, aadlen, len);
	mac->update(mst, lengths, sizeof(lengths));
	mac->final(mst, out);
	f->tag(tag, out, ks0);
	wipe(out, sizeof(out));
}

/*
 * One message: stream is the stream child keyed (its context), iv its IV
 * at block 0 (advanced), macdrv the MAC child, mac_ctx what mac_key
 * reads (NULL when it reads nothing). Callers check the construction's
 * length limit first. aead_seal: 0, or the child's -errno (then dst is
 * zeroed); aead_open the same, then the tag compared: -EBADMSG (dst
 * zeroed) on a mismatch.
 *
 * The engine is instantiated in each construction's file (static
 * inline): its framing, a constant there, folds into direct calls and
 * constant sizes. As separate functions over a framing pointer, the
 * layers cost ~70 cycles a message on Zen 4, 10% of a 64-byte message
 * (docs/crypto.md).
 */

/* one pass over a message whose MAC input (src when decrypting, dst
 * when encrypting) is not overwritten by the stream: the MAC's tag into
 * tag; 0, or the child's -errno with dst zeroed */
static inline int aead_pass(const struct aead_framing *f,
			    const struct crypto_tfm *stream,
			    const struct crypto_driver *macdrv,
			    const void *mac_ctx, uint8_t *iv,
			    const uint8_t *aad, size_t aadlen, uint8_t *dst,
			    const uint8_t *src, size_t len, int enc,
			    uint8_t tag[AEAD_TAG_SIZE])
{
	const struct skcipher_alg *sc = stream->drv->u.skcipher;
	const struct hash_alg *mac = macdrv->u.hash;
	const uint8_t *macin = enc ? dst : src;
	alignas(CRYPTO_CTX_ALIGN) uint8_t mst[AEAD_MAX_MAC_STATE];
	uint8_t ks0[AEAD_MAX_KS0];
	size_t done;
	int err;

	err = aead_first(stream, f->ks0len, 1, iv, ks0, NULL, dst, src, len, &done);
	if (!err)
		err = aead_mac_start(f, mac, mac_ctx, mst, ks0, aad, aadlen);
	if (!err)
		mac->update(mst, macin, done);
	while (!err && done < len) {
		size_t n = len - done < AEAD_PIECE ? len - done : AEAD_PIECE;

		err = sc->encrypt(stream, iv, dst + done, src + done, n);
		if (!err)
			mac->update(mst, macin + done, n);
		done += n;
	}
	if (!err)
		aead_mac_finish(f, mac, mst, ks0, aadlen, len, tag);
	else if (len) /* no ciphertext without its tag, no plaintext */
		memset(dst, 0, len);
	wipe(ks0, sizeof(ks0));
	wipe_blocks(mst, mac->statesize);
	return err;
}

static inline int aead_seal(const struct aead_framing *f,
			    const struct crypto_tfm *stream,
			    const struct crypto_driver *macdrv,
			    const void *mac_ctx, uint8_t *iv,
			    const uint8_t *aad, size_t aadlen, uint8_t *dst,
			    const uint8_t *src, size_t len, uint8_t *tag)
{
	return aead_pass(f, stream, macdrv, mac_ctx, iv, aad, aadlen, dst, src,
			 len, 1, tag);
}

/* dst and src share no byte (a decryption can then run in one pass) */
static inline int aead_apart(const uint8_t *dst, const uint8_t *src, size_t len)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

	return d >= s ? d - s >= len : s - d >= len;
}

static inline int aead_open(const struct aead_framing *f,
			    const struct crypto_tfm *stream,
			    const struct crypto_driver *macdrv,
			    const void *mac_ctx, uint8_t *iv,
			    const uint8_t *aad, size_t aadlen, uint8_t *dst,
			    const uint8_t *src, size_t len, const uint8_t *tag)
{
	const struct skcipher_alg *sc = stream->drv->u.skcipher;
	const struct hash_alg *mac = macdrv->u.hash;
	alignas(CRYPTO_CTX_ALIGN) uint8_t buf[AEAD_OPEN_FIRST];
	alignas(CRYPTO_CTX_ALIGN) uint8_t mst[AEAD_MAX_MAC_STATE];
	uint8_t ks0[AEAD_MAX_KS0], expected[AEAD_TAG_SIZE];
	uint32_t ok = 0;
	size_t done;
	int err;

	if (aead_apart(dst, src, len)) {
		err = aead_pass(f, stream, macdrv, mac_ctx, iv, aad, aadlen, dst,
				src, len, 0, expected);
		if (err)
			wipe(expected, sizeof(expected));
		return err ? err : aead_check_tag(expected, tag, dst, len);
	}
	/* in place: the first plaintext waits on the stack, the rest for
	 * the tag */
	err = aead_first(stream, f->ks0len, 0, iv, ks0, buf, NULL, src, len, &done);
	if (!err)
		err = aead_mac_start(f, mac, mac_ctx, mst, ks0, aad, aadlen);
	if (!err) {
		mac->update(mst, src, len);
		aead_mac_finish(f, mac, mst, ks0, aadlen, len, expected);
		ok = ct_declassify32(ct_memeq(expected, tag, AEAD_TAG_SIZE));
	}
	/* the outcome is public; only its computation must be constant time */
	if (!err && ok && len) {
		size_t n = done;

		/*
		 * n opaque to the compiler, which knows done <= 1 KiB and would
		 * inline the copy as REP MOVS (~35 cycles to start): a call
		 */
		__asm__("" : "+r"(n));
		memcpy(dst, buf, n);
		if (done < len)
			err = sc->encrypt(stream, iv, dst + done, src + done, len - done);
	}
	if ((err || !ok) && len) /* dst may be NULL when len is 0 */
		memset(dst, 0, len);
	wipe_blocks(buf, done);
	wipe(ks0, sizeof(ks0));
	wipe(expected, sizeof(expected));
	wipe_blocks(mst, mac->statesize);
	return err ? err : ok ? 0 : -EBADMSG;
}

#endif
