// SPDX-License-Identifier: MIT
/*
 * AEAD_CHACHA20_POLY1305 over the x86-64 SIMD drivers: the rfc7539
 * template (crypto/templates/rfc7539.c) instantiated over the chacha20
 * and poly1305 drivers of the same ISA, under the names the fused
 * drivers it replaced had:
 *   rfc7539-chacha20-poly1305-avx2:   chacha20-avx2, poly1305-avx2 (600)
 *   rfc7539-chacha20-poly1305-avx512: chacha20-avx512,
 *                                     poly1305-avx512ifma (800)
 * The template's priority and CPU features come from the children. What
 * made the fused driver fast is in the template and the children: block
 * 0 and a short message in one pass of the chacha20 core, block 0 inside
 * the pass over the first 1 KiB of a longer one (the chacha20 drivers'
 * crypt_ks0, chacha20-x86-glue.c), ChaCha20 and Poly1305 alternating
 * over 4 KiB pieces (measurements: docs/crypto.md).
 */
#include "crypto/arch/x86/chacha20poly1305-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_CHACHA_X86_CORES)

static const struct {
	const char *spec;
	const char *driver_name;
} aead_x86_instances[] = {
	{ "rfc7539(chacha20-avx2,poly1305-avx2)",
	  "rfc7539-chacha20-poly1305-avx2" },
	/*
	 * Its Poly1305 needs IFMA: on AVX-512 CPUs without it (Skylake-SP)
	 * the avx2 instance serves.
	 */
	{ "rfc7539(chacha20-avx512,poly1305-avx512ifma)",
	  "rfc7539-chacha20-poly1305-avx512" },
	/* XChaCha20-Poly1305 over the same pairs */
	{ "xchacha20poly1305(chacha20-avx2,poly1305-avx2)",
	  "xchacha20poly1305-avx2" },
	{ "xchacha20poly1305(chacha20-avx512,poly1305-avx512ifma)",
	  "xchacha20poly1305-avx512" },
};

int chacha20poly1305_x86_register(struct crypto_registry *reg)
{
	for (size_t i = 0; i < ARRAY_SIZE(aead_x86_instances); i++) {
		int err = crypto_register_template_as(reg, aead_x86_instances[i].spec,
						      aead_x86_instances[i].driver_name);

		if (err)
			return err;
	}
	return 0;
}

#else /* not x86-64, or built without the cores: nothing to register */

int chacha20poly1305_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
