/* SPDX-License-Identifier: MIT */
/* OpenSSL's AES-GCM (see oracle_openssl_gcm.h) */
#include <openssl/evp.h>

#include "oracle_openssl_gcm.h"

int oracle_openssl_aes_gcm(const uint8_t *key, size_t klen, const uint8_t iv[12],
			   const uint8_t *a, size_t alen, const uint8_t *p,
			   size_t plen, uint8_t *c, uint8_t tag[16])
{
	const EVP_CIPHER *cipher = klen == 16 ? EVP_aes_128_gcm() :
				   klen == 24 ? EVP_aes_192_gcm() :
				   klen == 32 ? EVP_aes_256_gcm() : NULL;
	EVP_CIPHER_CTX *x;
	int n = 0, ok;

	if (!cipher)
		return -1;
	x = EVP_CIPHER_CTX_new();
	/* 12 bytes is OpenSSL's default GCM IV length */
	ok = x && EVP_EncryptInit_ex(x, cipher, NULL, key, iv) == 1 &&
	     (alen == 0 || EVP_EncryptUpdate(x, NULL, &n, a, (int)alen) == 1) &&
	     (plen == 0 || EVP_EncryptUpdate(x, c, &n, p, (int)plen) == 1) &&
	     EVP_EncryptFinal_ex(x, c + plen, &n) == 1 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
	EVP_CIPHER_CTX_free(x);
	return ok ? 0 : -1;
}
