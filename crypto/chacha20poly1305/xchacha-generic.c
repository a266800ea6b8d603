// SPDX-License-Identifier: MIT
/*
 * ChaCha12 and XChaCha12/XChaCha20 as skcipher algorithms (see chacha.h):
 * the shared encrypt bodies every driver's glue calls, and the
 * "chacha12-generic", "xchacha12-generic" and "xchacha20-generic"
 * drivers over chacha_crypt_generic. Constant time: the round count and
 * the lengths are the only things branched on.
 */
#include <string.h>

#include "crypto/chacha20poly1305/chacha.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"
#include "crypto/crypto.h"

void xchacha_init_state(uint32_t state[CHACHA20_STATE_WORDS],
			const struct chacha20_key *key,
			const uint8_t iv[XCHACHA_IV_SIZE], unsigned int nrounds,
			hchacha_fn *hchacha)
{
	struct chacha20_key subkey;
	uint8_t sk[CHACHA20_KEY_SIZE], tail[CHACHA20_IV_SIZE];

	hchacha(sk, key, iv, nrounds);
	chacha20_setkey(&subkey, sk);
	/* words 12-15: the stream position (le64), then nonce[16..24] */
	memcpy(tail, iv + XCHACHA_NONCE_SIZE, 8);
	memcpy(tail + 8, iv + HCHACHA20_NONCE_SIZE, 8);
	chacha20_init_state(state, &subkey, tail);
	wipe(&subkey, sizeof(subkey));
	wipe(sk, sizeof(sk));
}

int chacha_skcipher_crypt(chacha_crypt_fn *crypt, unsigned int nrounds,
			  const struct crypto_tfm *tfm, uint8_t *iv,
			  uint8_t *dst, const uint8_t *src, size_t len)
{
	uint32_t state[CHACHA20_STATE_WORDS];

	chacha20_init_state(state, tfm->ctx, iv);
	crypt(state, dst, src, len, nrounds);
	store_le32(iv, state[12]);
	wipe(state, sizeof(state));
	return 0;
}

int xchacha_skcipher_crypt(chacha_crypt_fn *crypt, unsigned int nrounds,
			   const struct crypto_tfm *tfm, uint8_t *iv,
			   uint8_t *dst, const uint8_t *src, size_t len)
{
	return xchacha_skcipher_crypt_h(hchacha_generic, crypt, nrounds, tfm,
					iv, dst, src, len);
}

int xchacha_skcipher_crypt_h(hchacha_fn *hchacha, chacha_crypt_fn *crypt,
			     unsigned int nrounds, const struct crypto_tfm *tfm,
			     uint8_t *iv, uint8_t *dst, const uint8_t *src,
			     size_t len)
{
	uint32_t state[CHACHA20_STATE_WORDS];

	xchacha_init_state(state, tfm->ctx, iv, nrounds, hchacha);
	/*
	 * The position is 64 bits (words 12-13) but a crypt advances word 12
	 * alone: a message is cut where word 12 wraps, and word 13 carried
	 * by hand, or it would go on from block 0 of its high word and
	 * repeat keystream. The cut falls on a block boundary.
	 */
	while (len) {
		uint64_t to_wrap = ((1ull << 32) - state[12]) * CHACHA20_BLOCK_SIZE;
		size_t n = len < to_wrap ? len : (size_t)to_wrap;

		crypt(state, dst, src, n, nrounds);
		if (!state[12])
			state[13]++;
		dst += n;
		src += n;
		len -= n;
	}
	store_le32(iv + XCHACHA_NONCE_SIZE, state[12]);
	store_le32(iv + XCHACHA_NONCE_SIZE + 4, state[13]);
	wipe(state, sizeof(state));
	return 0;
}

/* ---- the generic drivers ------------------------------------------ */

static int chacha12_generic_crypt(const struct crypto_tfm *tfm, uint8_t *iv,
				  uint8_t *dst, const uint8_t *src, size_t len)
{
	return chacha_skcipher_crypt(chacha_crypt_generic, 12, tfm, iv, dst,
				     src, len);
}

static int xchacha12_generic_crypt(const struct crypto_tfm *tfm, uint8_t *iv,
				   uint8_t *dst, const uint8_t *src, size_t len)
{
	return xchacha_skcipher_crypt(chacha_crypt_generic, 12, tfm, iv, dst,
				      src, len);
}

static int xchacha20_generic_crypt(const struct crypto_tfm *tfm, uint8_t *iv,
				   uint8_t *dst, const uint8_t *src, size_t len)
{
	return xchacha_skcipher_crypt(chacha_crypt_generic, 20, tfm, iv, dst,
				      src, len);
}

static const struct skcipher_alg chacha12_generic_alg =
	CHACHA12_SKCIPHER_ALG(chacha12_generic_crypt);
static const struct skcipher_alg xchacha12_generic_alg =
	XCHACHA_SKCIPHER_ALG(xchacha12_generic_crypt);
static const struct skcipher_alg xchacha20_generic_alg =
	XCHACHA_SKCIPHER_ALG(xchacha20_generic_crypt);

static const struct crypto_driver xchacha_generic_drivers[] = {
	{ .alg_name = CHACHA12_ALG_NAME, .driver_name = "chacha12-generic",
	  .priority = 100, .flags = CRYPTO_F_CONST_TIME,
	  .type = CRYPTO_TYPE_SKCIPHER, .u.skcipher = &chacha12_generic_alg },
	{ .alg_name = XCHACHA12_ALG_NAME, .driver_name = "xchacha12-generic",
	  .priority = 100, .flags = CRYPTO_F_CONST_TIME,
	  .type = CRYPTO_TYPE_SKCIPHER, .u.skcipher = &xchacha12_generic_alg },
	{ .alg_name = XCHACHA20_ALG_NAME, .driver_name = "xchacha20-generic",
	  .priority = 100, .flags = CRYPTO_F_CONST_TIME,
	  .type = CRYPTO_TYPE_SKCIPHER, .u.skcipher = &xchacha20_generic_alg },
};

int xchacha_generic_register(struct crypto_registry *reg)
{
	int err = crypto_register_drivers(reg, xchacha_generic_drivers,
					  ARRAY_SIZE(xchacha_generic_drivers));

	return err ? err : xchacha_register_testvecs(reg);
}
