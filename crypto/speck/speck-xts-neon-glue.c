/* SPDX-License-Identifier: MIT */
/*
 * Glue for the NEON Speck cores (asm/arm64/speck-xts-neon-core.S,
 * asm/arm/speck-xts-neon-core.S): xts and ecb template instances over
 * speck128-generic / speck64-generic whose bulk hooks hand whole 128-byte
 * chunks (8 Speck128 or 16 Speck64 blocks) to a core. The key schedule,
 * the first tweak E_K2(iv), remainder blocks and ciphertext stealing stay
 * in C (the template and speck.h). See speck-xts-neon-glue.h.
 *
 * The cores are built only when meson defines CLOAKFS_SPECK_NEON_CORES
 * (ARM host, simd option on); otherwise this file registers nothing.
 */
#include "crypto/speck/speck-xts-neon-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_SPECK_NEON_CORES) && (defined(__aarch64__) || defined(__arm__))

#include "crypto/speck/speck.h"

/* The cores: nbytes is a nonzero multiple of 128; tweak updated in place. */
void speck128_xts_encrypt_neon(const uint64_t *round_keys, int nrounds,
			       uint8_t *dst, const uint8_t *src, size_t nbytes,
			       uint8_t *tweak);
void speck128_xts_decrypt_neon(const uint64_t *round_keys, int nrounds,
			       uint8_t *dst, const uint8_t *src, size_t nbytes,
			       uint8_t *tweak);
void speck64_xts_encrypt_neon(const uint32_t *round_keys, int nrounds,
			      uint8_t *dst, const uint8_t *src, size_t nbytes,
			      uint8_t *tweak);
void speck64_xts_decrypt_neon(const uint32_t *round_keys, int nrounds,
			      uint8_t *dst, const uint8_t *src, size_t nbytes,
			      uint8_t *tweak);
void speck128_ecb_encrypt_neon(const uint64_t *round_keys, int nrounds,
			       uint8_t *dst, const uint8_t *src, size_t nbytes);
void speck128_ecb_decrypt_neon(const uint64_t *round_keys, int nrounds,
			       uint8_t *dst, const uint8_t *src, size_t nbytes);
void speck64_ecb_encrypt_neon(const uint32_t *round_keys, int nrounds,
			      uint8_t *dst, const uint8_t *src, size_t nbytes);
void speck64_ecb_decrypt_neon(const uint32_t *round_keys, int nrounds,
			      uint8_t *dst, const uint8_t *src, size_t nbytes);

/*
 * One chunk of 128 bytes is the smallest the cores take, and already
 * several times fewer instructions than C (bench/arm-insns.sh), so the
 * cores run from the first whole chunk on.
 */
#define SPECK_NEON_CHUNK 128
#define SPECK_NEON_MIN_BYTES 128

/* bulk hooks: the child context carries the round keys (speck.h) */
#define SPECK_NEON_XTS_HOOK(alg, dir)                                          \
	static void alg##_xts_##dir##_hook(const void *cctx, uint8_t *dst,     \
					   const uint8_t *src, size_t nbytes,  \
					   uint8_t *tweak)                     \
	{                                                                      \
		const struct alg##_tfm_ctx *ctx = cctx;                        \
		alg##_xts_##dir##_neon(ctx->round_keys, ctx->nrounds, dst,     \
				       src, nbytes, tweak);                    \
	}
#define SPECK_NEON_ECB_HOOK(alg, dir)                                          \
	static void alg##_ecb_##dir##_hook(const void *cctx, uint8_t *dst,     \
					   const uint8_t *src, size_t nbytes)  \
	{                                                                      \
		const struct alg##_tfm_ctx *ctx = cctx;                        \
		alg##_ecb_##dir##_neon(ctx->round_keys, ctx->nrounds, dst,     \
				       src, nbytes);                           \
	}

SPECK_NEON_XTS_HOOK(speck128, encrypt)
SPECK_NEON_XTS_HOOK(speck128, decrypt)
SPECK_NEON_XTS_HOOK(speck64, encrypt)
SPECK_NEON_XTS_HOOK(speck64, decrypt)
SPECK_NEON_ECB_HOOK(speck128, encrypt)
SPECK_NEON_ECB_HOOK(speck128, decrypt)
SPECK_NEON_ECB_HOOK(speck64, encrypt)
SPECK_NEON_ECB_HOOK(speck64, decrypt)

static const struct crypto_bulk_ops speck128_neon_ops = {
	.chunk = SPECK_NEON_CHUNK,
	.min_bytes = SPECK_NEON_MIN_BYTES,
	.xts_encrypt = speck128_xts_encrypt_hook,
	.xts_decrypt = speck128_xts_decrypt_hook,
	.ecb_encrypt = speck128_ecb_encrypt_hook,
	.ecb_decrypt = speck128_ecb_decrypt_hook,
};

static const struct crypto_bulk_ops speck64_neon_ops = {
	.chunk = SPECK_NEON_CHUNK,
	.min_bytes = SPECK_NEON_MIN_BYTES,
	.xts_encrypt = speck64_xts_encrypt_hook,
	.xts_decrypt = speck64_xts_decrypt_hook,
	.ecb_encrypt = speck64_ecb_encrypt_hook,
	.ecb_decrypt = speck64_ecb_decrypt_hook,
};

/* e.g. INSTANCE(xts, speck128): "xts-speck128-neon" over speck128-generic */
#define INSTANCE(m, alg)                                                       \
	{                                                                      \
		.mode = #m,                                                    \
		.child_driver = #alg "-generic",                               \
		.driver_name = #m "-" #alg "-neon",                            \
		.priority = 300, /* NEON: docs/design.md */                    \
		.features = CPU_FEAT_NEON,                                     \
		.flags = CRYPTO_F_CONST_TIME, /* add-rotate-xor, no tables */  \
		.bulk = &alg##_neon_ops,                                       \
	}

static const struct crypto_mode_instance speck_neon_instances[] = {
	INSTANCE(xts, speck128),
	INSTANCE(ecb, speck128),
	INSTANCE(xts, speck64),
	INSTANCE(ecb, speck64),
};

/*
 * Registered whatever the CPU: the registry hides them without NEON
 * (HWCAP_NEON on AArch32; always present on AArch64).
 */
int speck_neon_register(struct crypto_registry *reg)
{
	return crypto_register_modes(reg, speck_neon_instances,
				     ARRAY_SIZE(speck_neon_instances));
}

#else /* no NEON cores in this build */

int speck_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
