/* SPDX-License-Identifier: MIT */
/* see keys.h */
#include "volume/keys/keys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/kdf/hkdf.h"
#include "crypto/secmem.h"
#include "volume/names/namemode.h"

#define KEYS_MAX_LABEL 32
#define KEYS_MAX_SUBKEY 64

struct volume_keys {
	uint8_t prk[HKDF_SHA512_PRK_SIZE];
	enum volume_cipher cipher;
	enum volume_names_mode names;
};

int keys_new(const uint8_t vmk[KEYS_VMK_SIZE], enum volume_cipher cipher,
	     struct volume_keys **out)
{
	struct volume_keys *k;
	int err;

	(void)volume_cipher_info(cipher); /* aborts on a bad value */
	k = secmem_alloc(sizeof(*k));
	if (!k)
		return -ENOMEM;
	err = hkdf_sha512_extract((const uint8_t *)KEYS_HKDF_SALT,
				  strlen(KEYS_HKDF_SALT), vmk, KEYS_VMK_SIZE,
				  k->prk);
	secmem_scrub_stack();
	if (err) {
		secmem_free(k);
		return err;
	}
	k->cipher = cipher;
	k->names = VOLUME_NAMES_CTS;
	*out = k;
	return 0;
}

void keys_free(struct volume_keys *k)
{
	secmem_free(k);
}

enum volume_cipher keys_cipher(const struct volume_keys *k)
{
	return k->cipher;
}

int keys_set_names_mode(struct volume_keys *k, enum volume_names_mode m)
{
	if (!namemode_fits(k->cipher, m))
		return -EINVAL;
	k->names = m;
	return 0;
}

enum volume_names_mode keys_names_mode(const struct volume_keys *k)
{
	return k->names;
}

const char *keys_names_alg(const struct volume_keys *k)
{
	return namemode_alg(k->cipher, k->names);
}

unsigned int keys_names_keysize(const struct volume_keys *k)
{
	return namemode_keysize(k->cipher, k->names);
}

int keys_derive(const struct volume_keys *k, const char *label,
		const uint8_t *ctx, size_t ctxlen, uint8_t *out, size_t outlen)
{
	uint8_t info[KEYS_MAX_LABEL + 1 + KEYS_NONCE_SIZE];
	size_t llen = strlen(label);

	if (llen > KEYS_MAX_LABEL || ctxlen > KEYS_NONCE_SIZE) {
		fprintf(stderr, "cloakfs: keys_derive: label or context too long\n");
		abort();
	}
	memcpy(info, label, llen);
	info[llen] = 0;
	if (ctxlen)
		memcpy(info + llen + 1, ctx, ctxlen);
	return hkdf_sha512_expand(k->prk, info, llen + 1 + ctxlen, out, outlen);
}

int keys_key_id(const struct volume_keys *k, uint8_t id[KEYS_KEY_ID_SIZE])
{
	return keys_derive(k, "key-id", NULL, 0, id, KEYS_KEY_ID_SIZE);
}

/* derive label||nonce at keysize bytes and set it on tfm */
static int set_subkey(const struct volume_keys *k, const char *label,
		      const uint8_t nonce[KEYS_NONCE_SIZE], unsigned int keysize,
		      struct crypto_tfm *tfm)
{
	uint8_t key[KEYS_MAX_SUBKEY];
	int err;

	err = keys_derive(k, label, nonce, KEYS_NONCE_SIZE, key, keysize);
	if (!err)
		err = crypto_setkey(tfm, key, keysize);
	explicit_bzero(key, sizeof(key));
	secmem_scrub_stack();
	return err;
}

int keys_set_contents_key(const struct volume_keys *k,
			  const uint8_t file_nonce[KEYS_NONCE_SIZE],
			  struct crypto_tfm *xts)
{
	const struct volume_cipher_info *ci = volume_cipher_info(k->cipher);

	return set_subkey(k, "contents", file_nonce,
			  volume_cipher_contents_keysize(ci), xts);
}

int keys_set_names_key(const struct volume_keys *k,
		       const uint8_t dir_nonce[KEYS_NONCE_SIZE],
		       struct crypto_tfm *cts)
{
	return set_subkey(k, "names", dir_nonce, keys_names_keysize(k), cts);
}

static struct crypto_tfm *
alloc_keyed(const struct volume_keys *k, const char *alg,
	    int (*set)(const struct volume_keys *, const uint8_t *,
		       struct crypto_tfm *),
	    const uint8_t nonce[KEYS_NONCE_SIZE], int *err)
{
	struct crypto_tfm *tfm = crypto_alloc(alg, NULL, err);

	if (!tfm)
		return NULL;
	*err = set(k, nonce, tfm);
	if (*err) {
		crypto_free(tfm);
		return NULL;
	}
	return tfm;
}

struct crypto_tfm *keys_contents_tfm(const struct volume_keys *k,
				     const uint8_t file_nonce[KEYS_NONCE_SIZE],
				     int *err)
{
	return alloc_keyed(k, volume_cipher_contents_alg(volume_cipher_info(k->cipher)),
			   keys_set_contents_key, file_nonce, err);
}

struct crypto_tfm *keys_names_tfm(const struct volume_keys *k,
				  const uint8_t dir_nonce[KEYS_NONCE_SIZE],
				  int *err)
{
	return alloc_keyed(k, keys_names_alg(k),
			   keys_set_names_key, dir_nonce, err);
}
