/* SPDX-License-Identifier: MIT */
/*
 * The polyval and ghash drivers over one SIMD core (contract:
 * asm/x86/polyval-x86.h, shared by asm/arm/polyval-arm.h), for the glue
 * files: POLYVAL_SIMD_DRIVERS(isa, "name", priority, features) defines
 * polyval_<isa>_drivers[2] ("polyval-name", "ghash-name") over
 * polyval_blocks_<isa>. setkey computes H^1..H^16 with the core's own
 * one-block product (an all-zero block times H, from H^(k-1)).
 */
#ifndef CLOAKFS_CRYPTO_POLYVAL_SIMD_H
#define CLOAKFS_CRYPTO_POLYVAL_SIMD_H

#include "crypto/internal/alg.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"
#include "crypto/polyval/polyval.h"

#define POLYVAL_SIMD_DRIVERS(isa, name, prio, feats)                          \
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

/* register polyval_<isa>_drivers of each set in sets[0..n) */
static inline int polyval_simd_register(struct crypto_registry *reg,
					const struct crypto_driver *const *sets,
					size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		err = crypto_register_drivers(reg, sets[i], 2);
	return err;
}

#endif
