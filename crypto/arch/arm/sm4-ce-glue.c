/* SPDX-License-Identifier: MIT */
/*
 * Glue of the AArch64 SM4 Crypto Extension core (sm4-arm64.h,
 * sm4-ce-core.S): the tables of the cipher driver and its bulk
 * hooks, which are the core's entry points themselves. See sm4-ce-glue.h.
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
#include "crypto/arch/arm/sm4-ce-glue.h"

#if defined(CLOAKFS_SM4_CE_CORE) && defined(__aarch64__)

#include "crypto/arch/arm/sm4-arm64.h"
#include "crypto/sm4/sm4-internal.h"

/* the core's setkey returns this constant for a bad key length */
_Static_assert(SM4_ARM64_EINVAL == EINVAL, "SM4_ARM64_EINVAL");

static const struct cipher_alg sm4_ce_cipher = {
	.blocksize = SM4_BLOCK_SIZE,
	.keysizes = { SM4_KEY_SIZE },
	.ctxsize = sizeof(struct sm4_arm64_ctx),
	.setkey = sm4_setkey_ce,
	.encrypt = sm4_encrypt_ce,
	.decrypt = sm4_decrypt_ce,
	.encrypt_blocks = sm4_encrypt_blocks_ce,
	.decrypt_blocks = sm4_decrypt_blocks_ce,
};

static const struct crypto_bulk_ops sm4_ce_bulk = {
	.chunk = SM4_ARM64_CHUNK,
	.min_bytes = SM4_ARM64_CHUNK,
	.xts_encrypt = sm4_xts_encrypt_ce,
	.xts_decrypt = sm4_xts_decrypt_ce,
	.ecb_encrypt = sm4_ecb_encrypt_ce,
	.ecb_decrypt = sm4_ecb_decrypt_ce,
	.cbc_decrypt = sm4_cbc_decrypt_ce,
	.cfb_decrypt = sm4_cfb_decrypt_ce,
	.ctr_crypt = sm4_ctr_crypt_ce,
};

int sm4_ce_register(struct crypto_registry *reg)
{
	/* 400: crypto extension (docs/design.md, "Driver priorities") */
	static const struct crypto_simd_cipher core = {
		"sm4", "sm4-ce", 400, CPU_FEAT_ARM_SM4,
		&sm4_ce_cipher, &sm4_ce_bulk,
	};

	return crypto_register_simd_ciphers(reg, &core, 1);
}

#else /* built without the core */

int sm4_ce_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
