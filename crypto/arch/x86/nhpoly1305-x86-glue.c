// SPDX-License-Identifier: MIT
/*
 * The x86-64 "nhpoly1305" drivers: nhpoly1305-generic's hash over the NH
 * cores of nh-x86.h. See nhpoly1305-x86-glue.h.
 */
#include "crypto/arch/x86/nhpoly1305-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_NH_X86_CORES)

#include "crypto/arch/x86/nh-x86.h"
#include "crypto/internal/alg.h"
#include "crypto/nhpoly1305/nhpoly1305.h"

DEFINE_NHPOLY1305_DRIVER(nhpoly1305_sse2_driver, "nhpoly1305-sse2", 300,
			 CPU_FEAT_SSE2, nh_sse2);
DEFINE_NHPOLY1305_DRIVER(nhpoly1305_avx2_driver, "nhpoly1305-avx2", 600,
			 CPU_FEAT_AVX2, nh_avx2);

int nhpoly1305_x86_register(struct crypto_registry *reg)
{
	int err = crypto_register_driver(reg, &nhpoly1305_sse2_driver);

	return err ? err : crypto_register_driver(reg, &nhpoly1305_avx2_driver);
}

#else /* not x86-64, or built without the cores: nothing to register */

int nhpoly1305_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
