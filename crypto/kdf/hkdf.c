// SPDX-License-Identifier: MIT
/* HKDF-SHA-512 (RFC 5869). See hkdf.h. */
#include <errno.h>
#include <string.h>

#include "crypto/crypto.h"
#include "crypto/kdf/hkdf.h"

#define HASH_LEN 64

int hkdf_sha512_extract(const uint8_t *salt, size_t saltlen, const uint8_t *ikm,
			size_t ikmlen, uint8_t prk[HKDF_SHA512_PRK_SIZE])
{
	static const uint8_t zero_salt[HASH_LEN];
	struct crypto_tfm *tfm;
	int err;

	tfm = crypto_alloc("hmac(sha512)", NULL, &err);
	if (!tfm) {
		explicit_bzero(prk, HKDF_SHA512_PRK_SIZE);
		return err;
	}
	if (!saltlen) {
		salt = zero_salt;
		saltlen = sizeof(zero_salt);
	}
	err = crypto_setkey(tfm, salt, saltlen);
	if (!err)
		err = crypto_hash_digest(tfm, ikm, ikmlen, prk);
	crypto_free(tfm);
	if (err)
		explicit_bzero(prk, HKDF_SHA512_PRK_SIZE);
	return err;
}

int hkdf_sha512_expand(const uint8_t prk[HKDF_SHA512_PRK_SIZE],
		       const uint8_t *info, size_t infolen, uint8_t *out,
		       size_t outlen)
{
	struct crypto_tfm *tfm;
	uint8_t t[HASH_LEN];
	size_t tlen = 0, done = 0;
	uint8_t counter = 0;
	int err;

	if (outlen > HKDF_SHA512_MAX_OUT)
		return -EINVAL;
	if (!outlen)
		return 0;
	tfm = crypto_alloc("hmac(sha512)", NULL, &err);
	if (!tfm)
		goto err_out;
	/* the key is copied here, so out may overlap prk */
	err = crypto_setkey(tfm, prk, HKDF_SHA512_PRK_SIZE);
	while (!err && done < outlen) {
		size_t n = outlen - done < HASH_LEN ? outlen - done : HASH_LEN;

		counter++;
		err = crypto_hash_init(tfm);
		/* empty pieces skipped: T(0) and info may be NULL */
		if (!err && tlen)
			err = crypto_hash_update(tfm, t, tlen);
		if (!err && infolen)
			err = crypto_hash_update(tfm, info, infolen);
		if (!err)
			err = crypto_hash_update(tfm, &counter, 1);
		if (!err)
			err = crypto_hash_final(tfm, t);
		if (!err) {
			memcpy(out + done, t, n);
			done += n;
			tlen = HASH_LEN;
		}
	}
	explicit_bzero(t, sizeof(t));
	crypto_free(tfm);
	if (!err)
		return 0;
err_out:
	explicit_bzero(out, outlen);
	return err;
}
