/* SPDX-License-Identifier: MIT */
/*
 * Units of wide-block volumes (docs/format.md 6.3; their geometry is
 * content_geom_wide of content.h): the units of content.h for a 16-byte
 * block (padded tiny files, tails of 1..15 bytes joined to the sector
 * before them, all-zero ciphertext = hole), each encrypted as one
 * message of the file's wide-block transform (adiantum(xchacha12,aes),
 * keyed by keys.h for the file) with the 32-byte tweak
 *
 *   offset  size  what
 *   0       16    file nonce (header bytes 16..31)
 *   16      8     le64(i), the unit's index
 *   24      8     zero
 *
 * Changing any bit of a unit's plaintext changes the whole unit's
 * ciphertext unpredictably (XTS: one 16-byte block); the same plaintext
 * in two files or at two indexes differs.
 * Nothing is stored beyond the data: a unit is as long as under XTS.
 */
#ifndef CLOAKFS_VOLUME_CONTENT_WIDE_H
#define CLOAKFS_VOLUME_CONTENT_WIDE_H

#include <stdint.h>

#include "crypto/crypto.h"
#include "volume/content/content.h"
#include "volume/content/header.h"

#define WIDE_TWEAK_SIZE CONTENT_WIDE_TWEAK

/* the tweak of unit index of the file with this nonce (see above) */
void wide_unit_tweak(uint8_t tweak[WIDE_TWEAK_SIZE],
		     const uint8_t file_nonce[HEADER_NONCE_SIZE], uint64_t index);

/*
 * content_encrypt_units / content_decrypt_units (content.h: the same
 * buffers, holes, padding and errors) for a wide-block file with this
 * nonce; -EINVAL also when g is not a wide geometry or tfm's IV is not
 * WIDE_TWEAK_SIZE bytes.
 */
int wide_encrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
		       const uint8_t file_nonce[HEADER_NONCE_SIZE],
		       uint64_t plain, uint64_t first, uint64_t n,
		       uint8_t *dst, const uint8_t *src);
int wide_decrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
		       const uint8_t file_nonce[HEADER_NONCE_SIZE],
		       uint64_t plain, uint64_t first, uint64_t n,
		       uint8_t *dst, const uint8_t *src);

#endif
