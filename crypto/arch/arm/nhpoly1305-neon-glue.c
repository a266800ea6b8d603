/* SPDX-License-Identifier: MIT */
/*
 * Glue for the NEON NH core (nh-neon-core-arm{64,32}.S, nh-neon.h): the
 * nhpoly1305-neon driver. See nhpoly1305-neon-glue.h. The core is built
 * only when meson defines CLOAKFS_NH_NEON_CORE (ARM host, simd option
 * on); otherwise this file registers nothing.
 */
#include "crypto/arch/arm/nhpoly1305-neon-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_NH_NEON_CORE) && (defined(__aarch64__) || defined(__arm__))

#include "crypto/arch/arm/nh-neon.h"
#include "crypto/internal/alg.h"
#include "crypto/nhpoly1305/nhpoly1305.h"

DEFINE_NHPOLY1305_DRIVER(nhpoly1305_neon_driver, "nhpoly1305-neon", 300,
			 CPU_FEAT_NEON, nh_neon);

int nhpoly1305_neon_register(struct crypto_registry *reg)
{
	return crypto_register_driver(reg, &nhpoly1305_neon_driver);
}

#else /* no NEON core in this build */

int nhpoly1305_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
