/* SPDX-License-Identifier: MIT */
/*
 * Glue for the x86-64 Speck cores (speck-xts-*.c): each driver is
 * an xts or ecb template instance over speck128-generic / speck64-generic
 * whose bulk hooks hand whole 128-byte chunks to a core. Keys, the first
 * tweak, remainder blocks and ciphertext stealing stay in the C template.
 * See speck-x86-glue.h.
 */
#include "crypto/arch/x86/speck-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_SPECK_X86_CORES)

#include "crypto/arch/x86/speck-xts-x86.h"

/*
 * Every core takes any multiple of 128 bytes; shorter requests (a 16-byte
 * one, say) never reach it. From one chunk on the cores beat the C path:
 * xts(speck128) at 128 bytes, measured on Zen 5 through crypto_encrypt(),
 * 3.6 (AVX-512) and 4.5 (AVX2) cycles/byte against 5.2 for C.
 */
#define SPECK_X86_CHUNK 128
#define SPECK_X86_MIN_BYTES 128

/* bulk hooks: the cores' entry points, which take the child context */
#define SPECK_X86_OPS(alg, isa)                                                \
	static const struct crypto_bulk_ops alg##_ops_##isa = {               \
		.chunk = SPECK_X86_CHUNK,                                      \
		.min_bytes = SPECK_X86_MIN_BYTES,                              \
		.xts_encrypt = alg##_xts_encrypt_##isa,                        \
		.xts_decrypt = alg##_xts_decrypt_##isa,                        \
		.ecb_encrypt = alg##_ecb_encrypt_##isa,                        \
		.ecb_decrypt = alg##_ecb_decrypt_##isa,                        \
	}

SPECK_X86_OPS(speck128, avx2);
SPECK_X86_OPS(speck64, avx2);
SPECK_X86_OPS(speck128, avx512);
SPECK_X86_OPS(speck64, avx512);

/* AVX-512 code is compiled with AVX2 enabled too, so it needs both */
#define FEAT_AVX2 CPU_FEAT_AVX2
#define FEAT_AVX512 (CPU_FEAT_AVX2 | CPU_FEAT_AVX512F)

/* e.g. INSTANCE(xts, speck128, avx2, ...): "xts-speck128-avx2" */
#define INSTANCE(m, alg, isa, prio, feat)                                     \
	{                                                                      \
		.mode = #m,                                                    \
		.child_driver = #alg "-generic",                               \
		.driver_name = #m "-" #alg "-" #isa,                           \
		.priority = (prio),                                            \
		.features = (feat),                                            \
		.flags = CRYPTO_F_CONST_TIME,                                  \
		.bulk = &alg##_ops_##isa,                                      \
	}

/* priorities (docs/design.md): AVX2 600, AVX-512 800 */
static const struct crypto_mode_instance speck_x86_instances[] = {
	INSTANCE(xts, speck128, avx2, 600, FEAT_AVX2),
	INSTANCE(ecb, speck128, avx2, 600, FEAT_AVX2),
	INSTANCE(xts, speck64, avx2, 600, FEAT_AVX2),
	INSTANCE(ecb, speck64, avx2, 600, FEAT_AVX2),
	INSTANCE(xts, speck128, avx512, 800, FEAT_AVX512),
	INSTANCE(ecb, speck128, avx512, 800, FEAT_AVX512),
	INSTANCE(xts, speck64, avx512, 800, FEAT_AVX512),
	INSTANCE(ecb, speck64, avx512, 800, FEAT_AVX512),
};

/*
 * Registered whatever the CPU: the registry hides drivers whose features
 * are missing (and --list shows why).
 */
int speck_x86_register(struct crypto_registry *reg)
{
	return crypto_register_modes(reg, speck_x86_instances,
				     ARRAY_SIZE(speck_x86_instances));
}

#else /* no x86-64 cores in this build */

int speck_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
