/* SPDX-License-Identifier: MIT */
/*
 * Base64 of RFC 4648: base64url without padding (section 5) for encrypted
 * names and long-name hashes, and the standard alphabet with '=' padding
 * (section 4) for the binary fields of cloakfs.conf.
 *
 * Decoding is strict: every character must be in the alphabet, the length
 * must be possible, and unused bits of the last character must be zero, so
 * each byte string has exactly one encoding (two ciphertext names can never
 * decode to the same plaintext name).
 */
#ifndef CLOAKFS_VOLUME_BASE64_H
#define CLOAKFS_VOLUME_BASE64_H

#include <stddef.h>
#include <stdint.h>

enum base64_variant {
	BASE64_URL_NOPAD, /* A-Z a-z 0-9 - _ , no '=' */
	BASE64_STD_PAD,   /* A-Z a-z 0-9 + / , '=' to a multiple of 4 */
};

/* characters for n bytes, without the terminating NUL */
size_t base64_encoded_len(enum base64_variant v, size_t n);
/* upper bound of decoded bytes for n characters */
size_t base64_decoded_max(size_t n);

/*
 * Encode n bytes into dst (dstlen must hold the encoding plus a NUL).
 * Returns the encoded length, or (size_t)-1 if dstlen is too small.
 */
size_t base64_encode(enum base64_variant v, char *dst, size_t dstlen,
		     const uint8_t *src, size_t n);

/*
 * Decode srclen characters (no NUL needed) into dst (at most dstmax
 * bytes). Returns 0 and *outlen, -EINVAL for anything not a canonical
 * encoding, -ENOSPC if dstmax is too small.
 */
int base64_decode(enum base64_variant v, uint8_t *dst, size_t dstmax,
		  const char *src, size_t srclen, size_t *outlen);

/* shorthands for the name codec */
static inline size_t base64url_encode(char *dst, size_t dstlen,
				      const uint8_t *src, size_t n)
{
	return base64_encode(BASE64_URL_NOPAD, dst, dstlen, src, n);
}

static inline int base64url_decode(uint8_t *dst, size_t dstmax, const char *src,
				   size_t srclen, size_t *outlen)
{
	return base64_decode(BASE64_URL_NOPAD, dst, dstmax, src, srclen, outlen);
}

#endif
