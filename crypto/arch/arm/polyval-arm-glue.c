// SPDX-License-Identifier: MIT
/*
 * The ARM "polyval" and "ghash" drivers over polyval-pmull.c:
 * polyval-pmull and ghash-pmull (400; AArch64 HWCAP_PMULL, AArch32
 * HWCAP2_PMULL with NEON): the core's setkeys (polyval-arm.h) in
 * their hash_algs, and the driver table.
 */
#include "crypto/polyval/polyval.h"

#include "crypto/internal/registry.h"

#ifdef CLOAKFS_POLYVAL_PMULL_CORE

#include "crypto/arch/arm/polyval-arm.h"
#include "crypto/internal/alg.h"

static const struct hash_alg polyval_pmull_alg =
	POLYVAL_HASH_ALG(polyval_setkey_pmull);
static const struct hash_alg ghash_pmull_alg =
	POLYVAL_HASH_ALG(ghash_setkey_pmull);

static const struct crypto_driver polyval_arm_drivers[] = {
	{ .alg_name = "polyval", .driver_name = "polyval-pmull", .priority = 400,
	  .features = CPU_FEAT_NEON | CPU_FEAT_ARM_PMULL,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &polyval_pmull_alg },
	{ .alg_name = "ghash", .driver_name = "ghash-pmull", .priority = 400,
	  .features = CPU_FEAT_NEON | CPU_FEAT_ARM_PMULL,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &ghash_pmull_alg },
};

int polyval_arm_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, polyval_arm_drivers,
				       ARRAY_SIZE(polyval_arm_drivers));
}

#else

int polyval_arm_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
