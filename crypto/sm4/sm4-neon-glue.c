/* SPDX-License-Identifier: MIT */
/*
 * Glue of the AArch64 NEON SM4 core (asm/arm64/sm4-neon-core.S): key
 * schedule, the single-block cipher driver and the bulk hooks of the mode
 * instances. See sm4-neon-glue.h.
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

#include "crypto/sm4/sm4-internal.h"

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

/* the core's step: 8 blocks; its smallest ECB call: 4 */
#define SM4_NEON_CHUNK 128
#define SM4_NEON_MIN_BLOCKS 4

struct sm4_neon_ctx {
	uint32_t rk_enc[SM4_ROUNDS];
	uint32_t rk_dec[SM4_ROUNDS]; /* rk_enc reversed */
};

/* GB/T 32907-2016 7.3, tau through the core's S-box */
static int sm4_neon_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct sm4_neon_ctx *c = ctx;
	uint32_t k[4];

	if (keylen != SM4_KEY_SIZE)
		return -EINVAL;
	for (unsigned int i = 0; i < 4; i++)
		k[i] = load_be32(key + 4 * i) ^ sm4_fk(i);
	for (unsigned int i = 0; i < SM4_ROUNDS; i++) {
		uint32_t t = sm4_tau_neon(k[1] ^ k[2] ^ k[3] ^ sm4_ck(i));

		c->rk_enc[i] = k[0] ^ sm4_l_key(t);
		c->rk_dec[SM4_ROUNDS - 1 - i] = c->rk_enc[i];
		k[0] = k[1];
		k[1] = k[2];
		k[2] = k[3];
		k[3] = c->rk_enc[i];
	}
	explicit_bzero(k, sizeof(k));
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
	const struct sm4_neon_ctx *c = ctx;

	sm4_crypt_block_neon(c->rk_enc, dst, src);
}

static void sm4_neon_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_crypt_block_neon(c->rk_dec, dst, src);
}

static void sm4_neon_encrypt_blocks(const void *ctx, uint8_t *dst,
				    const uint8_t *src, size_t n)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_neon_blocks(c->rk_enc, dst, src, n);
}

static void sm4_neon_decrypt_blocks(const void *ctx, uint8_t *dst,
				    const uint8_t *src, size_t n)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_neon_blocks(c->rk_dec, dst, src, n);
}

/* bulk hooks: nbytes is a nonzero multiple of SM4_NEON_CHUNK */
static void ecb_encrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_crypt_blocks_neon(c->rk_enc, dst, src, nbytes / SM4_BLOCK_SIZE);
}

static void ecb_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_crypt_blocks_neon(c->rk_dec, dst, src, nbytes / SM4_BLOCK_SIZE);
}

static void xts_encrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *tweak)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_xts_crypt_neon(c->rk_enc, dst, src, nbytes, tweak);
}

static void xts_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *tweak)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_xts_crypt_neon(c->rk_dec, dst, src, nbytes, tweak);
}

static void cbc_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *iv)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_cbc_decrypt_neon(c->rk_dec, dst, src, nbytes, iv);
}

static void cfb_decrypt_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *iv)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_cfb_decrypt_neon(c->rk_enc, dst, src, nbytes, iv);
}

static void ctr_hook(const void *ctx, uint8_t *dst, const uint8_t *src,
		     size_t nbytes, uint8_t *ctr)
{
	const struct sm4_neon_ctx *c = ctx;

	sm4_ctr_crypt_neon(c->rk_enc, dst, src, nbytes, ctr);
}

static const struct cipher_alg sm4_neon_cipher = {
	.blocksize = SM4_BLOCK_SIZE,
	.keysizes = { SM4_KEY_SIZE },
	.ctxsize = sizeof(struct sm4_neon_ctx),
	.setkey = sm4_neon_setkey,
	.encrypt = sm4_neon_encrypt,
	.decrypt = sm4_neon_decrypt,
	.encrypt_blocks = sm4_neon_encrypt_blocks,
	.decrypt_blocks = sm4_neon_decrypt_blocks,
};

static const struct crypto_bulk_ops sm4_neon_bulk = {
	.chunk = SM4_NEON_CHUNK,
	.min_bytes = SM4_NEON_CHUNK,
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
	"ecb-sm4-neon", "cbc-sm4-neon", "cfb-sm4-neon", "ctr-sm4-neon",
	"xts-sm4-neon",
};

/* Registered whatever the CPU: Advanced SIMD is part of every AArch64. */
int sm4_neon_register(struct crypto_registry *reg)
{
	const struct crypto_driver drv = {
		.alg_name = "sm4",
		.driver_name = "sm4-neon",
		.priority = 300, /* NEON, as STYLE.md */
		.features = CPU_FEAT_NEON,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &sm4_neon_cipher,
	};
	int err = crypto_register_driver(reg, &drv);

	/*
	 * Before the registry's automatic instances, which would take the
	 * same names without the bulk hooks.
	 */
	for (size_t m = 0; !err && m < ARRAY_SIZE(bulk_modes); m++)
		err = crypto_register_mode(reg, &(struct crypto_mode_instance){
			.mode = bulk_modes[m],
			.child_driver = "sm4-neon",
			.driver_name = bulk_names[m],
			.priority = 300,
			.features = CPU_FEAT_NEON,
			.flags = CRYPTO_F_CONST_TIME,
			.bulk = &sm4_neon_bulk,
		});
	return err;
}

#else /* built without the core */

int sm4_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
