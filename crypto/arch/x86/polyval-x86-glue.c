// SPDX-License-Identifier: MIT
/*
 * The x86-64 "polyval" and "ghash" drivers over the cores of
 * polyval-x86.h: *-pclmul (400; PCLMULQDQ), *-vpclmul-avx2 (600;
 * VPCLMULQDQ + AVX2) and *-vpclmul-avx512 (800; VPCLMULQDQ + AVX-512),
 * the cores' setkeys in their hash_algs, and the driver table; buffering
 * and padding are polyval-generic.c's.
 */
#include "crypto/polyval/polyval.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_POLYVAL_X86_CORES)

#include "crypto/arch/x86/polyval-x86.h"
#include "crypto/internal/alg.h"

static const struct hash_alg polyval_pclmul_alg =
	POLYVAL_HASH_ALG(polyval_setkey_pclmul);
static const struct hash_alg ghash_pclmul_alg =
	POLYVAL_HASH_ALG(ghash_setkey_pclmul);
static const struct hash_alg polyval_vpclmul_avx2_alg =
	POLYVAL_HASH_ALG(polyval_setkey_vpclmul_avx2);
static const struct hash_alg ghash_vpclmul_avx2_alg =
	POLYVAL_HASH_ALG(ghash_setkey_vpclmul_avx2);
static const struct hash_alg polyval_vpclmul_avx512_alg =
	POLYVAL_HASH_ALG(polyval_setkey_vpclmul_avx512);
static const struct hash_alg ghash_vpclmul_avx512_alg =
	POLYVAL_HASH_ALG(ghash_setkey_vpclmul_avx512);

static const struct crypto_driver polyval_x86_drivers[] = {
	{ .alg_name = "polyval", .driver_name = "polyval-pclmul",
	  .priority = 400,
	  .features = CPU_FEAT_PCLMUL | CPU_FEAT_SSSE3,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &polyval_pclmul_alg },
	{ .alg_name = "ghash", .driver_name = "ghash-pclmul",
	  .priority = 400,
	  .features = CPU_FEAT_PCLMUL | CPU_FEAT_SSSE3,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &ghash_pclmul_alg },
	{ .alg_name = "polyval", .driver_name = "polyval-vpclmul-avx2",
	  .priority = 600,
	  .features = CPU_FEAT_PCLMUL | CPU_FEAT_VPCLMULQDQ |
		      CPU_FEAT_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &polyval_vpclmul_avx2_alg },
	{ .alg_name = "ghash", .driver_name = "ghash-vpclmul-avx2",
	  .priority = 600,
	  .features = CPU_FEAT_PCLMUL | CPU_FEAT_VPCLMULQDQ |
		      CPU_FEAT_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &ghash_vpclmul_avx2_alg },
	{ .alg_name = "polyval", .driver_name = "polyval-vpclmul-avx512",
	  .priority = 800,
	  .features = CPU_FEAT_PCLMUL | CPU_FEAT_VPCLMULQDQ |
		      CPU_FEAT_AVX512F | CPU_FEAT_AVX512BW,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &polyval_vpclmul_avx512_alg },
	{ .alg_name = "ghash", .driver_name = "ghash-vpclmul-avx512",
	  .priority = 800,
	  .features = CPU_FEAT_PCLMUL | CPU_FEAT_VPCLMULQDQ |
		      CPU_FEAT_AVX512F | CPU_FEAT_AVX512BW,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &ghash_vpclmul_avx512_alg },
};

int polyval_x86_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, polyval_x86_drivers,
				       ARRAY_SIZE(polyval_x86_drivers));
}

#else

int polyval_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
