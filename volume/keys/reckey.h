/* SPDX-License-Identifier: MIT */
/*
 * The text of a recovery key (docs/format.md 8.3): a 16-byte random
 * secret that a user writes down. Encoded as 8 groups of 5 characters,
 * "7K2QH-M0XJ4-...": 20 bytes (the secret and 4 check bytes over it) in
 * Crockford's base32, 4 characters per group, each group followed by a
 * check character that catches every single wrong character and every
 * swap of two neighbours in it, and a group typed at the wrong place.
 * The recovery key opens the volume's recovery slot (volume/keys/volrec.h)
 * through reckey_kek; it never is the master key itself.
 */
#ifndef CLOAKFS_VOLUME_KEYS_RECKEY_H
#define CLOAKFS_VOLUME_KEYS_RECKEY_H

#include <stddef.h>
#include <stdint.h>

#define RECKEY_SECRET_SIZE 16
#define RECKEY_KEK_SIZE 32
#define RECKEY_GROUPS 8
#define RECKEY_GROUP_LEN 5                                  /* 4 + check */
#define RECKEY_TEXT_LEN (RECKEY_GROUPS * (RECKEY_GROUP_LEN + 1) - 1) /* 47 */

/* the text of secret, groups joined by '-': 0 or -errno (hashing) */
int reckey_encode(const uint8_t secret[RECKEY_SECRET_SIZE],
		  char out[RECKEY_TEXT_LEN + 1]);

/*
 * The secret of a typed key. Case, spaces, '-' and line breaks do not
 * matter; O reads as 0, I and L as 1 (Crockford). Returns 0, or
 * -EINVAL (a character that is no base32, or not 40 characters) or
 * -EILSEQ (a check failed: a typo) with err naming the group ("group 3
 * (\"M0XJ5\") has a typo"); err may be NULL.
 */
int reckey_decode(const char *text, size_t len,
		  uint8_t secret[RECKEY_SECRET_SIZE], char *err, size_t errlen);

/*
 * 1 when text holds at least a whole key's letters and digits (what
 * reckey_decode ignores is not counted), else 0: a key read line by line
 * is complete (cli/passphrase.h, passphrase_get_lines).
 */
int reckey_complete(const char *text, size_t len);

/*
 * The key that seals the master key in the recovery slot:
 * HKDF-SHA-512 (salt "cloakfs recovery", IKM secret, info
 * "recovery-kek" || 0x00), 32 bytes. No password hashing: the secret is
 * 128 random bits.
 */
int reckey_kek(const uint8_t secret[RECKEY_SECRET_SIZE],
	       uint8_t kek[RECKEY_KEK_SIZE]);

#endif
