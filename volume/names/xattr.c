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
#define XATTR_LONG_LEN (sizeof(XATTR_USER_PREFIX) - 1 + VNAME_LONG_LEN)

/* does name begin with prefix and go on after it? */
static int has_rest(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(name, prefix, n) == 0 && name[n] != '\0';
}

int xattr_is_user(const char *name)
{
	return has_rest(name, XATTR_USER_PREFIX);
}

int xattr_is_trusted(const char *name)
{
	return has_rest(name, XATTR_TRUSTED_PREFIX);
}

int xattr_is_stored(const char *name)
{
	return xattr_is_user(name) || xattr_is_trusted(name) ||
	       has_rest(name, "security.") ||
	       strcmp(name, XATTR_ACL_ACCESS) == 0 ||
	       strcmp(name, XATTR_ACL_DEFAULT) == 0;
}

int xattr_is_long(const char *stored)
{
	return strncmp(stored, XATTR_LONG_PREFIX,
		       sizeof(XATTR_LONG_PREFIX) - 1) == 0;
}

/* is name (a stored one, len bytes) kept in the short form? */
static int is_short(const char *name, size_t len)
{
	return xattr_is_user(name) && len - XATTR_PREFIX_LEN <= XATTR_MAX_NAME;
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

int xattr_name_store(struct keyring *kr, const char *name,
		     struct xattr_name *xn)
{
	size_t len = strlen(name);
	int n;

	if (!xattr_is_stored(name))
		return -EOPNOTSUPP;
	if (len > XATTR_NAME_LIMIT)
		return -ERANGE;
	if (is_short(name, len)) {
		memcpy(xn->stored, XATTR_USER_PREFIX, XATTR_PREFIX_LEN);
		xn->enc[0] = '\0';
		xn->enclen = 0;
		n = xattr_crypt(kr, NAME_ENCRYPT, NULL, name + XATTR_PREFIX_LEN,
				len - XATTR_PREFIX_LEN,
				xn->stored + XATTR_PREFIX_LEN,
				sizeof(xn->stored) - XATTR_PREFIX_LEN);
		return n < 0 ? n : 0;
	}
	/* the whole name, namespace included, so the stored name tells none */
	n = xattr_crypt(kr, NAME_ENCRYPT, NULL, name, len, xn->enc,
			sizeof(xn->enc));
	if (n < 0)
		return n;
	xn->enclen = (size_t)n;
	memcpy(xn->stored, XATTR_USER_PREFIX, XATTR_PREFIX_LEN);
	return vname_long_name(xn->enc, xn->enclen,
			       xn->stored + XATTR_PREFIX_LEN);
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
	if ((size_t)n > XATTR_MAX_NAME) {
		explicit_bzero(plain, sizeof(plain));
		return -EBADMSG;
	}
	memcpy(out, XATTR_USER_PREFIX, XATTR_PREFIX_LEN);
	memcpy(out + XATTR_PREFIX_LEN, plain, (size_t)n + 1);
	explicit_bzero(plain, sizeof(plain));
	return (int)XATTR_PREFIX_LEN + n;
}

int xattr_long_name_decrypt(struct keyring *kr, const char *stored,
			    const uint8_t *val, size_t slen, char out[256])
{
	char plain[VNAME_MAX_SYMLINK_PLAIN + 1], expect[VNAME_LONG_LEN + 1];
	const uint8_t *nul;
	size_t enclen;
	int n;

	if (!xattr_is_long(stored) || strlen(stored) != XATTR_LONG_LEN)
		return -EBADMSG;
	nul = memchr(val, '\0', slen < VNAME_MAX_ENCODED + 1 ? slen
							    : VNAME_MAX_ENCODED + 1);
	if (!nul)
		return -EBADMSG;
	enclen = (size_t)(nul - val);
	n = vname_long_name((const char *)val, enclen, expect);
	if (n)
		return n;
	if (strcmp(expect, stored + XATTR_PREFIX_LEN) != 0)
		return -EBADMSG;
	n = xattr_crypt(kr, NAME_DECRYPT, NULL, val, enclen, plain,
			sizeof(plain));
	/* a name the short form holds, or none stored, was not written so */
	if (n >= 0 && ((size_t)n > XATTR_NAME_LIMIT || !xattr_is_stored(plain) ||
		       is_short(plain, (size_t)n)))
		n = -EBADMSG;
	if (n >= 0)
		memcpy(out, plain, (size_t)n + 1);
	explicit_bzero(plain, sizeof(plain));
	return n;
}

/* the sealed size of a value of len bytes */
static size_t xattr_sealed_size(const struct volume_cipher_info *ci,
				size_t len)
{
	size_t body = 4 + len;

	if (ci->aead_alg)
		return XATTR_NONCE_SIZE + len + XATTR_TAG_SIZE;
	if (body < ci->blocksize)
		body = ci->blocksize;
	return XATTR_NONCE_SIZE + body;
}

/*
 * Authenticated volumes: seal (or open) the len bytes at body in place
 * under the key of nonce, the tag after them, the attribute's whole
 * plaintext name the associated data. Each key seals one value only (a
 * fresh nonce every store), so the AEAD nonce is all zero. 0, -EBADMSG
 * (opening a value that does not verify: body wiped) or -errno.
 */
static int xattr_aead(struct keyring *kr, int seal,
		      const uint8_t nonce[XATTR_NONCE_SIZE], const char *name,
		      uint8_t *body, size_t len)
{
	const uint8_t iv[24] = { 0 }, *aad = (const uint8_t *)name;
	struct crypto_tfm *tfm;
	unsigned int slot;
	int n;

	keyring_enter(kr);
	tfm = keyring_get(kr, VKEY_XATTR_VALUE, nonce, &slot, &n);
	if (tfm) {
		if (crypto_ivsize(tfm) > sizeof(iv) ||
		    crypto_tagsize(tfm) != XATTR_TAG_SIZE)
			n = -EINVAL;
		else if (seal)
			n = crypto_aead_encrypt(tfm, iv, aad, strlen(name), body,
						body, len, body + len);
		else
			n = crypto_aead_decrypt(tfm, iv, aad, strlen(name), body,
						body, len, body + len);
		keyring_put(kr, slot);
	}
	keyring_leave(kr);
	if (n && !seal)
		explicit_bzero(body, len); /* no unverified plaintext */
	secmem_scrub_stack();
	return n;
}

static int xattr_seal(struct keyring *kr, const struct volume_cipher_info *ci,
		      const char *name, const void *value, size_t len,
		      uint8_t *out)
{
	size_t total = xattr_sealed_size(ci, len);
	uint8_t *body = out + XATTR_NONCE_SIZE;
	int err;

	if (len > UINT32_MAX)
		return -E2BIG;
	err = random_bytes(out, XATTR_NONCE_SIZE);
	if (err)
		return err;
	if (ci->aead_alg) {
		memcpy(body, value, len);
		return xattr_aead(kr, 1, out, name, body, len);
	}
	memset(body, 0, total - XATTR_NONCE_SIZE);
	body[0] = (uint8_t)len;
	body[1] = (uint8_t)(len >> 8);
	body[2] = (uint8_t)(len >> 16);
	body[3] = (uint8_t)(len >> 24);
	memcpy(body + 4, value, len);
	return xattr_crypt(kr, VALUE_ENCRYPT, out, body, total - XATTR_NONCE_SIZE,
			   body, total - XATTR_NONCE_SIZE);
}

/* an authenticated volume's sealed value (slen bytes) of name, in place */
static int xattr_open_aead(struct keyring *kr, const char *name,
			   uint8_t *sealed, size_t slen, const uint8_t **value,
			   size_t *len)
{
	size_t vlen;
	int err;

	if (slen < XATTR_NONCE_SIZE + XATTR_TAG_SIZE)
		return -EBADMSG;
	vlen = slen - XATTR_NONCE_SIZE - XATTR_TAG_SIZE;
	err = xattr_aead(kr, 0, sealed, name, sealed + XATTR_NONCE_SIZE, vlen);
	if (err)
		return err;
	*value = sealed + XATTR_NONCE_SIZE;
	*len = vlen;
	return 0;
}

static int xattr_open(struct keyring *kr, const struct volume_cipher_info *ci,
		      const char *name, uint8_t *sealed, size_t slen,
		      const uint8_t **value, size_t *len)
{
	size_t bs = ci->blocksize, blen, vlen;
	uint8_t *body = sealed + XATTR_NONCE_SIZE;
	int err;

	if (ci->aead_alg)
		return xattr_open_aead(kr, name, sealed, slen, value, len);
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

/* bytes of a stored value before the sealed one: the long form's name */
static size_t name_part(const struct xattr_name *xn)
{
	return xn->enclen ? xn->enclen + 1 : 0;
}

size_t xattr_stored_size(const struct volume_cipher_info *ci,
			 const struct xattr_name *xn, size_t len)
{
	return name_part(xn) + xattr_sealed_size(ci, len);
}

int xattr_store(struct keyring *kr, const struct volume_cipher_info *ci,
		const struct xattr_name *xn, const char *name,
		const void *value, size_t len, uint8_t *out)
{
	size_t skip = name_part(xn);

	memcpy(out, xn->enc, skip); /* enc and its NUL, or nothing */
	return xattr_seal(kr, ci, name, value, len, out + skip);
}

int xattr_load(struct keyring *kr, const struct volume_cipher_info *ci,
	       const struct xattr_name *xn, const char *name, uint8_t *stored,
	       size_t slen, const uint8_t **value, size_t *len)
{
	size_t skip = name_part(xn);

	/* another name under the same hash would be a SHA-512 collision,
	 * but a value copied from another attribute is damage to see */
	if (slen < skip || memcmp(stored, xn->enc, skip) != 0)
		return -EBADMSG;
	return xattr_open(kr, ci, name, stored + skip, slen - skip, value,
			  len);
}
