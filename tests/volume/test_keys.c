/* SPDX-License-Identifier: MIT */
/*
 * keys.h: the HKDF-SHA-512 hierarchy, checked against libsodium's
 * HMAC-SHA-512 as an independent oracle, and the keyed transforms it
 * hands out; plus fixed vectors (also in docs/format.md).
 */
#include <errno.h>
#include <sodium.h>
#include <string.h>

#include "tests/volume/voltest.h"
#include "volume/keys/keys.h"

/* HKDF-SHA-512 with outlen <= 64: T(1) = HMAC(PRK, info || 0x01) */
static void oracle(const uint8_t vmk[64], const char *label, const uint8_t *ctx,
		   size_t ctxlen, uint8_t *out, size_t outlen)
{
	uint8_t prk[64], info[64], t[64];
	size_t llen = strlen(label);
	crypto_auth_hmacsha512_state st;

	crypto_auth_hmacsha512_init(&st, (const uint8_t *)"cloakfs v1", 10);
	crypto_auth_hmacsha512_update(&st, vmk, 64);
	crypto_auth_hmacsha512_final(&st, prk);
	memcpy(info, label, llen);
	info[llen] = 0;
	if (ctxlen)
		memcpy(info + llen + 1, ctx, ctxlen);
	info[llen + 1 + ctxlen] = 1;
	crypto_auth_hmacsha512_init(&st, prk, 64);
	crypto_auth_hmacsha512_update(&st, info, llen + 2 + ctxlen);
	crypto_auth_hmacsha512_final(&st, t);
	memcpy(out, t, outlen);
}

/* tfm a encrypts like tfm b */
static int same_cipher(struct crypto_tfm *a, struct crypto_tfm *b, size_t len)
{
	uint8_t in[64], o1[64], o2[64], iv1[16] = { 1 }, iv2[16] = { 1 };

	test_random_bytes(in, sizeof(in));
	return crypto_encrypt(a, iv1, o1, in, len) == 0 &&
	       crypto_encrypt(b, iv2, o2, in, len) == 0 && memcmp(o1, o2, len) == 0;
}

static void test_cipher(enum volume_cipher c)
{
	const struct volume_cipher_info *ci = volume_cipher_info(c);
	uint8_t vmk[64], nonce[16], nonce2[16], got[64], want[64];
	struct volume_keys *k;
	struct crypto_tfm *t, *ref, *t2;
	int err;

	test_random_bytes(vmk, 64);
	test_random_bytes(nonce, 16);
	test_random_bytes(nonce2, 16);
	CHECK(keys_new(vmk, c, &k) == 0, "keys_new");
	CHECK(keys_cipher(k) == c, "cipher");

	CHECK(keys_key_id(k, got) == 0, "key id");
	oracle(vmk, "key-id", NULL, 0, want, 16);
	CHECK(memcmp(got, want, 16) == 0, "%s: key-id = HKDF(\"key-id\")", ci->name);

	CHECK(keys_derive(k, "contents", nonce, 16, got, ci->xts_keysize) == 0,
	      "derive");
	oracle(vmk, "contents", nonce, 16, want, ci->xts_keysize);
	CHECK(memcmp(got, want, ci->xts_keysize) == 0, "%s: contents key",
	      ci->name);

	/* the contents tfm is keyed with exactly that */
	t = keys_contents_tfm(k, nonce, &err);
	ref = voltest_alloc(ci->xts_alg);
	CHECK(t && ref, "tfms");
	if (t && ref) {
		CHECK(strcmp(crypto_tfm_alg_name(t), ci->xts_alg) == 0, "alg");
		CHECK(crypto_setkey(ref, want, ci->xts_keysize) == 0, "setkey");
		CHECK(same_cipher(t, ref, 64), "%s: contents tfm", ci->name);
		/* re-keying an existing tfm for another file */
		CHECK(keys_set_contents_key(k, nonce2, ref) == 0, "rekey");
		oracle(vmk, "contents", nonce2, 16, want, ci->xts_keysize);
		t2 = voltest_alloc(ci->xts_alg);
		CHECK(t2 && crypto_setkey(t2, want, ci->xts_keysize) == 0 &&
			      same_cipher(ref, t2, 64) && !same_cipher(t, t2, 64),
		      "%s: per-file keys", ci->name);
		crypto_free(t2);
	}
	crypto_free(t);
	crypto_free(ref);

	oracle(vmk, "names", nonce, 16, want, ci->name_keysize);
	CHECK(keys_derive(k, "names", nonce, 16, got, ci->name_keysize) == 0 &&
		      memcmp(got, want, ci->name_keysize) == 0,
	      "%s: names key", ci->name);
	t = keys_names_tfm(k, nonce, &err);
	ref = voltest_alloc(ci->cts_alg);
	CHECK(t && ref && crypto_setkey(ref, want, ci->name_keysize) == 0 &&
		      same_cipher(t, ref, 40),
	      "%s: names tfm", ci->name);
	crypto_free(t);
	crypto_free(ref);
	keys_free(k);
}

/*
 * fixed inputs: VMK = 00 01 .. 3f, nonce = f0 f1 .. ff; the outputs were
 * cross-checked with Python's hmac module (docs/format.md lists them)
 */
static void test_vectors(void)
{
	static const char *const want_id = "08549497b8b02646bc405c650545a9ee";
	static const char *const want_contents =
		"c916b0cbdab3fa7cc24b0fbcdc4548010b8ba50a8230662fd42a8391c8b64cb8"
		"028ac6cefd827e2ab413481d8ebadb4c69fd96c6f7759313d870b265b93290bb";
	static const char *const want_names =
		"298c15b8ec47136cf1879a3eabed89afaf46e37c7a3e3be079c1c876a9581b7e";
	uint8_t vmk[64], nonce[16], got[64], exp[64];
	struct volume_keys *k;

	for (int i = 0; i < 64; i++)
		vmk[i] = (uint8_t)i;
	for (int i = 0; i < 16; i++)
		nonce[i] = (uint8_t)(0xf0 + i);
	CHECK(keys_new(vmk, VOLUME_CIPHER_AES256_XTS, &k) == 0, "keys");
	CHECK(keys_key_id(k, got) == 0 && hex_decode(want_id, exp, 16) == 16 &&
		      memcmp(got, exp, 16) == 0,
	      "key-id vector");
	CHECK(keys_derive(k, "contents", nonce, 16, got, 64) == 0 &&
		      hex_decode(want_contents, exp, 64) == 64 &&
		      memcmp(got, exp, 64) == 0,
	      "contents vector");
	CHECK(keys_derive(k, "names", nonce, 16, got, 32) == 0 &&
		      hex_decode(want_names, exp, 32) == 32 &&
		      memcmp(got, exp, 32) == 0,
	      "names vector");
	keys_free(k);
}

int main(void)
{
	static const enum volume_cipher ciphers[] = {
		VOLUME_CIPHER_SPECK128_XTS, VOLUME_CIPHER_SPECK64_XTS,
		VOLUME_CIPHER_AES256_XTS, VOLUME_CIPHER_SM4_XTS,
		VOLUME_CIPHER_CAMELLIA256_XTS
	};

	test_seed();
	if (sodium_init() < 0)
		return 1;
	for (size_t c = 0; c < 4; c++) {
		const struct volume_cipher_info *ci = volume_cipher_info(ciphers[c]);
		struct crypto_tfm *x = voltest_alloc(ci->xts_alg);
		struct crypto_tfm *n = voltest_alloc(ci->cts_alg);

		if (x && n)
			test_cipher(ciphers[c]);
		crypto_free(x);
		crypto_free(n);
	}
	test_vectors();
	return test_finish("test_keys");
}
