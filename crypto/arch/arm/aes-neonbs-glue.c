/* SPDX-License-Identifier: MIT */
/*
 * Glue for the bitsliced NEON AES cores (aes-neonbs-core.c, see
 * aes-neonbs-core.h). See aes-neonbs-glue.h.
 *
 * "aes-neonbs" is a single-block cipher whose context is the cores'
 * bitsliced key; the mode drivers are template instances over it, so the
 * first XTS tweak E_K2(iv), blocks after the last whole 128-byte chunk,
 * ciphertext stealing and serial CBC/CFB encryption stay in the C
 * templates, and the cores only see whole chunks. Blocks C hands to the
 * cipher run through the core as well, padded to a chunk: one block
 * costs as much as eight, which is still fewer instructions than
 * aes-generic's four-block pass on both ARM targets (docs/performance.md,
 * "Bitsliced NEON AES"); aes-neon (aes-neon-glue.h), above it, is the
 * single-block cipher users without a mode driver get.
 *
 * The cores are built only when meson defines CLOAKFS_AES_NEONBS_CORES
 * (ARM host, simd option on); otherwise this file registers nothing.
 */
#include "crypto/arch/arm/aes-neonbs-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_AES_NEONBS_CORES) && (defined(__aarch64__) || defined(__arm__))

#include <errno.h>
#include <string.h>

#include "crypto/arch/arm/aes-neonbs-core.h"
#include "crypto/aes/aes-internal.h"

/* ---- the single-block cipher ------------------------------------------- */

/*
 * Round key r to the cores' layout: plane b of byte m is 0xff when bit b
 * of the byte is set, by masks (the key is secret: no branches).
 */
int aes_neonbs_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct aes_neonbs_key *ctx = vctx;
	uint32_t w[AES_MAX_KEY_WORDS];
	unsigned int rounds = aes_expand_key(w, key, keylen);

	if (!rounds)
		return -EINVAL;
	memset(ctx, 0, sizeof(*ctx));
	ctx->rounds = rounds;
	for (unsigned int r = 0; r <= rounds; r++) {
		for (unsigned int m = 0; m < 16; m++) {
			uint8_t byte = (uint8_t)(w[4 * r + m / 4] >> (8 * (m % 4)));

			/* the S-box constant the cores leave out (see the core) */
			if (r)
				byte ^= 0x63;
			for (unsigned int b = 0; b < 8; b++)
				ctx->rk[r][b][m] = (uint8_t)(0 - ((byte >> b) & 1));
		}
	}
	explicit_bzero(w, sizeof(w));
	return 0;
}

/* whole chunks through the core, the rest padded to one chunk */
static void neonbs_blocks(const struct aes_neonbs_key *ctx, uint8_t *dst,
			  const uint8_t *src, size_t nblocks, int enc)
{
	void (*core)(const void *, uint8_t *, const uint8_t *, size_t) =
		enc ? aes_ecb_encrypt_neonbs : aes_ecb_decrypt_neonbs;
	size_t whole = nblocks * AES_BLOCK_SIZE;
	size_t rest = whole % AES_NEONBS_CHUNK;

	whole -= rest;
	if (whole)
		core(ctx, dst, src, whole);
	if (rest) {
		uint8_t buf[AES_NEONBS_CHUNK] = { 0 };

		memcpy(buf, src + whole, rest);
		core(ctx, buf, buf, AES_NEONBS_CHUNK);
		memcpy(dst + whole, buf, rest);
		explicit_bzero(buf, sizeof(buf));
	}
}

static void neonbs_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	neonbs_blocks(ctx, dst, src, 1, 1);
}

static void neonbs_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	neonbs_blocks(ctx, dst, src, 1, 0);
}

void aes_neonbs_encrypt_blocks(const void *ctx, uint8_t *dst,
			       const uint8_t *src, size_t nblocks)
{
	neonbs_blocks(ctx, dst, src, nblocks, 1);
}

void aes_neonbs_decrypt_blocks(const void *ctx, uint8_t *dst,
			       const uint8_t *src, size_t nblocks)
{
	neonbs_blocks(ctx, dst, src, nblocks, 0);
}

static const struct cipher_alg aes_neonbs_alg = {
	.blocksize = AES_BLOCK_SIZE,
	.keysizes = { 16, 24, 32, 0 },
	.ctxsize = sizeof(struct aes_neonbs_key),
	.setkey = aes_neonbs_setkey,
	.encrypt = neonbs_encrypt,
	.decrypt = neonbs_decrypt,
	.encrypt_blocks = aes_neonbs_encrypt_blocks,
	.decrypt_blocks = aes_neonbs_decrypt_blocks,
};

/*
 * Priority 250, as the Linux arm64 aes-neonbs: constant-time NEON above
 * the C drivers, aes-table (variable time) included, so allowing
 * variable time never trades the constant-time core for a slower table;
 * below the Crypto Extension drivers (400).
 */
#define NEONBS_PRIORITY 250
/*
 * The mode drivers: above aes-neon (300), the single-block cipher, whose
 * generic mode instances would otherwise win with one block a call where
 * these run 8-block chunks in the core
 */
#define NEONBS_MODE_PRIORITY 310

static const struct crypto_driver aes_neonbs_drivers[] = {
	{
		.alg_name = "aes",
		.driver_name = "aes-neonbs",
		.priority = NEONBS_PRIORITY,
		.features = CPU_FEAT_NEON,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &aes_neonbs_alg,
	},
};

/* ---- bulk hooks: the core's entry points take the bitsliced key --------- */

/* a request of one chunk or more never waits in C */
static const struct crypto_bulk_ops aes_neonbs_ops = {
	.chunk = AES_NEONBS_CHUNK,
	.min_bytes = AES_NEONBS_CHUNK,
	.xts_encrypt = aes_xts_encrypt_neonbs,
	.xts_decrypt = aes_xts_decrypt_neonbs,
	.ecb_encrypt = aes_ecb_encrypt_neonbs,
	.ecb_decrypt = aes_ecb_decrypt_neonbs,
	.cbc_decrypt = aes_cbc_decrypt_neonbs,
	.cfb_decrypt = aes_cfb_decrypt_neonbs,
	.ctr_crypt = aes_ctr_crypt_neonbs,
};

/* e.g. INSTANCE(xts): "xts-aes-neonbs" over aes-neonbs */
#define INSTANCE(m)                                                            \
	{                                                                      \
		.mode = #m,                                                    \
		.child_driver = "aes-neonbs",                                  \
		.driver_name = #m "-aes-neonbs",                               \
		.priority = NEONBS_MODE_PRIORITY,                              \
		.features = CPU_FEAT_NEON,                                     \
		.flags = CRYPTO_F_CONST_TIME,                                  \
		.bulk = &aes_neonbs_ops,                                       \
	}

static const struct crypto_mode_instance aes_neonbs_instances[] = {
	INSTANCE(xts), INSTANCE(ecb), INSTANCE(ctr),
	INSTANCE(cbc), INSTANCE(cfb), INSTANCE(cts),
};

/*
 * Registered whatever the CPU: the registry hides them without NEON
 * (HWCAP_NEON on AArch32, e.g. Cortex-R5F; always present on AArch64).
 */
int aes_neonbs_register(struct crypto_registry *reg)
{
	int err = crypto_register_drivers(reg, aes_neonbs_drivers,
					  ARRAY_SIZE(aes_neonbs_drivers));

	return err ? err : crypto_register_modes(reg, aes_neonbs_instances,
						 ARRAY_SIZE(aes_neonbs_instances));
}

#else /* no NEON cores in this build */

int aes_neonbs_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
