/* SPDX-License-Identifier: MIT */
/*
 * Glue of the AArch64 NEON SM4 core (asm/arm64/sm4-neon-core.S): key
 * schedule, the single-block cipher driver, and the core's entry points
 * for the bulk hooks of the mode instances, which sm4-arm64-bulk.c shares
 * with sm4-ce. See sm4-neon-glue.h.
 *
 * As for the x86 cores (sm4-x86-glue.c), the core needs plain round keys,
 * so it gets its own cipher driver "sm4-neon". Single blocks (the serial
 * CBC/CFB encryption) take the core's one-block path; 2 or 3 remaining
 * blocks are padded to the core's 4-block step on the stack, which costs
 * about as much as one block. The key schedule takes tau from the core,
 * so no table is indexed by key bytes.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/registry.h"
#include "crypto/sm4/sm4-neon-glue.h"

#if defined(CLOAKFS_SM4_NEON_CORE) && defined(__aarch64__)

#include "crypto/sm4/sm4-arm64-bulk.h"

/* the core, asm/arm64/sm4-neon-core.S (contract in its header) */
uint32_t sm4_tau_neon(uint32_t w);
void sm4_crypt_block_neon(const uint32_t *rk, uint8_t *dst, const uint8_t *src);
void sm4_crypt_blocks_neon(const uint32_t *rk, uint8_t *dst,
			   const uint8_t *src, size_t nblocks);
void sm4_xts_crypt_neon(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
			size_t nbytes, uint8_t *tweak);
void sm4_cbc_decrypt_neon(const uint32_t *rk_dec, uint8_t *dst,
			  const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_cfb_decrypt_neon(const uint32_t *rk_enc, uint8_t *dst,
			  const uint8_t *src, size_t nbytes, uint8_t *iv);
void sm4_ctr_crypt_neon(const uint32_t *rk_enc, uint8_t *dst,
			const uint8_t *src, size_t nbytes, uint8_t *ctr);

/* the core's smallest ECB call: 4 blocks */
#define SM4_NEON_MIN_BLOCKS 4

static const struct sm4_arm64_core sm4_neon_core = {
	.crypt_blocks = sm4_crypt_blocks_neon,
	.xts_crypt = sm4_xts_crypt_neon,
	.cbc_decrypt = sm4_cbc_decrypt_neon,
	.cfb_decrypt = sm4_cfb_decrypt_neon,
	.ctr_crypt = sm4_ctr_crypt_neon,
};

/* GB/T 32907-2016 7.3, tau through the core's S-box */
static int sm4_neon_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct sm4_arm64_ctx *c = ctx;

	if (keylen != SM4_KEY_SIZE)
		return -EINVAL;
	sm4_expand_key(key, sm4_tau_neon, c->rk_enc);
	for (unsigned int i = 0; i < SM4_ROUNDS; i++)
		c->rk_dec[SM4_ROUNDS - 1 - i] = c->rk_enc[i];
	c->core = &sm4_neon_core;
	return 0;
}

/* any n: whole 4-block groups in place, the rest padded on the stack */
static void sm4_neon_blocks(const uint32_t *rk, uint8_t *dst,
			    const uint8_t *src, size_t n)
{
	uint8_t buf[SM4_NEON_MIN_BLOCKS * SM4_BLOCK_SIZE];
	size_t whole = n - n % SM4_NEON_MIN_BLOCKS, rest = n - whole;

	if (whole)
		sm4_crypt_blocks_neon(rk, dst, src, whole);
	src += whole * SM4_BLOCK_SIZE;
	dst += whole * SM4_BLOCK_SIZE;
	if (rest == 1)
		sm4_crypt_block_neon(rk, dst, src);
	if (rest < 2)
		return;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, src, rest * SM4_BLOCK_SIZE);
	sm4_crypt_blocks_neon(rk, buf, buf, SM4_NEON_MIN_BLOCKS);
	memcpy(dst, buf, rest * SM4_BLOCK_SIZE);
	explicit_bzero(buf, sizeof(buf));
}

static void sm4_neon_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	const struct sm4_arm64_ctx *c = ctx;

	sm4_crypt_block_neon(c->rk_enc, dst, src);
}

static void sm4_neon_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	const struct sm4_arm64_ctx *c = ctx;

	sm4_crypt_block_neon(c->rk_dec, dst, src);
}

static void sm4_neon_encrypt_blocks(const void *ctx, uint8_t *dst,
				    const uint8_t *src, size_t n)
{
	const struct sm4_arm64_ctx *c = ctx;

	sm4_neon_blocks(c->rk_enc, dst, src, n);
}

static void sm4_neon_decrypt_blocks(const void *ctx, uint8_t *dst,
				    const uint8_t *src, size_t n)
{
	const struct sm4_arm64_ctx *c = ctx;

	sm4_neon_blocks(c->rk_dec, dst, src, n);
}

static const struct cipher_alg sm4_neon_cipher = {
	.blocksize = SM4_BLOCK_SIZE,
	.keysizes = { SM4_KEY_SIZE },
	.ctxsize = sizeof(struct sm4_arm64_ctx),
	.setkey = sm4_neon_setkey,
	.encrypt = sm4_neon_encrypt,
	.decrypt = sm4_neon_decrypt,
	.encrypt_blocks = sm4_neon_encrypt_blocks,
	.decrypt_blocks = sm4_neon_decrypt_blocks,
};

/* Registered whatever the CPU: Advanced SIMD is part of every AArch64. */
int sm4_neon_register(struct crypto_registry *reg)
{
	return sm4_arm64_register(reg, &(struct sm4_arm64_driver){
		.driver_name = "sm4-neon",
		.priority = 300, /* NEON: docs/design.md, "Driver priorities" */
		.features = CPU_FEAT_NEON,
		.cipher = &sm4_neon_cipher,
	});
}

#else /* built without the core */

int sm4_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
