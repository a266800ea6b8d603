/* SPDX-License-Identifier: MIT */
/*
 * The 32-byte header at the start of every non-empty regular file (see
 * docs/format.md, "File header"):
 *
 *   offset size
 *      0    4   magic "CLKF"
 *      4    2   format version, little-endian (1)
 *      6    2   flags, little-endian; bit 0 = padded tiny file
 *      8    4   true length of a padded tiny file (little-endian), else 0
 *     12    4   reserved, zero
 *     16   16   file nonce (random, never all zero)
 */
#ifndef CLOAKFS_VOLUME_CONTENT_HEADER_H
#define CLOAKFS_VOLUME_CONTENT_HEADER_H

#include <stdint.h>

#define HEADER_SIZE 32
#define HEADER_MAGIC "CLKF"
#define HEADER_VERSION 1
#define HEADER_NONCE_SIZE 16
#define HEADER_FLAG_PADDED 0x0001u
#define HEADER_KNOWN_FLAGS HEADER_FLAG_PADDED

struct file_header {
	uint16_t version;
	uint16_t flags;
	uint32_t tiny_len; /* 1..blocksize-1 when padded, else 0 */
	uint8_t nonce[HEADER_NONCE_SIZE];
};

enum header_error {
	HEADER_OK = 0,
	HEADER_BAD_MAGIC,    /* -EBADMSG: not a cloakfs file, or damaged */
	HEADER_BAD_VERSION,  /* -EINVAL: a format this build does not read */
	HEADER_BAD_FLAGS,    /* -EINVAL: flag bits this build does not know */
	HEADER_BAD_RESERVED, /* -EBADMSG: reserved bytes not zero */
	HEADER_ZERO_NONCE,   /* -EBADMSG: nonce all zero (a hole, not a header) */
	HEADER_BAD_LENGTH,   /* -EBADMSG: length field disagrees with flags */
};

/* a fresh version-1 header with a random nonce; 0 or -errno */
int header_new(struct file_header *h);

/* write the 32 bytes; abort()s on a header that would not decode */
void header_encode(const struct file_header *h, uint8_t out[HEADER_SIZE]);

/*
 * Parse and validate. Returns 0, -EBADMSG (damaged) or -EINVAL (valid
 * but unsupported), and *why (may be NULL) says which check failed. The
 * length field is only checked for 1..15 here; content.h checks it
 * against the cipher's block size.
 */
int header_decode(const uint8_t in[HEADER_SIZE], struct file_header *h,
		  enum header_error *why);

/* "bad magic", "unknown format version", ... */
const char *header_strerror(enum header_error why);

#endif
