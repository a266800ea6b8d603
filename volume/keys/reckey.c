/* SPDX-License-Identifier: MIT */
/* see recoverykey.h */
#include "volume/keys/reckey.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/errmsg.h"
#include "crypto/crypto.h"
#include "crypto/kdf/hkdf.h"
#include "crypto/secmem.h"

/*
 * Crockford's base32 alphabet (Douglas Crockford, "Base32 Encoding",
 * https://www.crockford.com/base32.html): no I, L, O or U, so the letters
 * most often misread are not digits of their own.
 */
static const char ALPHABET[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

#define DATA_PER_GROUP (RECKEY_GROUP_LEN - 1)
#define CHECK_BYTES 4
#define PAYLOAD (RECKEY_SECRET_SIZE + CHECK_BYTES) /* 20 bytes, 160 bits */
#define SYMBOLS (RECKEY_GROUPS * DATA_PER_GROUP)   /* 32 x 5 bits */
#define CHECK_LABEL "cloakfs recovery key"
#define KEK_SALT "cloakfs recovery"
#define KEK_INFO "recovery-kek"

_Static_assert(SYMBOLS * 5 == PAYLOAD * 8, "symbols cover the payload");

/* the symbol's value, or -1; Crockford's reading of O, I and L */
static int symbol_value(char ch)
{
	char c = (char)toupper((unsigned char)ch);
	const char *p;

	if (c == 'O')
		c = '0';
	else if (c == 'I' || c == 'L')
		c = '1';
	p = c ? strchr(ALPHABET, c) : NULL;
	return p ? (int)(p - ALPHABET) : -1;
}

/* multiply by x in GF(2^5) modulo x^5 + x^2 + 1 (a primitive polynomial) */
static unsigned int gf32_mulx(unsigned int v)
{
	v <<= 1;
	return v & 32 ? v ^ 0x25 : v;
}

/*
 * The check symbol of group g (0-based): with c = (g + 1) x^5 +
 * d0 x^4 + d1 x^3 + d2 x^2 + d3 x, the group's five symbols and its
 * number satisfy one linear equation over GF(32) with distinct nonzero
 * weights. So a single changed symbol (weight times a nonzero change),
 * two neighbours swapped ((a + b)(w + w')) and a whole group moved to
 * another place ((g + g') x^5) always change it.
 */
static unsigned int group_check(unsigned int g, const unsigned int d[DATA_PER_GROUP])
{
	unsigned int c = g + 1;

	for (int i = 0; i < DATA_PER_GROUP; i++)
		c = gf32_mulx(c) ^ d[i];
	return gf32_mulx(c);
}

/* the 4 check bytes: SHA-512(label || 0x00 || secret), first 4 bytes */
static int payload_check(const uint8_t *secret, uint8_t out[CHECK_BYTES])
{
	uint8_t buf[sizeof(CHECK_LABEL) + RECKEY_SECRET_SIZE], md[64];
	struct crypto_tfm *h;
	int err;

	h = crypto_alloc("sha512", NULL, &err);
	if (!h)
		return err;
	memcpy(buf, CHECK_LABEL, sizeof(CHECK_LABEL)); /* with the NUL */
	memcpy(buf + sizeof(CHECK_LABEL), secret, RECKEY_SECRET_SIZE);
	err = crypto_hash_digest(h, buf, sizeof(buf), md);
	crypto_free(h);
	if (!err)
		memcpy(out, md, CHECK_BYTES);
	explicit_bzero(buf, sizeof(buf));
	explicit_bzero(md, sizeof(md));
	return err;
}

int reckey_encode(const uint8_t secret[RECKEY_SECRET_SIZE],
		  char out[RECKEY_TEXT_LEN + 1])
{
	uint8_t payload[PAYLOAD];
	unsigned int d[DATA_PER_GROUP];
	size_t o = 0;
	int err;

	memcpy(payload, secret, RECKEY_SECRET_SIZE);
	err = payload_check(secret, payload + RECKEY_SECRET_SIZE);
	if (err) {
		explicit_bzero(payload, sizeof(payload));
		return err;
	}
	for (unsigned int g = 0; g < RECKEY_GROUPS; g++) {
		for (int i = 0; i < DATA_PER_GROUP; i++) {
			unsigned int bit = (g * DATA_PER_GROUP + (unsigned int)i) * 5, v = 0;

			for (unsigned int b = 0; b < 5; b++) /* most significant first */
				v = v << 1 | ((payload[(bit + b) / 8] >> (7 - (bit + b) % 8)) & 1);
			d[i] = v;
			out[o++] = ALPHABET[v];
		}
		out[o++] = ALPHABET[group_check(g, d)];
		if (g + 1 < RECKEY_GROUPS)
			out[o++] = '-';
	}
	out[o] = '\0';
	explicit_bzero(payload, sizeof(payload));
	explicit_bzero(d, sizeof(d));
	return 0;
}

/* what reckey_decode passes over between symbols */
static int is_separator(char c)
{
	return c == '-' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int reckey_complete(const char *text, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += !is_separator(text[i]);
	return n >= RECKEY_GROUPS * RECKEY_GROUP_LEN;
}

int reckey_decode(const char *text, size_t len,
		  uint8_t secret[RECKEY_SECRET_SIZE], char *err, size_t errlen)
{
	unsigned int sym[RECKEY_GROUPS * RECKEY_GROUP_LEN], n = 0;
	uint8_t payload[PAYLOAD] = { 0 }, check[CHECK_BYTES];
	char shown[RECKEY_GROUP_LEN + 1];
	int rc = 0;

	for (size_t i = 0; i < len; i++) {
		int v;

		if (is_separator(text[i]))
			continue;
		v = symbol_value(text[i]);
		if (v < 0) {
			rc = seterr(err, errlen, -EINVAL, "character %zu of the "
				    "recovery key is not one of its letters and "
				    "digits", i + 1);
			goto out;
		}
		if (n == sizeof(sym) / sizeof(sym[0])) {
			n++;
			break;
		}
		sym[n++] = (unsigned int)v;
	}
	if (n != sizeof(sym) / sizeof(sym[0])) {
		rc = seterr(err, errlen, -EINVAL, "a recovery key has %d letters "
			    "and digits (%d groups of %d); this one has %s%u", RECKEY_GROUPS *
			    RECKEY_GROUP_LEN, RECKEY_GROUPS, RECKEY_GROUP_LEN,
			    n > RECKEY_GROUPS * RECKEY_GROUP_LEN ? "more than " : "",
			    n > RECKEY_GROUPS * RECKEY_GROUP_LEN ? n - 1 : n);
		goto out;
	}
	for (unsigned int g = 0; g < RECKEY_GROUPS; g++) {
		const unsigned int *d = sym + g * RECKEY_GROUP_LEN;

		if (group_check(g, d) != d[DATA_PER_GROUP]) {
			for (int i = 0; i < RECKEY_GROUP_LEN; i++)
				shown[i] = ALPHABET[d[i]];
			shown[RECKEY_GROUP_LEN] = '\0';
			/* the group is shown: it is what the user typed */
			rc = seterr(err, errlen, -EILSEQ, "group %u (\"%s\") of "
				    "the recovery key has a typo (its check "
				    "character does not match)", g + 1, shown);
			goto out;
		}
		for (int i = 0; i < DATA_PER_GROUP; i++) {
			unsigned int bit = (g * DATA_PER_GROUP + (unsigned int)i) * 5;

			for (unsigned int b = 0; b < 5; b++)
				if (d[i] >> (4 - b) & 1)
					payload[(bit + b) / 8] |=
						(uint8_t)(0x80 >> ((bit + b) % 8));
		}
	}
	rc = payload_check(payload, check);
	if (!rc && memcmp(check, payload + RECKEY_SECRET_SIZE, CHECK_BYTES) != 0)
		rc = seterr(err, errlen, -EILSEQ, "the recovery key has typos "
			    "(every group checks, but the whole key does not)");
	if (!rc)
		memcpy(secret, payload, RECKEY_SECRET_SIZE);
out:
	explicit_bzero(sym, sizeof(sym));
	explicit_bzero(payload, sizeof(payload));
	explicit_bzero(shown, sizeof(shown));
	return rc;
}

int reckey_kek(const uint8_t secret[RECKEY_SECRET_SIZE],
	       uint8_t kek[RECKEY_KEK_SIZE])
{
	uint8_t *prk = secmem_alloc(HKDF_SHA512_PRK_SIZE);
	int err;

	if (!prk)
		return -ENOMEM;
	err = hkdf_sha512_extract((const uint8_t *)KEK_SALT, strlen(KEK_SALT),
				  secret, RECKEY_SECRET_SIZE, prk);
	if (!err)
		err = hkdf_sha512_expand(prk, (const uint8_t *)KEK_INFO,
					 sizeof(KEK_INFO), kek, RECKEY_KEK_SIZE);
	secmem_free(prk);
	secmem_scrub_stack();
	return err;
}
