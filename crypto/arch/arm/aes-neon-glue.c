/* SPDX-License-Identifier: MIT */
/*
 * Glue for the single-block NEON AES core (aes-neon-core.c, see
 * aes-neon.h). See aes-neon-glue.h.
 *
 * The core is built only when meson defines CLOAKFS_AES_NEON_CORE (ARM
 * host, simd option on; the bitsliced cores, CLOAKFS_AES_NEONBS_CORES,
 * come with it and take the batches); otherwise this file registers
 * nothing.
 */
#include "crypto/arch/arm/aes-neon-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_AES_NEON_CORE) && defined(CLOAKFS_AES_NEONBS_CORES) && \
	(defined(__aarch64__) || defined(__arm__))

#include <errno.h>
#include <string.h>

#include "crypto/arch/arm/aes-neon.h"
#include "crypto/arch/arm/aes-neonbs-core.h"
#include "crypto/arch/arm/aes-neonbs-glue.h"
#include "crypto/aes/aes-internal.h"

/*
 * The core's key first (the entry points take the context as theirs),
 * then the bitsliced key: batches of eight blocks and more (templates
 * such as gcm and hctr2 hand them over) go to the bitsliced core, which
 * costs less a block there than one block at a time here
 */
struct aes_neon_ctx {
	struct aes_neon_key k;
	struct aes_neonbs_key bs;
};

#define AES_NEON_BATCH (AES_NEONBS_CHUNK / AES_BLOCK_SIZE)

/* the FIPS-197 expansion, its little-endian words laid out as bytes */
static int aes_neon_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct aes_neon_ctx *ctx = vctx;
	uint32_t w[AES_MAX_KEY_WORDS];
	unsigned int rounds = aes_expand_key(w, key, keylen);

	if (!rounds)
		return -EINVAL;
	memset(&ctx->k, 0, sizeof(ctx->k));
	ctx->k.rounds = rounds;
	for (unsigned int i = 0; i < 4 * (rounds + 1); i++)
		for (unsigned int j = 0; j < 4; j++)
			ctx->k.rk[i / 4][4 * (i % 4) + j] = (uint8_t)(w[i] >> (8 * j));
	explicit_bzero(w, sizeof(w));
	return aes_neonbs_setkey(&ctx->bs, key, keylen);
}

/* whole batches through the bitsliced core, the rest one at a time */
static void aes_neon_blocks(const void *vctx, uint8_t *dst, const uint8_t *src,
			    size_t nblocks, int enc)
{
	const struct aes_neon_ctx *ctx = vctx;
	size_t batched = nblocks - nblocks % AES_NEON_BATCH;

	if (batched) {
		if (enc)
			aes_neonbs_encrypt_blocks(&ctx->bs, dst, src, batched);
		else
			aes_neonbs_decrypt_blocks(&ctx->bs, dst, src, batched);
	}
	for (size_t i = batched; i < nblocks; i++) {
		if (enc)
			aes_neon_encrypt_block(&ctx->k, dst + 16 * i, src + 16 * i);
		else
			aes_neon_decrypt_block(&ctx->k, dst + 16 * i, src + 16 * i);
	}
}

static void aes_neon_encrypt_blocks(const void *ctx, uint8_t *dst,
				    const uint8_t *src, size_t nblocks)
{
	aes_neon_blocks(ctx, dst, src, nblocks, 1);
}

static void aes_neon_decrypt_blocks(const void *ctx, uint8_t *dst,
				    const uint8_t *src, size_t nblocks)
{
	aes_neon_blocks(ctx, dst, src, nblocks, 0);
}

static const struct cipher_alg aes_neon_alg = {
	.blocksize = AES_BLOCK_SIZE,
	.keysizes = { 16, 24, 32, 0 },
	.ctxsize = sizeof(struct aes_neon_ctx),
	.setkey = aes_neon_setkey,
	.encrypt = aes_neon_encrypt_block,
	.decrypt = aes_neon_decrypt_block,
	.encrypt_blocks = aes_neon_encrypt_blocks,
	.decrypt_blocks = aes_neon_decrypt_blocks,
};

static const struct crypto_driver aes_neon_drivers[] = {
	{
		.alg_name = "aes",
		.driver_name = "aes-neon",
		.priority = 300,
		.features = CPU_FEAT_NEON,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &aes_neon_alg,
	},
};

/*
 * Registered whatever the CPU: the registry hides it without NEON
 * (HWCAP_NEON on AArch32, e.g. Cortex-R5F; always present on AArch64).
 */
int aes_neon_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, aes_neon_drivers,
				       ARRAY_SIZE(aes_neon_drivers));
}

#else /* no NEON core in this build */

int aes_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
