// SPDX-License-Identifier: MIT
/*
 * gcm(aes) on the fused AES + PMULL core of aes-gcm-ce.h, AArch64 and
 * AArch32: gcm-aes-ce-pmull (450). GCM as gcm.c builds it (96-bit
 * nonces, J0 = nonce || 1, tag = GHASH ^ E_K(J0)), with the key schedule
 * of aes-ce (aes_ce_setkey) and a GHASH state of the ghash-pmull driver
 * (H^1 .. H^16 at setkey) in the context. The core hashes the AAD, the
 * data in the pass that encrypts or decrypts it, and the lengths block;
 * the composed instance gcm-aes-ce-ghash-pmull reads the data twice.
 *
 * A decryption writes its plaintext to dst in that pass and wipes it when
 * the tag does not match (aead_check_tag), as the x86 fused drivers: the
 * caller still never gets unverified plaintext.
 */
#include "crypto/arch/arm/aes-gcm-ce-glue.h"

#include "crypto/internal/registry.h"

#ifdef CLOAKFS_AES_GCM_CE_CORE

#include <string.h>

#include "crypto/arch/arm/aes-gcm-ce.h"
#include "crypto/arch/arm/polyval-arm.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"
#include "crypto/templates/aead.h"

#define GCM_BLOCK 16
#define GCM_NONCE 12
/* SP 800-38D 5.2.1.1: len(P) <= 2^39 - 256 bits, 2^32 - 2 blocks */
#define GCM_MAX_BLOCKS 0xfffffffeu

struct aes_gcm_ce_ctx {
	struct aes_ce_ctx aes;
	struct polyval_state ghash; /* keyed with H, no message */
	struct aes_gcm_ce_keys keys; /* from ghash's powers */
};

static int aes_gcm_ce_setkey(struct crypto_tfm *tfm, const uint8_t *key,
			     size_t keylen)
{
	struct aes_gcm_ce_ctx *c = tfm->ctx;
	uint8_t h[GCM_BLOCK] = { 0 };
	int err = aes_ce_setkey(&c->aes, key, keylen);

	/* H = E_K(0^128) */
	if (!err) {
		aes_encrypt_ce(&c->aes, h, h);
		err = ghash_setkey_pmull(&c->ghash, h, sizeof(h));
	}
	if (!err)
		aes_gcm_ce_step_keys(&c->keys, &c->ghash);
	wipe(h, sizeof(h));
	return err;
}

/* one message: the tag into tag, dst = src ^ the keystream from J0 + 1 */
static void aes_gcm_ce_crypt(const struct crypto_tfm *tfm, const uint8_t *nonce,
			     const uint8_t *aad, size_t aadlen, uint8_t *dst,
			     const uint8_t *src, size_t len, uint8_t *tag,
			     int enc)
{
	const struct aes_gcm_ce_ctx *c = tfm->ctx;
	uint8_t ctr[GCM_BLOCK], ks0[GCM_BLOCK], out[GCM_BLOCK];

	aead_check_len(tfm, len, GCM_BLOCK, GCM_MAX_BLOCKS, "GCM");
	memcpy(ctr, nonce, GCM_NONCE);
	store_be32(ctr + GCM_NONCE, 1);
	aes_encrypt_ce(&c->aes, ks0, ctr);
	store_be32(ctr + GCM_NONCE, 2);
	aes_gcm_crypt_ce(&c->aes, &c->ghash, &c->keys, aad, aadlen, dst, src,
			 len, ctr, enc, out);
	xor_bytes(tag, out, ks0, GCM_BLOCK);
	wipe(ks0, sizeof(ks0));
	wipe(out, sizeof(out));
}

static int aes_gcm_ce_encrypt(const struct crypto_tfm *tfm,
			      const uint8_t *nonce, const uint8_t *aad,
			      size_t aadlen, uint8_t *dst, const uint8_t *src,
			      size_t len, uint8_t *tag)
{
	aes_gcm_ce_crypt(tfm, nonce, aad, aadlen, dst, src, len, tag, 1);
	return 0;
}

static int aes_gcm_ce_decrypt(const struct crypto_tfm *tfm,
			      const uint8_t *nonce, const uint8_t *aad,
			      size_t aadlen, uint8_t *dst, const uint8_t *src,
			      size_t len, const uint8_t *tag)
{
	uint8_t expected[AEAD_TAG_SIZE];

	aes_gcm_ce_crypt(tfm, nonce, aad, aadlen, dst, src, len, expected, 0);
	return aead_check_tag(expected, tag, dst, len);
}

static const struct aead_alg aes_gcm_ce_alg = {
	.keysizes = { 16, 24, 32, 0 },
	.noncesize = GCM_NONCE,
	.tagsize = AEAD_TAG_SIZE,
	.ctxsize = sizeof(struct aes_gcm_ce_ctx),
	.setkey = aes_gcm_ce_setkey,
	.encrypt = aes_gcm_ce_encrypt,
	.decrypt = aes_gcm_ce_decrypt,
};

/*
 * Above the composed gcm-aes-ce-ghash-pmull (400, docs/design.md "Driver
 * priorities"). The features of aes-ce (AArch32 needs NEON with AES) and
 * of ghash-pmull.
 */
static const struct crypto_driver aes_gcm_ce_drivers[] = {
	{ .alg_name = "gcm(aes)", .driver_name = "gcm-aes-ce-pmull",
	  .priority = 450,
	  .features = CPU_FEAT_NEON | CPU_FEAT_ARM_AES | CPU_FEAT_ARM_PMULL,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_AEAD,
	  .u.aead = &aes_gcm_ce_alg },
};

int aes_gcm_ce_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, aes_gcm_ce_drivers,
				       ARRAY_SIZE(aes_gcm_ce_drivers));
}

#else /* not ARM, or built without the core: nothing to register */

int aes_gcm_ce_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
