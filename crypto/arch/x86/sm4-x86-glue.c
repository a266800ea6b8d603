/* SPDX-License-Identifier: MIT */
/*
 * Glue of the x86-64 SM4 cores (sm4-x86.h): key schedule, the
 * single-block cipher drivers and the bulk hooks of the mode instances.
 *
 * Why own cipher drivers instead of children of sm4-generic: the cores
 * need the plain round keys, and sm4-generic's context holds round keys
 * with the constants of its S-box circuit folded in (plus bit masks for
 * its bitsliced layout). So each core gets a cipher driver whose context
 * is struct sm4_x86_ctx; its single-block and multi-block paths run the
 * same core (a partial step padded on the stack), so the C parts of the
 * templates (remainders, ciphertext stealing, CBC/CFB encryption, the
 * XTS tweak) stay constant-time and fast. Each core's setkey computes tau
 * with its own S-box, so no table is indexed by key bytes.
 */
#include "crypto/internal/registry.h"
#include "crypto/arch/x86/sm4-x86-glue.h"

#if defined(CLOAKFS_SM4_X86_CORES)

#include "crypto/arch/x86/sm4-x86.h"
#include "crypto/sm4/sm4-internal.h"

_Static_assert(sizeof(((struct sm4_x86_ctx *)0)->rk_enc) ==
	       SM4_ROUNDS * sizeof(uint32_t), "round keys");

/* the cipher table and bulk hooks of one core: its entry points as they are */
#define SM4_X86_TABLES(isa)                                                    \
	static const struct cipher_alg sm4_cipher_##isa = {                    \
		.blocksize = SM4_BLOCK_SIZE,                                   \
		.keysizes = { SM4_KEY_SIZE },                                  \
		.ctxsize = sizeof(struct sm4_x86_ctx),                         \
		.setkey = sm4_setkey_##isa,                                    \
		.encrypt = sm4_encrypt_##isa,                                  \
		.decrypt = sm4_decrypt_##isa,                                  \
		.encrypt_blocks = sm4_encrypt_blocks_##isa,                    \
		.decrypt_blocks = sm4_decrypt_blocks_##isa,                    \
	};                                                                     \
	static const struct crypto_bulk_ops sm4_bulk_##isa = {                 \
		.chunk = SM4_X86_CHUNK,                                        \
		.min_bytes = SM4_X86_CHUNK,                                    \
		.xts_encrypt = sm4_xts_encrypt_##isa,                          \
		.xts_decrypt = sm4_xts_decrypt_##isa,                          \
		.ecb_encrypt = sm4_ecb_encrypt_##isa,                          \
		.ecb_decrypt = sm4_ecb_decrypt_##isa,                          \
		.cbc_decrypt = sm4_cbc_decrypt_##isa,                          \
		.cfb_decrypt = sm4_cfb_decrypt_##isa,                          \
		.ctr_crypt = sm4_ctr_crypt_##isa,                              \
	}

SM4_X86_TABLES(aesni_avx2);
SM4_X86_TABLES(gfni_avx2);
SM4_X86_TABLES(gfni_avx512);

static const struct crypto_simd_cipher cores[] = {
	{ "sm4", "sm4-aesni-avx2", 400, CPU_FEAT_AESNI | CPU_FEAT_AVX2,
	  &sm4_cipher_aesni_avx2, &sm4_bulk_aesni_avx2 },
	{ "sm4", "sm4-gfni-avx2", 600, CPU_FEAT_GFNI | CPU_FEAT_AVX2,
	  &sm4_cipher_gfni_avx2, &sm4_bulk_gfni_avx2 },
	{ "sm4", "sm4-gfni-avx512", 800,
	  CPU_FEAT_GFNI | CPU_FEAT_AVX512F | CPU_FEAT_AVX512BW,
	  &sm4_cipher_gfni_avx512, &sm4_bulk_gfni_avx512 },
};

int sm4_x86_register(struct crypto_registry *reg)
{
	return crypto_register_simd_ciphers(reg, cores, ARRAY_SIZE(cores));
}

#else /* built without the cores */

int sm4_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
