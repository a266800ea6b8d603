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
 * "hctr2_base(xctr(aes),polyval)".
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
};
static int multi_err[sizeof(multi_specs) / sizeof(multi_specs[0])];

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
	for (size_t i = 0; !err && i < ARRAY_SIZE(multi_specs); i++)
		multi_err[i] = crypto_register_template(reg, multi_specs[i].spec);
	return err;
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

/* hctr2(aes) and its base name pick the same driver and the same bytes */
static void check_base_name(void)
{
	static const uint8_t key[32] = { 1, 2, 3 };
	uint8_t iv[32] = { 9 }, a[100], b[100];
	struct crypto_tfm *s, *l;
	int err, err2;

	s = crypto_alloc("hctr2(aes)", NULL, &err);
	l = crypto_alloc("hctr2_base(xctr(aes),polyval)", NULL, &err2);
	CHECK(s && l, "hctr2(aes): %d, hctr2_base(xctr(aes),polyval): %d", err, err2);
	if (s && l) {
		CHECK(!strcmp(crypto_tfm_driver_name(s), crypto_tfm_driver_name(l)),
		      "hctr2(aes) is %s, its base name %s", crypto_tfm_driver_name(s),
		      crypto_tfm_driver_name(l));
		memset(a, 0x5a, sizeof(a));
		CHECK(crypto_setkey(s, key, sizeof(key)) == 0 &&
		      crypto_setkey(l, key, sizeof(key)) == 0 &&
		      crypto_encrypt(s, iv, a, a, sizeof(a)) == 0, "hctr2 encrypt");
		memset(b, 0x5a, sizeof(b));
		CHECK(crypto_encrypt(l, iv, b, b, sizeof(b)) == 0 && !memcmp(a, b, sizeof(a)),
		      "hctr2 by its base name differs");
		CHECK(crypto_decrypt(l, iv, b, b, sizeof(b)) == 0 && b[0] == 0x5a &&
		      b[99] == 0x5a, "hctr2 does not decrypt");
	}
	crypto_free(s);
	crypto_free(l);
	CHECK(!crypto_alloc("hctr2_base(xctr(aes),ghash)", NULL, &err) && err == -ENOENT,
	      "hctr2_base over ghash found (%d)", err);
	/* an explicit instance without vectors is listed but never used */
	CHECK(!crypto_alloc(NULL, "hctr2-toy16-fit-test-polyval-generic", &err) &&
	      err == -ELIBBAD, "hctr2 over a toy cipher without vectors usable (%d)", err);
}

int main(void)
{
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
	/* no vectors for hctr2 over these: not offered */
	CHECK(!listed("hctr2-sm4-generic-polyval-generic") &&
	      !listed("hctr2-camellia-generic-polyval-generic") &&
	      !listed("hctr2-speck128-generic-polyval-generic"),
	      "hctr2 offered over a cipher without hctr2 vectors");
	check_parser();
	check_base_name();
	return test_finish("test_template_fit");
}
