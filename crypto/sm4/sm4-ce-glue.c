/* SPDX-License-Identifier: MIT */
/*
 * Glue of the AArch64 SM4 Crypto Extension core (asm/arm64/sm4-ce-core.S):
 * key schedule, the single-block cipher driver and the bulk hooks of the
 * mode instances. See sm4-ce-glue.h.
 *
 * As for the x86 cores (sm4-x86-glue.c), the core needs plain round keys,
 * so it gets its own cipher driver "sm4-ce" rather than being a child of
 * sm4-generic (whose context holds folded round keys). The key schedule
 * is SM4EKEY; one block costs eight SM4E, so the C parts of the templates
 * (serial CBC/CFB encryption, remainders, ciphertext stealing, the first
 * XTS tweak) run through the same instructions.
 */
#include <errno.h>

#include "crypto/internal/registry.h"
#include "crypto/sm4/sm4-ce-glue.h"

#if defined(CLOAKFS_SM4_CE_CORE) && defined(__aarch64__)

#include "crypto/sm4/sm4-internal.h"

/* the core, asm/arm64/sm4-ce-core.S (contract in its header) */
void sm4_expand_key_ce(const uint8_t *key, uint32_t *rk_enc, uint32_t *rk_dec);
void sm4_crypt_block_ce(const uint32_t *rk, uint8_t *dst, const uint8_t *src);
void sm4_crypt_blocks_ce(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
			 size_t nblocks);
void sm4_xts_crypt_ce(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
		      size_t nbytes, uint8_t *tweak);
void sm4_cbc_decrypt_ce(const uint32_t *rk_dec, uint8_t *dst,
			const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_cfb_decrypt_ce(const uint32_t *rk_enc, uint8_t *dst,
			const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_ctr_crypt_ce(const uint32_t *rk_enc, uint8_t *dst, const uint8_t *src,
		      size_t nbytes, uint8_t *ctr);

/* the core's step: 8 blocks */
#define SM4_CE_CHUNK 128

struct sm4_ce_ctx {
	uint32_t rk_enc[SM4_ROUNDS];
	uint32_t rk_dec[SM4_ROUNDS]; /* rk_enc reversed */
};

static int sm4_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct sm4_ce_ctx *c = ctx;

	if (keylen != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_expand_key_ce(key, c->rk_enc, c->rk_dec);
	return 0;
}

static void sm4_ce_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	const struct sm4_ce_ctx *c = ctx;

	sm4_crypt_block_ce(c->rk_enc, dst, src);
}

static void sm4_ce_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	const struct sm4_ce_ctx *c = ctx;

	sm4_crypt_block_ce(c->rk_dec, dst, src);
}

static void sm4_ce_encrypt_blocks(const void *ctx, uint8_t *dst,
				  const uint8_t *src, size_t n)
{
	const struct sm4_ce_ctx *c = ctx;

	if (n)
		sm4_crypt_blocks_ce(c->rk_enc, dst, src, n);
}

static void sm4_ce_decrypt_blocks(const void *ctx, uint8_t *dst,
				  const uint8_t *src, size_t n)
{
	const struct sm4_ce_ctx *c = ctx;

	if (n)
		sm4_crypt_blocks_ce(c->rk_dec, dst, src, n);
}

/* bulk hooks: nbytes is a nonzero multiple of SM4_CE_CHUNK */
static void ecb_encrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes)
{
	sm4_ce_encrypt_blocks(ctx, dst, src, nbytes / SM4_BLOCK_SIZE);
}

static void ecb_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes)
{
	sm4_ce_decrypt_blocks(ctx, dst, src, nbytes / SM4_BLOCK_SIZE);
}

static void xts_encrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *tweak)
{
	const struct sm4_ce_ctx *c = ctx;

	sm4_xts_crypt_ce(c->rk_enc, dst, src, nbytes, tweak);
}

static void xts_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *tweak)
{
	const struct sm4_ce_ctx *c = ctx;

	sm4_xts_crypt_ce(c->rk_dec, dst, src, nbytes, tweak);
}

static void cbc_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *iv)
{
	const struct sm4_ce_ctx *c = ctx;

	sm4_cbc_decrypt_ce(c->rk_dec, dst, src, nbytes, iv);
}

static void cfb_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *iv)
{
	const struct sm4_ce_ctx *c = ctx;

	sm4_cfb_decrypt_ce(c->rk_enc, dst, src, nbytes, iv);
}

static void ctr_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
		     size_t nbytes, uint8_t *ctr)
{
	const struct sm4_ce_ctx *c = ctx;

	sm4_ctr_crypt_ce(c->rk_enc, dst, src, nbytes, ctr);
}

static const struct cipher_alg sm4_ce_cipher = {
	.blocksize = SM4_BLOCK_SIZE,
	.keysizes = { SM4_KEY_SIZE },
	.ctxsize = sizeof(struct sm4_ce_ctx),
	.setkey = sm4_ce_setkey,
	.encrypt = sm4_ce_encrypt,
	.decrypt = sm4_ce_decrypt,
	.encrypt_blocks = sm4_ce_encrypt_blocks,
	.decrypt_blocks = sm4_ce_decrypt_blocks,
};

static const struct crypto_bulk_ops sm4_ce_bulk = {
	.chunk = SM4_CE_CHUNK,
	.min_bytes = SM4_CE_CHUNK,
	.xts_encrypt = xts_encrypt_hook,
	.xts_decrypt = xts_decrypt_hook,
	.ecb_encrypt = ecb_encrypt_hook,
	.ecb_decrypt = ecb_decrypt_hook,
	.cbc_decrypt = cbc_decrypt_hook,
	.cfb_decrypt = cfb_decrypt_hook,
	.ctr_crypt = ctr_hook,
};

static const char *const bulk_modes[] = { "ecb", "cbc", "cfb", "ctr", "xts" };
static const char *const bulk_names[] = {
	"ecb-sm4-ce", "cbc-sm4-ce", "cfb-sm4-ce", "ctr-sm4-ce", "xts-sm4-ce",
};

int sm4_ce_register(struct crypto_registry *reg)
{
	const struct crypto_driver drv = {
		.alg_name = "sm4",
		.driver_name = "sm4-ce",
		.priority = 400, /* crypto extension, as STYLE.md */
		.features = CPU_FEAT_ARM_SM4,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &sm4_ce_cipher,
	};
	int err = crypto_register_driver(reg, &drv);

	/*
	 * Before the registry's automatic instances, which would take the
	 * same names without the bulk hooks.
	 */
	for (size_t m = 0; !err && m < ARRAY_SIZE(bulk_modes); m++)
		err = crypto_register_mode(reg, &(struct crypto_mode_instance){
			.mode = bulk_modes[m],
			.child_driver = "sm4-ce",
			.driver_name = bulk_names[m],
			.priority = 400,
			.features = CPU_FEAT_ARM_SM4,
			.flags = CRYPTO_F_CONST_TIME,
			.bulk = &sm4_ce_bulk,
		});
	return err;
}

#else /* built without the core */

int sm4_ce_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
