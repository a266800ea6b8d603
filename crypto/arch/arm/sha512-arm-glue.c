// SPDX-License-Identifier: MIT
/*
 * The ARM "sha512" drivers over the cores of sha512-arm.h:
 * sha512-ce (400; AArch64 with the SHA-512 instructions, HWCAP_SHA512),
 * sha512-neon (300; ARMv7 AArch32 NEON) and sha512-arm64 (150; any
 * AArch64 CPU, general-purpose registers). The buffering and padding
 * are sha512-generic.c's; hmac(sha512) and HKDF get the best sha512
 * driver through the registry.
 *
 * The cores are sha512_blocks_fn themselves (each reads K from sha512_k). Per
 * core, written out: the init that stores it in the state (hash_alg.init
 * has no other way to know the driver), its hash_alg and its row in the
 * table.
 */
#include "crypto/sha512/sha512.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_SHA512_CE_CORE) || defined(CLOAKFS_SHA512_NEON_CORE) || \
	defined(CLOAKFS_SHA512_ARM64_CORE)

#include "crypto/arch/arm/sha512-arm.h"
#include "crypto/internal/alg.h"

#ifdef CLOAKFS_SHA512_CE_CORE
static void init_ce(void *state)
{
	sha512_init_with(state, sha512_blocks_ce);
}

static const struct hash_alg sha512_ce_alg = SHA512_HASH_ALG(init_ce);
#endif

#ifdef CLOAKFS_SHA512_NEON_CORE
static void init_neon(void *state)
{
	sha512_init_with(state, sha512_blocks_neon);
}

static const struct hash_alg sha512_neon_alg = SHA512_HASH_ALG(init_neon);
#endif

#ifdef CLOAKFS_SHA512_ARM64_CORE
static void init_arm64(void *state)
{
	sha512_init_with(state, sha512_blocks_arm64);
}

static const struct hash_alg sha512_arm64_alg = SHA512_HASH_ALG(init_arm64);
#endif

static const struct crypto_driver sha512_arm_drivers[] = {
#ifdef CLOAKFS_SHA512_CE_CORE
	{ .alg_name = "sha512", .driver_name = "sha512-ce", .priority = 400,
	  .features = CPU_FEAT_ARM_SHA512, .flags = CRYPTO_F_CONST_TIME,
	  .type = CRYPTO_TYPE_HASH, .u.hash = &sha512_ce_alg },
#endif
#ifdef CLOAKFS_SHA512_NEON_CORE
	{ .alg_name = "sha512", .driver_name = "sha512-neon", .priority = 300,
	  .features = CPU_FEAT_NEON, .flags = CRYPTO_F_CONST_TIME,
	  .type = CRYPTO_TYPE_HASH, .u.hash = &sha512_neon_alg },
#endif
#ifdef CLOAKFS_SHA512_ARM64_CORE
	/* no CPU feature, but generic-only disables it (CRYPTO_F_ARCH) */
	{ .alg_name = "sha512", .driver_name = "sha512-arm64", .priority = 150,
	  .flags = CRYPTO_F_CONST_TIME | CRYPTO_F_ARCH,
	  .type = CRYPTO_TYPE_HASH, .u.hash = &sha512_arm64_alg },
#endif
};

int sha512_arm_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, sha512_arm_drivers,
				       ARRAY_SIZE(sha512_arm_drivers));
}

#else

int sha512_arm_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
