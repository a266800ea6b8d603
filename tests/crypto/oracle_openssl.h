/* SPDX-License-Identifier: MIT */
/*
 * OpenSSL 3.0 libcrypto as the reference of the block-cipher oracle tests
 * (oracle.h): "<FAMILY>-<bits>-<mode>" through EVP, for the families OpenSSL
 * has every mode of (AES) and the ones it lacks XTS for (Camellia), which
 * get XTS composed over OpenSSL's ECB here.
 */
#ifndef CLOAKFS_TESTS_CRYPTO_ORACLE_OPENSSL_H
#define CLOAKFS_TESTS_CRYPTO_ORACLE_OPENSSL_H

#include <stddef.h>
#include <stdint.h>

#include "oracle.h"

/*
 * OpenSSL's encryption of in[0..len) into out under family ("AES",
 * "CAMELLIA") and mode (iv NULL for ORACLE_ECB); 0 or -1. ORACLE_XTS with
 * compose_xts set is IEEE 1619 XTS with ciphertext stealing computed here
 * from OpenSSL's ECB (K1 || K2, T = E_K2(iv), T times x per block).
 */
int oracle_openssl_encrypt(const char *family, int compose_xts,
			   enum oracle_mode mode, const uint8_t *key,
			   size_t keylen, const uint8_t *iv, uint8_t *out,
			   const uint8_t *in, size_t len);

#endif
