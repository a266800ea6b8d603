/* SPDX-License-Identifier: MIT */
/* see xattr.h */
#include "volume/names/xattr.h"

#include <errno.h>
#include <string.h>

#include "crypto/secmem.h"
#include "volume/keys/keyring.h"
#include "volume/names/vname.h"
#include "volume/random.h"

#define XATTR_PREFIX_LEN (sizeof(XATTR_USER_PREFIX) - 1)

int xattr_is_user(const char *name)
{
	return strncmp(name, XATTR_USER_PREFIX, XATTR_PREFIX_LEN) == 0 &&
	       name[XATTR_PREFIX_LEN] != '\0';
}

/*
 * One xattr crypto step in a key section of its own: a name under the
 * volume's xattr-name key (encrypt or decrypt with the symlink codec), or
 * a value body under the key of its nonce. The codec's result, or
 * -errno (-EACCES while locked).
 */
enum xattr_op { NAME_ENCRYPT, NAME_DECRYPT, VALUE_ENCRYPT, VALUE_DECRYPT };

static int xattr_crypt(struct keyring *kr, enum xattr_op op,
		       const uint8_t nonce[XATTR_NONCE_SIZE], const void *in,
		       size_t inlen, void *out, size_t outlen)
{
	int value = op == VALUE_ENCRYPT || op == VALUE_DECRYPT, n;
	uint8_t iv[16] = { 0 };
	struct crypto_tfm *tfm;
	unsigned int slot;

	keyring_enter(kr);
	tfm = keyring_get(kr, value ? VKEY_XATTR_VALUE : VKEY_XATTR_NAMES,
			   nonce, &slot, &n);
	if (tfm) {
		switch (op) {
		case NAME_ENCRYPT:
			n = vname_symlink_encrypt(tfm, in, inlen, out, outlen);
			break;
		case NAME_DECRYPT:
			n = vname_symlink_decrypt(tfm, in, inlen, out, outlen);
			break;
		case VALUE_ENCRYPT:
			n = crypto_encrypt(tfm, iv, out, in, inlen);
			break;
		case VALUE_DECRYPT:
			n = crypto_decrypt(tfm, iv, out, in, inlen);
			break;
		}
		keyring_put(kr, slot);
	}
	keyring_leave(kr);
	secmem_scrub_stack();
	return n;
}

int xattr_name_encrypt(struct keyring *kr, const char *name, char out[256])
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
	n = xattr_crypt(kr, NAME_ENCRYPT, NULL, rest, len, out + XATTR_PREFIX_LEN,
			256 - XATTR_PREFIX_LEN);
	return n < 0 ? n : 0;
}

int xattr_name_decrypt(struct keyring *kr, const char *stored, char out[256])
{
	char plain[VNAME_MAX_SYMLINK_PLAIN + 1];
	const char *enc = stored + XATTR_PREFIX_LEN;
	int n;

	if (!xattr_is_user(stored))
		return -EBADMSG;
	n = xattr_crypt(kr, NAME_DECRYPT, NULL, enc, strlen(enc), plain,
			sizeof(plain));
	if (n < 0) {
		explicit_bzero(plain, sizeof(plain));
		return n;
	}
	if ((size_t)n > XATTR_MAX_NAME)
		return -EBADMSG;
	memcpy(out, XATTR_USER_PREFIX, XATTR_PREFIX_LEN);
	memcpy(out + XATTR_PREFIX_LEN, plain, (size_t)n + 1);
	explicit_bzero(plain, sizeof(plain));
	return (int)XATTR_PREFIX_LEN + n;
}

size_t xattr_sealed_size(size_t blocksize, size_t len)
{
	size_t body = 4 + len;

	if (body < blocksize)
		body = blocksize;
	return XATTR_NONCE_SIZE + body;
}

int xattr_seal(struct keyring *kr, size_t blocksize, const void *value,
	       size_t len, uint8_t *out)
{
	size_t total = xattr_sealed_size(blocksize, len);
	uint8_t *body = out + XATTR_NONCE_SIZE;
	int err;

	if (len > UINT32_MAX)
		return -E2BIG;
	err = random_bytes(out, XATTR_NONCE_SIZE);
	if (err)
		return err;
	memset(body, 0, total - XATTR_NONCE_SIZE);
	body[0] = (uint8_t)len;
	body[1] = (uint8_t)(len >> 8);
	body[2] = (uint8_t)(len >> 16);
	body[3] = (uint8_t)(len >> 24);
	memcpy(body + 4, value, len);
	return xattr_crypt(kr, VALUE_ENCRYPT, out, body, total - XATTR_NONCE_SIZE,
			   body, total - XATTR_NONCE_SIZE);
}

int xattr_open(struct keyring *kr, size_t blocksize, uint8_t *sealed,
	       size_t slen, const uint8_t **value, size_t *len)
{
	size_t bs = blocksize, blen, vlen;
	uint8_t *body = sealed + XATTR_NONCE_SIZE;
	int err;

	if (slen < XATTR_NONCE_SIZE + bs)
		return -EBADMSG;
	blen = slen - XATTR_NONCE_SIZE;
	err = xattr_crypt(kr, VALUE_DECRYPT, sealed, body, blen, body, blen);
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
