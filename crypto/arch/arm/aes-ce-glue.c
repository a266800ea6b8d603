/* SPDX-License-Identifier: MIT */
/*
 * Glue for the ARMv8 Crypto Extensions AES cores (aes-ce-core-arm64.S
 * for AArch64, aes-ce-core-arm32.S for AArch32; one set of entry points
 * and prototypes for both, aes-ce.h). See aes-ce-glue.h.
 *
 * "aes-ce" is a single-block cipher whose context is the cores' key
 * schedule (struct aes_ce_ctx); its block functions and the bulk ops of
 * the mode drivers (template instances over it, whole 128-byte chunks)
 * are the cores' entry points as they are: they take that context. Only
 * the key expansion is C here. Keys, the first XTS tweak E_K2(iv),
 * remainders shorter than a chunk (through aes-ce's multi-block
 * path), ciphertext stealing and serial CBC encryption stay in the C
 * templates, so results are byte-identical for any split.
 *
 * The fused drivers take the names the registry would give the plain
 * template instances over aes-ce ("xts-aes-ce", ...), so the self-test
 * compares them with the instances over aes-generic instead
 * (crypto/testmgr.c); cts(cbc(aes)) remains a plain instance.
 *
 * The cores are built only when meson defines CLOAKFS_AES_CE_CORES (ARM
 * host, simd option on); otherwise this file registers nothing.
 */
#include "crypto/arch/arm/aes-ce-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_AES_CE_CORES) && (defined(__aarch64__) || defined(__arm__))

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "crypto/arch/arm/aes-ce.h"
#include "crypto/internal/util.h"

/* the cores read the context at these offsets (aes-ce.h) */
_Static_assert(offsetof(struct aes_ce_ctx, enc) == AES_CE_CTX_ENC,
	       "AES_CE_CTX_ENC does not match struct aes_ce_ctx");
_Static_assert(offsetof(struct aes_ce_ctx, dec) == AES_CE_CTX_DEC,
	       "AES_CE_CTX_DEC does not match struct aes_ce_ctx");
_Static_assert(offsetof(struct aes_ce_ctx, nrounds) == AES_CE_CTX_ROUNDS,
	       "AES_CE_CTX_ROUNDS does not match struct aes_ce_ctx");

/* ---- the single-block cipher ------------------------------------------- */

/*
 * FIPS-197 5.2 key expansion on little-endian words (byte 0 of a word is
 * its low byte, so RotWord is a right rotation by 8 and Rcon lands in the
 * low byte). SubWord runs on the AES unit: no table indexed by the key.
 */
int aes_ce_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct aes_ce_ctx *ctx = vctx;
	uint32_t w[4 * (AES_CE_MAX_ROUNDS + 1)], rcon = 1;
	size_t nk = keylen / 4, nwords;
	int nr;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	nr = (int)nk + 6;
	nwords = 4 * (size_t)(nr + 1);
	for (size_t i = 0; i < nk; i++)
		w[i] = load_le32(key + 4 * i);
	for (size_t i = nk; i < nwords; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = aes_ce_sub_word(ror32(t, 8)) ^ rcon;
			/* xtime; rcon is public */
			rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
		} else if (nk > 6 && i % nk == 4) {
			t = aes_ce_sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (size_t i = 0; i < nwords; i++)
		store_le32(&ctx->enc[i / 4][4 * (i % 4)], w[i]);
	memcpy(ctx->dec[0], ctx->enc[nr], 16);
	for (int r = 1; r < nr; r++)
		aes_ce_invert_round_key(ctx->dec[r], ctx->enc[nr - r]);
	memcpy(ctx->dec[nr], ctx->enc[0], 16);
	ctx->nrounds = nr;
	explicit_bzero(w, sizeof(w));
	return 0;
}

static const struct cipher_alg aes_ce_alg = {
	.blocksize = 16,
	.keysizes = { 16, 24, 32, 0 },
	.ctxsize = sizeof(struct aes_ce_ctx),
	.setkey = aes_ce_setkey,
	.encrypt = aes_encrypt_ce,
	.decrypt = aes_decrypt_ce,
	.encrypt_blocks = aes_encrypt_blocks_ce,
	.decrypt_blocks = aes_decrypt_blocks_ce,
};

/* AArch32 needs NEON too (always there with AES; AArch64 has it anyway) */
#define FEAT_AES_CE (CPU_FEAT_NEON | CPU_FEAT_ARM_AES)

static const struct crypto_driver aes_ce_drivers[] = {
	{
		.alg_name = "aes",
		.driver_name = "aes-ce",
		.priority = 400, /* CE: docs/design.md, "Driver priorities" */
		.features = FEAT_AES_CE,
		.flags = CRYPTO_F_CONST_TIME, /* AES instructions, no tables */
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &aes_ce_alg,
	},
};

/* ---- bulk ops: the cores' entry points take the child context ----------- */

/*
 * 128 bytes per chunk: 8 blocks in flight on AArch64 (two passes of 4 on
 * AArch32). A single chunk already beats the C path through aes-ce's
 * multi-block entry, so the cores take every request of a chunk or more.
 * One table per mode, so each driver reaches only its own core.
 */
static const struct crypto_bulk_ops aes_ce_xts_ops = {
	.chunk = AES_CE_CHUNK,
	.min_bytes = AES_CE_CHUNK,
	.xts_encrypt = aes_xts_encrypt_ce,
	.xts_decrypt = aes_xts_decrypt_ce,
};

static const struct crypto_bulk_ops aes_ce_ecb_ops = {
	.chunk = AES_CE_CHUNK,
	.min_bytes = AES_CE_CHUNK,
	.ecb_encrypt = aes_ecb_encrypt_ce,
	.ecb_decrypt = aes_ecb_decrypt_ce,
};

static const struct crypto_bulk_ops aes_ce_cbc_ops = {
	.chunk = AES_CE_CHUNK,
	.min_bytes = AES_CE_CHUNK,
	.cbc_decrypt = aes_cbc_decrypt_ce,
};

static const struct crypto_bulk_ops aes_ce_cfb_ops = {
	.chunk = AES_CE_CHUNK,
	.min_bytes = AES_CE_CHUNK,
	.cfb_decrypt = aes_cfb_decrypt_ce,
};

static const struct crypto_bulk_ops aes_ce_ctr_ops = {
	.chunk = AES_CE_CHUNK,
	.min_bytes = AES_CE_CHUNK,
	.ctr_crypt = aes_ctr_crypt_ce,
};

/* e.g. INSTANCE(xts): "xts-aes-ce", alg "xts(aes)", over aes-ce */
#define INSTANCE(m)                                                            \
	{                                                                      \
		.mode = #m,                                                    \
		.child_driver = "aes-ce",                                      \
		.driver_name = #m "-aes-ce",                                   \
		.priority = 400,                                               \
		.features = FEAT_AES_CE,                                       \
		.flags = CRYPTO_F_CONST_TIME,                                  \
		.bulk = &aes_ce_##m##_ops,                                     \
	}

static const struct crypto_mode_instance aes_ce_instances[] = {
	INSTANCE(xts),
	INSTANCE(ecb),
	INSTANCE(cbc),
	INSTANCE(cfb),
	INSTANCE(ctr),
};

/*
 * Registered whatever the CPU: the registry hides drivers whose features
 * are missing (and --list shows why).
 */
int aes_ce_register(struct crypto_registry *reg)
{
	int err = crypto_register_drivers(reg, aes_ce_drivers,
					  ARRAY_SIZE(aes_ce_drivers));

	return err ? err : crypto_register_modes(reg, aes_ce_instances,
						 ARRAY_SIZE(aes_ce_instances));
}

#else /* no ARM Crypto Extensions cores in this build */

int aes_ce_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
