/* SPDX-License-Identifier: MIT */
/*
 * Templates fit their children: planted drivers that a template does not
 * take (a 12-byte-block cipher for XTS; a hash with 256-byte blocks and a
 * keyed hash for HMAC) get no instance of it and crypto_init still
 * succeeds, while the templates that do take them instantiate; an
 * explicit crypto_register_mode of a pair that does not fit is -EINVAL.
 * Templates with several children: the kernel-style name parser, the
 * fit check of each child of hctr2_base, its instances only where
 * vectors exist, and the lookup by the base name
 * "hctr2_base(xctr(aes),polyval)"; the fit of rfc7539's children, its
 * instances only where a driver folder names them, and an instance over
 * the generic children, and one over a chacha20 driver without
 * crypt_ks0, giving the bytes of the best one, tag checked before any
 * plaintext is released; the fit of gcm_base's children (a ctr instance
 * over a 16-byte block, ghash) and its instances only where vectors
 * exist; the fit of adiantum's three children and its lookup by
 * "adiantum(xchacha12,aes,nhpoly1305)".
 */
#include <errno.h>
#include <string.h>

#include "crypto/crypto.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/core.h"
#include "crypto/internal/registry.h"
#include "testutil.h"

/* toy ciphers: XOR with the key (shape only; never self-tested here) */
static int toy_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	memcpy(ctx, key, keylen);
	return 0;
}

static void toy12_crypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	for (int i = 0; i < 12; i++)
		dst[i] = src[i] ^ ((const uint8_t *)ctx)[i];
}

static void toy16_crypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	for (int i = 0; i < 16; i++)
		dst[i] = src[i] ^ ((const uint8_t *)ctx)[i];
}

static const struct cipher_alg toy12 = {
	.blocksize = 12, .keysizes = { 16 }, .ctxsize = 16,
	.setkey = toy_setkey, .encrypt = toy12_crypt, .decrypt = toy12_crypt,
};
static const struct cipher_alg toy16 = {
	.blocksize = 16, .keysizes = { 16 }, .ctxsize = 16,
	.setkey = toy_setkey, .encrypt = toy16_crypt, .decrypt = toy16_crypt,
};

static void big_init(void *st) { memset(st, 0, 8); }
static void big_update(void *st, const uint8_t *d, size_t n) { (void)st, (void)d, (void)n; }
static void big_final(void *st, uint8_t *out) { (void)st; memset(out, 0, 32); }

static const struct hash_alg bighash = {
	.digestsize = 32, .blocksize = 256, .statesize = 8,
	.init = big_init, .update = big_update, .final = big_final,
};

static int explicit_xts_err = 1;

/* crypto_register_template results, in the order of multi_specs */
static const struct {
	const char *spec;
	int want;
} multi_specs[] = {
	{ "hctr2_base(xctr-toy16-fit-test,polyval-generic)", 0 },
	/* a counter mode that is not XCTR, a hash that is not POLYVAL */
	{ "hctr2_base(ctr-toy16-fit-test,polyval-generic)", -EINVAL },
	{ "hctr2_base(xctr-toy16-fit-test,ghash-generic)", -EINVAL },
	/* the children swapped, one missing, one too many, malformed */
	{ "hctr2_base(polyval-generic,xctr-toy16-fit-test)", -EINVAL },
	{ "hctr2_base(xctr-toy16-fit-test)", -EINVAL },
	{ "hctr2_base(xctr-toy16-fit-test,polyval-generic,polyval-generic)", -EINVAL },
	{ "hctr2_base(xctr-toy16-fit-test,polyval-generic", -EINVAL },
	/* unknown template or child */
	{ "hctr3_base(xctr-toy16-fit-test,polyval-generic)", -ENOENT },
	{ "hctr2_base(xctr-toy16-fit-test,polyval-nosuch)", -ENOENT },
	/* rfc7539: a stream that is chacha20, a MAC that is poly1305 */
	{ "rfc7539(chacha20-generic,poly1305-generic)", 0 },
	{ "rfc7539(poly1305-generic,chacha20-generic)", -EINVAL },
	{ "rfc7539(chacha20-generic,polyval-generic)", -EINVAL },
	{ "rfc7539(xctr-toy16-fit-test,poly1305-generic)", -EINVAL },
	{ "rfc7539(chacha20-generic)", -EINVAL },
	/* gcm_base: a ctr instance over a 16-byte block, then ghash */
	{ "gcm_base(ctr-toy16-fit-test,ghash-generic)", 0 },
	{ "gcm_base(ctr-toy12-fit-test,ghash-generic)", -EINVAL },
	{ "gcm_base(xctr-toy16-fit-test,ghash-generic)", -EINVAL },
	{ "gcm_base(ctr-toy16-fit-test,polyval-generic)", -EINVAL },
	{ "gcm_base(ghash-generic,ctr-toy16-fit-test)", -EINVAL },
	{ "gcm_base(chacha20-generic,ghash-generic)", -EINVAL },
	/* adiantum: an XChaCha stream, AES, nhpoly1305, in that order */
	{ "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)", 0 },
	{ "adiantum(chacha20-generic,aes-generic,nhpoly1305-generic)", -EINVAL },
	{ "adiantum(chacha12-generic,aes-generic,nhpoly1305-generic)", -EINVAL },
	{ "adiantum(xchacha12-generic,camellia-generic,nhpoly1305-generic)", -EINVAL },
	{ "adiantum(xchacha12-generic,aes-generic,poly1305-generic)", -EINVAL },
	{ "adiantum(aes-generic,xchacha12-generic,nhpoly1305-generic)", -EINVAL },
	{ "adiantum(xchacha12-generic,aes-generic)", -EINVAL },
};
static int multi_err[sizeof(multi_specs) / sizeof(multi_specs[0])];

/*
 * chacha20-generic without crypt_ks0, so that an rfc7539 instance over
 * it takes the engine's other path (block 0 encrypted alone first)
 */
static struct skcipher_alg chacha20_noks0;

static int register_noks0(struct crypto_registry *reg)
{
	const struct crypto_driver *g = registry_find_driver("chacha20-generic");
	struct crypto_driver d;
	int err;

	if (!g)
		return -ENOENT;
	chacha20_noks0 = *g->u.skcipher;
	chacha20_noks0.crypt_ks0 = NULL;
	d = *g;
	d.driver_name = "chacha20-noks0-test";
	d.priority = 1;
	d.u.skcipher = &chacha20_noks0;
	err = crypto_register_driver(reg, &d);
	return err ? err : crypto_register_template_as(reg,
		"rfc7539(chacha20-noks0-test,poly1305-generic)", "rfc7539-noks0-test");
}

static int register_toys(struct crypto_registry *reg)
{
	const struct crypto_driver drivers[] = {
		{ .alg_name = "toy12", .driver_name = "toy12-fit-test", .priority = 100,
		  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_CIPHER,
		  .u.cipher = &toy12 },
		{ .alg_name = "toy16", .driver_name = "toy16-fit-test", .priority = 100,
		  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_CIPHER,
		  .u.cipher = &toy16 },
		{ .alg_name = "bighash", .driver_name = "bighash-fit-test", .priority = 100,
		  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
		  .u.hash = &bighash },
	};
	const struct crypto_mode_instance xts12 = {
		.mode = "xts", .child_driver = "toy12-fit-test",
	};
	int err = crypto_register_drivers(reg, drivers, ARRAY_SIZE(drivers));

	if (err)
		return err;
	explicit_xts_err = crypto_register_mode(reg, &xts12);
	/* the children the explicit hctr2_base instances name */
	err = crypto_register_mode(reg, &(struct crypto_mode_instance){
		.mode = "xctr", .child_driver = "toy16-fit-test" });
	if (!err)
		err = crypto_register_mode(reg, &(struct crypto_mode_instance){
			.mode = "ctr", .child_driver = "toy16-fit-test" });
	if (!err)
		err = crypto_register_mode(reg, &(struct crypto_mode_instance){
			.mode = "ctr", .child_driver = "toy12-fit-test" });
	for (size_t i = 0; !err && i < ARRAY_SIZE(multi_specs); i++)
		multi_err[i] = crypto_register_template(reg, multi_specs[i].spec);
	return err ? err : register_noks0(reg);
}

static int listed(const char *driver)
{
	struct crypto_driver_info info;
	unsigned int n = crypto_driver_count();

	for (unsigned int i = 0; i < n; i++)
		if (!crypto_driver_info(i, &info) && !strcmp(info.driver_name, driver))
			return 1;
	return 0;
}

/* the kernel-style name parser on good and bad names */
static void check_parser(void)
{
	static const char *const bad[] = {
		"", "t(", "t()", "t(a", "t(a))", "t(a)b", "a,b", "a)", "t(a,,b)",
		"t(a,)", "(a)", "t(a(b)", "t(a,b,c,d)",
	};
	struct crypto_name nm;

	CHECK(crypto_name_parse("hctr2_base(xctr(aes),polyval)", &nm) == 0 &&
	      !strcmp(nm.tmpl, "hctr2_base") && nm.nargs == 2 &&
	      !strcmp(nm.args[0], "xctr(aes)") && !strcmp(nm.args[1], "polyval"),
	      "hctr2_base(xctr(aes),polyval) parsed wrong");
	CHECK(crypto_name_parse("cts(cbc(aes))", &nm) == 0 && nm.nargs == 1 &&
	      !strcmp(nm.tmpl, "cts") && !strcmp(nm.args[0], "cbc(aes)"),
	      "cts(cbc(aes)) parsed wrong");
	CHECK(crypto_name_parse("t(a(b,c),d)", &nm) == 0 && nm.nargs == 2 &&
	      !strcmp(nm.args[0], "a(b,c)") && !strcmp(nm.args[1], "d"),
	      "t(a(b,c),d) parsed wrong");
	CHECK(crypto_name_parse("aes", &nm) == 0 && nm.nargs == 0 &&
	      !strcmp(nm.tmpl, "aes"), "aes parsed wrong");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(crypto_name_parse(bad[i], &nm) == -EINVAL,
		      "malformed name \"%s\" accepted", bad[i]);
}

/* an algorithm and its base name pick the same driver and the same bytes */
static void check_same_as_base(const char *alg, const char *base)
{
	static const uint8_t key[32] = { 1, 2, 3 };
	uint8_t iv[32] = { 9 }, a[100], b[100];
	struct crypto_tfm *s, *l;
	int err, err2;

	s = crypto_alloc(alg, NULL, &err);
	l = crypto_alloc(base, NULL, &err2);
	CHECK(s && l, "%s: %d, %s: %d", alg, err, base, err2);
	if (s && l) {
		CHECK(!strcmp(crypto_tfm_driver_name(s), crypto_tfm_driver_name(l)),
		      "%s is %s, its base name %s", alg, crypto_tfm_driver_name(s),
		      crypto_tfm_driver_name(l));
		memset(a, 0x5a, sizeof(a));
		CHECK(crypto_setkey(s, key, sizeof(key)) == 0 &&
		      crypto_setkey(l, key, sizeof(key)) == 0 &&
		      crypto_encrypt(s, iv, a, a, sizeof(a)) == 0, "%s encrypt", alg);
		memset(b, 0x5a, sizeof(b));
		CHECK(crypto_encrypt(l, iv, b, b, sizeof(b)) == 0 && !memcmp(a, b, sizeof(a)),
		      "%s by its base name differs", alg);
		CHECK(crypto_decrypt(l, iv, b, b, sizeof(b)) == 0 && b[0] == 0x5a &&
		      b[99] == 0x5a, "%s does not decrypt", alg);
	}
	crypto_free(s);
	crypto_free(l);
}

/* the gcm(aes) drivers that are fused cores, not gcm_base instances */
static int is_fused_gcm(const char *name)
{
	static const char *const fused[] = { "gcm-aes-vaes-avx512", "gcm-aes-vaes-avx2",
					     "gcm-aes-aesni-pclmul",
					     "gcm-aes-ce-pmull" };

	for (size_t i = 0; i < sizeof(fused) / sizeof(fused[0]); i++)
		if (!strcmp(name, fused[i]))
			return 1;
	return 0;
}

static void check_base_name(void)
{
	struct crypto_tfm *s, *l;
	int err, err2;

	check_same_as_base("hctr2(aes)", "hctr2_base(xctr(aes),polyval)");
	check_same_as_base("adiantum(xchacha12,aes)", "adiantum(xchacha12,aes,nhpoly1305)");
	check_same_as_base("adiantum(xchacha20,aes)", "adiantum(xchacha20,aes,nhpoly1305)");
	/*
	 * an AEAD: the same driver (its bytes: test_aead_drivers), unless
	 * gcm(aes) is a fused core, which sits above every instance and is
	 * no gcm_base
	 */
	s = crypto_alloc("gcm(aes)", NULL, &err);
	l = crypto_alloc("gcm_base(ctr(aes),ghash)", NULL, &err2);
	CHECK(s && l && (!strcmp(crypto_tfm_driver_name(s), crypto_tfm_driver_name(l)) ||
			 is_fused_gcm(crypto_tfm_driver_name(s))),
	      "gcm(aes) (%d) and gcm_base(ctr(aes),ghash) (%d) differ", err, err2);
	CHECK(!l || !is_fused_gcm(crypto_tfm_driver_name(l)),
	      "gcm_base(ctr(aes),ghash) is the fused %s", crypto_tfm_driver_name(l));
	crypto_free(s);
	crypto_free(l);
	CHECK(!crypto_alloc("hctr2_base(xctr(aes),ghash)", NULL, &err) && err == -ENOENT,
	      "hctr2_base over ghash found (%d)", err);
	/* an explicit instance without vectors is listed but never used */
	CHECK(!crypto_alloc(NULL, "hctr2-toy16-fit-test-polyval-generic", &err) &&
	      err == -ELIBBAD, "hctr2 over a toy cipher without vectors usable (%d)", err);
}

/*
 * The rfc7539 instance this test registered (under the children's name)
 * against the best driver of the algorithm: across the engine's paths
 * (one call on the stack, block 0 with the first piece, 4 KiB pieces)
 * the same ciphertext and tag; a flipped tag bit gives -EBADMSG and a
 * zeroed dst, in place too.
 */
static void check_rfc7539(const char *driver)
{
	static const size_t lens[] = { 0, 1, 16, 63, 64, 65, 959, 960, 961, 1023,
				       1024, 1025, 4095, 4096, 4097, 9000 };
	uint8_t key[32], nonce[12], aad[37], tag[16], rtag[16];
	static uint8_t src[9000], a[9000], b[9000];
	struct crypto_tfm *t, *r;
	int err, err2;

	t = crypto_alloc(NULL, driver, &err);
	r = crypto_alloc("rfc7539(chacha20,poly1305)", NULL, &err2);
	CHECK(t && r, "rfc7539 instances: %d, %d", err, err2);
	if (!t || !r) {
		crypto_free(t);
		crypto_free(r);
		return;
	}
	test_random_bytes(key, sizeof(key));
	test_random_bytes(nonce, sizeof(nonce));
	test_random_bytes(aad, sizeof(aad));
	test_random_bytes(src, sizeof(src));
	CHECK(crypto_setkey(t, key, 32) == 0 && crypto_setkey(r, key, 32) == 0,
	      "rfc7539 setkey");
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		size_t n = lens[i], alen = i % 3 ? sizeof(aad) - i : 0;
		int ok;

		CHECK(crypto_aead_encrypt(t, nonce, aad, alen, a, src, n, tag) == 0 &&
		      crypto_aead_encrypt(r, nonce, aad, alen, b, src, n, rtag) == 0,
		      "rfc7539 encrypt %zu", n);
		CHECK(!memcmp(a, b, n) && !memcmp(tag, rtag, 16),
		      "%s differs from %s at %zu bytes", driver,
		      crypto_tfm_driver_name(r), n);
		tag[i % 16] ^= 0x10;
		err = crypto_aead_decrypt(t, nonce, aad, alen, b, a, n, tag);
		ok = 1;
		for (size_t k = 0; k < n; k++)
			ok &= b[k] == 0;
		CHECK(err == -EBADMSG && ok, "rfc7539 forged tag at %zu: %d, dst %s",
		      n, err, ok ? "zeroed" : "not zeroed");
		err = crypto_aead_decrypt(t, nonce, aad, alen, a, a, n, tag);
		ok = 1;
		for (size_t k = 0; k < n; k++)
			ok &= a[k] == 0;
		CHECK(err == -EBADMSG && ok, "rfc7539 forged tag in place at %zu", n);
		tag[i % 16] ^= 0x10;
		CHECK(crypto_aead_encrypt(t, nonce, aad, alen, a, src, n, tag) == 0 &&
		      crypto_aead_decrypt(t, nonce, aad, alen, a, a, n, tag) == 0 &&
		      !memcmp(a, src, n), "rfc7539 round trip at %zu", n);
	}
	crypto_free(t);
	crypto_free(r);
}

int main(void)
{
	test_seed();
	CHECK(crypto_add_registrar(register_toys) == 0, "add registrar");
	CHECK(crypto_init() == 0, "crypto_init with unfitting children: %s",
	      crypto_init_error());
	CHECK(explicit_xts_err == -EINVAL,
	      "explicit xts over a 12-byte block: %d, want -EINVAL", explicit_xts_err);
	CHECK(!listed("xts-toy12-fit-test"), "xts instantiated over a 12-byte block");
	CHECK(listed("ecb-toy12-fit-test") && listed("cbc-toy12-fit-test"),
	      "ecb/cbc not instantiated over a 12-byte block");
	CHECK(listed("xts-toy16-fit-test") && listed("xctr-toy16-fit-test"),
	      "xts/xctr not instantiated over a 16-byte block");
	CHECK(!listed("xctr-toy12-fit-test") && !listed("xctr-speck64-generic"),
	      "xctr instantiated over a block other than 16 bytes");
	CHECK(!listed("hmac-bighash-fit-test"), "hmac over a 256-byte-block hash");
	CHECK(listed("hmac-sha512-generic"), "hmac(sha512) missing");
	CHECK(!listed("hmac-ghash-generic") && !listed("hmac-polyval-generic"),
	      "hmac over a keyed hash");
	for (size_t i = 0; i < ARRAY_SIZE(multi_specs); i++)
		CHECK(multi_err[i] == multi_specs[i].want, "%s: %d, want %d",
		      multi_specs[i].spec, multi_err[i], multi_specs[i].want);
	CHECK(listed("hctr2-toy16-fit-test-polyval-generic"),
	      "explicit hctr2_base instance missing");
	CHECK(listed("hctr2-aes-generic-polyval-generic"), "hctr2(aes) missing");
	/* hctr2 vectors exist over SM4 and Camellia (an oracle's), not Speck */
	CHECK(listed("hctr2-sm4-generic-polyval-generic") &&
	      listed("hctr2-camellia-generic-polyval-generic"),
	      "hctr2(sm4) or hctr2(camellia) missing");
	CHECK(!listed("hctr2-speck128-generic-polyval-generic"),
	      "hctr2 offered over a cipher without hctr2 vectors");
	CHECK(listed("rfc7539-chacha20-generic-poly1305-generic") &&
	      listed("rfc7539-chacha20-poly1305-generic"),
	      "rfc7539 instances missing");
	/* not instantiated over every pair: the registered ones only */
	CHECK(!listed("rfc7539-chacha20-avx512-poly1305-avx2") &&
	      !listed("rfc7539-chacha20-ssse3-poly1305-generic"),
	      "rfc7539 instantiated over a pair no driver folder named");
	CHECK(listed("gcm-aes-generic-ghash-generic") && listed("gcm-toy16-fit-test-ghash-generic"),
	      "gcm_base instances missing");
	/* no vectors for gcm over these: not offered */
	CHECK(!listed("gcm-sm4-generic-ghash-generic") &&
	      !listed("gcm-camellia-generic-ghash-generic"),
	      "gcm offered over a cipher without gcm vectors");
	check_parser();
	check_base_name();
	check_rfc7539("rfc7539-chacha20-generic-poly1305-generic");
	check_rfc7539("rfc7539-noks0-test");
	return test_finish("test_template_fit");
}
