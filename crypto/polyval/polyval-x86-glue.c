// SPDX-License-Identifier: MIT
/*
 * The x86-64 "polyval" and "ghash" drivers over the cores of
 * asm/x86/polyval-x86.h: *-pclmul (400; PCLMULQDQ), *-vpclmul-avx2 (600;
 * VPCLMULQDQ + AVX2) and *-vpclmul-avx512 (800; VPCLMULQDQ + AVX-512).
 * setkey computes H^1..H^16 with the core's own one-block product (an
 * all-zero block times H, from H^(k-1)); buffering and padding are
 * polyval-generic.c's.
 */
#include "crypto/polyval/polyval.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_POLYVAL_X86_CORES)

#include <string.h>

#include "asm/x86/polyval-x86.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"

#define POLYVAL_X86_DRIVERS(isa, name, prio, feats)                          \
	static void blocks_##isa(struct polyval_state *st, const uint8_t *src, \
				 size_t nblocks)                             \
	{                                                                    \
		polyval_blocks_##isa(st->acc, st->key.powers, src, nblocks,   \
				     st->ghash);                             \
	}                                                                    \
	static void key_##isa(struct polyval_state *st)                      \
	{                                                                    \
		static const uint8_t zero[16];                               \
		uint64_t acc[2] = { st->h[0], st->h[1] };                    \
                                                                             \
		store_le64(st->key.powers[15], st->h[0]);                    \
		store_le64(st->key.powers[15] + 8, st->h[1]);                \
		for (int k = 2; k <= POLYVAL_MAX_POWERS; k++) {              \
			polyval_blocks_##isa(acc, st->key.powers, zero, 1, 0); \
			store_le64(st->key.powers[16 - k], acc[0]);          \
			store_le64(st->key.powers[16 - k] + 8, acc[1]);      \
		}                                                            \
		explicit_bzero(acc, sizeof(acc));                            \
	}                                                                    \
	static int polyval_setkey_##isa(void *st, const uint8_t *key,        \
					size_t keylen)                       \
	{                                                                    \
		return polyval_setkey_state(st, key, keylen, 0, blocks_##isa, \
					    key_##isa);                      \
	}                                                                    \
	static int ghash_setkey_##isa(void *st, const uint8_t *key,          \
				      size_t keylen)                         \
	{                                                                    \
		return polyval_setkey_state(st, key, keylen, 1, blocks_##isa, \
					    key_##isa);                      \
	}                                                                    \
	static const struct hash_alg polyval_##isa##_alg =                   \
		POLYVAL_HASH_ALG(polyval_setkey_##isa);                      \
	static const struct hash_alg ghash_##isa##_alg =                     \
		POLYVAL_HASH_ALG(ghash_setkey_##isa);                        \
	static const struct crypto_driver polyval_##isa##_drivers[] = {      \
		{ .alg_name = "polyval", .driver_name = "polyval-" name,     \
		  .priority = (prio), .features = (feats),                   \
		  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,    \
		  .u.hash = &polyval_##isa##_alg },                          \
		{ .alg_name = "ghash", .driver_name = "ghash-" name,         \
		  .priority = (prio), .features = (feats),                   \
		  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,    \
		  .u.hash = &ghash_##isa##_alg },                            \
	};

POLYVAL_X86_DRIVERS(pclmul, "pclmul", 400, CPU_FEAT_PCLMUL | CPU_FEAT_SSSE3)
POLYVAL_X86_DRIVERS(vpclmul_avx2, "vpclmul-avx2", 600,
		    CPU_FEAT_PCLMUL | CPU_FEAT_VPCLMULQDQ | CPU_FEAT_AVX2)
POLYVAL_X86_DRIVERS(vpclmul_avx512, "vpclmul-avx512", 800,
		    CPU_FEAT_PCLMUL | CPU_FEAT_VPCLMULQDQ | CPU_FEAT_AVX512F |
		    CPU_FEAT_AVX512BW)

int polyval_x86_register(struct crypto_registry *reg)
{
	const struct crypto_driver *sets[] = {
		polyval_pclmul_drivers, polyval_vpclmul_avx2_drivers,
		polyval_vpclmul_avx512_drivers,
	};

	for (size_t i = 0; i < ARRAY_SIZE(sets); i++)
		for (size_t j = 0; j < 2; j++) {
			int err = crypto_register_driver(reg, &sets[i][j]);

			if (err)
				return err;
		}
	return 0;
}

#else

int polyval_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
