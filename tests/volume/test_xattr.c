/* SPDX-License-Identifier: MIT */
/*
 * Extended attribute names and values (volume/names/xattr.h, docs/format.md
 * 7.5) against known answers: VMK = bytes 00 .. 3f, aes256-xts, value
 * nonce f0 .. ff. The vectors were computed from the format's words alone
 * with Python's hmac/hashlib (HKDF, SHA-512) and the cryptography package
 * 38.0.4 (AES-256-CBC with the last two blocks swapped, AES-256-XTS): the
 * short form is what every cloakfs wrote, so existing volumes keep reading.
 */
#include <errno.h>
#include <string.h>

#include "tests/volume/voltest.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"
#include "volume/names/xattr.h"

#define XTS volume_cipher_info(VOLUME_CIPHER_AES256_XTS)
#define TRUSTED_ENC "VLWJjeUQH2NbhZksgKXjr2lOJ4tKAGMCuncC8oWR1w4"

static const struct {
	const char *name, *stored, *enc;
} names[] = {
	{ "user.comment", "user.zgy2yV7tLb74t-L4mwOzFhYlOkFtbiMNu3i_LPEBqT4",
	  "" },
	{ "trusted.comment",
	  "user.cloakfs.long.hGRpuK0XKdvtAMi7jg78pOLIjsZVle2-IavRRS8-Z5E",
	  TRUSTED_ENC },
	{ NULL, /* "user." and 170 a: past the short form's 160 */
	  "user.cloakfs.long.JGAAdVMxwDuxfMPZhCRIE6dZN0tGcTYdzjnkHf3J0pY",
	  "RYA1dHnOl3_ChDGz5pEeX4BFZTA182fMDSjldXWAfUGNsDZeAAo0Zwsq81nH153uHNp0"
	  "dyJE9sC0IosjWnT2qAuxK3gVk4j5BPuNwjA88Ko00orziOweXZWzDqj8_kRGFfST6pYo"
	  "oJFKt6ZlykWyHLBSErwvACS2wEY8_JkCtizxBsb-tC3QCAnxNzs8jcZ2ze-zMSAn9Xjr"
	  "sja7jzFyLtaBS6_GIOsOhMdVLrht8ZYduvIfCwnGySR-eS15z81w" },
};

/* "hello" sealed; and trusted.comment's stored value holding bytes 0..39 */
static const char sealed_hello[] =
	"f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff2b741caab116004ea296611fddc7199c";
static const char trusted_value[] =
	"564c574a6a65555148324e62685a6b73674b586a72326c4f4a34744b41474d4375"
	"6e6343386f575231773400f0f1f2f3f4f5f6f7f8f9fafbfcfdfeffd24427a36eb3"
	"45c15804c877be47aabc3c997431a1a33e4134713bece2c9c1d1e05639fa79459d"
	"6567d3b582";

/* names[i].name, the long user.* name made here */
static const char *name_of(size_t i)
{
	static char aaa[176];

	if (names[i].name)
		return names[i].name;
	memcpy(aaa, "user.", 5);
	memset(aaa + 5, 'a', 170);
	aaa[175] = '\0';
	return aaa;
}

static void test_names(struct keyring *kr)
{
	struct xattr_name xn;
	char plain[256], big[300];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		CHECK(xattr_name_store(kr, name_of(i), &xn) == 0, "store %zu", i);
		CHECK(strcmp(xn.stored, names[i].stored) == 0, "stored %zu: %s", i,
		      xn.stored);
		CHECK(strcmp(xn.enc, names[i].enc) == 0 &&
			      xn.enclen == strlen(names[i].enc),
		      "enc %zu: %s", i, xn.enc);
		CHECK(xattr_is_long(xn.stored) == (*names[i].enc != '\0'), "form");
	}
	CHECK(xattr_name_decrypt(kr, names[0].stored, plain) == 12 &&
		      strcmp(plain, "user.comment") == 0,
	      "short decrypt");
	/* namespaces: the ACLs and three prefixes with a rest, nothing else */
	CHECK(xattr_name_store(kr, "system.posix_acl_default", &xn) == 0, "acl");
	CHECK(xattr_name_store(kr, "security.x", &xn) == 0, "security");
	CHECK(xattr_name_store(kr, "system.foo", &xn) == -EOPNOTSUPP, "system");
	CHECK(xattr_name_store(kr, "user.", &xn) == -EOPNOTSUPP, "empty rest");
	CHECK(xattr_name_store(kr, "os2.x", &xn) == -EOPNOTSUPP, "os2");
	memset(big, 'b', sizeof(big));
	memcpy(big, "user.", 5);
	big[255] = '\0';
	CHECK(xattr_name_store(kr, big, &xn) == 0 && xattr_is_long(xn.stored),
	      "255 bytes");
	big[255] = 'b';
	big[256] = '\0';
	CHECK(xattr_name_store(kr, big, &xn) == -ERANGE, "256 bytes");
}

static void test_values(struct keyring *kr)
{
	uint8_t stored[256], copy[256];
	const uint8_t *value;
	struct xattr_name xn;
	char plain[256];
	size_t n, len;

	/* a short-form value is the sealed value alone */
	CHECK(xattr_name_store(kr, "user.comment", &xn) == 0, "store");
	n = hex_decode(sealed_hello, stored, sizeof(stored));
	CHECK(xattr_load(kr, XTS, &xn, "user.comment", stored, n, &value,
			 &len) == 0 && len == 5 &&
		      memcmp(value, "hello", 5) == 0,
	      "hello");
	/* a long-form one begins with its encrypted name and a NUL */
	CHECK(xattr_name_store(kr, "trusted.comment", &xn) == 0, "store");
	n = hex_decode(trusted_value, stored, sizeof(stored));
	memcpy(copy, stored, n);
	CHECK(xattr_long_name_decrypt(kr, xn.stored, stored, n, plain) == 15 &&
		      strcmp(plain, "trusted.comment") == 0,
	      "long name");
	CHECK(xattr_load(kr, XTS, &xn, "trusted.comment", stored, n, &value,
			 &len) == 0 && len == 40,
	      "long value");
	for (size_t i = 0; i < 40 && len == 40; i++)
		CHECK(value[i] == i, "byte %zu", i);
	/* under another long name (a hash that does not match), or with its
	 * name cut off, it is damage */
	CHECK(xattr_long_name_decrypt(kr, names[2].stored, copy, n, plain) ==
		      -EBADMSG,
	      "other hash");
	CHECK(xattr_long_name_decrypt(kr, xn.stored, copy + 44, n - 44, plain) ==
		      -EBADMSG,
	      "no name");
	CHECK(xattr_name_store(kr, name_of(2), &xn) == 0, "store");
	memcpy(stored, copy, n);
	CHECK(xattr_load(kr, XTS, &xn, name_of(2), stored, n, &value, &len) ==
		      -EBADMSG,
	      "value of another name");
}

/* user.comment in the long form: one name, one form, so damage */
static void test_one_form(struct keyring *kr)
{
	static const char enc[] = "SUtfZ6bHWnBtU3X-rWtEOcJr3b7RiNaazGq-sFqmKwY";
	uint8_t val[128];
	char plain[256];

	memcpy(val, enc, sizeof(enc)); /* with its NUL */
	memset(val + sizeof(enc), 0, 32);
	CHECK(xattr_long_name_decrypt(
		      kr, "user.cloakfs.long.QFC9x6ae8JiVb10DRdbc6R7cJ7_VQUIhekw5K153R8k",
		      val, sizeof(enc) + 32, plain) == -EBADMSG,
	      "short-form name in the long form");
}

/* every cipher: what is stored opens again, both forms */
static void test_round_trip(enum volume_cipher c, const uint8_t vmk[64])
{
	const char *const ns[] = { "user.v", "security.selinux",
				   "system.posix_acl_access" };
	const struct volume_cipher_info *ci = volume_cipher_info(c);
	struct volume_keys *keys;
	struct keyring *kr;
	uint8_t val[300], out[800];
	const uint8_t *got;
	struct xattr_name xn;
	size_t len;

	CHECK(keys_new(vmk, c, &keys) == 0 && keyring_new(c, &kr) == 0, "keys");
	keyring_install(kr, keys);
	test_random_bytes(val, sizeof(val));
	for (size_t i = 0; i < 3; i++) {
		for (size_t vlen = 0; vlen <= sizeof(val); vlen += 37) {
			size_t slen;

			CHECK(xattr_name_store(kr, ns[i], &xn) == 0, "store");
			slen = xattr_stored_size(ci, &xn, vlen);
			CHECK(slen <= sizeof(out) &&
				      xattr_store(kr, ci, &xn, ns[i], val, vlen,
						  out) == 0,
			      "seal");
			CHECK(!ci->aead_alg ||
				      slen == xn.enclen + (xn.enclen != 0) +
						      vlen + 32,
			      "%s: nonce, value, tag", ci->name);
			CHECK(xattr_load(kr, ci, &xn, ns[i], out, slen, &got,
					 &len) == 0 &&
				      len == vlen && memcmp(got, val, vlen) == 0,
			      "%s %zu bytes", ns[i], vlen);
		}
	}
	keyring_free(kr);
}

/* seal value (len bytes) of name into out: its stored size, 0 on error */
static size_t seal(struct keyring *kr, const struct volume_cipher_info *ci,
		   const char *name, const char *value, uint8_t *out)
{
	struct xattr_name xn;
	size_t len = strlen(value);

	if (xattr_name_store(kr, name, &xn) != 0 ||
	    xattr_store(kr, ci, &xn, name, value, len, out) != 0)
		return 0;
	return xattr_stored_size(ci, &xn, len);
}

/* open a stored value (slen bytes, copied: opening is in place) as name's:
 * 0 and the value checked against expect, or -errno */
static int open_as(struct keyring *kr, const struct volume_cipher_info *ci,
		   const char *name, const uint8_t *stored, size_t slen,
		   const char *expect)
{
	uint8_t copy[800];
	const uint8_t *got;
	struct xattr_name xn;
	size_t len;
	int rc;

	if (slen > sizeof(copy) || xattr_name_store(kr, name, &xn) != 0)
		return -EINVAL;
	memcpy(copy, stored, slen);
	rc = xattr_load(kr, ci, &xn, name, copy, slen, &got, &len);
	if (!rc && (len != strlen(expect) || memcmp(got, expect, len) != 0))
		rc = -EILSEQ;
	return rc;
}

/*
 * Authenticated volumes: every value is nonce || AEAD || tag with its
 * whole name as associated data, so a flipped bit anywhere, a value
 * under another name (short form: nothing but the tag tells) or a cut
 * value is -EBADMSG; and each store draws a fresh nonce.
 */
static void test_sealed(enum volume_cipher c, const uint8_t vmk[64])
{
	static const char *const names2[][2] = {
		{ "user.a", "user.b" },             /* short form */
		{ "trusted.x", "security.x" },      /* long form */
		{ "user.comment", "trusted.comment" },
	};
	const struct volume_cipher_info *ci = volume_cipher_info(c);
	uint8_t a[800], b[800];
	struct volume_keys *keys;
	struct keyring *kr;
	size_t n, m;

	CHECK(keys_new(vmk, c, &keys) == 0 && keyring_new(c, &kr) == 0, "keys");
	keyring_install(kr, keys);
	for (size_t k = 0; k < sizeof(names2) / sizeof(names2[0]); k++) {
		const char *name = names2[k][0], *other = names2[k][1];

		n = seal(kr, ci, name, "a sealed value", a);
		CHECK(n && open_as(kr, ci, name, a, n, "a sealed value") == 0,
		      "%s %s round trip", ci->name, name);
		for (size_t i = 0; n && i < n; i++) {
			a[i] ^= (uint8_t)(1u << (i % 8));
			CHECK(open_as(kr, ci, name, a, n, "a sealed value") ==
				      -EBADMSG,
			      "%s %s: bit %zu of byte %zu flipped", ci->name,
			      name, i % 8, i);
			a[i] ^= (uint8_t)(1u << (i % 8));
		}
		CHECK(open_as(kr, ci, other, a, n, "a sealed value") == -EBADMSG,
		      "%s: %s's value as %s", ci->name, name, other);
		CHECK(open_as(kr, ci, name, a, n - 1, "a sealed value") ==
			      -EBADMSG,
		      "%s %s: cut", ci->name, name);
		/* the sealed part: the last 16 + 14 + 16 bytes */
		m = seal(kr, ci, name, "a sealed value", b);
		CHECK(m == n && n >= 46 &&
			      memcmp(a + n - 46, b + n - 46, XATTR_NONCE_SIZE) !=
				      0 &&
			      memcmp(a + n - 30, b + n - 30, 30) != 0,
		      "%s %s: a fresh nonce and ciphertext per store", ci->name,
		      name);
	}
	/* the empty value: nonce and tag alone */
	n = seal(kr, ci, "user.e", "", a);
	CHECK(n == 32 && open_as(kr, ci, "user.e", a, n, "") == 0 &&
		      open_as(kr, ci, "user.e", a, 16, "") == -EBADMSG,
	      "%s empty value", ci->name);
	keyring_free(kr);
}

int main(void)
{
	struct volume_keys *keys;
	struct keyring *kr;
	uint8_t vmk[64];

	for (int i = 0; i < 64; i++)
		vmk[i] = (uint8_t)i;
	CHECK(keys_new(vmk, VOLUME_CIPHER_AES256_XTS, &keys) == 0 &&
		      keyring_new(VOLUME_CIPHER_AES256_XTS, &kr) == 0,
	      "keys");
	keyring_install(kr, keys);
	test_names(kr);
	test_values(kr);
	test_one_form(kr);
	keyring_free(kr);
	test_round_trip(VOLUME_CIPHER_SPECK128_XTS, vmk);
	test_round_trip(VOLUME_CIPHER_SPECK64_XTS, vmk);
	test_round_trip(VOLUME_CIPHER_AES256_GCM, vmk);
	test_round_trip(VOLUME_CIPHER_XCHACHA20_POLY1305, vmk);
	test_sealed(VOLUME_CIPHER_AES256_GCM, vmk);
	test_sealed(VOLUME_CIPHER_XCHACHA20_POLY1305, vmk);
	return test_finish("test_xattr");
}
