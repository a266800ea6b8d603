/* SPDX-License-Identifier: MIT */
/*
 * HKDF with HMAC-SHA-512 (RFC 5869), on top of the public crypto API
 * (crypto_alloc("hmac(sha512)", NULL, ...)): the volume key hierarchy of
 * docs/format.md (section 3, "Keys") is built with these two calls.
 */
#ifndef CLOAKFS_CRYPTO_KDF_HKDF_H
#define CLOAKFS_CRYPTO_KDF_HKDF_H

#include <stddef.h>
#include <stdint.h>

#define HKDF_SHA512_PRK_SIZE 64
#define HKDF_SHA512_MAX_OUT (255 * 64)

/*
 * prk = HMAC-SHA-512(salt, ikm). An empty salt (saltlen 0, salt may be
 * NULL) means 64 zero bytes, as RFC 5869 section 2.2 says. Returns 0 or
 * -errno from the crypto layer (prk is then zeroed).
 */
int hkdf_sha512_extract(const uint8_t *salt, size_t saltlen, const uint8_t *ikm,
			size_t ikmlen, uint8_t prk[HKDF_SHA512_PRK_SIZE]);

/*
 * out = the first outlen bytes of T(1) | T(2) | ..., T(i) =
 * HMAC-SHA-512(prk, T(i-1) | info | i). outlen 0 writes nothing;
 * outlen > 255 * 64 gives -EINVAL. Returns 0 or -errno (out is then
 * zeroed). out may be prk.
 */
int hkdf_sha512_expand(const uint8_t prk[HKDF_SHA512_PRK_SIZE],
		       const uint8_t *info, size_t infolen, uint8_t *out,
		       size_t outlen);

#endif
