/* SPDX-License-Identifier: MIT */
/*
 * see base64.h. The inputs are ciphertext, salts and nonces, never
 * secrets, so table lookups are fine here.
 */
#include "volume/base64.h"

#include <errno.h>

static const char alphabet_url[64] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
static const char alphabet_std[64] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static const char *alphabet(enum base64_variant v)
{
	return v == BASE64_URL_NOPAD ? alphabet_url : alphabet_std;
}

/* value of c in the alphabet, or -1 */
static int sextet(enum base64_variant v, char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (v == BASE64_URL_NOPAD) {
		if (c == '-')
			return 62;
		if (c == '_')
			return 63;
	} else {
		if (c == '+')
			return 62;
		if (c == '/')
			return 63;
	}
	return -1;
}

size_t base64_encoded_len(enum base64_variant v, size_t n)
{
	if (v == BASE64_STD_PAD)
		return (n + 2) / 3 * 4;
	return n / 3 * 4 + (n % 3 ? n % 3 + 1 : 0);
}

size_t base64_decoded_max(size_t n)
{
	return n / 4 * 3 + 3;
}

size_t base64_encode(enum base64_variant v, char *dst, size_t dstlen,
		     const uint8_t *src, size_t n)
{
	const char *a = alphabet(v);
	size_t need = base64_encoded_len(v, n), o = 0, i = 0;

	if (dstlen <= need)
		return (size_t)-1;
	for (; i + 3 <= n; i += 3) {
		uint32_t w = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 |
			     src[i + 2];

		dst[o++] = a[w >> 18];
		dst[o++] = a[(w >> 12) & 63];
		dst[o++] = a[(w >> 6) & 63];
		dst[o++] = a[w & 63];
	}
	if (n - i == 1) {
		dst[o++] = a[src[i] >> 2];
		dst[o++] = a[(src[i] & 3) << 4];
		if (v == BASE64_STD_PAD) {
			dst[o++] = '=';
			dst[o++] = '=';
		}
	} else if (n - i == 2) {
		uint32_t w = (uint32_t)src[i] << 8 | src[i + 1];

		dst[o++] = a[w >> 10];
		dst[o++] = a[(w >> 4) & 63];
		dst[o++] = a[(w & 15) << 2];
		if (v == BASE64_STD_PAD)
			dst[o++] = '=';
	}
	dst[o] = '\0';
	return o;
}

int base64_decode(enum base64_variant v, uint8_t *dst, size_t dstmax,
		  const char *src, size_t srclen, size_t *outlen)
{
	size_t pad = 0, full, rest, o = 0;
	uint32_t w = 0;

	if (v == BASE64_STD_PAD) {
		if (srclen % 4)
			return -EINVAL;
		if (srclen && src[srclen - 1] == '=')
			pad++;
		if (srclen > 1 && src[srclen - 2] == '=')
			pad++;
		srclen -= pad;
	}
	rest = srclen % 4;
	if (rest == 1)
		return -EINVAL;
	if (v == BASE64_STD_PAD && pad && rest != 4 - pad)
		return -EINVAL;
	full = srclen - rest;
	if (full / 4 * 3 + (rest ? rest - 1 : 0) > dstmax)
		return -ENOSPC;
	for (size_t i = 0; i < srclen; i++) {
		int s = sextet(v, src[i]);

		if (s < 0)
			return -EINVAL;
		w = w << 6 | (uint32_t)s;
		if (i % 4 == 3) {
			dst[o++] = (uint8_t)(w >> 16);
			dst[o++] = (uint8_t)(w >> 8);
			dst[o++] = (uint8_t)w;
			w = 0;
		}
	}
	/* 2 chars = 1 byte + 4 zero bits, 3 chars = 2 bytes + 2 zero bits */
	if (rest == 2) {
		if (w & 15)
			return -EINVAL;
		dst[o++] = (uint8_t)(w >> 4);
	} else if (rest == 3) {
		if (w & 3)
			return -EINVAL;
		dst[o++] = (uint8_t)(w >> 10);
		dst[o++] = (uint8_t)(w >> 2);
	}
	*outlen = o;
	return 0;
}
