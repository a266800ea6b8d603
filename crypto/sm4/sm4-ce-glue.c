/* SPDX-License-Identifier: MIT */
/*
 * Glue of the AArch64 SM4 Crypto Extension core (asm/arm64/sm4-ce-core.S):
 * key schedule, the single-block cipher driver, and the core's entry
 * points for the bulk hooks of the mode instances, which
 * sm4-arm64-bulk.c shares with sm4-neon. See sm4-ce-glue.h.
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

#include "crypto/sm4/sm4-arm64-bulk.h"

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

static const struct sm4_arm64_core sm4_ce_core = {
	.crypt_blocks = sm4_crypt_blocks_ce,
	.xts_crypt = sm4_xts_crypt_ce,
	.cbc_decrypt = sm4_cbc_decrypt_ce,
	.cfb_decrypt = sm4_cfb_decrypt_ce,
	.ctr_crypt = sm4_ctr_crypt_ce,
};

static int sm4_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct sm4_arm64_ctx *c = ctx;

	if (keylen != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_expand_key_ce(key, c->rk_enc, c->rk_dec);
	c->core = &sm4_ce_core;
	return 0;
}

static void sm4_ce_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	const struct sm4_arm64_ctx *c = ctx;

	sm4_crypt_block_ce(c->rk_enc, dst, src);
}

static void sm4_ce_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	const struct sm4_arm64_ctx *c = ctx;

	sm4_crypt_block_ce(c->rk_dec, dst, src);
}

static void sm4_ce_encrypt_blocks(const void *ctx, uint8_t *dst,
				  const uint8_t *src, size_t n)
{
	const struct sm4_arm64_ctx *c = ctx;

	if (n)
		sm4_crypt_blocks_ce(c->rk_enc, dst, src, n);
}

static void sm4_ce_decrypt_blocks(const void *ctx, uint8_t *dst,
				  const uint8_t *src, size_t n)
{
	const struct sm4_arm64_ctx *c = ctx;

	if (n)
		sm4_crypt_blocks_ce(c->rk_dec, dst, src, n);
}

static const struct cipher_alg sm4_ce_cipher = {
	.blocksize = SM4_BLOCK_SIZE,
	.keysizes = { SM4_KEY_SIZE },
	.ctxsize = sizeof(struct sm4_arm64_ctx),
	.setkey = sm4_ce_setkey,
	.encrypt = sm4_ce_encrypt,
	.decrypt = sm4_ce_decrypt,
	.encrypt_blocks = sm4_ce_encrypt_blocks,
	.decrypt_blocks = sm4_ce_decrypt_blocks,
};

int sm4_ce_register(struct crypto_registry *reg)
{
	return sm4_arm64_register(reg, &(struct sm4_arm64_driver){
		.driver_name = "sm4-ce",
		.priority = 400, /* crypto extension (docs/design.md) */
		.features = CPU_FEAT_ARM_SM4,
		.cipher = &sm4_ce_cipher,
	});
}

#else /* built without the core */

int sm4_ce_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
