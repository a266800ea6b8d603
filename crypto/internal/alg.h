/* SPDX-License-Identifier: MIT */
/*
 * Algorithm operation tables: what a driver implements.
 *
 * A driver (see registry.h) points at one of these tables. Block ciphers
 * (struct cipher_alg) are the children the mode templates in
 * crypto/templates/ are built from; SIMD cores plug into a template through
 * struct crypto_bulk_ops and handle whole chunks only.
 *
 * Rules for every function here:
 *  - dst == src (in place) is allowed; partial overlap is not.
 *  - buffers may be unaligned.
 *  - ctx is 64-byte aligned and ctxsize bytes long; it is wiped by the
 *    caller when the transform is freed.
 */
#ifndef CLOAKFS_CRYPTO_INTERNAL_ALG_H
#define CLOAKFS_CRYPTO_INTERNAL_ALG_H

#include <stddef.h>
#include <stdint.h>

struct chacha20_key;

#define CRYPTO_MAX_KEYSIZES 4
/* the longest key of any algorithm (nhpoly1305); crypto.h says it as CRYPTO_MAX_KEYLEN */
#define ALG_MAX_KEYLEN 1088
#define CRYPTO_MAX_BLOCKSIZE 16

/* A single-block cipher: the child of the mode templates. */
struct cipher_alg {
	unsigned int blocksize; /* 8 (Speck64) or 16 */
	/* valid key lengths in bytes, ascending, 0-terminated */
	uint16_t keysizes[CRYPTO_MAX_KEYSIZES];
	size_t ctxsize;
	/* 0, or -EINVAL for a key length not in keysizes */
	int (*setkey)(void *ctx, const uint8_t *key, size_t keylen);
	void (*encrypt)(const void *ctx, uint8_t *dst, const uint8_t *src);
	void (*decrypt)(const void *ctx, uint8_t *dst, const uint8_t *src);
	/*
	 * Optional: nblocks independent blocks (ECB). Bitsliced ciphers are
	 * only fast here, so the templates batch blocks through these when
	 * set; NULL means a loop over encrypt/decrypt.
	 */
	void (*encrypt_blocks)(const void *ctx, uint8_t *dst, const uint8_t *src,
			       size_t nblocks);
	void (*decrypt_blocks)(const void *ctx, uint8_t *dst, const uint8_t *src,
			       size_t nblocks);
};

/*
 * SIMD bulk hooks for a template instance. Each hook gets the child
 * cipher's context (for XTS: the data-key context; the tweak key is used
 * only by the C glue) and nbytes, a nonzero multiple of chunk. Chaining
 * state (XTS tweak already encrypted, CBC IV, CTR counter) is updated in
 * place so the C code continues exactly where the core stopped. Any hook
 * may be NULL: the template then uses the C path for that mode.
 */
struct crypto_bulk_ops {
	size_t chunk;     /* 128, 256 or 512 bytes */
	size_t min_bytes; /* requests shorter than this stay in C */
	void (*xts_encrypt)(const void *cctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes, uint8_t *tweak);
	void (*xts_decrypt)(const void *cctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes, uint8_t *tweak);
	void (*ecb_encrypt)(const void *cctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes);
	void (*ecb_decrypt)(const void *cctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes);
	void (*cbc_decrypt)(const void *cctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes, uint8_t *iv);
	void (*cfb_decrypt)(const void *cctx, uint8_t *dst, const uint8_t *src,
			    size_t nbytes, uint8_t *iv);
	/* big-endian 128-bit counter (64-bit for 8-byte blocks) */
	void (*ctr_crypt)(const void *cctx, uint8_t *dst, const uint8_t *src,
			  size_t nbytes, uint8_t *ctr);
};

struct crypto_tfm;

/*
 * Length-preserving symmetric cipher with an IV: the modes, and stream
 * ciphers such as chacha20. iv is ivsize bytes and is updated to the
 * chaining value for CBC/CFB/CTR/chacha20 (so a long message can be
 * processed in pieces); XTS leaves it unchanged (use xts_tweak/xts_crypt
 * for pieces). Returns 0 or -EINVAL (bad length).
 */
struct skcipher_alg {
	unsigned int blocksize; /* 1 for stream modes (ctr, cfb, chacha20) */
	unsigned int ivsize;
	unsigned int min_len;   /* XTS: one block */
	uint16_t keysizes[CRYPTO_MAX_KEYSIZES];
	size_t ctxsize;
	int (*setkey)(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen);
	int (*encrypt)(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len);
	int (*decrypt)(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		       const uint8_t *src, size_t len);
	/*
	 * XTS only (NULL elsewhere): tweak = E_K2(iv); then whole blocks with
	 * that running tweak, updated. encrypt() is tweak + crypt + stealing.
	 */
	void (*xts_tweak)(const struct crypto_tfm *tfm, const uint8_t *iv,
			  uint8_t *tweak);
	void (*xts_crypt)(const struct crypto_tfm *tfm, int enc, uint8_t *tweak,
			  uint8_t *dst, const uint8_t *src, size_t len);
	/*
	 * Optional, stream ciphers (chacha20): ks0 = the keystream block at
	 * the IV's counter (64 bytes for chacha20), then dst = src ^ the
	 * keystream from the next block on, the IV advanced past both. The
	 * AEAD templates take a one-time key (RFC 8439) or a tag mask (GCM's
	 * E(J0)) from that first block; a core may compute it inside the
	 * pass over the first data. NULL: the template encrypts a zero block
	 * first, then the data.
	 */
	int (*crypt_ks0)(const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *ks0,
			 uint8_t *dst, const uint8_t *src, size_t len);
	/*
	 * Optional, chacha20 drivers: HChaCha of nrounds rounds on the key
	 * (ctx, a struct chacha20_key) and a 16-byte nonce, by the driver's
	 * core (chacha.h's hchacha_fn): the subkey of the xchacha20poly1305
	 * template. NULL: the template's generic C.
	 */
	void (*hchacha)(uint8_t out[32], const struct chacha20_key *key,
			const uint8_t nonce[16], unsigned int nrounds);
};

/*
 * Hash on an explicit state: unkeyed (sha512; HMAC is a template over
 * it) or keyed (ghash, polyval: setkey set, the state holds the key and
 * init starts a new message under it; the registry then builds no HMAC).
 */
struct hash_alg {
	unsigned int digestsize;
	unsigned int blocksize;
	size_t statesize;
	/* keyed hashes: valid key lengths, 0-terminated; empty when unkeyed */
	uint16_t keysizes[CRYPTO_MAX_KEYSIZES];
	/* keyed hashes: key the state and start a message; 0 or -EINVAL */
	int (*setkey)(void *state, const uint8_t *key, size_t keylen);
	void (*init)(void *state);
	void (*update)(void *state, const uint8_t *data, size_t len);
	void (*final)(void *state, uint8_t *out); /* wipes the state */
};

/*
 * Authenticated encryption with associated data (RFC 8439). Given the
 * transform, as skcipher_alg, so that a template instance reaches its
 * children (tfm->drv->children).
 */
struct aead_alg {
	/* valid key lengths in bytes, ascending, 0-terminated */
	uint16_t keysizes[CRYPTO_MAX_KEYSIZES];
	unsigned int noncesize;
	unsigned int tagsize;
	size_t ctxsize;
	int (*setkey)(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen);
	/* 0, or a child's -errno (dst then zeroed) */
	int (*encrypt)(const struct crypto_tfm *tfm, const uint8_t *nonce,
		       const uint8_t *aad, size_t aadlen, uint8_t *dst,
		       const uint8_t *src, size_t len, uint8_t *tag);
	/* -EBADMSG on a bad tag; dst is then wiped (never released unverified) */
	int (*decrypt)(const struct crypto_tfm *tfm, const uint8_t *nonce,
		       const uint8_t *aad, size_t aadlen, uint8_t *dst,
		       const uint8_t *src, size_t len, const uint8_t *tag);
};

#endif
