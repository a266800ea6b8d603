/* SPDX-License-Identifier: MIT */
/*
 * The differential-test harness of the block-cipher oracle tests
 * (test_oracle_openssl_aes.c, test_oracle_gcrypt_sm4.c): every driver of
 * <cipher>, ecb(<cipher>), cbc, cfb, ctr, xts and cts(cbc(<cipher>)) this
 * CPU can run, each forced by name, against a reference library's
 * encryption, which the test supplies.
 *
 * Per mode driver and key size: every length 0..1024 valid for the mode
 * (ECB/CBC: the multiples of 16; XTS/CTS: 16..1024, so every stealing
 * tail), then 300 random lengths up to 64 KiB, each with a fresh random
 * key and IV, buffers at random offsets 0..15 (mostly unaligned), in
 * place or out of place at random, guard bytes around the output.
 * Encryption must equal the reference's; decrypting it must give the
 * plaintext back. CBC/CFB/CTR also run in two pieces with the IV carried
 * (XTS: xts_tweak + two xts_crypt calls), which must give the same bytes
 * and the same final IV. CTR IVs are sometimes near a 64- or 128-bit
 * wrap. The single-block drivers get random batches against the
 * reference's ECB, in place and not.
 */
#ifndef CLOAKFS_TESTS_CRYPTO_ORACLE_H
#define CLOAKFS_TESTS_CRYPTO_ORACLE_H

#include <stddef.h>
#include <stdint.h>

/* the modes, in the order they are tested */
enum oracle_mode {
	ORACLE_ECB,
	ORACLE_CBC,
	ORACLE_CFB, /* full-block CFB */
	ORACLE_CTR, /* 128-bit big-endian counter */
	ORACLE_XTS, /* IEEE 1619 with ciphertext stealing */
	ORACLE_CTS, /* CBC-CS3, as the kernel's cts(cbc) */
	ORACLE_NMODES
};

#define ORACLE_MAX_KEYLENS 4

/* a 16-byte block cipher and the reference to test its drivers against */
struct oracle_cipher {
	const char *name;      /* "aes": drivers of "aes", "ecb(aes)", ... */
	const char *reference; /* "OpenSSL": for messages */
	/* key sizes, each list ending at the first 0 (or when full) */
	size_t keylens[ORACLE_MAX_KEYLENS];     /* the cipher, and its modes */
	size_t xts_keylens[ORACLE_MAX_KEYLENS]; /* XTS: both keys together */
	unsigned int batch_below; /* single-block batches: 0..batch_below-1 */
	/*
	 * The reference's encryption of in[0..len) into out under mode
	 * (iv NULL for ORACLE_ECB); 0 or -1.
	 */
	int (*encrypt)(enum oracle_mode mode, const uint8_t *key,
		       size_t keylen, const uint8_t *iv, uint8_t *out,
		       const uint8_t *in, size_t len);
};

/*
 * Seed the test PRNG, initialise crypto/, test every driver of c and
 * return test_finish(test_name)'s exit code.
 */
int oracle_run(const struct oracle_cipher *c, const char *test_name);

#endif
