/* SPDX-License-Identifier: MIT */
/*
 * ChaCha with a round count (20 or 12) and XChaCha, as skcipher
 * algorithms of their own: "chacha12", "xchacha12", "xchacha20" (the
 * Linux kernel's names and IV formats; XChaCha12 is the stream cipher of
 * Adiantum). The generic entry points here are also what a SIMD glue
 * falls back to for tails and short messages; a SIMD driver registers
 * under the same algorithm names with an skcipher_alg built by
 * CHACHA12_SKCIPHER_ALG / XCHACHA_SKCIPHER_ALG over its own
 * chacha_crypt_fn (which may call chacha_crypt_generic for what its
 * core does not take).
 *
 * IVs (what the "iv" argument of encrypt/decrypt is):
 *  - chacha12: 16 bytes, as chacha20's (chacha20.h): le32 block counter,
 *    then the 12 bytes of state words 13-15. The original ChaCha's
 *    64-bit counter and 8-byte nonce are le64(counter) || nonce.
 *  - xchacha12, xchacha20: 32 bytes = the 24-byte nonce, then the stream
 *    position, le64 in 64-byte blocks. The subkey is HChaCha<r>(key,
 *    nonce[0..16]); the ChaCha<r> state's words 12-15 are then
 *    position || nonce[16..24] (draft-irtf-cfrg-xchacha-03 with the
 *    64-bit counter of the original ChaCha, as the kernel's xchacha and
 *    Adiantum have it).
 * The block counter advances one step per 64-byte block started and is
 * written back into the IV. chacha12, as chacha20: iv[0..4], modulo 2^32
 * without carrying into the next word (the kernel's behaviour). XChaCha:
 * all 64 bits of the position, iv[24..32], carried across 2^32 blocks as
 * the Adiantum reference and libsodium count (a low word wrapping alone
 * would go back to keystream already used): xchacha_skcipher_crypt cuts
 * a message where the low word wraps, so a chacha_crypt_fn never carries.
 */
#ifndef CLOAKFS_CRYPTO_CHACHA_H
#define CLOAKFS_CRYPTO_CHACHA_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/chacha20poly1305/chacha20.h"

#define CHACHA12_ALG_NAME "chacha12"
#define XCHACHA12_ALG_NAME "xchacha12"
#define XCHACHA20_ALG_NAME "xchacha20"

#define CHACHA_IV_SIZE CHACHA20_IV_SIZE /* 16 */
#define XCHACHA_NONCE_SIZE 24
#define XCHACHA_IV_SIZE 32

/*
 * dst = src ^ the keystream of ChaCha with nrounds rounds (12 or 20; any
 * other count aborts as misuse), from state's block counter on; state[12]
 * advances by one per block started, modulo 2^32. dst == src is allowed.
 * Constant time. chacha20_crypt(state, ...) is nrounds 20.
 */
void chacha_crypt_generic(uint32_t state[CHACHA20_STATE_WORDS], uint8_t *dst,
			  const uint8_t *src, size_t len, unsigned int nrounds);

/* the shape of a driver's crypt: chacha_crypt_generic's */
typedef void chacha_crypt_fn(uint32_t state[CHACHA20_STATE_WORDS],
			     uint8_t *dst, const uint8_t *src, size_t len,
			     unsigned int nrounds);

/* HChaCha with nrounds rounds (hchacha20() is nrounds 20): see chacha20.h */
void hchacha_generic(uint8_t out[CHACHA20_KEY_SIZE],
		     const struct chacha20_key *key,
		     const uint8_t nonce[HCHACHA20_NONCE_SIZE],
		     unsigned int nrounds);

/* the shape of a driver's HChaCha: hchacha_generic's */
typedef void hchacha_fn(uint8_t out[CHACHA20_KEY_SIZE],
			const struct chacha20_key *key,
			const uint8_t nonce[HCHACHA20_NONCE_SIZE],
			unsigned int nrounds);

/*
 * The ChaCha<nrounds> state of XChaCha<nrounds> for key and a 32-byte
 * XChaCha IV (above): subkey from hchacha, then position and nonce tail.
 * The caller wipes state.
 */
void xchacha_init_state(uint32_t state[CHACHA20_STATE_WORDS],
			const struct chacha20_key *key,
			const uint8_t iv[XCHACHA_IV_SIZE], unsigned int nrounds,
			hchacha_fn *hchacha);

struct crypto_tfm;

/*
 * The skcipher encrypt (= decrypt) of a ChaCha / XChaCha driver over
 * crypt, nrounds rounds: the state from tfm->ctx (a struct chacha20_key)
 * and iv, crypt, the counter written back, the state wiped. Returns 0.
 * A glue's entry point is one line calling this.
 */
int chacha_skcipher_crypt(chacha_crypt_fn *crypt, unsigned int nrounds,
			  const struct crypto_tfm *tfm, uint8_t *iv,
			  uint8_t *dst, const uint8_t *src, size_t len);
int xchacha_skcipher_crypt(chacha_crypt_fn *crypt, unsigned int nrounds,
			   const struct crypto_tfm *tfm, uint8_t *iv,
			   uint8_t *dst, const uint8_t *src, size_t len);
/* the same with a driver's HChaCha (xchacha_skcipher_crypt: the generic) */
int xchacha_skcipher_crypt_h(hchacha_fn *hchacha, chacha_crypt_fn *crypt,
			     unsigned int nrounds, const struct crypto_tfm *tfm,
			     uint8_t *iv, uint8_t *dst, const uint8_t *src,
			     size_t len);

/* the skcipher_alg (crypto/internal/alg.h) of a chacha12 / xchacha driver */
#define CHACHA_SKCIPHER_ALG_IV(ivsz, cryptfn) CHACHA_SKCIPHER_ALG_IV_KS0(ivsz, cryptfn, NULL)
#define CHACHA12_SKCIPHER_ALG(cryptfn) CHACHA_SKCIPHER_ALG_IV(CHACHA_IV_SIZE, cryptfn)
#define XCHACHA_SKCIPHER_ALG(cryptfn) CHACHA_SKCIPHER_ALG_IV(XCHACHA_IV_SIZE, cryptfn)

/* "chacha12-generic", "xchacha12-generic", "xchacha20-generic" and their
 * vectors (chacha20poly1305_generic_register calls it) */
int xchacha_generic_register(struct crypto_registry *reg);
/* their vectors (xchacha-testvecs.c): the Adiantum reference's */
int xchacha_register_testvecs(struct crypto_registry *reg);

#endif
