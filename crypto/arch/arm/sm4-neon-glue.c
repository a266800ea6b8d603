/* SPDX-License-Identifier: MIT */
/*
 * Glue of the AArch64 NEON SM4 core (sm4-arm64.h,
 * sm4-neon-core.S): the key schedule, and the tables of the
 * cipher driver and its bulk hooks, which are the core's entry points
 * themselves. See sm4-neon-glue.h.
 *
 * As for the x86 cores (sm4-x86-glue.c), the core needs plain round keys,
 * so it gets its own cipher driver "sm4-neon". Single blocks (the serial
 * CBC/CFB encryption) take the core's one-block path; 1 to 3 blocks left
 * of a multi-block call run as one 4-block set in the core. The key
 * schedule is the shared one (sm4-internal.h) with tau from the core, so
 * no table is indexed by key bytes; it is the only C here because the
 * core has no key schedule of its own to run (SM4EKEY is the CE core's).
 */
#include <errno.h>

#include "crypto/internal/registry.h"
#include "crypto/arch/arm/sm4-neon-glue.h"

#if defined(CLOAKFS_SM4_NEON_CORE) && defined(__aarch64__)

#include "crypto/arch/arm/sm4-arm64.h"
#include "crypto/sm4/sm4-internal.h"

/* GB/T 32907-2016 7.3, tau through the core's S-box */
static int sm4_neon_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct sm4_arm64_ctx *c = ctx;

	if (keylen != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_expand_key(key, sm4_tau_neon, c->rk_enc);
	for (unsigned int i = 0; i < SM4_ROUNDS; i++)
		c->rk_dec[SM4_ROUNDS - 1 - i] = c->rk_enc[i];
	return 0;
}

static const struct cipher_alg sm4_neon_cipher = {
	.blocksize = SM4_BLOCK_SIZE,
	.keysizes = { SM4_KEY_SIZE },
	.ctxsize = sizeof(struct sm4_arm64_ctx),
	.setkey = sm4_neon_setkey,
	.encrypt = sm4_encrypt_neon,
	.decrypt = sm4_decrypt_neon,
	.encrypt_blocks = sm4_encrypt_blocks_neon,
	.decrypt_blocks = sm4_decrypt_blocks_neon,
};

static const struct crypto_bulk_ops sm4_neon_bulk = {
	.chunk = SM4_ARM64_CHUNK,
	.min_bytes = SM4_ARM64_CHUNK,
	.xts_encrypt = sm4_xts_encrypt_neon,
	.xts_decrypt = sm4_xts_decrypt_neon,
	.ecb_encrypt = sm4_ecb_encrypt_neon,
	.ecb_decrypt = sm4_ecb_decrypt_neon,
	.cbc_decrypt = sm4_cbc_decrypt_neon,
	.cfb_decrypt = sm4_cfb_decrypt_neon,
	.ctr_crypt = sm4_ctr_crypt_neon,
};

/* Registered whatever the CPU: Advanced SIMD is part of every AArch64. */
int sm4_neon_register(struct crypto_registry *reg)
{
	/* 300: NEON (docs/design.md, "Driver priorities") */
	static const struct crypto_simd_cipher core = {
		"sm4", "sm4-neon", 300, CPU_FEAT_NEON,
		&sm4_neon_cipher, &sm4_neon_bulk,
	};

	return crypto_register_simd_ciphers(reg, &core, 1);
}

#else /* built without the core */

int sm4_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
