/* SPDX-License-Identifier: MIT */
/*
 * Glue for the single-block NEON AES core (aes-neon-core.c, see
 * aes-neon.h). See aes-neon-glue.h.
 *
 * The core is built only when meson defines CLOAKFS_AES_NEON_CORE (ARM
 * host, simd option on); otherwise this file registers nothing.
 */
#include "crypto/arch/arm/aes-neon-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_AES_NEON_CORE) && (defined(__aarch64__) || defined(__arm__))

#include <errno.h>
#include <string.h>

#include "crypto/arch/arm/aes-neon.h"
#include "crypto/aes/aes-internal.h"

/* the FIPS-197 expansion, its little-endian words laid out as bytes */
static int aes_neon_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct aes_neon_key *ctx = vctx;
	uint32_t w[AES_MAX_KEY_WORDS];
	unsigned int rounds = aes_expand_key(w, key, keylen);

	if (!rounds)
		return -EINVAL;
	memset(ctx, 0, sizeof(*ctx));
	ctx->rounds = rounds;
	for (unsigned int i = 0; i < 4 * (rounds + 1); i++)
		for (unsigned int j = 0; j < 4; j++)
			ctx->rk[i / 4][4 * (i % 4) + j] = (uint8_t)(w[i] >> (8 * j));
	explicit_bzero(w, sizeof(w));
	return 0;
}

static const struct cipher_alg aes_neon_alg = {
	.blocksize = AES_BLOCK_SIZE,
	.keysizes = { 16, 24, 32, 0 },
	.ctxsize = sizeof(struct aes_neon_key),
	.setkey = aes_neon_setkey,
	.encrypt = aes_neon_encrypt_block,
	.decrypt = aes_neon_decrypt_block,
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
