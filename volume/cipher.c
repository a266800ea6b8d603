/* SPDX-License-Identifier: MIT */
/* see cipher.h */
#include "volume/cipher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Speck128/256 and Speck64/128, as the kernel's xts(speck*) used them;
 * Camellia with 256-bit keys; Adiantum with XChaCha12 as the kernel's
 * fscrypt uses it (docs/format.md section 3)
 */
static const struct volume_cipher_info ciphers[VOLUME_CIPHER_COUNT] = {
	[VOLUME_CIPHER_SPECK128_XTS] = {
		.name = "speck128-xts", .xts_alg = "xts(speck128)",
		.cts_alg = "cts(cbc(speck128))", .blocksize = 16,
		.xts_keysize = 64, .name_keysize = 32,
	},
	[VOLUME_CIPHER_SPECK64_XTS] = {
		.name = "speck64-xts", .xts_alg = "xts(speck64)",
		.cts_alg = "cts(cbc(speck64))", .blocksize = 8,
		.xts_keysize = 32, .name_keysize = 16,
	},
	[VOLUME_CIPHER_AES256_XTS] = {
		.name = "aes256-xts", .xts_alg = "xts(aes)",
		.cts_alg = "cts(cbc(aes))", .hctr2_alg = "hctr2(aes)",
		.blocksize = 16,
		.xts_keysize = 64, .name_keysize = 32,
	},
	[VOLUME_CIPHER_SM4_XTS] = {
		.name = "sm4-xts", .xts_alg = "xts(sm4)",
		.cts_alg = "cts(cbc(sm4))", .hctr2_alg = "hctr2(sm4)",
		.blocksize = 16,
		.xts_keysize = 32, .name_keysize = 16,
	},
	[VOLUME_CIPHER_CAMELLIA256_XTS] = {
		.name = "camellia256-xts", .xts_alg = "xts(camellia)",
		.cts_alg = "cts(cbc(camellia))", .hctr2_alg = "hctr2(camellia)",
		.blocksize = 16,
		.xts_keysize = 64, .name_keysize = 32,
	},
	[VOLUME_CIPHER_AES256_GCM] = {
		.name = "aes256-gcm", .xts_alg = "xts(aes)",
		.cts_alg = "cts(cbc(aes))", .hctr2_alg = "hctr2(aes)",
		.blocksize = 16,
		.xts_keysize = 64, .name_keysize = 32,
		.aead_alg = "gcm(aes)", .aead_keysize = 32,
		.names_default = VOLUME_NAMES_HCTR2,
	},
	[VOLUME_CIPHER_XCHACHA20_POLY1305] = {
		.name = "xchacha20-poly1305", .xts_alg = "xts(aes)",
		.cts_alg = "cts(cbc(aes))", .hctr2_alg = "hctr2(aes)",
		.blocksize = 16,
		.xts_keysize = 64, .name_keysize = 32,
		.aead_alg = "xchacha20poly1305", .aead_keysize = 32,
		.names_default = VOLUME_NAMES_ADIANTUM,
	},
	[VOLUME_CIPHER_ADIANTUM] = {
		.name = "adiantum", .xts_alg = "xts(aes)",
		.cts_alg = "cts(cbc(aes))", .hctr2_alg = "hctr2(aes)",
		.blocksize = 16,
		.xts_keysize = 64, .name_keysize = 32,
		.wide_alg = "adiantum(xchacha12,aes)", .wide_keysize = 32,
		.names_default = VOLUME_NAMES_ADIANTUM,
	},
};

const char *volume_cipher_contents_alg(const struct volume_cipher_info *ci)
{
	return ci->aead_alg ? ci->aead_alg
	       : ci->wide_alg ? ci->wide_alg : ci->xts_alg;
}

unsigned int volume_cipher_contents_keysize(const struct volume_cipher_info *ci)
{
	return ci->aead_alg ? ci->aead_keysize
	       : ci->wide_alg ? ci->wide_keysize : ci->xts_keysize;
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
	       "aes256-gcm, xchacha20-poly1305, adiantum";
}
