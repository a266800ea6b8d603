/* SPDX-License-Identifier: MIT */
/*
 * The crypto layer's interface for the rest of cloakfs (volume/, fs/,
 * tools/, tests/). Modelled on the Linux kernel crypto API: ask for an
 * algorithm by name ("xts(aes)") and get the best driver the CPU supports,
 * that passed its self-test and that the policy allows; or ask for one
 * driver by its exact name ("xts-aes-generic").
 *
 * Errors are negative errno values: -ENOENT unknown algorithm or driver,
 * -ENODEV driver's CPU feature missing, -EPERM driver disabled or
 * variable-time and not allowed by policy, -ELIBBAD self-test failed,
 * -EINVAL bad key/IV/length, -EBADMSG authentication failure.
 *
 * A transform (struct crypto_tfm) is used by one thread at a time;
 * skcipher and AEAD transforms may be shared read-only after setkey.
 */
#ifndef CLOAKFS_CRYPTO_CRYPTO_H
#define CLOAKFS_CRYPTO_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/tfm.h"

/*
 * Initialise once (idempotent, thread-safe): CPU detection, policy
 * (/etc/cloakfs/crypto.conf, ~/.config/cloakfs/crypto.conf, then
 * $CLOAKFS_CRYPTO), driver registration. Returns 0 or -errno; on a bad
 * policy file, crypto_init_error() holds a message naming file and line.
 */
int crypto_init(void);
const char *crypto_init_error(void);

/*
 * Before crypto_init() only: one more registration function to call after
 * the built-in ones (tests use it to plant a broken driver). 0 or -EBUSY.
 */
struct crypto_registry;
int crypto_add_registrar(int (*fn)(struct crypto_registry *reg));

/*
 * Allocate a transform. driver NULL: best driver for alg. alg NULL with a
 * driver: that driver whatever its algorithm. Returns NULL and sets *err.
 */
struct crypto_tfm *crypto_alloc(const char *alg, const char *driver, int *err);
/* wipes the context */
void crypto_free(struct crypto_tfm *tfm);

const char *crypto_tfm_alg_name(const struct crypto_tfm *tfm);
const char *crypto_tfm_driver_name(const struct crypto_tfm *tfm);
/* which operations the transform takes (another type's abort: misuse) */
enum crypto_type crypto_tfm_type(const struct crypto_tfm *tfm);

int crypto_setkey(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen);

/* properties; 0 where they do not apply */
unsigned int crypto_blocksize(const struct crypto_tfm *tfm);
unsigned int crypto_ivsize(const struct crypto_tfm *tfm);
unsigned int crypto_min_len(const struct crypto_tfm *tfm);
unsigned int crypto_digestsize(const struct crypto_tfm *tfm);
unsigned int crypto_tagsize(const struct crypto_tfm *tfm);
/* the longest key any algorithm takes (nhpoly1305's 1088 bytes) */
#define CRYPTO_MAX_KEYLEN 1088
/* valid key sizes, ascending, 0-terminated (at most 4) */
const uint16_t *crypto_keysizes(const struct crypto_tfm *tfm);

/* skcipher (modes, stream ciphers); iv updated as struct skcipher_alg says */
int crypto_encrypt(struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		   const uint8_t *src, size_t len);
int crypto_decrypt(struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		   const uint8_t *src, size_t len);
/* XTS in pieces: tweak = E(iv), then whole blocks carrying the tweak */
int crypto_xts_tweak(struct crypto_tfm *tfm, const uint8_t *iv, uint8_t *tweak);
int crypto_xts_crypt(struct crypto_tfm *tfm, int enc, uint8_t *tweak,
		     uint8_t *dst, const uint8_t *src, size_t len);

/* single-block cipher ("aes", "speck128"): nblocks independent blocks */
int crypto_cipher_encrypt(struct crypto_tfm *tfm, uint8_t *dst,
			  const uint8_t *src, size_t nblocks);
int crypto_cipher_decrypt(struct crypto_tfm *tfm, uint8_t *dst,
			  const uint8_t *src, size_t nblocks);

/* hash and hmac; hmac needs setkey first */
int crypto_hash_init(struct crypto_tfm *tfm);
int crypto_hash_update(struct crypto_tfm *tfm, const uint8_t *data, size_t len);
int crypto_hash_final(struct crypto_tfm *tfm, uint8_t *out);
int crypto_hash_digest(struct crypto_tfm *tfm, const uint8_t *data, size_t len,
		       uint8_t *out);

/* AEAD: dst gets len bytes, tag tagsize bytes */
int crypto_aead_encrypt(struct crypto_tfm *tfm, const uint8_t *nonce,
			const uint8_t *aad, size_t aadlen, uint8_t *dst,
			const uint8_t *src, size_t len, uint8_t *tag);
int crypto_aead_decrypt(struct crypto_tfm *tfm, const uint8_t *nonce,
			const uint8_t *aad, size_t aadlen, uint8_t *dst,
			const uint8_t *src, size_t len, const uint8_t *tag);

/* ---- listing, for --list and tests -------------------------------- */
struct crypto_driver_info {
	const char *alg_name;
	const char *driver_name;
	int priority;
	int const_time;
	int available;     /* CPU has the features */
	char missing[128];   /* names of missing features ("" if none) */
	int disabled;      /* by policy */
	const char *selftest; /* "passed", "failed", "untested" */
	const char *selftest_reason;
	enum crypto_type type;
	const char *child_driver; /* template instances, else NULL */
};
/* number of drivers; fills *info for index i < count */
unsigned int crypto_driver_count(void);
int crypto_driver_info(unsigned int i, struct crypto_driver_info *info);
/* run the self-test of driver i now (first use does it anyway) */
int crypto_driver_selftest(unsigned int i);
/* the driver crypto_alloc(alg, NULL) would pick, or NULL */
const char *crypto_best_driver(const char *alg);

#include "crypto/kat.h"

/* format one --list line (shared by cloakfs-enc and cloakfs-bench) */
int crypto_format_driver_line(unsigned int i, char *buf, size_t len);

#endif
