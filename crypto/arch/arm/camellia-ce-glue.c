/* SPDX-License-Identifier: MIT */
/*
 * Glue of the AArch64 Camellia core (camellia-ce.h): the key
 * schedule in the core's layout, and the tables of the cipher driver and
 * its bulk hooks, which are the core's entry points themselves. As for
 * the x86 cores (camellia-x86-glue.c), the core gets its own cipher
 * driver (its context holds the subkeys as it needs them), and its
 * single-block path runs the core (a padded step), so the C parts of the
 * templates stay constant-time and use the AES unit.
 */
#include <errno.h>

#include "crypto/arch/arm/camellia-ce-glue.h"
#include "crypto/internal/registry.h"

#if defined(CLOAKFS_CAMELLIA_CE_CORE) && defined(__aarch64__)

#include "crypto/arch/arm/camellia-ce.h"
#include "crypto/camellia/camellia-affine.h"
#include "crypto/camellia/camellia-internal.h"

/* the linear part of an input map (GFNI matrix layout) on x, no branch */
static uint8_t linear_map(uint64_t matrix, uint8_t x)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++) {
		uint8_t t = (uint8_t)(matrix >> (8 * (7 - i))) & x;

		t ^= t >> 4;
		t ^= t >> 2;
		t ^= t >> 1;
		r |= (uint8_t)((t & 1) << i);
	}
	return r;
}

/* the subkeys of one direction in the core's layout (camellia-ce.h) */
static void to_core_keys(void *dst, const uint64_t *k, unsigned int n)
{
	uint8_t (*out)[8] = dst;

	for (unsigned int i = 0; i < n; i++) {
		/* F subkeys: all but the whitening pairs and the FL pairs */
		int f = i >= 2 && i < n - 2 && (i - 2) % 8 < 6;

		for (unsigned int p = 0; p < 8; p++) {
			uint8_t b = (uint8_t)(k[i] >> (56 - 8 * p));

			if (f)
				b = linear_map(p == 3 || p == 6 ?
					       CAMELLIA_GFNI_PRE4_MATRIX :
					       CAMELLIA_GFNI_PRE1_MATRIX, b);
			out[i][p] = b;
		}
	}
}

static int camellia_ce_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	struct camellia_ce_ctx *c = ctx;

	return camellia_setkey_core(key, keylen, &c->rounds, to_core_keys,
				    c->enc, c->dec);
}

_Static_assert(CAMELLIA_CE_MAX_KEYS == CAMELLIA_MAX_SUBKEYS, "subkey count");

static const struct cipher_alg camellia_ce_cipher = {
	.blocksize = CAMELLIA_BLOCK_SIZE,
	.keysizes = { 16, 24, 32 },
	.ctxsize = sizeof(struct camellia_ce_ctx),
	.setkey = camellia_ce_setkey,
	.encrypt = camellia_encrypt_ce,
	.decrypt = camellia_decrypt_ce,
	.encrypt_blocks = camellia_encrypt_blocks_ce,
	.decrypt_blocks = camellia_decrypt_blocks_ce,
};

static const struct crypto_bulk_ops camellia_ce_bulk = {
	.chunk = CAMELLIA_CE_STEP,
	.min_bytes = CAMELLIA_CE_STEP,
	.xts_encrypt = camellia_xts_encrypt_ce,
	.xts_decrypt = camellia_xts_decrypt_ce,
	.ecb_encrypt = camellia_ecb_encrypt_ce,
	.ecb_decrypt = camellia_ecb_decrypt_ce,
	.cbc_decrypt = camellia_cbc_decrypt_ce,
	.cfb_decrypt = camellia_cfb_decrypt_ce,
	.ctr_crypt = camellia_ctr_crypt_ce,
};

int camellia_ce_register(struct crypto_registry *reg)
{
	static const struct crypto_simd_cipher core = {
		"camellia", "camellia-ce", 400, CPU_FEAT_ARM_AES,
		&camellia_ce_cipher, &camellia_ce_bulk,
	};

	return crypto_register_simd_ciphers(reg, &core, 1);
}

#else /* built without the core */

int camellia_ce_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
