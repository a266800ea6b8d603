/* SPDX-License-Identifier: MIT */
/*
 * Glue of the x86-64 Camellia cores (camellia-x86.h): the key
 * schedule in the cores' layout, and the tables of the single-block
 * cipher drivers and their bulk hooks, which are the cores' entry points
 * themselves (they take the cipher context).
 *
 * Why own cipher drivers instead of children of camellia-generic: the
 * cores need the subkeys as broadcastable bytes, and camellia-generic's
 * context holds them as bit masks and planes with its circuit's constant
 * folded in. The cipher drivers' single-block and multi-block paths run
 * the same core (a partial step padded on the stack), so the C parts of
 * the templates (remainders, ciphertext stealing, CBC/CFB encryption, the
 * XTS tweak) stay constant-time and fast. The key schedule is the shared
 * constant-time one (camellia-keysched.c).
 */
#include <errno.h>

#include "crypto/arch/x86/camellia-x86-glue.h"
#include "crypto/internal/registry.h"

#if defined(CLOAKFS_CAMELLIA_X86_CORES)

#include "crypto/arch/x86/camellia-x86.h"
#include "crypto/camellia/camellia-internal.h"

/* each subkey as 8 words of a byte repeated 4 times (camellia-x86.h) */
static void to_core_keys(void *dst, const uint64_t *k, unsigned int n)
{
	uint32_t (*out)[8] = dst;

	for (unsigned int i = 0; i < n; i++)
		for (unsigned int p = 0; p < 8; p++)
			out[i][p] = (uint32_t)((k[i] >> (56 - 8 * p)) & 0xff) * 0x01010101u;
}

static int camellia_x86_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct camellia_x86_ctx *c = ctx;

	return camellia_setkey_core(key, keylen, &c->rounds, to_core_keys,
				    c->enc, c->dec);
}

_Static_assert(CAMELLIA_X86_MAX_KEYS == CAMELLIA_MAX_SUBKEYS, "subkey count");

/* the driver tables of one core: its entry points as they are */
#define CAMELLIA_X86_TABLES(isa, step)                                         \
	static const struct cipher_alg cipher_##isa = {                        \
		.blocksize = CAMELLIA_BLOCK_SIZE,                              \
		.keysizes = { 16, 24, 32 },                                    \
		.ctxsize = sizeof(struct camellia_x86_ctx),                    \
		.setkey = camellia_x86_setkey,                                 \
		.encrypt = camellia_encrypt_##isa,                             \
		.decrypt = camellia_decrypt_##isa,                             \
		.encrypt_blocks = camellia_encrypt_blocks_##isa,               \
		.decrypt_blocks = camellia_decrypt_blocks_##isa,               \
	};                                                                     \
	static const struct crypto_bulk_ops bulk_##isa = {                     \
		.chunk = (step),                                               \
		.min_bytes = (step),                                           \
		.xts_encrypt = camellia_xts_encrypt_##isa,                     \
		.xts_decrypt = camellia_xts_decrypt_##isa,                     \
		.ecb_encrypt = camellia_ecb_encrypt_##isa,                     \
		.ecb_decrypt = camellia_ecb_decrypt_##isa,                     \
		.cbc_decrypt = camellia_cbc_decrypt_##isa,                     \
		.cfb_decrypt = camellia_cfb_decrypt_##isa,                     \
		.ctr_crypt = camellia_ctr_crypt_##isa,                         \
	}

CAMELLIA_X86_TABLES(aesni_avx2, CAMELLIA_X86_STEP_AVX2);
CAMELLIA_X86_TABLES(gfni_avx2, CAMELLIA_X86_STEP_AVX2);
/* the AVX-512 core takes 512-byte multiples too (camellia-gfni-avx512.c) */
CAMELLIA_X86_TABLES(gfni_avx512, CAMELLIA_X86_STEP_AVX2);

/* priorities as for SM4's cores (docs/crypto.md) */
static const struct crypto_simd_cipher cores[] = {
	{ "camellia", "camellia-aesni-avx2", 400, CPU_FEAT_AESNI | CPU_FEAT_AVX2,
	  &cipher_aesni_avx2, &bulk_aesni_avx2 },
	{ "camellia", "camellia-gfni-avx2", 600, CPU_FEAT_GFNI | CPU_FEAT_AVX2,
	  &cipher_gfni_avx2, &bulk_gfni_avx2 },
	{ "camellia", "camellia-gfni-avx512", 800,
	  CPU_FEAT_GFNI | CPU_FEAT_AVX512F | CPU_FEAT_AVX512BW,
	  &cipher_gfni_avx512, &bulk_gfni_avx512 },
};

int camellia_x86_register(struct crypto_registry *reg)
{
	return crypto_register_simd_ciphers(reg, cores, ARRAY_SIZE(cores));
}

#else /* built without the cores */

int camellia_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
