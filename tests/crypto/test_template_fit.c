/* SPDX-License-Identifier: MIT */
/*
 * Templates fit their children: planted drivers that a template does not
 * take (a 12-byte-block cipher for XTS; a hash with 256-byte blocks and a
 * keyed hash for HMAC) get no instance of it and crypto_init still
 * succeeds, while the templates that do take them instantiate; an
 * explicit crypto_register_mode of a pair that does not fit is -EINVAL.
 */
#include <errno.h>
#include <string.h>

#include "crypto/crypto.h"
#include "crypto/internal/alg.h"
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
	return 0;
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
	return test_finish("test_template_fit");
}
