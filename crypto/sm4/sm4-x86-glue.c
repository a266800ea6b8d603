/* SPDX-License-Identifier: MIT */
/*
 * Glue of the x86-64 SM4 cores (asm/x86/sm4-x86.h): key schedule, the
 * single-block cipher drivers and the bulk hooks of the mode instances.
 *
 * Why own cipher drivers instead of children of sm4-generic: the cores
 * need the plain round keys, and sm4-generic's context holds round keys
 * with the constants of its S-box circuit folded in (plus bit masks for
 * its bitsliced layout). So each core gets a cipher driver whose context
 * is struct sm4_x86_ctx; its single-block and multi-block paths run the
 * same core (a partial step padded on the stack), so the C parts of the
 * templates (remainders, ciphertext stealing, CBC/CFB encryption, the
 * XTS tweak) stay constant-time and fast. The key schedule computes tau
 * with the core's own S-box, so no table is indexed by key bytes.
 */
#include <errno.h>

#include "crypto/internal/registry.h"
#include "crypto/sm4/sm4-x86-glue.h"

#if defined(CLOAKFS_SM4_X86_CORES)

#include "asm/x86/sm4-x86.h"
#include "crypto/sm4/sm4-internal.h"

struct sm4_x86_ctx {
	uint32_t rk_enc[SM4_ROUNDS];
	uint32_t rk_dec[SM4_ROUNDS]; /* rk_enc reversed */
};

/* GB/T 32907-2016 7.3, tau through the core's S-box */
static int sm4_x86_setkey(void *ctx, const uint8_t *key, size_t keylen,
			  uint32_t (*tau)(uint32_t))
{
	struct sm4_x86_ctx *c = ctx;
	uint32_t k[4];

	if (keylen != SM4_KEY_SIZE)
		return -EINVAL;
	for (unsigned int i = 0; i < 4; i++)
		k[i] = load_be32(key + 4 * i) ^ sm4_fk(i);
	for (unsigned int i = 0; i < SM4_ROUNDS; i++) {
		uint32_t t = tau(k[1] ^ k[2] ^ k[3] ^ sm4_ck(i));

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

#define SM4_BLOCKS(n) ((n) / SM4_BLOCK_SIZE)

/* the cipher table and bulk hooks of one core */
#define SM4_X86_GLUE(isa)                                                      \
	static int sm4_setkey_##isa(void *ctx, const uint8_t *key, size_t len)  \
	{                                                                      \
		return sm4_x86_setkey(ctx, key, len, sm4_tau_##isa);           \
	}                                                                      \
	static void sm4_encrypt_##isa(const void *ctx, uint8_t *dst,            \
				      const uint8_t *src)                      \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_crypt_blocks_##isa(c->rk_enc, dst, src, 1);                \
	}                                                                      \
	static void sm4_decrypt_##isa(const void *ctx, uint8_t *dst,            \
				      const uint8_t *src)                      \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_crypt_blocks_##isa(c->rk_dec, dst, src, 1);                \
	}                                                                      \
	static void sm4_encrypt_blocks_##isa(const void *ctx, uint8_t *dst,     \
					     const uint8_t *src, size_t n)     \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		if (n)                                                         \
			sm4_crypt_blocks_##isa(c->rk_enc, dst, src, n);        \
	}                                                                      \
	static void sm4_decrypt_blocks_##isa(const void *ctx, uint8_t *dst,     \
					     const uint8_t *src, size_t n)     \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		if (n)                                                         \
			sm4_crypt_blocks_##isa(c->rk_dec, dst, src, n);        \
	}                                                                      \
	static void sm4_ecb_encrypt_##isa(const void *ctx, uint8_t *dst,        \
					  const uint8_t *src, size_t nbytes)   \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_crypt_blocks_##isa(c->rk_enc, dst, src, SM4_BLOCKS(nbytes)); \
	}                                                                      \
	static void sm4_ecb_decrypt_##isa(const void *ctx, uint8_t *dst,        \
					  const uint8_t *src, size_t nbytes)   \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_crypt_blocks_##isa(c->rk_dec, dst, src, SM4_BLOCKS(nbytes)); \
	}                                                                      \
	static void sm4_xts_encrypt_##isa(const void *ctx, uint8_t *dst,        \
					  const uint8_t *src, size_t nbytes,   \
					  uint8_t *tweak)                      \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_xts_crypt_##isa(c->rk_enc, dst, src, nbytes, tweak);       \
	}                                                                      \
	static void sm4_xts_decrypt_##isa(const void *ctx, uint8_t *dst,        \
					  const uint8_t *src, size_t nbytes,   \
					  uint8_t *tweak)                      \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_xts_crypt_##isa(c->rk_dec, dst, src, nbytes, tweak);       \
	}                                                                      \
	static void sm4_cbc_dec_##isa(const void *ctx, uint8_t *dst,            \
				      const uint8_t *src, size_t nbytes,       \
				      uint8_t *iv)                             \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_cbc_decrypt_##isa(c->rk_dec, dst, src, nbytes, iv);        \
	}                                                                      \
	static void sm4_cfb_dec_##isa(const void *ctx, uint8_t *dst,            \
				      const uint8_t *src, size_t nbytes,       \
				      uint8_t *iv)                             \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_cfb_decrypt_##isa(c->rk_enc, dst, src, nbytes, iv);        \
	}                                                                      \
	static void sm4_ctr_##isa(const void *ctx, uint8_t *dst,                \
				  const uint8_t *src, size_t nbytes,           \
				  uint8_t *ctr)                                \
	{                                                                      \
		const struct sm4_x86_ctx *c = ctx;                             \
		sm4_ctr_crypt_##isa(c->rk_enc, dst, src, nbytes, ctr);         \
	}                                                                      \
	static const struct cipher_alg sm4_cipher_##isa = {                    \
		.blocksize = SM4_BLOCK_SIZE,                                   \
		.keysizes = { SM4_KEY_SIZE },                                  \
		.ctxsize = sizeof(struct sm4_x86_ctx),                         \
		.setkey = sm4_setkey_##isa,                                    \
		.encrypt = sm4_encrypt_##isa,                                  \
		.decrypt = sm4_decrypt_##isa,                                  \
		.encrypt_blocks = sm4_encrypt_blocks_##isa,                    \
		.decrypt_blocks = sm4_decrypt_blocks_##isa,                    \
	};                                                                     \
	static const struct crypto_bulk_ops sm4_bulk_##isa = {                 \
		.chunk = SM4_X86_CHUNK,                                        \
		.min_bytes = SM4_X86_CHUNK,                                    \
		.xts_encrypt = sm4_xts_encrypt_##isa,                          \
		.xts_decrypt = sm4_xts_decrypt_##isa,                          \
		.ecb_encrypt = sm4_ecb_encrypt_##isa,                          \
		.ecb_decrypt = sm4_ecb_decrypt_##isa,                          \
		.cbc_decrypt = sm4_cbc_dec_##isa,                              \
		.cfb_decrypt = sm4_cfb_dec_##isa,                              \
		.ctr_crypt = sm4_ctr_##isa,                                    \
	}

SM4_X86_GLUE(aesni_avx2);
SM4_X86_GLUE(gfni_avx2);
SM4_X86_GLUE(gfni_avx512);

static const struct crypto_simd_cipher cores[] = {
	{ "sm4", "sm4-aesni-avx2", 400, CPU_FEAT_AESNI | CPU_FEAT_AVX2,
	  &sm4_cipher_aesni_avx2, &sm4_bulk_aesni_avx2 },
	{ "sm4", "sm4-gfni-avx2", 600, CPU_FEAT_GFNI | CPU_FEAT_AVX2,
	  &sm4_cipher_gfni_avx2, &sm4_bulk_gfni_avx2 },
	{ "sm4", "sm4-gfni-avx512", 800,
	  CPU_FEAT_GFNI | CPU_FEAT_AVX512F | CPU_FEAT_AVX512BW,
	  &sm4_cipher_gfni_avx512, &sm4_bulk_gfni_avx512 },
};

int sm4_x86_register(struct crypto_registry *reg)
{
	return crypto_register_simd_ciphers(reg, cores, ARRAY_SIZE(cores));
}

#else /* built without the cores */

int sm4_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
