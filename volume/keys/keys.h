/* SPDX-License-Identifier: MIT */
/*
 * The key hierarchy (docs/format.md section 3, "Keys"):
 *
 *   PRK = HKDF-Extract(SHA-512, salt = "cloakfs v1", IKM = VMK)
 *   subkey = HKDF-Expand(PRK, label || 0x00 || context, length)
 *     "contents" || file nonce (16)      -> XTS key of the volume cipher
 *     "names"    || directory nonce (16) -> key of the names mode
 *     "key-id"   (no context)            -> 16-byte key identifier
 *
 * A struct volume_keys holds the PRK (never the VMK) in secmem.h memory
 * and the volume's names mode (cts until keys_set_names_mode); it is
 * read-only once set up, so threads may share it.
 */
#ifndef CLOAKFS_VOLUME_KEYS_KEYS_H
#define CLOAKFS_VOLUME_KEYS_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/crypto.h"
#include "volume/cipher.h"

#define KEYS_VMK_SIZE 64
#define KEYS_KEY_ID_SIZE 16
#define KEYS_NONCE_SIZE 16
#define KEYS_HKDF_SALT "cloakfs v1"

struct volume_keys;

/* derive the PRK from the VMK; 0 or -errno (-ENOMEM, crypto errors) */
int keys_new(const uint8_t vmk[KEYS_VMK_SIZE], enum volume_cipher cipher,
	     struct volume_keys **out);
/* wipe and free; NULL is a no-op */
void keys_free(struct volume_keys *k);

enum volume_cipher keys_cipher(const struct volume_keys *k);

/* the names mode the names, xattr-name and symlink transforms use (the
 * config's "names"): set before sharing the keys; -EINVAL if it does
 * not fit the cipher (volume/names/namemode.h) */
int keys_set_names_mode(struct volume_keys *k, enum volume_names_mode m);
enum volume_names_mode keys_names_mode(const struct volume_keys *k);
/* that mode's algorithm ("hctr2(aes)") and key size */
const char *keys_names_alg(const struct volume_keys *k);
unsigned int keys_names_keysize(const struct volume_keys *k);

/* HKDF-Expand(PRK, label || 0 || ctx, outlen); label at most 32 chars */
int keys_derive(const struct volume_keys *k, const char *label,
		const uint8_t *ctx, size_t ctxlen, uint8_t *out, size_t outlen);

/* the 16-byte key identifier ("key-id") */
int keys_key_id(const struct volume_keys *k, uint8_t id[KEYS_KEY_ID_SIZE]);

/*
 * Key a ready transform of the volume cipher's XTS algorithm
 * (volume_cipher_info()->xts_alg) for the file with this nonce, so the
 * filesystem derives once per open inode and reuses the tfm.
 */
int keys_set_contents_key(const struct volume_keys *k,
			  const uint8_t file_nonce[KEYS_NONCE_SIZE],
			  struct crypto_tfm *xts);
/* allocate that transform and key it; NULL and *err on failure */
struct crypto_tfm *keys_contents_tfm(const struct volume_keys *k,
				     const uint8_t file_nonce[KEYS_NONCE_SIZE],
				     int *err);

/* the same for a directory's name transform (keys_names_alg) */
int keys_set_names_key(const struct volume_keys *k,
		       const uint8_t dir_nonce[KEYS_NONCE_SIZE],
		       struct crypto_tfm *cts);
struct crypto_tfm *keys_names_tfm(const struct volume_keys *k,
				  const uint8_t dir_nonce[KEYS_NONCE_SIZE],
				  int *err);

#endif
