/* SPDX-License-Identifier: MIT */
/*
 * The bulk hooks and the registration shared by the AArch64 SM4 drivers
 * (sm4-ce, sm4-neon). See sm4-arm64-bulk.h.
 */
#include "crypto/internal/registry.h"
#include "crypto/sm4/sm4-arm64-bulk.h"

/* both cores' step: 8 blocks */
#define SM4_ARM64_CHUNK 128

/* bulk hooks: nbytes is a nonzero multiple of SM4_ARM64_CHUNK */
static void ecb_encrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes)
{
	const struct sm4_arm64_ctx *c = ctx;

	c->core->crypt_blocks(c->rk_enc, dst, src, nbytes / SM4_BLOCK_SIZE);
}

static void ecb_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes)
{
	const struct sm4_arm64_ctx *c = ctx;

	c->core->crypt_blocks(c->rk_dec, dst, src, nbytes / SM4_BLOCK_SIZE);
}

static void xts_encrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *tweak)
{
	const struct sm4_arm64_ctx *c = ctx;

	c->core->xts_crypt(c->rk_enc, dst, src, nbytes, tweak);
}

static void xts_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *tweak)
{
	const struct sm4_arm64_ctx *c = ctx;

	c->core->xts_crypt(c->rk_dec, dst, src, nbytes, tweak);
}

static void cbc_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *iv)
{
	const struct sm4_arm64_ctx *c = ctx;

	c->core->cbc_decrypt(c->rk_dec, dst, src, nbytes, iv);
}

static void cfb_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *iv)
{
	const struct sm4_arm64_ctx *c = ctx;

	c->core->cfb_decrypt(c->rk_enc, dst, src, nbytes, iv);
}

static void ctr_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
		     size_t nbytes, uint8_t *ctr)
{
	const struct sm4_arm64_ctx *c = ctx;

	c->core->ctr_crypt(c->rk_enc, dst, src, nbytes, ctr);
}

static const struct crypto_bulk_ops sm4_arm64_bulk = {
	.chunk = SM4_ARM64_CHUNK,
	.min_bytes = SM4_ARM64_CHUNK,
	.xts_encrypt = xts_encrypt_hook,
	.xts_decrypt = xts_decrypt_hook,
	.ecb_encrypt = ecb_encrypt_hook,
	.ecb_decrypt = ecb_decrypt_hook,
	.cbc_decrypt = cbc_decrypt_hook,
	.cfb_decrypt = cfb_decrypt_hook,
	.ctr_crypt = ctr_hook,
};

int sm4_arm64_register(struct crypto_registry *reg,
		       const struct sm4_arm64_driver *drv)
{
	return crypto_register_simd_ciphers(reg, &(struct crypto_simd_cipher){
		.alg_name = "sm4",
		.driver_name = drv->driver_name,
		.priority = drv->priority,
		.features = drv->features,
		.cipher = drv->cipher,
		.bulk = &sm4_arm64_bulk,
	}, 1);
}
