/* SPDX-License-Identifier: MIT */
#include "crypto/hex.h"

#include <string.h>

static int hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long hex_decode_str(const char *hex, uint8_t *out, size_t max, size_t *bad)
{
	size_t n = strlen(hex);

	if (n % 2 || n / 2 > max) {
		if (bad)
			*bad = n;
		return -1;
	}
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hex_nibble(hex[2 * i]), lo = hex_nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			if (bad)
				*bad = hi < 0 ? 2 * i : 2 * i + 1;
			return -1;
		}
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}

void hex_encode(char *out, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}
