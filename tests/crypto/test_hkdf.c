/* SPDX-License-Identifier: MIT */
/*
 * HKDF-SHA512 (crypto/kdf/hkdf.c) known answers and limits.
 *
 * Vectors: Wycheproof testvectors/hkdf_sha512_test.json (C2SP/wycheproof,
 * google-wycheproof 0.8rc17), tcId as noted. tcId 21 is the maximal
 * output (255 * 64 bytes); its first and last 64 bytes are checked.
 * The OpenSSL EVP_KDF cross-check lives in test_oracle_openssl_chacha_sha.c
 * so that this test builds without OpenSSL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "crypto/kdf/hkdf.h"
#include "testutil.h"

struct hkdf_kat {
	int tcid;
	const char *ikm, *salt, *info;
	size_t size;
	const char *okm;
};

static const struct hkdf_kat wycheproof[] = {
	{ 1, "60ab7f45b0ad534683b3a6c020d4f775", "", "", 20,
	  "2109bd244744acae2b8caa9e70f57596ad680212" },
	{ 3, "d4dcb92a769f57c8bab8a420ee0aa351", "", "", 64,
	  "a8420281c08c5f087c9d54d5660847805b0fff2d6257f02bf849badfa8a29bee"
	  "84ebe704a6eadc0beba0c33805d5843e167b1966aeba6a15b0f1f7b3db8c407a" },
	{ 6, "5b01b2da3166f217cdd68de8af60078f", "",
	  "6884cfa7ffe8f27bf4ebc6e46a7e01488c79243a", 64,
	  "01e10d4c477c906d4f67105e4a8054bd2e9479d726166893fcf77b5df431ad00"
	  "7c0ae42847d3706a770a5e468783c9519804be63a404112dcd4ecea952952b73" },
	{ 11, "5d3db20e8238a90b62a600fa57fdb318",
	  "1d6f3b38a1e607b5e6bcd4af1800a9d3",
	  "2bc5f39032b6fc87da69ba8711ce735b169646fd", 42,
	  "8c3cf7122dcb5eb7efaf02718f1faf70bca20dcb75070e9d0871a413a6c05fc1"
	  "95a75aa9ffc349d70aae" },
	{ 12, "8677dc79233ef3480777c4c601ef4f0b",
	  "ad88db718244e2cb60e35f874d7ad81f",
	  "a38f634d947819a9bfa792174b42baa20c9fce15", 64,
	  "918e9cda37bf7f52506111048a878e64a503f9869d0c2615047b995f1efedc4f"
	  "713b4dbcc940838e68f6a2bf772ebefae9154e9075da80ea1fd68b9df580ad76" },
	{ 20, "34bae5a158c1678aa76a744417a70d7a",
	  "1532075f363e061133780ac959bf653c7687d181b9431215d6f62dd2f1ec3019"
	  "d61c50fa82c70ae25e624c849a276b0c57d7c02a4d753fe84a1a6621e9a5ef01",
	  "87ec30aa53acfc3d09ccc1d57d654fdbce403cd4", 42,
	  "65f5385dab06d375033a6a25926ef4bf5dc660737ab8ccef370af10cc9dcd774"
	  "3cf273fd048f64b7301e" },
	/* 23 and 24: an empty salt is 64 zero bytes */
	{ 23, "5943c65bc33bf05a205b04be8ae0ab2e", "",
	  "be082f301a03f87787a80fbea88941214d50c42b", 32,
	  "e91cabd2038706c02f8ba3102a545f40f340bf65de30d3c37c2408f14df06e1a" },
	{ 24, "5943c65bc33bf05a205b04be8ae0ab2e",
	  "0000000000000000000000000000000000000000000000000000000000000000"
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "be082f301a03f87787a80fbea88941214d50c42b", 32,
	  "e91cabd2038706c02f8ba3102a545f40f340bf65de30d3c37c2408f14df06e1a" },
	{ 25, "5943c65bc33bf05a205b04be8ae0ab2e",
	  "329f445e7de8a156cf26a0208dbb028d9de6ef76b8de67ca634f4a5a732138a1"
	  "bd436a7b345d7a0314c7ed0a00b0d34ecad2cb8bd141e2ecc1c77e237094d55154",
	  "be082f301a03f87787a80fbea88941214d50c42b", 32,
	  "23117b38f94d22c8180ed72976a1f784fe591caebb6a07c1f0cbf8e29c6938ee" },
	{ 27, "5943c65bc33bf05a205b04be8ae0ab2e", "e69dcaad55fb0536",
	  "be082f301a03f87787a80fbea88941214d50c42b", 32,
	  "e81c7970f06808e8cab6bc6f3a7ea308b19702197cb41a04eef602df9e26d05c" },
};

/* tcId 21: size 16320 = 255 * 64 */
static const char max_ikm[] = "dfc7c0159b921546a4ccb3067cafdd6c";
static const char max_salt[] =
	"8dec7fa5cb2bf9d277121bd42e04d963f3a6aa6ed54606babc4a40c210296848"
	"c08d79c03d018a3f71112dae4d63a0ff86cbe1174457f28946f3af58327d45fc";
static const char max_info[] = "7fa60cc2c830aba2";
static const char max_okm_head[] =
	"b52c51a447b923e2e6acfc05cd6fb0fb65d8f67f7facce95d3fd4b0dc0dc41d7"
	"a92bd06c1fa156d7756d603f8c26a5023cb842c7a133850e842aceea3779417d";
static const char max_okm_tail[] =
	"9d191e57b3d55a8b53af132f08d719a0860cae66962246e8ab1d99cee40b3db0"
	"579302fc23fa41f0e16a6b74728b07c833f6276c";

/* extract + expand in one, as the tests use it */
static int hkdf(const uint8_t *salt, size_t saltlen, const uint8_t *ikm,
		size_t ikmlen, const uint8_t *info, size_t infolen, uint8_t *out,
		size_t outlen)
{
	uint8_t prk[HKDF_SHA512_PRK_SIZE];
	int err = hkdf_sha512_extract(salt, saltlen, ikm, ikmlen, prk);

	if (!err)
		err = hkdf_sha512_expand(prk, info, infolen, out, outlen);
	return err;
}

static void test_wycheproof(void)
{
	for (size_t i = 0; i < sizeof(wycheproof) / sizeof(wycheproof[0]); i++) {
		const struct hkdf_kat *v = &wycheproof[i];
		uint8_t ikm[64], salt[128], info[64], want[64], out[64];
		size_t ikmlen = hex_decode(v->ikm, ikm, sizeof(ikm));
		size_t saltlen = hex_decode(v->salt, salt, sizeof(salt));
		size_t infolen = hex_decode(v->info, info, sizeof(info));
		size_t okmlen = hex_decode(v->okm, want, sizeof(want));
		int err;

		CHECK(okmlen == v->size, "tcId %d: bad vector", v->tcid);
		/* an empty salt or info is passed as NULL: allowed by hkdf.h */
		err = hkdf(saltlen ? salt : NULL, saltlen, ikm, ikmlen,
			   infolen ? info : NULL, infolen, out, v->size);
		CHECK(err == 0, "tcId %d: error %d", v->tcid, err);
		CHECK(!memcmp(out, want, v->size), "tcId %d: wrong okm", v->tcid);
		if (memcmp(out, want, v->size)) {
			hex_dump("got", out, v->size);
			hex_dump("want", want, v->size);
		}
	}
}

/* maximal output, every length is a prefix of it, one more is -EINVAL */
static void test_lengths(void)
{
	uint8_t ikm[16], salt[64], info[8], prk[64], head[64], tail[52];
	uint8_t *full = malloc(HKDF_SHA512_MAX_OUT + 1);
	uint8_t *part = malloc(HKDF_SHA512_MAX_OUT + 1);
	static const size_t lens[] = { 0, 1, 63, 64, 65, 127, 128, 129, 4096,
				       254 * 64 - 1, 254 * 64, 254 * 64 + 1,
				       255 * 64 - 1, 255 * 64 };
	int err;

	if (!full || !part) {
		CHECK(0, "out of memory");
		free(full);
		free(part);
		return;
	}
	hex_decode(max_ikm, ikm, sizeof(ikm));
	hex_decode(max_salt, salt, sizeof(salt));
	hex_decode(max_info, info, sizeof(info));
	hex_decode(max_okm_head, head, sizeof(head));
	CHECK(hex_decode(max_okm_tail, tail, sizeof(tail)) == sizeof(tail),
	      "bad tail vector");

	CHECK(hkdf_sha512_extract(salt, sizeof(salt), ikm, sizeof(ikm), prk) == 0,
	      "extract");
	err = hkdf_sha512_expand(prk, info, sizeof(info), full, HKDF_SHA512_MAX_OUT);
	CHECK(err == 0, "expand 255*64: %d", err);
	CHECK(!memcmp(full, head, sizeof(head)), "tcId 21: first 64 bytes");
	CHECK(!memcmp(full + HKDF_SHA512_MAX_OUT - sizeof(tail), tail, sizeof(tail)),
	      "tcId 21: last %zu bytes", sizeof(tail));

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		memset(part, 0xa5, HKDF_SHA512_MAX_OUT + 1);
		err = hkdf_sha512_expand(prk, info, sizeof(info), part, lens[i]);
		CHECK(err == 0, "expand %zu: %d", lens[i], err);
		CHECK(!memcmp(part, full, lens[i]), "expand %zu: not a prefix", lens[i]);
		CHECK(part[lens[i]] == 0xa5, "expand %zu: wrote past the end", lens[i]);
	}

	/* tcId 22: one byte over 255 * 64; nothing written */
	memset(part, 0xa5, 16);
	err = hkdf_sha512_expand(prk, info, sizeof(info), part,
				 HKDF_SHA512_MAX_OUT + 1);
	CHECK(err == -EINVAL, "expand 255*64+1: %d, want -EINVAL", err);
	CHECK(part[0] == 0xa5, "expand 255*64+1 wrote output");
	err = hkdf_sha512_expand(prk, info, sizeof(info), part, (size_t)-1);
	CHECK(err == -EINVAL, "expand SIZE_MAX: %d", err);

	/* output over the PRK itself (hkdf.h allows it) */
	memcpy(part, prk, sizeof(prk));
	err = hkdf_sha512_expand(part, info, sizeof(info), part, 100);
	CHECK(err == 0 && !memcmp(part, full, 100), "expand in place");

	free(full);
	free(part);
}

int main(void)
{
	int err = crypto_init();

	test_seed();
	CHECK(err == 0, "crypto_init: %d %s", err, crypto_init_error());
	if (err)
		return test_finish("test_hkdf");
	test_wycheproof();
	test_lengths();
	return test_finish("test_hkdf");
}
