/* SPDX-License-Identifier: MIT */
/*
 * Units of authenticated volumes (docs/format.md 6.2): each unit of
 * content.h is sealed on its own with the file's AEAD transform
 * (gcm(aes) or xchacha20poly1305, keyed by keys.h for the file):
 *
 *   offset      size  what
 *   0           16    nonce field: gcm: 12 random bytes, then 4 zero;
 *                     xchacha: 16 random bytes (nonce = them || le64(i))
 *   16          len   ciphertext of the unit's len data bytes
 *   16 + len    16    tag
 *
 *   AAD = file nonce (header bytes 16..31) || le64(i) || last
 * with last = 1 for the file's last unit, else 0. A fresh random nonce
 * at every seal, so the same data written twice differs. Any change to
 * a unit's bytes, a unit from another file or index, a cut at a unit
 * boundary (the new last unit lacks the flag) or a unit appended (the
 * old last has it) fails the tag: -EBADMSG, never plaintext.
 */
#ifndef CLOAKFS_VOLUME_CONTENT_SEALED_H
#define CLOAKFS_VOLUME_CONTENT_SEALED_H

#include <stdint.h>

#include "crypto/crypto.h"
#include "volume/content/content.h"

#define SEALED_NONCE_FIELD 16u
#define SEALED_TAG 16u
#define SEALED_AAD_SIZE 25u

/*
 * Seal units [first, first + n) of a file of plaintext size plain and
 * this file nonce: src holds their data packed (content_units_plain
 * bytes), dst gets the sealed units packed (content_units_len bytes).
 * src and dst are the same buffer (dst large enough for the units) or
 * do not overlap. 0, or -errno of the crypto layer or of random_bytes.
 */
int sealed_encrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			 const uint8_t file_nonce[HEADER_NONCE_SIZE],
			 uint64_t plain, uint64_t first, uint64_t n,
			 uint8_t *dst, const uint8_t *src);

/*
 * Open them: src the sealed units packed, dst their data packed (the
 * same buffer or not overlapping). -EBADMSG for a unit that does not
 * verify, with *bad its index (bad may be NULL); its plaintext is not
 * given (zeros), nor any unit after it.
 */
int sealed_decrypt_units(struct crypto_tfm *tfm, const struct content_geom *g,
			 const uint8_t file_nonce[HEADER_NONCE_SIZE],
			 uint64_t plain, uint64_t first, uint64_t n,
			 uint8_t *dst, const uint8_t *src, uint64_t *bad);

#endif
