/* SPDX-License-Identifier: MIT */
/* see names.h */
#include "volume/names.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "volume/base64url.h"
#include "volume/fdio.h"

#define PADDED_MAX_NAME 256 /* 255 rounded up to 32 */
#define PADDED_MAX_SYMLINK NAMES_MAX_SYMLINK_PLAIN

struct codec_limits {
	size_t max_plain;
	size_t max_padded;
	int allow_slash; /* symlink targets */
};

static const struct codec_limits name_limits = { NAMES_MAX_PLAIN,
						 PADDED_MAX_NAME, 0 };
static const struct codec_limits symlink_limits = { NAMES_MAX_SYMLINK_PLAIN,
						    PADDED_MAX_SYMLINK, 1 };

/* 0, or -EINVAL for a plaintext the codec must never store */
static int check_plain(const struct codec_limits *lim, const char *p, size_t len)
{
	if (len == 0 || memchr(p, '\0', len))
		return -EINVAL;
	if (!lim->allow_slash) {
		if (memchr(p, '/', len))
			return -EINVAL;
		if ((len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return -EINVAL;
	}
	return 0;
}

/* cts(cbc(X)) with IV 0: the IV is per call, the key per directory */
static int cts_crypt(struct crypto_tfm *cts, int enc, uint8_t *buf, size_t len)
{
	uint8_t iv[16] = { 0 };
	int err;

	if (crypto_ivsize(cts) > sizeof(iv))
		return -EINVAL;
	err = enc ? crypto_encrypt(cts, iv, buf, buf, len)
		  : crypto_decrypt(cts, iv, buf, buf, len);
	secmem_scrub_stack();
	return err;
}

static int encode(struct crypto_tfm *cts, const struct codec_limits *lim,
		  const char *plain, size_t len, char *out, size_t outlen)
{
	uint8_t buf[PADDED_MAX_SYMLINK];
	size_t padded, n;
	int err;

	if (len > lim->max_plain)
		return -ENAMETOOLONG;
	err = check_plain(lim, plain, len);
	if (err)
		return err;
	padded = (len + NAMES_PAD - 1) / NAMES_PAD * NAMES_PAD;
	memset(buf, 0, padded);
	memcpy(buf, plain, len);
	err = cts_crypt(cts, 1, buf, padded);
	if (!err) {
		n = base64url_encode(out, outlen, buf, padded);
		err = n == (size_t)-1 ? -ENOSPC : (int)n;
	}
	explicit_bzero(buf, padded);
	return err;
}

static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

/* why a decrypted, invalid plaintext is invalid: a NUL-padded plaintext
 * that is no name (the key was right, the name is not) or anything else
 * (not what this key encrypted) */
static enum names_bad judge_plain(const struct codec_limits *lim,
				  const uint8_t *buf, size_t padded)
{
	size_t end = padded;

	while (end > 0 && buf[end - 1] == 0)
		end--;
	if (end < padded && check_plain(lim, (const char *)buf, end) != 0)
		return NAMES_BAD_NAME;
	return NAMES_BAD_PADDING;
}

static int decode(struct crypto_tfm *cts, const struct codec_limits *lim,
		  const char *enc, size_t enclen, char *out, size_t outlen,
		  enum names_bad *why)
{
	uint8_t buf[PADDED_MAX_SYMLINK];
	enum names_bad bad = NAMES_BAD_ENCODING;
	size_t padded, len;
	int err = -EBADMSG;

	if (enclen > base64_encoded_len(BASE64_URL_NOPAD, lim->max_padded) ||
	    base64url_decode(buf, lim->max_padded, enc, enclen, &padded) != 0 ||
	    padded == 0 || padded % NAMES_PAD)
		goto out;
	bad = NAMES_BAD_NONE;
	err = cts_crypt(cts, 0, buf, padded);
	if (err)
		goto out;
	len = strnlen((const char *)buf, padded);
	err = -EBADMSG;
	if (len > lim->max_plain || !all_zero(buf + len, padded - len) ||
	    check_plain(lim, (const char *)buf, len) != 0) {
		bad = judge_plain(lim, buf, padded);
		goto out;
	}
	err = -ENOSPC;
	if (outlen <= len)
		goto out;
	memcpy(out, buf, len);
	out[len] = '\0';
	err = (int)len;
out:
	if (why)
		*why = bad;
	explicit_bzero(buf, sizeof(buf));
	return err;
}

int names_encrypt(struct crypto_tfm *cts, const char *name, size_t len,
		  char *out, size_t outlen)
{
	return encode(cts, &name_limits, name, len, out, outlen);
}

int names_decrypt(struct crypto_tfm *cts, const char *enc, size_t enclen,
		  char *out, size_t outlen)
{
	return decode(cts, &name_limits, enc, enclen, out, outlen, NULL);
}

int names_decrypt_why(struct crypto_tfm *cts, const char *enc, size_t enclen,
		      char *out, size_t outlen, enum names_bad *why)
{
	return decode(cts, &name_limits, enc, enclen, out, outlen, why);
}

int names_symlink_encrypt(struct crypto_tfm *cts, const char *target,
			  size_t len, char *out, size_t outlen)
{
	return encode(cts, &symlink_limits, target, len, out, outlen);
}

int names_symlink_decrypt(struct crypto_tfm *cts, const char *enc,
			  size_t enclen, char *out, size_t outlen)
{
	return decode(cts, &symlink_limits, enc, enclen, out, outlen, NULL);
}

int names_is_long(size_t enclen, unsigned int name_max)
{
	return enclen > name_max;
}

int names_long_name(const char *enc, size_t enclen,
		    char out[NAMES_LONG_LEN + 1])
{
	size_t plen = strlen(NAMES_LONG_PREFIX);
	uint8_t digest[64];
	struct crypto_tfm *sha;
	int err;

	sha = crypto_alloc("sha512", NULL, &err);
	if (!sha)
		return err;
	err = crypto_hash_digest(sha, (const uint8_t *)enc, enclen, digest);
	crypto_free(sha);
	if (err)
		return err;
	memcpy(out, NAMES_LONG_PREFIX, plen);
	if (base64url_encode(out + plen, NAMES_LONG_LEN + 1 - plen, digest,
			     NAMES_HASH_BYTES) == (size_t)-1)
		return -ENOSPC;
	return 0;
}

static int is_b64url(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_'))
			return 0;
	}
	return 1;
}

/* a length names_encrypt can produce: base64url of k*32 bytes, k 1..8 */
static int is_name_length(size_t n)
{
	for (size_t bytes = NAMES_PAD; bytes <= PADDED_MAX_NAME; bytes += NAMES_PAD)
		if (base64_encoded_len(BASE64_URL_NOPAD, bytes) == n)
			return 1;
	return 0;
}

enum names_entry names_classify(const char *e)
{
	size_t n = strlen(e), plen = strlen(NAMES_LONG_PREFIX);
	size_t hlen = NAMES_LONG_LEN - plen;

	if (strcmp(e, ".") == 0 || strcmp(e, "..") == 0)
		return NAMES_ENTRY_DOT;
	if (strcmp(e, NAMES_DIRNONCE_FILE) == 0)
		return NAMES_ENTRY_DIRNONCE;
	if (strcmp(e, "cloakfs.conf") == 0)
		return NAMES_ENTRY_CONFIG;
	if (strncmp(e, "cloakfs.conf.tmp.", 17) == 0)
		return NAMES_ENTRY_CONFIG_TEMP;
	if (strncmp(e, NAMES_LONG_PREFIX, plen) == 0) {
		if (n == NAMES_LONG_LEN && is_b64url(e + plen, hlen))
			return NAMES_ENTRY_LONG;
		if (n == NAMES_SIDECAR_LEN && is_b64url(e + plen, hlen) &&
		    strcmp(e + NAMES_LONG_LEN, NAMES_SIDECAR_SUFFIX) == 0)
			return NAMES_ENTRY_SIDECAR;
		return NAMES_ENTRY_OTHER;
	}
	if (is_name_length(n) && is_b64url(e, n))
		return NAMES_ENTRY_ENCRYPTED;
	return NAMES_ENTRY_OTHER;
}

int names_sidecar_name(const char *long_name, char out[NAMES_SIDECAR_LEN + 1])
{
	if (strlen(long_name) != NAMES_LONG_LEN ||
	    names_classify(long_name) != NAMES_ENTRY_LONG)
		return -EINVAL;
	memcpy(out, long_name, NAMES_LONG_LEN);
	memcpy(out + NAMES_LONG_LEN, NAMES_SIDECAR_SUFFIX,
	       sizeof(NAMES_SIDECAR_SUFFIX));
	return 0;
}

/* read at most max bytes of the regular file dirfd/name; 0 or -errno */
static int read_small(int dirfd, const char *name, void *buf, size_t max,
		      size_t *len)
{
	ssize_t n = volume_read_file(dirfd, name, buf, max, NULL);

	if (n < 0)
		return (int)n;
	*len = (size_t)n;
	return 0;
}

int names_read_sidecar(int dirfd, const char *long_name, char *enc,
		       size_t encmax)
{
	char side[NAMES_SIDECAR_LEN + 1], check[NAMES_LONG_LEN + 1];
	char buf[NAMES_MAX_ENCODED + 1];
	size_t len = 0;
	int err = names_sidecar_name(long_name, side);

	if (err)
		return err;
	err = read_small(dirfd, side, buf, sizeof(buf), &len);
	if (err)
		return err;
	/* an encoding short enough to need no sidecar is still refused
	 * only by its hash: name_max is the writer's choice */
	if (len == 0 || len > NAMES_MAX_ENCODED || !is_b64url(buf, len))
		return -EBADMSG;
	err = names_long_name(buf, len, check);
	if (err)
		return err;
	if (strcmp(check, long_name) != 0)
		return -EBADMSG;
	if (encmax <= len)
		return -ENOSPC;
	memcpy(enc, buf, len);
	enc[len] = '\0';
	return (int)len;
}

int names_write_sidecar(int dirfd, const char *long_name, const char *enc,
			size_t enclen)
{
	char side[NAMES_SIDECAR_LEN + 1], have[NAMES_MAX_ENCODED + 1];
	int err = names_sidecar_name(long_name, side), fd;

	if (err)
		return err;
	fd = openat(dirfd, side, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0400);
	if (fd < 0 && errno == EEXIST) {
		err = names_read_sidecar(dirfd, long_name, have, sizeof(have));
		if (err < 0)
			return err == -EBADMSG ? -EEXIST : err;
		return ((size_t)err == enclen && memcmp(have, enc, enclen) == 0)
			       ? 0
			       : -EEXIST;
	}
	if (fd < 0)
		return -errno;
	err = volume_write_all(fd, enc, enclen);
	if (close(fd) != 0 && !err)
		err = -errno;
	if (err)
		(void)unlinkat(dirfd, side, 0);
	return err;
}
