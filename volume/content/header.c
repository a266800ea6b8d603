/* SPDX-License-Identifier: MIT */
/* see header.h */
#include "volume/content/header.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "volume/random.h"

/* the largest block size of a v1 cipher: a padded file is shorter */
#define HEADER_MAX_TINY 15

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return get_le16(p) | (uint32_t)get_le16(p + 2) << 16;
}

static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

int header_new(struct file_header *h)
{
	int err;

	memset(h, 0, sizeof(*h));
	h->version = HEADER_VERSION;
	do {
		err = random_bytes(h->nonce, sizeof(h->nonce));
		if (err)
			return err;
	} while (all_zero(h->nonce, sizeof(h->nonce))); /* 2^-128 */
	return 0;
}

static enum header_error check(const struct file_header *h)
{
	if (h->version != HEADER_VERSION)
		return HEADER_BAD_VERSION;
	if (h->flags & ~HEADER_KNOWN_FLAGS)
		return HEADER_BAD_FLAGS;
	if (h->flags & HEADER_FLAG_PADDED) {
		if (h->tiny_len < 1 || h->tiny_len > HEADER_MAX_TINY)
			return HEADER_BAD_LENGTH;
	} else if (h->tiny_len != 0) {
		return HEADER_BAD_LENGTH;
	}
	if (all_zero(h->nonce, sizeof(h->nonce)))
		return HEADER_ZERO_NONCE;
	return HEADER_OK;
}

void header_encode(const struct file_header *h, uint8_t out[HEADER_SIZE])
{
	enum header_error why = check(h);

	if (why != HEADER_OK) {
		fprintf(stderr, "cloakfs: header_encode: %s\n",
			header_strerror(why));
		abort();
	}
	memcpy(out, HEADER_MAGIC, 4);
	put_le16(out + 4, h->version);
	put_le16(out + 6, h->flags);
	put_le32(out + 8, h->tiny_len);
	memset(out + 12, 0, 4);
	memcpy(out + 16, h->nonce, HEADER_NONCE_SIZE);
}

static int fail(enum header_error *why, enum header_error e)
{
	if (why)
		*why = e;
	return (e == HEADER_BAD_VERSION || e == HEADER_BAD_FLAGS) ? -EINVAL
								  : -EBADMSG;
}

int header_decode(const uint8_t in[HEADER_SIZE], struct file_header *h,
		  enum header_error *why)
{
	enum header_error e;

	if (memcmp(in, HEADER_MAGIC, 4) != 0)
		return fail(why, HEADER_BAD_MAGIC);
	h->version = get_le16(in + 4);
	h->flags = get_le16(in + 6);
	h->tiny_len = get_le32(in + 8);
	memcpy(h->nonce, in + 16, HEADER_NONCE_SIZE);
	/* version first: a later version may redefine everything after it */
	if (h->version != HEADER_VERSION)
		return fail(why, HEADER_BAD_VERSION);
	if (!all_zero(in + 12, 4))
		return fail(why, HEADER_BAD_RESERVED);
	e = check(h);
	if (e != HEADER_OK)
		return fail(why, e);
	if (why)
		*why = HEADER_OK;
	return 0;
}

const char *header_strerror(enum header_error why)
{
	switch (why) {
	case HEADER_OK:
		return "ok";
	case HEADER_BAD_MAGIC:
		return "bad magic (not a cloakfs file header)";
	case HEADER_BAD_VERSION:
		return "unknown file format version";
	case HEADER_BAD_FLAGS:
		return "unknown header flags";
	case HEADER_BAD_RESERVED:
		return "reserved header bytes not zero";
	case HEADER_ZERO_NONCE:
		return "file nonce is all zero";
	case HEADER_BAD_LENGTH:
		return "tiny-file length disagrees with header flags";
	}
	return "unknown header error";
}
