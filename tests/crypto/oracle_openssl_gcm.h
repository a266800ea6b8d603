/* SPDX-License-Identifier: MIT */
/*
 * OpenSSL 3.0's AES-GCM as a reference (test-only): the GHASH oracle test
 * checks tags against it, the gcm(aes) oracle test whole messages.
 */
#ifndef CLOAKFS_TESTS_CRYPTO_ORACLE_OPENSSL_GCM_H
#define CLOAKFS_TESTS_CRYPTO_ORACLE_OPENSSL_GCM_H

#include <stddef.h>
#include <stdint.h>

/*
 * AES-GCM encryption of p[0..plen) with AAD a[0..alen) under the AES key
 * of klen bytes (16, 24, 32) and the 96-bit iv: c gets plen bytes, tag 16.
 * 0, or -1 when OpenSSL fails or klen is none of the three.
 */
int oracle_openssl_aes_gcm(const uint8_t *key, size_t klen, const uint8_t iv[12],
			   const uint8_t *a, size_t alen, const uint8_t *p,
			   size_t plen, uint8_t *c, uint8_t tag[16]);

#endif
