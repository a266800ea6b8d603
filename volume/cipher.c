/* SPDX-License-Identifier: MIT */
/* see cipher.h */
#include "volume/cipher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Speck128/256 and Speck64/128, as the kernel's xts(speck*) used them;
 * Camellia with 256-bit keys (docs/format.md section 3)
 */
static const struct volume_cipher_info ciphers[VOLUME_CIPHER_COUNT] = {
	[VOLUME_CIPHER_SPECK128_XTS] = { "speck128-xts", "xts(speck128)",
					 "cts(cbc(speck128))", 16, 64, 32 },
	[VOLUME_CIPHER_SPECK64_XTS] = { "speck64-xts", "xts(speck64)",
					"cts(cbc(speck64))", 8, 32, 16 },
	[VOLUME_CIPHER_AES256_XTS] = { "aes256-xts", "xts(aes)",
				       "cts(cbc(aes))", 16, 64, 32 },
	[VOLUME_CIPHER_SM4_XTS] = { "sm4-xts", "xts(sm4)", "cts(cbc(sm4))",
				    16, 32, 16 },
	[VOLUME_CIPHER_CAMELLIA256_XTS] = { "camellia256-xts", "xts(camellia)",
					    "cts(cbc(camellia))", 16, 64, 32 },
	[VOLUME_CIPHER_AES256_GCM] = { "aes256-gcm", "xts(aes)",
				       "cts(cbc(aes))", 16, 64, 32,
				       "gcm(aes)", 32 },
	[VOLUME_CIPHER_XCHACHA20_POLY1305] = { "xchacha20-poly1305", "xts(aes)",
					       "cts(cbc(aes))", 16, 64, 32,
					       "xchacha20poly1305", 32 },
};

const char *volume_cipher_contents_alg(const struct volume_cipher_info *ci)
{
	return ci->aead_alg ? ci->aead_alg : ci->xts_alg;
}

unsigned int volume_cipher_contents_keysize(const struct volume_cipher_info *ci)
{
	return ci->aead_alg ? ci->aead_keysize : ci->xts_keysize;
}

const struct volume_cipher_info *volume_cipher_info(enum volume_cipher c)
{
	if ((unsigned int)c >= VOLUME_CIPHER_COUNT) {
		fprintf(stderr, "cloakfs: volume_cipher_info: bad cipher %d\n",
			(int)c);
		abort();
	}
	return &ciphers[c];
}

int cipher_by_name(const char *name, enum volume_cipher *c)
{
	for (unsigned int i = 0; i < VOLUME_CIPHER_COUNT; i++) {
		if (strcmp(name, ciphers[i].name) == 0) {
			*c = (enum volume_cipher)i;
			return 0;
		}
	}
	return -ENOENT;
}

const char *volume_cipher_list(void)
{
	return "speck128-xts, speck64-xts, aes256-xts, sm4-xts, camellia256-xts, "
	       "aes256-gcm, xchacha20-poly1305";
}
