/* SPDX-License-Identifier: MIT */
/*
 * Glue for the x86-64 Speck cores (asm/x86/speck-xts-*.c): each driver is
 * an xts or ecb template instance over speck128-generic / speck64-generic
 * whose bulk hooks hand whole 128-byte chunks to a core. Keys, the first
 * tweak, remainder blocks and ciphertext stealing stay in the C template.
 * See speck-x86-glue.h.
 */
#include "crypto/speck/speck-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_SPECK_X86_CORES)

#include "asm/x86/speck-xts-x86.h"
#include "crypto/speck/speck.h"

/*
 * Every core takes any multiple of 128 bytes; shorter requests (a 16-byte
 * one, say) never reach it. From one chunk on the cores beat the C path:
 * xts(speck128) at 128 bytes, measured on Zen 5 through crypto_encrypt(),
 * 3.6 (AVX-512) and 4.5 (AVX2) cycles/byte against 5.2 for C.
 */
#define SPECK_X86_CHUNK 128
#define SPECK_X86_MIN_BYTES 128

/* bulk hooks: the child context carries the round keys (speck.h) */
#define SPECK_X86_HOOKS(isa)                                                   \
	static void speck128_xts_enc_##isa(const void *cctx, uint8_t *dst,     \
					   const uint8_t *src, size_t nbytes,  \
					   uint8_t *tweak)                     \
	{                                                                      \
		const struct speck128_tfm_ctx *ctx = cctx;                     \
		speck128_xts_encrypt_##isa(ctx->round_keys, ctx->nrounds, dst, \
					   src, nbytes, tweak);                \
	}                                                                      \
	static void speck128_xts_dec_##isa(const void *cctx, uint8_t *dst,     \
					   const uint8_t *src, size_t nbytes,  \
					   uint8_t *tweak)                     \
	{                                                                      \
		const struct speck128_tfm_ctx *ctx = cctx;                     \
		speck128_xts_decrypt_##isa(ctx->round_keys, ctx->nrounds, dst, \
					   src, nbytes, tweak);                \
	}                                                                      \
	static void speck128_ecb_enc_##isa(const void *cctx, uint8_t *dst,     \
					   const uint8_t *src, size_t nbytes)  \
	{                                                                      \
		const struct speck128_tfm_ctx *ctx = cctx;                     \
		speck128_ecb_encrypt_##isa(ctx->round_keys, ctx->nrounds, dst, \
					   src, nbytes);                       \
	}                                                                      \
	static void speck128_ecb_dec_##isa(const void *cctx, uint8_t *dst,     \
					   const uint8_t *src, size_t nbytes)  \
	{                                                                      \
		const struct speck128_tfm_ctx *ctx = cctx;                     \
		speck128_ecb_decrypt_##isa(ctx->round_keys, ctx->nrounds, dst, \
					   src, nbytes);                       \
	}                                                                      \
	static void speck64_xts_enc_##isa(const void *cctx, uint8_t *dst,      \
					  const uint8_t *src, size_t nbytes,   \
					  uint8_t *tweak)                      \
	{                                                                      \
		const struct speck64_tfm_ctx *ctx = cctx;                      \
		speck64_xts_encrypt_##isa(ctx->round_keys, ctx->nrounds, dst,  \
					  src, nbytes, tweak);                 \
	}                                                                      \
	static void speck64_xts_dec_##isa(const void *cctx, uint8_t *dst,      \
					  const uint8_t *src, size_t nbytes,   \
					  uint8_t *tweak)                      \
	{                                                                      \
		const struct speck64_tfm_ctx *ctx = cctx;                      \
		speck64_xts_decrypt_##isa(ctx->round_keys, ctx->nrounds, dst,  \
					  src, nbytes, tweak);                 \
	}                                                                      \
	static void speck64_ecb_enc_##isa(const void *cctx, uint8_t *dst,      \
					  const uint8_t *src, size_t nbytes)   \
	{                                                                      \
		const struct speck64_tfm_ctx *ctx = cctx;                      \
		speck64_ecb_encrypt_##isa(ctx->round_keys, ctx->nrounds, dst,  \
					  src, nbytes);                        \
	}                                                                      \
	static void speck64_ecb_dec_##isa(const void *cctx, uint8_t *dst,      \
					  const uint8_t *src, size_t nbytes)   \
	{                                                                      \
		const struct speck64_tfm_ctx *ctx = cctx;                      \
		speck64_ecb_decrypt_##isa(ctx->round_keys, ctx->nrounds, dst,  \
					  src, nbytes);                        \
	}                                                                      \
	static const struct crypto_bulk_ops speck128_ops_##isa = {            \
		.chunk = SPECK_X86_CHUNK,                                      \
		.min_bytes = SPECK_X86_MIN_BYTES,                              \
		.xts_encrypt = speck128_xts_enc_##isa,                         \
		.xts_decrypt = speck128_xts_dec_##isa,                         \
		.ecb_encrypt = speck128_ecb_enc_##isa,                         \
		.ecb_decrypt = speck128_ecb_dec_##isa,                         \
	};                                                                     \
	static const struct crypto_bulk_ops speck64_ops_##isa = {             \
		.chunk = SPECK_X86_CHUNK,                                      \
		.min_bytes = SPECK_X86_MIN_BYTES,                              \
		.xts_encrypt = speck64_xts_enc_##isa,                          \
		.xts_decrypt = speck64_xts_dec_##isa,                          \
		.ecb_encrypt = speck64_ecb_enc_##isa,                          \
		.ecb_decrypt = speck64_ecb_dec_##isa,                          \
	};

SPECK_X86_HOOKS(avx2)
SPECK_X86_HOOKS(avx512)

/* AVX-512 code is compiled with AVX2 enabled too, so it needs both */
#define FEAT_AVX2 CPU_FEAT_AVX2
#define FEAT_AVX512 (CPU_FEAT_AVX2 | CPU_FEAT_AVX512F)

/* e.g. INSTANCE(xts, speck128, avx2, ...): "xts-speck128-avx2" */
#define INSTANCE(m, alg, isa, prio, feat)                                     \
	{                                                                      \
		.mode = #m,                                                    \
		.child_driver = #alg "-generic",                               \
		.driver_name = #m "-" #alg "-" #isa,                           \
		.priority = (prio),                                            \
		.features = (feat),                                            \
		.flags = CRYPTO_F_CONST_TIME,                                  \
		.bulk = &alg##_ops_##isa,                                      \
	}

/* priorities (docs/design.md): AVX2 600, AVX-512 800 */
static const struct crypto_mode_instance speck_x86_instances[] = {
	INSTANCE(xts, speck128, avx2, 600, FEAT_AVX2),
	INSTANCE(ecb, speck128, avx2, 600, FEAT_AVX2),
	INSTANCE(xts, speck64, avx2, 600, FEAT_AVX2),
	INSTANCE(ecb, speck64, avx2, 600, FEAT_AVX2),
	INSTANCE(xts, speck128, avx512, 800, FEAT_AVX512),
	INSTANCE(ecb, speck128, avx512, 800, FEAT_AVX512),
	INSTANCE(xts, speck64, avx512, 800, FEAT_AVX512),
	INSTANCE(ecb, speck64, avx512, 800, FEAT_AVX512),
};

/*
 * Registered whatever the CPU: the registry hides drivers whose features
 * are missing (and --list shows why).
 */
int speck_x86_register(struct crypto_registry *reg)
{
	for (size_t i = 0; i < ARRAY_SIZE(speck_x86_instances); i++) {
		int err = crypto_register_mode(reg, &speck_x86_instances[i]);

		if (err)
			return err;
	}
	return 0;
}

#else /* no x86-64 cores in this build */

int speck_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
