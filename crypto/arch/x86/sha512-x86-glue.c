// SPDX-License-Identifier: MIT
/*
 * The x86-64 "sha512" drivers over the block functions of
 * sha512-x86.h: sha512-avx2 (600; AVX2 + BMI2) and sha512-ni
 * (700; the SHA512 instructions, CPUID.(EAX=7,ECX=1):EAX[0]), the latter
 * only in builds whose compiler has their intrinsics. The buffering and
 * padding are sha512-generic.c's; hmac(sha512) and HKDF get the best
 * sha512 driver through the registry (the HMAC template is instantiated
 * over every sha512 driver with its priority).
 */
#include "crypto/sha512/sha512.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_SHA512_X86_CORES)

#include "crypto/arch/x86/sha512-x86.h"
#include "crypto/internal/alg.h"

/* per core, written out: the init that stores its block function */
static void init_avx2(void *state)
{
	sha512_init_with(state, sha512_blocks_avx2);
}

static const struct hash_alg sha512_avx2_alg = SHA512_HASH_ALG(init_avx2);

#ifdef CLOAKFS_SHA512_NI_CORE
static void init_ni(void *state)
{
	sha512_init_with(state, sha512_blocks_ni);
}

static const struct hash_alg sha512_ni_alg = SHA512_HASH_ALG(init_ni);
#endif

static const struct crypto_driver sha512_x86_drivers[] = {
	{ .alg_name = "sha512", .driver_name = "sha512-avx2", .priority = 600,
	  .features = CPU_FEAT_AVX2 | CPU_FEAT_BMI2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &sha512_avx2_alg },
#ifdef CLOAKFS_SHA512_NI_CORE
	{ .alg_name = "sha512", .driver_name = "sha512-ni", .priority = 700,
	  .features = CPU_FEAT_X86_SHA512 | CPU_FEAT_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	  .u.hash = &sha512_ni_alg },
#endif
};

int sha512_x86_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, sha512_x86_drivers,
				       ARRAY_SIZE(sha512_x86_drivers));
}

#else

int sha512_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
