/* SPDX-License-Identifier: MIT */
/* see vname.h */
#include "volume/names/vname.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "volume/base64.h"
#include "volume/names/conflict.h"
#include "volume/fdio.h"

#define PADDED_MAX_NAME 256 /* 255 rounded up to 32 */
#define PADDED_MAX_TARGET VNAME_TARGET_PADDED_MAX /* 4095 rounded up */
#define MAX_IV 16

struct codec_limits {
	size_t max_plain;
	size_t max_padded;
	int allow_slash; /* symlink targets, xattr names */
};

static const struct codec_limits name_limits = { VNAME_MAX_PLAIN,
						 PADDED_MAX_NAME, 0 };
static const struct codec_limits symlink_limits = {
	VNAME_MAX_SYMLINK_PLAIN, VNAME_MAX_SYMLINK_PLAIN, 1 };
static const struct codec_limits target_limits = { VNAME_TARGET_MAX_PLAIN,
						   PADDED_MAX_TARGET, 1 };

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

/* the padded length the rule asks for: len rounded up to VNAME_PAD */
static size_t padded_len(size_t len)
{
	return (len + VNAME_PAD - 1) / VNAME_PAD * VNAME_PAD;
}

/* a wide-block transform (hctr2, adiantum): a 32-byte tweak, any length */
static int is_wide(struct crypto_tfm *tfm)
{
	return crypto_ivsize(tfm) == VNAME_WIDE_TWEAK &&
	       crypto_blocksize(tfm) == 1;
}

/* the IV a version-2 target stores: the block for CBC-CS3, 16 bytes (the
 * tweak's first half) for a wide-block transform */
static size_t target_ivlen(struct crypto_tfm *tfm)
{
	return is_wide(tfm) ? VNAME_WIDE_TARGET_IV : crypto_ivsize(tfm);
}

/*
 * buf in place under tfm: cts(cbc(X)) with iv as its IV, or a wide-block
 * transform with iv followed by zeros as its tweak (docs/format.md 7.2);
 * iv NULL: all zero. The key is the caller's.
 */
static int name_crypt(struct crypto_tfm *tfm, int enc, const uint8_t *iv_in,
		      uint8_t *buf, size_t len)
{
	uint8_t iv[VNAME_WIDE_TWEAK] = { 0 };
	int err;

	if (crypto_ivsize(tfm) > sizeof(iv))
		return -EINVAL;
	if (iv_in)
		memcpy(iv, iv_in, target_ivlen(tfm));
	err = enc ? crypto_encrypt(tfm, iv, buf, buf, len)
		  : crypto_decrypt(tfm, iv, buf, buf, len);
	secmem_scrub_stack();
	return err;
}

/*
 * base64url(iv || CBC-CS3(cts, iv, plain padded)) into out; ivlen 0: no
 * iv (zero, not stored). The encoded length or -errno.
 */
static int encode(struct crypto_tfm *cts, const struct codec_limits *lim,
		  const uint8_t *iv, size_t ivlen, const char *plain,
		  size_t len, char *out, size_t outlen)
{
	uint8_t buf[MAX_IV + PADDED_MAX_TARGET];
	size_t padded, n;
	int err;

	if (len > lim->max_plain)
		return -ENAMETOOLONG;
	err = check_plain(lim, plain, len);
	if (err)
		return err;
	if (ivlen > MAX_IV || (ivlen && ivlen != target_ivlen(cts)))
		return -EINVAL;
	padded = padded_len(len);
	if (ivlen)
		memcpy(buf, iv, ivlen);
	memset(buf + ivlen, 0, padded);
	memcpy(buf + ivlen, plain, len);
	err = name_crypt(cts, 1, ivlen ? iv : NULL, buf + ivlen, padded);
	if (!err) {
		n = base64url_encode(out, outlen, buf, ivlen + padded);
		err = n == (size_t)-1 ? -ENOSPC : (int)n;
	}
	explicit_bzero(buf, sizeof(buf));
	return err;
}

/*
 * What a decrypted padded buffer of padded bytes holds (docs/format.md
 * 7.2): the plaintext length in *len and a verdict. Whole blocks without
 * a NUL are a name only when they fit and hold no '/' (a wrong key gives
 * such bytes often, so they count as undecodable, not invalid).
 */
static enum vname_verdict judge(const struct codec_limits *lim,
				const uint8_t *buf, size_t padded, size_t *len)
{
	size_t plen = strnlen((const char *)buf, padded), end;

	*len = plen;
	if (plen == padded)
		return plen > lim->max_plain ||
				       (!lim->allow_slash && memchr(buf, '/', plen))
			       ? VNAME_UNDECODABLE
			       : VNAME_OK;
	for (end = padded; end > 0 && buf[end - 1] == 0; end--)
		;
	if (end > plen)
		/* a NUL, then more bytes: not padded at all (the last byte
		 * is not zero), or padded but with a NUL inside the name */
		return end == padded ? VNAME_UNDECODABLE : VNAME_INVALID;
	if (check_plain(lim, (const char *)buf, plen) != 0 ||
	    plen > lim->max_plain)
		return VNAME_INVALID;
	if (padded != padded_len(plen))
		return VNAME_OVERPADDED; /* a second spelling of plen bytes */
	return VNAME_OK;
}

static int decode(struct crypto_tfm *cts, const struct codec_limits *lim,
		  size_t ivlen, const char *enc, size_t enclen, char *out,
		  size_t outlen, enum vname_verdict *verdict)
{
	uint8_t buf[MAX_IV + PADDED_MAX_TARGET];
	size_t bytes, padded, len = 0;
	enum vname_verdict v = VNAME_UNDECODABLE;
	int err = -EBADMSG;

	if (ivlen > MAX_IV || (ivlen && ivlen != target_ivlen(cts)))
		return -EINVAL;
	if (enclen > base64_encoded_len(BASE64_URL_NOPAD,
					ivlen + lim->max_padded) ||
	    base64url_decode(buf, ivlen + lim->max_padded, enc, enclen,
			     &bytes) != 0 ||
	    bytes <= ivlen || (bytes - ivlen) % VNAME_PAD)
		goto out;
	padded = bytes - ivlen;
	err = name_crypt(cts, 0, ivlen ? buf : NULL, buf + ivlen, padded);
	if (err)
		goto out;
	v = judge(lim, buf + ivlen, padded, &len);
	err = -EBADMSG;
	if (v != VNAME_OK && v != VNAME_OVERPADDED)
		goto out;
	err = -ENOSPC;
	if (outlen <= len)
		goto out;
	/* an over-padded name is refused, but fsck names it */
	memcpy(out, buf + ivlen, len);
	out[len] = '\0';
	err = v == VNAME_OK ? (int)len : -EBADMSG;
out:
	if (verdict)
		*verdict = v;
	explicit_bzero(buf, sizeof(buf));
	return err;
}

int vname_encrypt(struct crypto_tfm *cts, const char *name, size_t len,
		  char *out, size_t outlen)
{
	return encode(cts, &name_limits, NULL, 0, name, len, out, outlen);
}

int vname_decrypt(struct crypto_tfm *cts, const char *enc, size_t enclen,
		  char *out, size_t outlen)
{
	return decode(cts, &name_limits, 0, enc, enclen, out, outlen, NULL);
}

int vname_judge(struct crypto_tfm *cts, const char *enc, size_t enclen,
		char out[VNAME_MAX_PLAIN + 1], enum vname_verdict *verdict)
{
	return decode(cts, &name_limits, 0, enc, enclen, out,
		      VNAME_MAX_PLAIN + 1, verdict);
}

int vname_symlink_encrypt(struct crypto_tfm *cts, const char *target,
			  size_t len, char *out, size_t outlen)
{
	return encode(cts, &symlink_limits, NULL, 0, target, len, out, outlen);
}

int vname_symlink_decrypt(struct crypto_tfm *cts, const char *enc,
			  size_t enclen, char *out, size_t outlen)
{
	return decode(cts, &symlink_limits, 0, enc, enclen, out, outlen, NULL);
}

int vname_target_seal(struct crypto_tfm *cts, const uint8_t *iv,
		      const char *target, size_t len, char *out, size_t outlen)
{
	return encode(cts, &target_limits, iv, target_ivlen(cts), target, len,
		      out, outlen);
}

int vname_target_open(struct crypto_tfm *cts, const char *enc, size_t enclen,
		      char *out, size_t outlen)
{
	return decode(cts, &target_limits, target_ivlen(cts), enc, enclen, out,
		      outlen, NULL);
}

int vname_is_long(size_t enclen, unsigned int name_max)
{
	return enclen > name_max;
}

int vname_long_name(const char *enc, size_t enclen,
		    char out[VNAME_LONG_LEN + 1])
{
	size_t plen = strlen(VNAME_LONG_PREFIX);
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
	memcpy(out, VNAME_LONG_PREFIX, plen);
	if (base64url_encode(out + plen, VNAME_LONG_LEN + 1 - plen, digest,
			     VNAME_HASH_BYTES) == (size_t)-1)
		return -ENOSPC;
	return 0;
}

int vname_is_b64url(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_'))
			return 0;
	}
	return 1;
}

/* a length vname_encrypt can produce: base64url of k*32 bytes, k 1..8 */
static int is_name_length(size_t n)
{
	for (size_t bytes = VNAME_PAD; bytes <= PADDED_MAX_NAME; bytes += VNAME_PAD)
		if (base64_encoded_len(BASE64_URL_NOPAD, bytes) == n)
			return 1;
	return 0;
}

/* vname_classify without conflict copies */
static enum vname_entry classify_own(const char *e)
{
	size_t n = strlen(e), plen = strlen(VNAME_LONG_PREFIX);
	size_t hlen = VNAME_LONG_LEN - plen;

	if (strcmp(e, ".") == 0 || strcmp(e, "..") == 0)
		return VNAME_ENTRY_DOT;
	if (strcmp(e, DIRNONCE_FILE) == 0)
		return VNAME_ENTRY_DIRNONCE;
	if (strcmp(e, "cloakfs.conf") == 0)
		return VNAME_ENTRY_CONFIG;
	if (strncmp(e, "cloakfs.conf.tmp.", 17) == 0 ||
	    strncmp(e, "cloakfs.volume.tmp.", 19) == 0)
		return VNAME_ENTRY_CONFIG_TEMP;
	if (strcmp(e, "cloakfs.targets") == 0) /* SYMLINK_STORE_DIR */
		return VNAME_ENTRY_TARGETS;
	if (strcmp(e, "cloakfs.volume") == 0)
		return VNAME_ENTRY_RECORD;
	if (strncmp(e, VNAME_UPGRADE_TEMP_PREFIX,
		    strlen(VNAME_UPGRADE_TEMP_PREFIX)) == 0)
		return VNAME_ENTRY_UPGRADE_TEMP;
	if (strncmp(e, VNAME_TEMP_PREFIX, strlen(VNAME_TEMP_PREFIX)) == 0)
		return VNAME_ENTRY_TEMP;
	if (strncmp(e, VNAME_LONG_PREFIX, plen) == 0) {
		if (n == VNAME_LONG_LEN && vname_is_b64url(e + plen, hlen))
			return VNAME_ENTRY_LONG;
		if (n == VNAME_SIDECAR_LEN && vname_is_b64url(e + plen, hlen) &&
		    strcmp(e + VNAME_LONG_LEN, VNAME_SIDECAR_SUFFIX) == 0)
			return VNAME_ENTRY_SIDECAR;
		return VNAME_ENTRY_OTHER;
	}
	if (is_name_length(n) && vname_is_b64url(e, n))
		return VNAME_ENTRY_ENCRYPTED;
	return VNAME_ENTRY_OTHER;
}

int vname_conflict_of(const char *e, struct vname_conflict *vc)
{
	size_t len = strlen(e), from = 0;
	enum vname_entry k;

	while (conflict_next(e, len, from, &vc->cut)) {
		from = vc->cut.at + 1;
		if (conflict_cut_out(e, len, &vc->cut, vc->base,
				     sizeof(vc->base)) != 0)
			continue;
		k = classify_own(vc->base);
		if (k == VNAME_ENTRY_ENCRYPTED || k == VNAME_ENTRY_LONG ||
		    k == VNAME_ENTRY_SIDECAR || k == VNAME_ENTRY_DIRNONCE) {
			vc->kind = k;
			return 1;
		}
	}
	return 0;
}

enum vname_entry vname_classify(const char *e)
{
	struct vname_conflict vc;
	enum vname_entry k = classify_own(e);

	if (k == VNAME_ENTRY_OTHER && vname_conflict_of(e, &vc))
		k = VNAME_ENTRY_CONFLICT;
	return k;
}

int vname_sidecar_name(const char *long_name, char out[VNAME_SIDECAR_LEN + 1])
{
	if (strlen(long_name) != VNAME_LONG_LEN ||
	    vname_classify(long_name) != VNAME_ENTRY_LONG)
		return -EINVAL;
	memcpy(out, long_name, VNAME_LONG_LEN);
	memcpy(out + VNAME_LONG_LEN, VNAME_SIDECAR_SUFFIX,
	       sizeof(VNAME_SIDECAR_SUFFIX));
	return 0;
}

/* read at most max bytes of the regular file dirfd/name; 0 or -errno */
static int read_small(int dirfd, const char *name, void *buf, size_t max,
		      size_t *len)
{
	ssize_t n = fdio_read_file(dirfd, name, buf, max, NULL);

	if (n < 0)
		return (int)n;
	*len = (size_t)n;
	return 0;
}

int vname_read_sidecar(int dirfd, const char *long_name, char *enc,
		       size_t encmax)
{
	char side[VNAME_SIDECAR_LEN + 1], check[VNAME_LONG_LEN + 1];
	char buf[VNAME_MAX_ENCODED + 1];
	size_t len = 0;
	int err = vname_sidecar_name(long_name, side);

	if (err)
		return err;
	err = read_small(dirfd, side, buf, sizeof(buf), &len);
	if (err)
		return err;
	/* an encoding short enough to need no sidecar is still refused
	 * only by its hash: name_max is the writer's choice */
	if (len == 0 || len > VNAME_MAX_ENCODED || !vname_is_b64url(buf, len))
		return -EBADMSG;
	err = vname_long_name(buf, len, check);
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

int vname_write_sidecar(int dirfd, const char *long_name, const char *enc,
			size_t enclen)
{
	char side[VNAME_SIDECAR_LEN + 1], have[VNAME_MAX_ENCODED + 1];
	int err = vname_sidecar_name(long_name, side), fd;

	if (err)
		return err;
	fd = openat(dirfd, side, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0400);
	if (fd < 0 && errno == EEXIST) {
		err = vname_read_sidecar(dirfd, long_name, have, sizeof(have));
		if (err < 0)
			return err == -EBADMSG ? -EEXIST : err;
		return ((size_t)err == enclen && memcmp(have, enc, enclen) == 0)
			       ? 0
			       : -EEXIST;
	}
	if (fd < 0)
		return -errno;
	err = fdio_write_all(fd, enc, enclen);
	if (close(fd) != 0 && !err)
		err = -errno;
	if (err)
		(void)unlinkat(dirfd, side, 0);
	return err;
}
