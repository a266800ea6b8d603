/* SPDX-License-Identifier: MIT */
/*
 * Glue for the NEON ChaCha core (chacha-neon-core.c, chacha-neon.h). See
 * chacha-neon-glue.h.
 *
 * chacha20-neon has chacha20-generic's key context, IV format and IV
 * update (chacha20.h): the 16-byte IV is the le32 block counter then the
 * 96-bit nonce, and the counter written back has advanced by one per
 * 64-byte block started. The core takes the round count: 20 for
 * chacha20-neon and xchacha20-neon, 12 for chacha12-neon and
 * xchacha12-neon (Adiantum's stream cipher), with chacha.h's IVs.
 *
 * The core is built only when meson defines CLOAKFS_CHACHA_NEON_CORE
 * (ARM host, simd option on); otherwise this file registers nothing.
 */
#include "crypto/arch/arm/chacha-neon-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_CHACHA_NEON_CORE) && (defined(__aarch64__) || defined(__arm__))

#include <string.h>

#include "crypto/arch/arm/chacha-neon.h"
#include "crypto/chacha20poly1305/chacha.h"
#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"

#define CHACHA20_ROUNDS 20
#define CHACHA12_ROUNDS 12

/*
 * The skcipher entry points, encryption and decryption alike: the shared
 * bodies of chacha.h (body: chacha_skcipher_crypt, or
 * xchacha_skcipher_crypt_h with the core's HChaCha) over the core.
 */
#define CHACHA_NEON_CRYPT(fn, body, nrounds)                                 \
	static int fn(const struct crypto_tfm *tfm, uint8_t *iv,             \
		      uint8_t *dst, const uint8_t *src, size_t len)          \
	{                                                                    \
		return body(chacha_neon_xor, (nrounds), tfm, iv, dst, src,   \
			    len);                                            \
	}
#define xchacha_neon_crypt(...) \
	xchacha_skcipher_crypt_h(chacha_neon_hchacha, __VA_ARGS__)

CHACHA_NEON_CRYPT(chacha20_neon_crypt, chacha_skcipher_crypt, CHACHA20_ROUNDS)
CHACHA_NEON_CRYPT(chacha12_neon_crypt, chacha_skcipher_crypt, CHACHA12_ROUNDS)
CHACHA_NEON_CRYPT(xchacha12_neon_crypt, xchacha_neon_crypt, CHACHA12_ROUNDS)
CHACHA_NEON_CRYPT(xchacha20_neon_crypt, xchacha_neon_crypt, CHACHA20_ROUNDS)

/*
 * crypt_ks0 (crypto/internal/alg.h): keystream block 0 (the AEAD
 * template's Poly1305 key) and the data after it. Up to three blocks of
 * data share the core's 4-block pass with block 0, on a stack copy
 * (zero block | message); longer messages take block 0 alone first.
 */
static int chacha20_neon_ks0(const struct crypto_tfm *tfm, uint8_t *iv,
			     uint8_t *ks0, uint8_t *dst, const uint8_t *src,
			     size_t len)
{
	uint32_t state[CHACHA20_STATE_WORDS];

	chacha20_init_state(state, tfm->ctx, iv);
	if (len <= CHACHA_NEON_GROUP_BYTES - CHACHA20_BLOCK_SIZE) {
		uint8_t buf[CHACHA_NEON_GROUP_BYTES];

		memset(buf, 0, CHACHA20_BLOCK_SIZE);
		if (len) /* src may be NULL then */
			memcpy(buf + CHACHA20_BLOCK_SIZE, src, len);
		chacha_neon_xor(state, buf, buf, CHACHA20_BLOCK_SIZE + len,
				CHACHA20_ROUNDS);
		memcpy(ks0, buf, CHACHA20_BLOCK_SIZE);
		if (len)
			memcpy(dst, buf + CHACHA20_BLOCK_SIZE, len);
		wipe(buf, CHACHA20_BLOCK_SIZE + len);
	} else {
		memset(ks0, 0, CHACHA20_BLOCK_SIZE);
		chacha_neon_xor(state, ks0, ks0, CHACHA20_BLOCK_SIZE,
				CHACHA20_ROUNDS);
		chacha_neon_xor(state, dst, src, len, CHACHA20_ROUNDS);
	}
	store_le32(iv, state[12]);
	wipe(state, sizeof(state));
	return 0;
}

/* with its HChaCha: the xchacha20poly1305 template's subkey */
static const struct skcipher_alg chacha20_neon_alg =
	CHACHA20_SKCIPHER_ALG_KS0_H(chacha20_neon_crypt, chacha20_neon_ks0,
				    chacha_neon_hchacha);
static const struct skcipher_alg chacha12_neon_alg =
	CHACHA12_SKCIPHER_ALG(chacha12_neon_crypt);
static const struct skcipher_alg xchacha12_neon_alg =
	XCHACHA_SKCIPHER_ALG(xchacha12_neon_crypt);
static const struct skcipher_alg xchacha20_neon_alg =
	XCHACHA_SKCIPHER_ALG(xchacha20_neon_crypt);

/* as chacha20-ssse3, the x86 driver of the same 128-bit width */
#define CHACHA_NEON_DRIVER(alg, drv, skalg)                                  \
	{ .alg_name = (alg), .driver_name = (drv), .priority = 300,          \
	  .features = CPU_FEAT_NEON, .flags = CRYPTO_F_CONST_TIME,           \
	  .type = CRYPTO_TYPE_SKCIPHER, .u.skcipher = &(skalg) }

static const struct crypto_driver chacha_neon_drivers[] = {
	CHACHA_NEON_DRIVER("chacha20", "chacha20-neon", chacha20_neon_alg),
	CHACHA_NEON_DRIVER(CHACHA12_ALG_NAME, "chacha12-neon", chacha12_neon_alg),
	CHACHA_NEON_DRIVER(XCHACHA12_ALG_NAME, "xchacha12-neon", xchacha12_neon_alg),
	CHACHA_NEON_DRIVER(XCHACHA20_ALG_NAME, "xchacha20-neon", xchacha20_neon_alg),
};

/* the AEAD templates over it; priority and features come from the children */
static const struct {
	const char *spec;
	const char *driver_name;
} chacha_neon_aeads[] = {
	{ "rfc7539(chacha20-neon,poly1305-neon)",
	  "rfc7539-chacha20-poly1305-neon" },
	{ "xchacha20poly1305(chacha20-neon,poly1305-neon)",
	  "xchacha20poly1305-neon" },
};

int chacha_neon_register(struct crypto_registry *reg)
{
	int err = crypto_register_drivers(reg, chacha_neon_drivers,
					  ARRAY_SIZE(chacha_neon_drivers));

	for (size_t i = 0; !err && i < ARRAY_SIZE(chacha_neon_aeads); i++)
		err = crypto_register_template_as(reg, chacha_neon_aeads[i].spec,
						  chacha_neon_aeads[i].driver_name);
	return err;
}

#else /* no NEON core in this build */

int chacha_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
