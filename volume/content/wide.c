/* SPDX-License-Identifier: MIT */
/* see wide.h */
#include "volume/content/wide.h"

#include <errno.h>
#include <string.h>

void wide_unit_tweak(uint8_t tweak[WIDE_TWEAK_SIZE],
		     const uint8_t file_nonce[HEADER_NONCE_SIZE], uint64_t index)
{
	memset(tweak, 0, WIDE_TWEAK_SIZE);
	memcpy(tweak, file_nonce, HEADER_NONCE_SIZE);
	for (unsigned int i = 0; i < 8; i++)
		tweak[HEADER_NONCE_SIZE + i] = (uint8_t)(index >> (8 * i));
}

static void tweak_of(uint8_t *iv, uint64_t index, const void *arg)
{
	wide_unit_tweak(iv, arg, index);
}

static int crypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
		       const uint8_t file_nonce[HEADER_NONCE_SIZE], int enc,
		       uint64_t plain, uint64_t first, uint64_t n, uint8_t *dst,
		       const uint8_t *src)
{
	const struct content_iv iv = { WIDE_TWEAK_SIZE, tweak_of, file_nonce };

	if (g->wide_tweak != WIDE_TWEAK_SIZE || g->blocksize != 16 || g->overhead)
		return -EINVAL;
	return content_crypt_units_iv(tfm, g, &iv, enc, plain, first, n, dst,
				      src);
}

int wide_encrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
		       const uint8_t file_nonce[HEADER_NONCE_SIZE],
		       uint64_t plain, uint64_t first, uint64_t n,
		       uint8_t *dst, const uint8_t *src)
{
	return crypt_units(tfm, g, file_nonce, 1, plain, first, n, dst, src);
}

int wide_decrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
		       const uint8_t file_nonce[HEADER_NONCE_SIZE],
		       uint64_t plain, uint64_t first, uint64_t n,
		       uint8_t *dst, const uint8_t *src)
{
	return crypt_units(tfm, g, file_nonce, 0, plain, first, n, dst, src);
}
