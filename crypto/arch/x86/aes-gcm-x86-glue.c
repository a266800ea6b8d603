// SPDX-License-Identifier: MIT
/*
 * gcm(aes) on the fused x86-64 cores of aes-gcm-x86.h:
 *   gcm-aes-vaes-avx512 (900): VAES + VPCLMULQDQ on zmm, AVX-512F/BW/VL
 *   gcm-aes-vaes-avx2 (700):   VAES + VPCLMULQDQ on ymm, AVX2
 *   gcm-aes-aesni-pclmul (500): AES-NI + PCLMULQDQ on xmm, SSE4.1
 * GCM as gcm.c builds it (96-bit nonces, J0 = nonce || 1, tag = GHASH ^
 * E_K(J0)), with the key schedule of aes-aesni (aes_x86_setkey) and a
 * GHASH state of the ghash driver of the same ISA (H^1 .. H^16
 * at setkey) in the context. The core hashes the AAD, the data in the
 * pass that encrypts or decrypts it, and the lengths block. The composed instance
 * gcm_base(ctr(aes),ghash) reads the data twice (docs/performance.md).
 *
 * A decryption writes its plaintext to dst in that pass and wipes it when
 * the tag does not match: the caller still never gets unverified
 * plaintext (the contract of struct aead_alg), but dst holds it until
 * the check, where the composed engine keeps the first 1 KiB on the
 * stack.
 */
#include "crypto/arch/x86/aes-gcm-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_AES_GCM_X86_CORES)

#include <string.h>

#include "crypto/arch/x86/aes-gcm-x86.h"
#include "crypto/arch/x86/polyval-x86.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"
#include "crypto/templates/aead.h"

#define GCM_BLOCK 16
#define GCM_NONCE 12
/* SP 800-38D 5.2.1.1: len(P) <= 2^39 - 256 bits, 2^32 - 2 blocks */
#define GCM_MAX_BLOCKS 0xfffffffeu

struct aes_gcm_x86_ctx {
	struct aes_x86_ctx aes;
	struct polyval_state ghash; /* keyed with H, no message */
};

typedef int ghash_setkey_fn(void *state, const uint8_t *key, size_t keylen);
typedef void aes_gcm_core_fn(const struct aes_x86_ctx *aes,
			     const struct polyval_state *st, const uint8_t *aad,
			     size_t aadlen, uint8_t *dst, const uint8_t *src,
			     size_t len, const uint8_t ctr[16], int enc,
			     uint8_t ghash[16]);

static int aes_gcm_x86_setkey(struct crypto_tfm *tfm, const uint8_t *key,
			      size_t keylen, ghash_setkey_fn *ghash_setkey)
{
	struct aes_gcm_x86_ctx *c = tfm->ctx;
	uint8_t h[GCM_BLOCK] = { 0 };
	int err = aes_x86_setkey(&c->aes, key, keylen);

	/* H = E_K(0^128) */
	if (!err) {
		aes_encrypt_aesni(&c->aes, h, h);
		err = ghash_setkey(&c->ghash, h, sizeof(h));
	}
	wipe(h, sizeof(h));
	return err;
}

/*
 * One message through core: the tag (GHASH ^ E_K(J0)) into tag, dst =
 * src ^ the keystream from J0 + 1.
 */
static inline __attribute__((always_inline)) void
aes_gcm_x86_crypt(const struct crypto_tfm *tfm, const uint8_t *nonce,
		  const uint8_t *aad, size_t aadlen, uint8_t *dst,
		  const uint8_t *src, size_t len, uint8_t *tag, int enc,
		  aes_gcm_core_fn *core)
{
	const struct aes_gcm_x86_ctx *c = tfm->ctx;
	uint8_t ctr[GCM_BLOCK], ks0[GCM_BLOCK], out[GCM_BLOCK];

	aead_check_len(tfm, len, GCM_BLOCK, GCM_MAX_BLOCKS, "GCM");
	memcpy(ctr, nonce, GCM_NONCE);
	store_be32(ctr + GCM_NONCE, 1);
	aes_encrypt_aesni(&c->aes, ks0, ctr);
	store_be32(ctr + GCM_NONCE, 2);
	core(&c->aes, &c->ghash, aad, aadlen, dst, src, len, ctr, enc, out);
	xor_bytes(tag, out, ks0, GCM_BLOCK);
	wipe(ks0, sizeof(ks0));
	wipe(out, sizeof(out));
}

static inline __attribute__((always_inline)) int
aes_gcm_x86_open(const struct crypto_tfm *tfm, const uint8_t *nonce,
		 const uint8_t *aad, size_t aadlen, uint8_t *dst,
		 const uint8_t *src, size_t len, const uint8_t *tag,
		 aes_gcm_core_fn *core)
{
	uint8_t expected[AEAD_TAG_SIZE];

	aes_gcm_x86_crypt(tfm, nonce, aad, aadlen, dst, src, len, expected, 0, core);
	return aead_check_tag(expected, tag, dst, len);
}

/* a core's aead_alg: the GHASH driver's setkey and the core, inlined */
#define AES_GCM_X86_ALG(isa, ghash_isa)                                        \
	static int setkey_##isa(struct crypto_tfm *tfm, const uint8_t *key,    \
				size_t keylen)                                 \
	{                                                                      \
		return aes_gcm_x86_setkey(tfm, key, keylen,                    \
					  ghash_setkey_##ghash_isa);           \
	}                                                                      \
	static int encrypt_##isa(const struct crypto_tfm *tfm,                 \
				 const uint8_t *nonce, const uint8_t *aad,     \
				 size_t aadlen, uint8_t *dst,                  \
				 const uint8_t *src, size_t len, uint8_t *tag) \
	{                                                                      \
		aes_gcm_x86_crypt(tfm, nonce, aad, aadlen, dst, src, len, tag, \
				  1, aes_gcm_crypt_##isa);                     \
		return 0;                                                      \
	}                                                                      \
	static int decrypt_##isa(const struct crypto_tfm *tfm,                 \
				 const uint8_t *nonce, const uint8_t *aad,     \
				 size_t aadlen, uint8_t *dst,                  \
				 const uint8_t *src, size_t len,               \
				 const uint8_t *tag)                           \
	{                                                                      \
		return aes_gcm_x86_open(tfm, nonce, aad, aadlen, dst, src,     \
					len, tag, aes_gcm_crypt_##isa);        \
	}                                                                      \
	static const struct aead_alg aes_gcm_##isa##_alg = {                   \
		.keysizes = { 16, 24, 32, 0 },                                 \
		.noncesize = GCM_NONCE,                                        \
		.tagsize = AEAD_TAG_SIZE,                                      \
		.ctxsize = sizeof(struct aes_gcm_x86_ctx),                     \
		.setkey = setkey_##isa,                                        \
		.encrypt = encrypt_##isa,                                      \
		.decrypt = decrypt_##isa,                                      \
	}

AES_GCM_X86_ALG(vaes_avx512, vpclmul_avx512);
AES_GCM_X86_ALG(vaes_avx2, vpclmul_avx2);
AES_GCM_X86_ALG(aesni_pclmul, pclmul);

/*
 * Above the composed instances over the same ISA (800, 600 and 466 for
 * aes-aesni-x8 with ghash-pclmul; docs/design.md "Driver priorities");
 * the xmm core at AES-NI's top, 500, below every instance over a VAES
 * ctr(aes) (533 and up). Instances of aes-aesni with a ghash-vpclmul
 * driver (533, 600) outrank it too, but no CPU has VPCLMULQDQ without
 * VAES. The features: those of aes-aesni (the single blocks), of the
 * ghash driver of the core's ISA and of the core.
 */
#define FEAT_VAES_AVX2                                                         \
	(CPU_FEAT_AESNI | CPU_FEAT_SSE41 | CPU_FEAT_PCLMUL | CPU_FEAT_AVX2 |   \
	 CPU_FEAT_VAES | CPU_FEAT_VPCLMULQDQ)
static const struct crypto_driver aes_gcm_x86_drivers[] = {
	{ .alg_name = "gcm(aes)", .driver_name = "gcm-aes-vaes-avx512",
	  .priority = 900,
	  .features = FEAT_VAES_AVX2 | CPU_FEAT_AVX512F | CPU_FEAT_AVX512VL |
		      CPU_FEAT_AVX512BW,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_AEAD,
	  .u.aead = &aes_gcm_vaes_avx512_alg },
	{ .alg_name = "gcm(aes)", .driver_name = "gcm-aes-vaes-avx2",
	  .priority = 700,
	  .features = FEAT_VAES_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_AEAD,
	  .u.aead = &aes_gcm_vaes_avx2_alg },
	{ .alg_name = "gcm(aes)", .driver_name = "gcm-aes-aesni-pclmul",
	  .priority = 500,
	  .features = CPU_FEAT_AESNI | CPU_FEAT_SSE41 | CPU_FEAT_PCLMUL |
		      CPU_FEAT_SSSE3,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_AEAD,
	  .u.aead = &aes_gcm_aesni_pclmul_alg },
};

int aes_gcm_x86_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, aes_gcm_x86_drivers,
				       ARRAY_SIZE(aes_gcm_x86_drivers));
}

#else /* not x86-64, or built without the cores: nothing to register */

int aes_gcm_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
