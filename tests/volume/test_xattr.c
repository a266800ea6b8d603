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
	CHECK(xattr_load(kr, &xn, 16, stored, n, &value, &len) == 0 && len == 5 &&
		      memcmp(value, "hello", 5) == 0,
	      "hello");
	/* a long-form one begins with its encrypted name and a NUL */
	CHECK(xattr_name_store(kr, "trusted.comment", &xn) == 0, "store");
	n = hex_decode(trusted_value, stored, sizeof(stored));
	memcpy(copy, stored, n);
	CHECK(xattr_long_name_decrypt(kr, xn.stored, stored, n, plain) == 15 &&
		      strcmp(plain, "trusted.comment") == 0,
	      "long name");
	CHECK(xattr_load(kr, &xn, 16, stored, n, &value, &len) == 0 && len == 40,
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
	CHECK(xattr_load(kr, &xn, 16, stored, n, &value, &len) == -EBADMSG,
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
	size_t bs = volume_cipher_info(c)->blocksize;
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
			slen = xattr_stored_size(&xn, bs, vlen);
			CHECK(slen <= sizeof(out) &&
				      xattr_store(kr, &xn, bs, val, vlen, out) == 0,
			      "seal");
			CHECK(xattr_load(kr, &xn, bs, out, slen, &got, &len) == 0 &&
				      len == vlen && memcmp(got, val, vlen) == 0,
			      "%s %zu bytes", ns[i], vlen);
		}
	}
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
	return test_finish("test_xattr");
}
