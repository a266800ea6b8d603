// SPDX-License-Identifier: MIT
/*
 * The ARM "sha512" drivers over the cores of asm/arm/sha512-arm.h:
 * sha512-ce (400; AArch64 with the SHA-512 instructions, HWCAP_SHA512),
 * sha512-neon (300; ARMv7 AArch32 NEON) and sha512-arm64 (150; any
 * AArch64 CPU, general-purpose registers). The buffering and padding
 * are sha512-generic.c's; hmac(sha512) and HKDF get the best sha512
 * driver through the registry.
 */
#include "crypto/sha512/sha512.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_SHA512_CE_CORE) || defined(CLOAKFS_SHA512_NEON_CORE) || \
	defined(CLOAKFS_SHA512_ARM64_CORE)

#include "asm/arm/sha512-arm.h"
#include "crypto/internal/alg.h"

/* the cores take FIPS 180-4's K as an argument (no cross-object data) */
#define SHA512_ARM_ALG(isa)                                                  \
	static void sha512_blocks_##isa##_k(uint64_t h[8], const uint8_t *data, \
					    size_t nblocks)                  \
	{                                                                    \
		sha512_blocks_##isa(h, data, nblocks, sha512_k);             \
	}                                                                    \
	SHA512_ALG(isa, sha512_blocks_##isa##_k)

#ifdef CLOAKFS_SHA512_CE_CORE
SHA512_ARM_ALG(ce);
#endif
#ifdef CLOAKFS_SHA512_NEON_CORE
SHA512_ARM_ALG(neon);
#endif
#ifdef CLOAKFS_SHA512_ARM64_CORE
SHA512_ARM_ALG(arm64);
#endif

static const struct crypto_driver sha512_arm_drivers[] = {
#ifdef CLOAKFS_SHA512_CE_CORE
	SHA512_DRIVER(ce, 400, CPU_FEAT_ARM_SHA512, 0),
#endif
#ifdef CLOAKFS_SHA512_NEON_CORE
	SHA512_DRIVER(neon, 300, CPU_FEAT_NEON, 0),
#endif
#ifdef CLOAKFS_SHA512_ARM64_CORE
	SHA512_DRIVER(arm64, 150, 0, CRYPTO_F_ARCH),
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
