/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 (RFC 8439) core, shared by the "chacha20" skcipher driver, the
 * rfc7539(chacha20,poly1305) AEAD and, later, SIMD glue (which can take
 * whole blocks through chacha20_crypt's state and leave the tail to it).
 *
 * The state is the RFC's 16-word matrix: constants | key | counter |
 * nonce. The IV of the "chacha20" driver is the Linux kernel's 16 bytes:
 * the initial block counter (32-bit little-endian), then the 12-byte
 * nonce. The driver writes the advanced counter back into the IV, one
 * step per 64-byte block started: a message split into pieces gives the
 * one-call result only if every piece but the last is a multiple of 64
 * bytes (the rest of a partly used block is discarded).
 */
#ifndef CLOAKFS_CRYPTO_CHACHA20_H
#define CLOAKFS_CRYPTO_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/internal/registry.h"

#define CHACHA20_KEY_SIZE 32
#define CHACHA20_NONCE_SIZE 12
#define CHACHA20_IV_SIZE 16
#define CHACHA20_BLOCK_SIZE 64
#define CHACHA20_STATE_WORDS 16

/* the key as eight little-endian words */
struct chacha20_key {
	uint32_t k[8];
};

void chacha20_setkey(struct chacha20_key *key, const uint8_t in[CHACHA20_KEY_SIZE]);

/* state = constants | key | le32(iv[0..3]) | nonce = iv[4..15] */
void chacha20_init_state(uint32_t state[CHACHA20_STATE_WORDS],
			 const struct chacha20_key *key,
			 const uint8_t iv[CHACHA20_IV_SIZE]);

/* the 64-byte keystream block of state; state is not changed */
void chacha20_block(const uint32_t state[CHACHA20_STATE_WORDS],
		    uint8_t out[CHACHA20_BLOCK_SIZE]);

/*
 * HChaCha20 (draft-irtf-cfrg-xchacha-03, section 2.2): the subkey of
 * XChaCha20 from key and the first 16 bytes of its 24-byte nonce, which
 * take the places of the counter and nonce in the state.
 */
#define HCHACHA20_NONCE_SIZE 16
void hchacha20(uint8_t out[CHACHA20_KEY_SIZE], const struct chacha20_key *key,
	       const uint8_t nonce[HCHACHA20_NONCE_SIZE]);

/*
 * dst = src ^ keystream from state's block counter on. The counter
 * (state[12]) advances by one per block started, ceil(len / 64), modulo
 * 2^32 as in the RFC and the kernel. dst == src is allowed.
 */
void chacha20_crypt(uint32_t state[CHACHA20_STATE_WORDS], uint8_t *dst,
		    const uint8_t *src, size_t len);

/* the "chacha20" skcipher setkey of every driver: a 32-byte key into ctx */
struct crypto_tfm;
int chacha20_skcipher_setkey(struct crypto_tfm *tfm, const uint8_t *key,
			     size_t keylen);

/*
 * The skcipher_alg (crypto/internal/alg.h) of a "chacha20" driver whose
 * encryption, the same XOR as its decryption, is cryptfn, and whose
 * crypt_ks0 (keystream block 0 and the data after it, for the AEAD
 * template) is ks0fn or NULL; the rest is shared.
 */
#define CHACHA20_SKCIPHER_ALG(cryptfn) CHACHA20_SKCIPHER_ALG_KS0(cryptfn, NULL)
#define CHACHA20_SKCIPHER_ALG_KS0(cryptfn, ks0fn)                            \
	CHACHA_SKCIPHER_ALG_IV_KS0(CHACHA20_IV_SIZE, cryptfn, ks0fn)
/* the same with hfn, the driver's HChaCha (alg.h's hchacha), or NULL */
#define CHACHA20_SKCIPHER_ALG_KS0_H(cryptfn, ks0fn, hfn)                     \
	CHACHA_SKCIPHER_ALG_IV_KS0_H(CHACHA20_IV_SIZE, cryptfn, ks0fn, hfn)
/* the same for any IV size: also chacha12's and XChaCha's (chacha.h) */
#define CHACHA_SKCIPHER_ALG_IV_KS0(ivsz, cryptfn, ks0fn)                     \
	CHACHA_SKCIPHER_ALG_IV_KS0_H(ivsz, cryptfn, ks0fn, NULL)
#define CHACHA_SKCIPHER_ALG_IV_KS0_H(ivsz, cryptfn, ks0fn, hfn)              \
	{                                                                    \
		.blocksize = 1,                                              \
		.ivsize = (ivsz),                                            \
		.min_len = 0,                                                \
		.keysizes = { CHACHA20_KEY_SIZE, 0 },                        \
		.ctxsize = sizeof(struct chacha20_key),                      \
		.setkey = chacha20_skcipher_setkey,                          \
		.encrypt = cryptfn,                                          \
		.decrypt = cryptfn,                                          \
		.crypt_ks0 = ks0fn,                                          \
		.hchacha = hfn,                                              \
	}

/* the "chacha20-generic" driver and its vectors (chacha20poly1305_generic_register calls it) */
int chacha20_generic_register(struct crypto_registry *reg);

#endif
