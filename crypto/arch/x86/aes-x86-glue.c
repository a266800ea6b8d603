/* SPDX-License-Identifier: MIT */
/*
 * Glue for the x86-64 AES cores (aes-*.c, see aes-x86.h).
 *
 * "aes-aesni" is a single-block cipher driver whose context is the cores'
 * key schedule (struct aes_x86_ctx); every mode driver here is a template
 * instance over it, so keys, the first XTS tweak, remainders shorter than
 * a chunk, ciphertext stealing and serial CBC/CFB encryption stay in the
 * C templates (through aes-aesni's 8-block path) and the cores only see
 * whole 128-byte chunks. See aes-x86-glue.h.
 *
 * The SIMD instances get names of their own ("-x8", "-vaes-avx2",
 * "-vaes-avx512"): the registry also builds the plain template instances
 * "<mode>-aes-aesni" over the cipher, and the self-test compares every
 * SIMD instance with that one on a 5.6 KiB message.
 */
#include "crypto/arch/x86/aes-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_AES_X86_CORES)

#include "crypto/arch/x86/aes-x86.h"

/* ---- the single-block cipher: the core's entry points as they are ------ */

static const struct cipher_alg aes_aesni_alg = {
	.blocksize = 16,
	.keysizes = { 16, 24, 32, 0 },
	.ctxsize = sizeof(struct aes_x86_ctx),
	.setkey = aes_x86_setkey,
	.encrypt = aes_encrypt_aesni,
	.decrypt = aes_decrypt_aesni,
	.encrypt_blocks = aes_encrypt_blocks_aesni,
	.decrypt_blocks = aes_decrypt_blocks_aesni,
};

/* every AES-NI CPU has SSE4.1, and the core file is built with it */
#define FEAT_AESNI (CPU_FEAT_AESNI | CPU_FEAT_SSE41)
#define FEAT_VAES_AVX2 \
	(FEAT_AESNI | CPU_FEAT_PCLMUL | CPU_FEAT_AVX2 | CPU_FEAT_VAES | \
	 CPU_FEAT_VPCLMULQDQ)
#define FEAT_VAES_AVX512 \
	(FEAT_VAES_AVX2 | CPU_FEAT_AVX512F | CPU_FEAT_AVX512VL | \
	 CPU_FEAT_AVX512BW)

static const struct crypto_driver aes_x86_drivers[] = {
	{
		.alg_name = "aes",
		.driver_name = "aes-aesni",
		.priority = 400,
		.features = FEAT_AESNI,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &aes_aesni_alg,
	},
};

/* ---- bulk hooks: the cores' entry points take the child context --------- */

/*
 * Every core takes any multiple of 128 bytes (the wide ones run 256 or
 * 512 bytes per pass and finish with one narrower pass), so one chunk
 * size serves all and a request of 128 bytes or more never waits in C.
 */
#define AES_X86_MIN_BYTES AES_X86_CHUNK

#define AES_X86_OPS(isa)                                                       \
	static const struct crypto_bulk_ops aes_ops_##isa = {                 \
		.chunk = AES_X86_CHUNK,                                        \
		.min_bytes = AES_X86_MIN_BYTES,                                \
		.xts_encrypt = aes_xts_encrypt_##isa,                          \
		.xts_decrypt = aes_xts_decrypt_##isa,                          \
		.ecb_encrypt = aes_ecb_encrypt_##isa,                          \
		.ecb_decrypt = aes_ecb_decrypt_##isa,                          \
		.cbc_decrypt = aes_cbc_decrypt_##isa,                          \
		.cfb_decrypt = aes_cfb_decrypt_##isa,                          \
		.ctr_crypt = aes_ctr_crypt_##isa,                              \
	}

AES_X86_OPS(aesni);
AES_X86_OPS(vaes_avx2);
AES_X86_OPS(vaes_avx512);

/* e.g. INSTANCE(xts, "aesni-x8", aesni, ...): "xts-aes-aesni-x8" */
#define INSTANCE(m, name, isa, prio, feat)                                     \
	{                                                                      \
		.mode = #m,                                                    \
		.child_driver = "aes-aesni",                                   \
		.driver_name = #m "-aes-" name,                                \
		.priority = (prio),                                            \
		.features = (feat),                                            \
		.flags = CRYPTO_F_CONST_TIME,                                  \
		.bulk = &aes_ops_##isa,                                        \
	}

#define INSTANCES(name, isa, prio, feat)                                       \
	INSTANCE(xts, name, isa, prio, feat),                                  \
	INSTANCE(ecb, name, isa, prio, feat),                                  \
	INSTANCE(cbc, name, isa, prio, feat),                                  \
	INSTANCE(cfb, name, isa, prio, feat),                                  \
	INSTANCE(ctr, name, isa, prio, feat),                                  \
	INSTANCE(cts, name, isa, prio, feat)

/*
 * Priorities as docs/design.md ("Driver priorities"): AES-NI 400-500 (the plain template instances
 * over aes-aesni get its 400, the 8-block cores 500), VAES-AVX2 600,
 * VAES-AVX-512 800.
 */
static const struct crypto_mode_instance aes_x86_instances[] = {
	INSTANCES("aesni-x8", aesni, 500, FEAT_AESNI),
	INSTANCES("vaes-avx2", vaes_avx2, 600, FEAT_VAES_AVX2),
	INSTANCES("vaes-avx512", vaes_avx512, 800, FEAT_VAES_AVX512),
};

/*
 * Registered whatever the CPU: the registry hides drivers whose features
 * are missing (and --list shows why).
 */
int aes_x86_register(struct crypto_registry *reg)
{
	int err = crypto_register_drivers(reg, aes_x86_drivers,
					  ARRAY_SIZE(aes_x86_drivers));

	return err ? err : crypto_register_modes(reg, aes_x86_instances,
						 ARRAY_SIZE(aes_x86_instances));
}

#else /* no x86-64 cores in this build */

int aes_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
