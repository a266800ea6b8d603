// SPDX-License-Identifier: MIT
/*
 * The x86-64 "polyval" and "ghash" drivers over the cores of
 * asm/x86/polyval-x86.h: *-pclmul (400; PCLMULQDQ), *-vpclmul-avx2 (600;
 * VPCLMULQDQ + AVX2) and *-vpclmul-avx512 (800; VPCLMULQDQ + AVX-512),
 * made by polyval-simd.h; buffering and padding are polyval-generic.c's.
 */
#include "crypto/polyval/polyval.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_POLYVAL_X86_CORES)

#include "asm/x86/polyval-x86.h"
#include "crypto/polyval/polyval-simd.h"

POLYVAL_SIMD_DRIVERS(pclmul, "pclmul", 400, CPU_FEAT_PCLMUL | CPU_FEAT_SSSE3)
POLYVAL_SIMD_DRIVERS(vpclmul_avx2, "vpclmul-avx2", 600,
		    CPU_FEAT_PCLMUL | CPU_FEAT_VPCLMULQDQ | CPU_FEAT_AVX2)
POLYVAL_SIMD_DRIVERS(vpclmul_avx512, "vpclmul-avx512", 800,
		    CPU_FEAT_PCLMUL | CPU_FEAT_VPCLMULQDQ | CPU_FEAT_AVX512F |
		    CPU_FEAT_AVX512BW)

int polyval_x86_register(struct crypto_registry *reg)
{
	static const struct crypto_driver *const sets[] = {
		polyval_pclmul_drivers, polyval_vpclmul_avx2_drivers,
		polyval_vpclmul_avx512_drivers,
	};

	return polyval_simd_register(reg, sets, ARRAY_SIZE(sets));
}

#else

int polyval_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
