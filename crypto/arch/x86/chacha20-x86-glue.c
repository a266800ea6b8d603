// SPDX-License-Identifier: MIT
/*
 * The "chacha20" skcipher drivers over the x86-64 SIMD cores
 * (chacha20-x86.h): chacha20-ssse3, chacha20-avx2 and
 * chacha20-avx512. Same key context, IV format and IV update as
 * chacha20-generic (chacha20.h): the 16-byte IV is the 32-bit
 * little-endian block counter then the 96-bit nonce, and the counter
 * written back has advanced by one per 64-byte block started. The cores
 * take any length: whole groups of blocks in the widest layout, the rest
 * in the narrowest one that covers it in one pass; up to one block goes
 * to the generic chacha20_crypt() instead. The cores' entry points
 * (chacha20_crypt_<isa>) are the skcipher_alg's encrypt and decrypt.
 */
#include "crypto/arch/x86/chacha20poly1305-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_CHACHA_X86_CORES)

#include "crypto/arch/x86/chacha20-x86.h"
#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"

/* one skcipher_alg per core, its entry point encryption and decryption */
static const struct skcipher_alg chacha20_ssse3_alg =
	CHACHA20_SKCIPHER_ALG(chacha20_crypt_ssse3);
static const struct skcipher_alg chacha20_avx2_alg =
	CHACHA20_SKCIPHER_ALG(chacha20_crypt_avx2);
static const struct skcipher_alg chacha20_avx512_alg =
	CHACHA20_SKCIPHER_ALG(chacha20_crypt_avx512);

static const struct crypto_driver chacha20_x86_drivers[] = {
	{ .alg_name = "chacha20", .driver_name = "chacha20-ssse3",
	  .priority = 300, .features = CPU_FEAT_SSSE3,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_SKCIPHER,
	  .u.skcipher = &chacha20_ssse3_alg },
	{ .alg_name = "chacha20", .driver_name = "chacha20-avx2",
	  .priority = 600, .features = CPU_FEAT_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_SKCIPHER,
	  .u.skcipher = &chacha20_avx2_alg },
	/*
	 * AVX2 too: the compiler may use it in the -mavx512f core;
	 * AVX-512VL for the 256-bit row-wise pass (VPROLD, VPTERNLOGD on ymm)
	 */
	{ .alg_name = "chacha20", .driver_name = "chacha20-avx512",
	  .priority = 800,
	  .features = CPU_FEAT_AVX512F | CPU_FEAT_AVX512VL | CPU_FEAT_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_SKCIPHER,
	  .u.skcipher = &chacha20_avx512_alg },
};

int chacha20_x86_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, chacha20_x86_drivers,
				       ARRAY_SIZE(chacha20_x86_drivers));
}

#else /* not x86-64, or built without the cores: nothing to register */

int chacha20_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
