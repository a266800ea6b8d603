/* SPDX-License-Identifier: MIT */
/* Hex encoding and decoding shared by the self-tests, the tools and the volume code. */
#ifndef CLOAKFS_CRYPTO_HEX_H
#define CLOAKFS_CRYPTO_HEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode a NUL-terminated hex string (either case) into out. Returns the
 * byte count, or -1 for an odd length, a non-hex character or more than
 * max bytes; *bad (if not NULL) gets the offending character's index.
 * Not constant-time: do not feed it secrets whose length must not leak.
 */
long hex_decode_str(const char *hex, uint8_t *out, size_t max, size_t *bad);

/* n bytes as 2n lower-case hex digits and a NUL into out */
void hex_encode(char *out, const uint8_t *p, size_t n);

#endif
