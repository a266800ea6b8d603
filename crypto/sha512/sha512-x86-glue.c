// SPDX-License-Identifier: MIT
/*
 * The x86-64 "sha512" drivers over the block functions of
 * asm/x86/sha512-x86.h: sha512-avx2 (600; AVX2 + BMI2) and sha512-ni
 * (700; the SHA512 instructions, CPUID.(EAX=7,ECX=1):EAX[0]), the latter
 * only in builds whose compiler has their intrinsics. The buffering and
 * padding are sha512-generic.c's; hmac(sha512) and HKDF get the best
 * sha512 driver through the registry (the HMAC template is instantiated
 * over every sha512 driver with its priority).
 */
#include "crypto/sha512/sha512.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_SHA512_X86_CORES)

#include "asm/x86/sha512-x86.h"
#include "crypto/internal/alg.h"

SHA512_ALG(avx2, sha512_blocks_avx2);
#ifdef CLOAKFS_SHA512_NI_CORE
SHA512_ALG(ni, sha512_blocks_ni);
#endif

static const struct crypto_driver sha512_x86_drivers[] = {
	SHA512_DRIVER(avx2, 600, CPU_FEAT_AVX2 | CPU_FEAT_BMI2, 0),
#ifdef CLOAKFS_SHA512_NI_CORE
	SHA512_DRIVER(ni, 700, CPU_FEAT_X86_SHA512 | CPU_FEAT_AVX2, 0),
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
