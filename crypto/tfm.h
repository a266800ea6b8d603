/* SPDX-License-Identifier: MIT */
/*
 * The types of a transform, part of crypto.h's interface (include
 * crypto/crypto.h for the calls). Apart so crypto's internals can name
 * them without including crypto.h, whose code (crypto.c) uses them.
 */
#ifndef CLOAKFS_CRYPTO_TFM_H
#define CLOAKFS_CRYPTO_TFM_H

#include <stddef.h>

struct crypto_driver;

enum crypto_type {
	CRYPTO_TYPE_CIPHER = 1, /* single block: "aes", "speck128" */
	CRYPTO_TYPE_SKCIPHER,   /* modes and stream ciphers */
	CRYPTO_TYPE_HASH,       /* "sha512" and "hmac(sha512)" */
	CRYPTO_TYPE_AEAD,
};

struct crypto_tfm {
	const struct crypto_driver *drv;
	void *ctx;      /* driver context, 64-byte aligned */
	size_t ctxsize;
	int keyed;
};

#endif
