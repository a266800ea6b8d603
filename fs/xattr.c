/* SPDX-License-Identifier: MIT */
/* see xattr.h */
#include "fs/xattr.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "fs/fs.h"
#include "volume/names.h"
#include "volume/random.h"

#define XATTR_PREFIX_LEN (sizeof(XATTR_USER_PREFIX) - 1)
#define XATTR_MAX_KEY 64

int xattr_is_user(const char *name)
{
	return strncmp(name, XATTR_USER_PREFIX, XATTR_PREFIX_LEN) == 0 &&
	       name[XATTR_PREFIX_LEN] != '\0';
}

/* the volume's xattr name transform; fs->xattr_lock held */
static int names_tfm(struct cloakfs *fs, const struct volume_keys *keys)
{
	const struct volume_cipher_info *ci = fs->cipher;
	uint8_t key[XATTR_MAX_KEY];
	struct crypto_tfm *tfm;
	int err;

	if (fs->xattr_names)
		return 0;
	tfm = crypto_alloc(ci->cts_alg, NULL, &err);
	if (!tfm)
		return err;
	err = keys_derive(keys, "xattr-names", NULL, 0, key, ci->name_keysize);
	if (!err)
		err = crypto_setkey(tfm, key, ci->name_keysize);
	explicit_bzero(key, sizeof(key));
	if (err) {
		crypto_free(tfm);
		return err;
	}
	fs->xattr_names = tfm;
	return 0;
}

int xattr_name_encrypt(struct cloakfs *fs, const struct volume_keys *keys,
		       const char *name, char out[256])
{
	const char *rest = name + XATTR_PREFIX_LEN;
	size_t len;
	int n;

	if (!xattr_is_user(name))
		return -EOPNOTSUPP;
	len = strlen(rest);
	if (len > XATTR_MAX_NAME)
		return -ERANGE;
	memcpy(out, XATTR_USER_PREFIX, XATTR_PREFIX_LEN);
	pthread_mutex_lock(&fs->xattr_lock);
	n = names_tfm(fs, keys);
	if (!n)
		n = names_symlink_encrypt(fs->xattr_names, rest, len,
					  out + XATTR_PREFIX_LEN,
					  256 - XATTR_PREFIX_LEN);
	pthread_mutex_unlock(&fs->xattr_lock);
	return n < 0 ? n : 0;
}

int xattr_name_decrypt(struct cloakfs *fs, const struct volume_keys *keys,
		       const char *stored, char out[256])
{
	char plain[NAMES_MAX_SYMLINK_PLAIN + 1];
	const char *enc = stored + XATTR_PREFIX_LEN;
	int n;

	if (!xattr_is_user(stored))
		return -EBADMSG;
	pthread_mutex_lock(&fs->xattr_lock);
	n = names_tfm(fs, keys);
	if (!n)
		n = names_symlink_decrypt(fs->xattr_names, enc, strlen(enc),
					  plain, sizeof(plain));
	pthread_mutex_unlock(&fs->xattr_lock);
	if (n < 0)
		return n;
	if ((size_t)n > XATTR_MAX_NAME)
		return -EBADMSG;
	memcpy(out, XATTR_USER_PREFIX, XATTR_PREFIX_LEN);
	memcpy(out + XATTR_PREFIX_LEN, plain, (size_t)n + 1);
	return (int)XATTR_PREFIX_LEN + n;
}

static unsigned int block_of(const struct volume_keys *keys)
{
	return volume_cipher_info(keys_cipher(keys))->blocksize;
}

size_t xattr_sealed_size(const struct volume_keys *keys, size_t len)
{
	size_t body = 4 + len;

	if (body < block_of(keys))
		body = block_of(keys);
	return XATTR_NONCE_SIZE + body;
}

/* the XTS transform of one value, keyed from its nonce */
static struct crypto_tfm *value_tfm(const struct volume_keys *keys,
				    const uint8_t nonce[XATTR_NONCE_SIZE],
				    int *err)
{
	const struct volume_cipher_info *ci = volume_cipher_info(keys_cipher(keys));
	uint8_t key[XATTR_MAX_KEY];
	struct crypto_tfm *tfm = crypto_alloc(ci->xts_alg, NULL, err);

	if (!tfm)
		return NULL;
	*err = keys_derive(keys, "xattr", nonce, XATTR_NONCE_SIZE, key,
			   ci->xts_keysize);
	if (!*err)
		*err = crypto_setkey(tfm, key, ci->xts_keysize);
	explicit_bzero(key, sizeof(key));
	if (*err) {
		crypto_free(tfm);
		return NULL;
	}
	return tfm;
}

int xattr_seal(const struct volume_keys *keys, const void *value, size_t len,
	       uint8_t *out)
{
	size_t total = xattr_sealed_size(keys, len);
	uint8_t *body = out + XATTR_NONCE_SIZE, iv[16] = { 0 };
	struct crypto_tfm *tfm;
	int err;

	if (len > UINT32_MAX)
		return -E2BIG;
	err = volume_random(out, XATTR_NONCE_SIZE);
	if (err)
		return err;
	memset(body, 0, total - XATTR_NONCE_SIZE);
	body[0] = (uint8_t)len;
	body[1] = (uint8_t)(len >> 8);
	body[2] = (uint8_t)(len >> 16);
	body[3] = (uint8_t)(len >> 24);
	memcpy(body + 4, value, len);
	tfm = value_tfm(keys, out, &err);
	if (!tfm)
		return err;
	err = crypto_encrypt(tfm, iv, body, body, total - XATTR_NONCE_SIZE);
	crypto_free(tfm);
	return err;
}

int xattr_open(const struct volume_keys *keys, uint8_t *sealed, size_t slen,
	       const uint8_t **value, size_t *len)
{
	size_t bs = block_of(keys), blen, vlen;
	uint8_t *body = sealed + XATTR_NONCE_SIZE, iv[16] = { 0 };
	struct crypto_tfm *tfm;
	int err;

	if (slen < XATTR_NONCE_SIZE + bs)
		return -EBADMSG;
	blen = slen - XATTR_NONCE_SIZE;
	tfm = value_tfm(keys, sealed, &err);
	if (!tfm)
		return err;
	err = crypto_decrypt(tfm, iv, body, body, blen);
	crypto_free(tfm);
	if (err)
		return err;
	vlen = (size_t)body[0] | (size_t)body[1] << 8 | (size_t)body[2] << 16 |
	       (size_t)body[3] << 24;
	if (vlen > blen - 4)
		return -EBADMSG;
	if (4 + vlen < bs) {
		/* padded: exactly one block, padding zero */
		if (blen != bs)
			return -EBADMSG;
		for (size_t i = 4 + vlen; i < blen; i++)
			if (body[i])
				return -EBADMSG;
	} else if (4 + vlen != blen) {
		return -EBADMSG;
	}
	*value = body + 4;
	*len = vlen;
	return 0;
}
