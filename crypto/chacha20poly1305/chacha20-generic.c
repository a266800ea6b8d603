// SPDX-License-Identifier: MIT
/*
 * ChaCha20 (RFC 8439, section 2.3/2.4) in portable C, with ChaCha12 (the
 * same rounds, 12 of them) for XChaCha12, and the "chacha20-generic"
 * skcipher driver. Only additions, rotations and XORs
 * on 32-bit words: constant time by construction.
 *
 * IV chaining: the driver writes the advanced block counter back into
 * iv[0..3], one step per 64-byte block started. A message processed in
 * pieces therefore gives the same result as in one call only when every
 * piece but the last is a multiple of 64 bytes; a piece ending mid-block
 * discards the rest of that keystream block (the 16-byte IV has no room
 * for a position inside a block).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/chacha20poly1305/chacha.h"
#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"
#include "crypto/crypto.h"

/* "expand 32-byte k" (RFC 8439, section 2.3) */
#define CHACHA20_C0 0x61707865u
#define CHACHA20_C1 0x3320646eu
#define CHACHA20_C2 0x79622d32u
#define CHACHA20_C3 0x6b206574u

void chacha20_setkey(struct chacha20_key *key, const uint8_t in[CHACHA20_KEY_SIZE])
{
	for (int i = 0; i < 8; i++)
		key->k[i] = load_le32(in + 4 * i);
}

void chacha20_init_state(uint32_t state[CHACHA20_STATE_WORDS],
			 const struct chacha20_key *key,
			 const uint8_t iv[CHACHA20_IV_SIZE])
{
	state[0] = CHACHA20_C0;
	state[1] = CHACHA20_C1;
	state[2] = CHACHA20_C2;
	state[3] = CHACHA20_C3;
	for (int i = 0; i < 8; i++)
		state[4 + i] = key->k[i];
	for (int i = 0; i < 4; i++)
		state[12 + i] = load_le32(iv + 4 * i);
}

/* programmer misuse: only 12 and 20 rounds are defined here */
static _Noreturn void chacha_bad_rounds(unsigned int nrounds)
{
	fprintf(stderr, "chacha: %u rounds requested (12 or 20 only)\n", nrounds);
	abort();
}

#define QUARTERROUND(a, b, c, d)            \
	do {                                \
		a += b; d = rol32(d ^ a, 16); \
		c += d; b = rol32(b ^ c, 12); \
		a += b; d = rol32(d ^ a, 8);  \
		c += d; b = rol32(b ^ c, 7);  \
	} while (0)

/*
 * out = nrounds rounds of in, plus in (the block function before
 * serialising). Always inlined with a constant nrounds, so each round
 * count gets its own loop, the ChaCha20 one what it was before ChaCha12.
 */
static inline __attribute__((always_inline)) void
chacha_core(const uint32_t in[CHACHA20_STATE_WORDS],
	    uint32_t out[CHACHA20_STATE_WORDS], const unsigned int nrounds)
{
	uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
	uint32_t x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
	uint32_t x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11];
	uint32_t x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];

	for (unsigned int i = 0; i < nrounds; i += 2) {
		/* column round */
		QUARTERROUND(x0, x4, x8, x12);
		QUARTERROUND(x1, x5, x9, x13);
		QUARTERROUND(x2, x6, x10, x14);
		QUARTERROUND(x3, x7, x11, x15);
		/* diagonal round */
		QUARTERROUND(x0, x5, x10, x15);
		QUARTERROUND(x1, x6, x11, x12);
		QUARTERROUND(x2, x7, x8, x13);
		QUARTERROUND(x3, x4, x9, x14);
	}
	out[0] = x0 + in[0];
	out[1] = x1 + in[1];
	out[2] = x2 + in[2];
	out[3] = x3 + in[3];
	out[4] = x4 + in[4];
	out[5] = x5 + in[5];
	out[6] = x6 + in[6];
	out[7] = x7 + in[7];
	out[8] = x8 + in[8];
	out[9] = x9 + in[9];
	out[10] = x10 + in[10];
	out[11] = x11 + in[11];
	out[12] = x12 + in[12];
	out[13] = x13 + in[13];
	out[14] = x14 + in[14];
	out[15] = x15 + in[15];
}

static inline __attribute__((always_inline)) void
chacha_block_r(const uint32_t state[CHACHA20_STATE_WORDS],
	       uint8_t out[CHACHA20_BLOCK_SIZE], const unsigned int nrounds)
{
	uint32_t x[CHACHA20_STATE_WORDS];

	chacha_core(state, x, nrounds);
	for (int i = 0; i < CHACHA20_STATE_WORDS; i++)
		store_le32(out + 4 * i, x[i]);
	explicit_bzero(x, sizeof(x));
}

void chacha20_block(const uint32_t state[CHACHA20_STATE_WORDS],
		    uint8_t out[CHACHA20_BLOCK_SIZE])
{
	chacha_block_r(state, out, 20);
}

static inline __attribute__((always_inline)) void
hchacha_r(uint8_t out[CHACHA20_KEY_SIZE], const struct chacha20_key *key,
	  const uint8_t nonce[HCHACHA20_NONCE_SIZE], const unsigned int nrounds)
{
	uint32_t in[CHACHA20_STATE_WORDS], x[CHACHA20_STATE_WORDS];

	chacha20_init_state(in, key, nonce);
	chacha_core(in, x, nrounds);
	/* the rounds' output without the feed-forward: words 0-3, 12-15 */
	for (int i = 0; i < 4; i++) {
		store_le32(out + 4 * i, x[i] - in[i]);
		store_le32(out + 16 + 4 * i, x[12 + i] - in[12 + i]);
	}
	wipe(in, sizeof(in));
	wipe(x, sizeof(x));
}

void hchacha20(uint8_t out[CHACHA20_KEY_SIZE], const struct chacha20_key *key,
	       const uint8_t nonce[HCHACHA20_NONCE_SIZE])
{
	hchacha_r(out, key, nonce, 20);
}

void hchacha_generic(uint8_t out[CHACHA20_KEY_SIZE],
		     const struct chacha20_key *key,
		     const uint8_t nonce[HCHACHA20_NONCE_SIZE],
		     unsigned int nrounds)
{
	if (nrounds == 12)
		hchacha_r(out, key, nonce, 12);
	else if (nrounds == 20)
		hchacha_r(out, key, nonce, 20);
	else
		chacha_bad_rounds(nrounds);
}

static inline __attribute__((always_inline)) void
chacha_crypt_r(uint32_t state[CHACHA20_STATE_WORDS], uint8_t *dst,
	       const uint8_t *src, size_t len, const unsigned int nrounds)
{
	uint32_t x[CHACHA20_STATE_WORDS];

	while (len >= CHACHA20_BLOCK_SIZE) {
		chacha_core(state, x, nrounds);
		/* word-wise: each src word is read before its dst word is written */
		for (int i = 0; i < CHACHA20_STATE_WORDS; i++)
			store_le32(dst + 4 * i, load_le32(src + 4 * i) ^ x[i]);
		state[12]++;
		dst += CHACHA20_BLOCK_SIZE;
		src += CHACHA20_BLOCK_SIZE;
		len -= CHACHA20_BLOCK_SIZE;
	}
	if (len) {
		uint8_t ks[CHACHA20_BLOCK_SIZE];

		chacha_block_r(state, ks, nrounds);
		xor_bytes(dst, src, ks, len);
		state[12]++;
		explicit_bzero(ks, sizeof(ks));
	}
	explicit_bzero(x, sizeof(x));
}

void chacha20_crypt(uint32_t state[CHACHA20_STATE_WORDS], uint8_t *dst,
		    const uint8_t *src, size_t len)
{
	chacha_crypt_r(state, dst, src, len, 20);
}

void chacha_crypt_generic(uint32_t state[CHACHA20_STATE_WORDS], uint8_t *dst,
			  const uint8_t *src, size_t len, unsigned int nrounds)
{
	/* the round count is public: one specialised loop per count */
	if (nrounds == 12)
		chacha_crypt_r(state, dst, src, len, 12);
	else if (nrounds == 20)
		chacha_crypt_r(state, dst, src, len, 20);
	else
		chacha_bad_rounds(nrounds);
}

/* ---- the skcipher driver ------------------------------------------ */

int chacha20_skcipher_setkey(struct crypto_tfm *tfm, const uint8_t *key,
			     size_t keylen)
{
	if (keylen != CHACHA20_KEY_SIZE)
		return -EINVAL;
	chacha20_setkey(tfm->ctx, key);
	return 0;
}

/* encryption and decryption are the same XOR */
static int chacha20_skcipher_crypt(const struct crypto_tfm *tfm, uint8_t *iv,
				   uint8_t *dst, const uint8_t *src, size_t len)
{
	uint32_t state[CHACHA20_STATE_WORDS];

	chacha20_init_state(state, tfm->ctx, iv);
	chacha20_crypt(state, dst, src, len);
	store_le32(iv, state[12]);
	explicit_bzero(state, sizeof(state));
	return 0;
}

/* crypt_ks0 (crypto/internal/alg.h): block 0 for the AEAD, then the data */
static int chacha20_skcipher_crypt_ks0(const struct crypto_tfm *tfm, uint8_t *iv,
				       uint8_t *ks0, uint8_t *dst,
				       const uint8_t *src, size_t len)
{
	uint32_t state[CHACHA20_STATE_WORDS];

	chacha20_init_state(state, tfm->ctx, iv);
	chacha20_block(state, ks0);
	state[12]++;
	chacha20_crypt(state, dst, src, len);
	store_le32(iv, state[12]);
	wipe(state, sizeof(state));
	return 0;
}

static const struct skcipher_alg chacha20_generic_alg =
	CHACHA20_SKCIPHER_ALG_KS0(chacha20_skcipher_crypt,
				  chacha20_skcipher_crypt_ks0);

static const struct crypto_driver chacha20_generic_driver = {
	.alg_name = "chacha20",
	.driver_name = "chacha20-generic",
	.priority = 100,
	.flags = CRYPTO_F_CONST_TIME,
	.type = CRYPTO_TYPE_SKCIPHER,
	.u.skcipher = &chacha20_generic_alg,
};

/*
 * RFC 8439 vectors in the kernel IV format: le32 initial counter, then
 * the 12-byte nonce. 2.3.2 is the block function (keystream = the
 * encryption of 64 zero bytes).
 */
static const struct cipher_testvec chacha20_rfc8439_tv[] = {
	{ /* RFC 8439 2.3.2: block counter 1 */
		.key = "000102030405060708090a0b0c0d0e0f"
		       "101112131415161718191a1b1c1d1e1f",
		.iv = "01000000000000090000004a00000000",
		.ptext = "00000000000000000000000000000000"
			 "00000000000000000000000000000000"
			 "00000000000000000000000000000000"
			 "00000000000000000000000000000000",
		.ctext = "10f1e7e4d13b5915500fdd1fa32071c4"
			 "c7d1f4c733c068030422aa9ac3d46c4e"
			 "d2826446079faa0914c2d705d98b02a2"
			 "b5129cd1de164eb9cbd083e8a2503c4e",
	},
	{ /* RFC 8439 2.4.2: "sunscreen", counter 1, 114 bytes */
		.key = "000102030405060708090a0b0c0d0e0f"
		       "101112131415161718191a1b1c1d1e1f",
		.iv = "01000000000000000000004a00000000",
		.ptext = "4c616469657320616e642047656e746c"
			 "656d656e206f662074686520636c6173"
			 "73206f66202739393a20496620492063"
			 "6f756c64206f6666657220796f75206f"
			 "6e6c79206f6e652074697020666f7220"
			 "746865206675747572652c2073756e73"
			 "637265656e20776f756c642062652069"
			 "742e",
		.ctext = "6e2e359a2568f98041ba0728dd0d6981"
			 "e97e7aec1d4360c20a27afccfd9fae0b"
			 "f91b65c5524733ab8f593dabcd62b357"
			 "1639d624e65152ab8f530c359f0861d8"
			 "07ca0dbf500d6a6156a38e088a22b65e"
			 "52bc514d16ccf806818ce91ab7793736"
			 "5af90bbf74a35be6b40b8eedf2785e42"
			 "874d",
	},
	{ /* RFC 8439 A.2 #1: all-zero key and nonce, counter 0 */
		.key = "00000000000000000000000000000000"
		       "00000000000000000000000000000000",
		.iv = "00000000000000000000000000000000",
		.ptext = "00000000000000000000000000000000"
			 "00000000000000000000000000000000"
			 "00000000000000000000000000000000"
			 "00000000000000000000000000000000",
		.ctext = "76b8e0ada0f13d90405d6ae55386bd28"
			 "bdd219b8a08ded1aa836efcc8b770dc7"
			 "da41597c5157488d7724e03fb8d84a37"
			 "6a43b8f41518a11cc387b669b2ee6586",
	},
	{ /* RFC 8439 A.2 #3: "Jabberwocky", counter 42, 127 bytes */
		.key = "1c9240a5eb55d38af333888604f6b5f0"
		       "473917c1402b80099dca5cbc207075c0",
		.iv = "2a000000000000000000000000000002",
		.ptext = "2754776173206272696c6c69672c2061"
			 "6e642074686520736c6974687920746f"
			 "7665730a446964206779726520616e64"
			 "2067696d626c6520696e207468652077"
			 "6162653a0a416c6c206d696d73792077"
			 "6572652074686520626f726f676f7665"
			 "732c0a416e6420746865206d6f6d6520"
			 "7261746873206f757467726162652e",
		.ctext = "62e6347f95ed87a45ffae7426f27a1df"
			 "5fb69110044c0d73118effa95b01e5cf"
			 "166d3df2d721caf9b21e5fb14c616871"
			 "fd84c54f9d65b283196c7fe4f60553eb"
			 "f39c6402c42234e32a356b3e764312a6"
			 "1a5532055716ead6962568f87d3f3f77"
			 "04c6a8d1bcd1bf4d50d6154b6da731b1"
			 "87b58dfd728afa36757a797ac188d1",
	},
};

static const struct crypto_testvecs chacha20_testvecs = {
	.alg_name = "chacha20",
	.source = "RFC 8439 sections 2.3.2, 2.4.2 and A.2 (#1, #3), kernel IV format",
	.count = ARRAY_SIZE(chacha20_rfc8439_tv),
	.cipher = chacha20_rfc8439_tv,
};

int chacha20_generic_register(struct crypto_registry *reg)
{
	int err = crypto_register_driver(reg, &chacha20_generic_driver);

	if (err)
		return err;
	return crypto_register_testvecs(reg, &chacha20_testvecs);
}
