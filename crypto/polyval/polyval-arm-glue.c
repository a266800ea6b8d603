// SPDX-License-Identifier: MIT
/*
 * The ARM "polyval" and "ghash" drivers over asm/arm/polyval-pmull.c:
 * polyval-pmull and ghash-pmull (400; AArch64 HWCAP_PMULL, AArch32
 * HWCAP2_PMULL with NEON), made by polyval-simd.h.
 */
#include "crypto/polyval/polyval.h"

#include "crypto/internal/registry.h"

#ifdef CLOAKFS_POLYVAL_PMULL_CORE

#include "asm/arm/polyval-arm.h"
#include "crypto/polyval/polyval-simd.h"

POLYVAL_SIMD_DRIVERS(pmull, "pmull", 400, CPU_FEAT_NEON | CPU_FEAT_ARM_PMULL)

int polyval_arm_register(struct crypto_registry *reg)
{
	static const struct crypto_driver *const sets[] = { polyval_pmull_drivers };

	return polyval_simd_register(reg, sets, ARRAY_SIZE(sets));
}

#else

int polyval_arm_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
