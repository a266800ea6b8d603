/* SPDX-License-Identifier: MIT */
/*
 * Glue for the NEON Speck cores (speck-xts-neon-core-arm64.S,
 * speck-xts-neon-core-arm32.S; one set of entry points and prototypes
 * for both, speck-xts-neon.h): xts and ecb template instances
 * over speck128-generic / speck64-generic whose bulk ops are the cores'
 * entry points as they are: they take the generic driver's context and
 * whole 128-byte chunks (8 Speck128 or 16 Speck64 blocks). The key
 * schedule, the first tweak E_K2(iv), remainder blocks and ciphertext
 * stealing stay in C (the template and speck.h). See
 * speck-xts-neon-glue.h.
 *
 * The cores are built only when meson defines CLOAKFS_SPECK_NEON_CORES
 * (ARM host, simd option on); otherwise this file registers nothing.
 */
#include "crypto/arch/arm/speck-xts-neon-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_SPECK_NEON_CORES) && (defined(__aarch64__) || defined(__arm__))

#include <stddef.h>

#include "crypto/arch/arm/speck-xts-neon.h"
#include "crypto/speck/speck.h"

/* the cores read the generic contexts at these offsets (speck-xts-neon.h) */
_Static_assert(offsetof(struct speck128_tfm_ctx, round_keys) ==
		       SPECK128_CTX_ROUND_KEYS,
	       "SPECK128_CTX_ROUND_KEYS does not match struct speck128_tfm_ctx");
_Static_assert(offsetof(struct speck128_tfm_ctx, nrounds) ==
		       SPECK128_CTX_NROUNDS,
	       "SPECK128_CTX_NROUNDS does not match struct speck128_tfm_ctx");
_Static_assert(offsetof(struct speck64_tfm_ctx, round_keys) ==
		       SPECK64_CTX_ROUND_KEYS,
	       "SPECK64_CTX_ROUND_KEYS does not match struct speck64_tfm_ctx");
_Static_assert(offsetof(struct speck64_tfm_ctx, nrounds) ==
		       SPECK64_CTX_NROUNDS,
	       "SPECK64_CTX_NROUNDS does not match struct speck64_tfm_ctx");

/*
 * One chunk of 128 bytes is the smallest the cores take, and already
 * several times fewer instructions than C (bench/arm-insns.sh), so the
 * cores run from the first whole chunk on.
 */
static const struct crypto_bulk_ops speck128_neon_ops = {
	.chunk = SPECK_NEON_CHUNK,
	.min_bytes = SPECK_NEON_CHUNK,
	.xts_encrypt = speck128_xts_encrypt_neon,
	.xts_decrypt = speck128_xts_decrypt_neon,
	.ecb_encrypt = speck128_ecb_encrypt_neon,
	.ecb_decrypt = speck128_ecb_decrypt_neon,
};

static const struct crypto_bulk_ops speck64_neon_ops = {
	.chunk = SPECK_NEON_CHUNK,
	.min_bytes = SPECK_NEON_CHUNK,
	.xts_encrypt = speck64_xts_encrypt_neon,
	.xts_decrypt = speck64_xts_decrypt_neon,
	.ecb_encrypt = speck64_ecb_encrypt_neon,
	.ecb_decrypt = speck64_ecb_decrypt_neon,
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
