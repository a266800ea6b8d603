// SPDX-License-Identifier: MIT
/*
 * AEAD_CHACHA20_POLY1305 (RFC 8439, section 2.8) over the x86-64 ChaCha20
 * and Poly1305 cores: "rfc7539-chacha20-poly1305-avx2" and "-avx512".
 * The construction is that of chacha20poly1305-generic.c: Poly1305 key =
 * the first 32 bytes of ChaCha20 block 0, data from block 1, tag over
 * aad | pad16 | ciphertext | pad16 | le64(aadlen) | le64(len); decryption
 * checks the tag (in constant time) before producing any plaintext and
 * wipes dst on a mismatch.
 *
 * Speed-ups over the generic composition, besides the cores:
 *  - a pass of a vector core is bound by the latency of the rounds, so
 *    block 0 and a message of up to 15 blocks (avx512; 7 for avx2) go
 *    through a single pass;
 *  - a lone block costs less in scalar C than one vector pass (about 270
 *    against 500 cycles on Zen 5), so block 0 of a longer message comes
 *    from the generic chacha20_block(). A message of 1 to 64 bytes needs
 *    two blocks: two scalar ones (540 cycles) and one AVX-512 pass (500)
 *    are about even on Zen 5, but on Zen 3 an AVX2 pass (~400 cycles)
 *    beats two scalar blocks (~900), so the avx2 driver does them in one
 *    pass (a 16-byte message: ~1,500 -> ~900 cycles on Zen 3, 1.6x);
 *    the avx512 driver keeps the scalar path. An avx2 encryption of more
 *    than 448 bytes gets block 0 from chacha20_xor_block0_avx2, which
 *    from 1 KiB on computes it row-wise inside the round loop of the
 *    first 16 data blocks, where its latency-bound chain mostly fills
 *    idle pipes (~200 cycles less than a scalar block 0 before the data
 *    on Zen 3; a separate two-block vector pass saved nothing there, as
 *    the scalar block overlaps the vector work after it);
 *  - a long encryption alternates ChaCha20 and Poly1305 over 4 KiB pieces
 *    so that Poly1305 reads the ciphertext from L1.
 */
#include "crypto/chacha20poly1305/chacha20poly1305-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_CHACHA_X86_CORES)

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/x86/chacha20-x86.h"
#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/chacha20poly1305/poly1305.h"
#include "crypto/chacha20poly1305/poly1305-x86-glue.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/ct.h"
#include "crypto/internal/util.h"

#define AEAD_TAG_SIZE 16
/* P_MAX of RFC 8439 2.8: 2^32 - 1 blocks, the 32-bit counter starts at 1 */
#define AEAD_MAX_BLOCKS 0xffffffffu
/* encryption piece: a multiple of 64 (ChaCha20) and 16 (Poly1305) */
#define AEAD_PIECE 4096
/* the largest one-pass size (asm/x86/chacha20-x86.h) */
#define AEAD_ONEPASS_MAX CHACHA20_AVX512_ONEPASS_BYTES

struct aead_x86_impl {
	chacha20_xor_fn *xor_fn;
	const struct poly1305_core_ops *poly;
	/* messages up to this long share block 0's pass ... */
	size_t onepass_len;
	/* ... from this length on (shorter ones: scalar blocks) */
	size_t onepass_min;
	/* block 0 with an encryption's first data (NULL: none) */
	void (*block0_xor)(uint32_t state[16], uint8_t block0[64], uint8_t *dst,
			   const uint8_t *src, size_t len);
};

static const uint8_t zero_pad[POLY1305_BLOCK_SIZE];

static int aead_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	if (keylen != CHACHA20_KEY_SIZE)
		return -EINVAL;
	chacha20_setkey(ctx, key);
	return 0;
}

/*
 * Key ChaCha20 (state, counter 0) and Poly1305 for nonce: buf gets block
 * 0's keystream (the Poly1305 key is its first 32 bytes) and, when len <=
 * impl->onepass_len, src XOR the keystream from block 1 at buf + 64. The
 * MAC is fed the AAD and its padding; state[12] is left at the next
 * unused block. An encryption passes dst: with impl->block0_xor the first
 * piece of a longer message is encrypted into dst in block 0's pass, and
 * the return value says how many bytes that was (else 0).
 */
static size_t aead_start(const struct aead_x86_impl *impl,
			 const struct chacha20_key *key, const uint8_t *nonce,
			 const uint8_t *aad, size_t aadlen, uint8_t *dst,
			 const uint8_t *src, size_t len,
			 uint32_t state[CHACHA20_STATE_WORDS],
			 uint8_t buf[AEAD_ONEPASS_MAX], struct poly1305_ctx *mac)
{
	uint8_t iv[CHACHA20_IV_SIZE];
	size_t done = 0;

	/* a longer message would reuse keystream when the counter wraps */
	if (len && (len - 1) / CHACHA20_BLOCK_SIZE >= AEAD_MAX_BLOCKS) {
		fprintf(stderr, "rfc7539(chacha20,poly1305): message of %zu bytes "
			"exceeds the RFC 8439 limit\n", len);
		abort();
	}
	memset(iv, 0, 4);
	memcpy(iv + 4, nonce, CHACHA20_NONCE_SIZE);
	chacha20_init_state(state, key, iv);

	if (len >= impl->onepass_min && len <= impl->onepass_len) {
		memset(buf, 0, CHACHA20_BLOCK_SIZE);
		memcpy(buf + CHACHA20_BLOCK_SIZE, src, len);
		impl->xor_fn(state, buf, buf, CHACHA20_BLOCK_SIZE + len);
	} else if (dst && len > impl->onepass_len && impl->block0_xor) {
		done = len < AEAD_PIECE ? len : AEAD_PIECE;
		impl->block0_xor(state, buf, dst, src, done);
	} else {
		chacha20_block(state, buf);
		state[12] = 1;
		if (len <= CHACHA20_BLOCK_SIZE)
			chacha20_crypt(state, buf + CHACHA20_BLOCK_SIZE, src, len);
	}

	poly1305_init_ops(mac, buf, impl->poly);
	poly1305_update(mac, aad, aadlen);
	poly1305_update(mac, zero_pad, (0 - aadlen) % POLY1305_BLOCK_SIZE);
	return done;
}

/* the bytes of buf that aead_start() filled (to wipe) */
static size_t aead_buf_used(const struct aead_x86_impl *impl, size_t len)
{
	return CHACHA20_BLOCK_SIZE + (len <= impl->onepass_len ? len : 0);
}

static void aead_finish(struct poly1305_ctx *mac, size_t aadlen, size_t len,
			uint8_t tag[AEAD_TAG_SIZE])
{
	uint8_t lengths[16];

	poly1305_update(mac, zero_pad, (0 - len) % POLY1305_BLOCK_SIZE);
	store_le64(lengths, aadlen);
	store_le64(lengths + 8, len);
	poly1305_update(mac, lengths, sizeof(lengths));
	poly1305_final(mac, tag);
}

static void aead_encrypt(const struct aead_x86_impl *impl, const void *ctx,
			 const uint8_t *nonce, const uint8_t *aad, size_t aadlen,
			 uint8_t *dst, const uint8_t *src, size_t len,
			 uint8_t *tag)
{
	_Alignas(64) uint8_t buf[AEAD_ONEPASS_MAX];
	uint32_t state[CHACHA20_STATE_WORDS];
	struct poly1305_ctx mac;
	size_t left = len, done;

	done = aead_start(impl, ctx, nonce, aad, aadlen, dst, src, len, state,
			  buf, &mac);
	if (len <= impl->onepass_len) {
		if (len) /* dst may be NULL then */
			memcpy(dst, buf + CHACHA20_BLOCK_SIZE, len);
		poly1305_update(&mac, dst, len);
	} else {
		poly1305_update(&mac, dst, done);
		dst += done;
		src += done;
		left -= done;
		while (left) {
			size_t n = left < AEAD_PIECE ? left : AEAD_PIECE;

			impl->xor_fn(state, dst, src, n);
			poly1305_update(&mac, dst, n);
			dst += n;
			src += n;
			left -= n;
		}
	}
	aead_finish(&mac, aadlen, len, tag);
	explicit_bzero(state, sizeof(state));
	explicit_bzero(buf, aead_buf_used(impl, len));
}

static int aead_decrypt(const struct aead_x86_impl *impl, const void *ctx,
			const uint8_t *nonce, const uint8_t *aad, size_t aadlen,
			uint8_t *dst, const uint8_t *src, size_t len,
			const uint8_t *tag)
{
	_Alignas(64) uint8_t buf[AEAD_ONEPASS_MAX];
	uint32_t state[CHACHA20_STATE_WORDS];
	struct poly1305_ctx mac;
	uint8_t expected[AEAD_TAG_SIZE];
	uint32_t ok;

	/* a short message is already decrypted into buf, not yet released */
	aead_start(impl, ctx, nonce, aad, aadlen, NULL, src, len, state, buf,
		   &mac);
	poly1305_update(&mac, src, len);
	aead_finish(&mac, aadlen, len, expected);
	ok = ct_declassify32(ct_memeq(expected, tag, AEAD_TAG_SIZE));
	explicit_bzero(expected, sizeof(expected));
	/*
	 * The outcome is public; only its computation must be constant time.
	 * dst may be NULL when len is 0.
	 */
	if (len && !ok)
		memset(dst, 0, len);
	else if (len && len <= impl->onepass_len)
		memcpy(dst, buf + CHACHA20_BLOCK_SIZE, len);
	else if (len)
		impl->xor_fn(state, dst, src, len);
	explicit_bzero(state, sizeof(state));
	explicit_bzero(buf, aead_buf_used(impl, len));
	return ok ? 0 : -EBADMSG;
}

/* one aead_alg and driver per core pair */
#define AEAD_X86_DRIVER(isa, poly_core, onepass_bytes, onepass_from, b0xor, \
			prio, feats)                                          \
	static const struct aead_x86_impl aead_##isa##_impl = {               \
		.xor_fn = chacha20_xor_##isa,                                 \
		.poly = &(poly_core),                                         \
		.onepass_len = (onepass_bytes) - CHACHA20_BLOCK_SIZE,         \
		.onepass_min = (onepass_from),                                \
		.block0_xor = (b0xor),                                        \
	};                                                                    \
	static void aead_encrypt_##isa(const void *ctx, const uint8_t *nonce, \
				       const uint8_t *aad, size_t aadlen,     \
				       uint8_t *dst, const uint8_t *src,      \
				       size_t len, uint8_t *tag)              \
	{                                                                     \
		aead_encrypt(&aead_##isa##_impl, ctx, nonce, aad, aadlen, dst, \
			     src, len, tag);                                  \
	}                                                                     \
	static int aead_decrypt_##isa(const void *ctx, const uint8_t *nonce,  \
				      const uint8_t *aad, size_t aadlen,      \
				      uint8_t *dst, const uint8_t *src,       \
				      size_t len, const uint8_t *tag)         \
	{                                                                     \
		return aead_decrypt(&aead_##isa##_impl, ctx, nonce, aad,      \
				    aadlen, dst, src, len, tag);              \
	}                                                                     \
	static const struct aead_alg aead_##isa##_alg = {                     \
		.keysize = CHACHA20_KEY_SIZE,                                 \
		.noncesize = CHACHA20_NONCE_SIZE,                             \
		.tagsize = AEAD_TAG_SIZE,                                     \
		.ctxsize = sizeof(struct chacha20_key),                       \
		.setkey = aead_setkey,                                        \
		.encrypt = aead_encrypt_##isa,                                \
		.decrypt = aead_decrypt_##isa,                                \
	};                                                                    \
	static const struct crypto_driver aead_##isa##_driver = {             \
		.alg_name = "rfc7539(chacha20,poly1305)",                     \
		.driver_name = "rfc7539-chacha20-poly1305-" #isa,             \
		.priority = (prio),                                           \
		.features = (feats),                                          \
		.flags = CRYPTO_F_CONST_TIME,                                 \
		.type = CRYPTO_TYPE_AEAD,                                     \
		.u.aead = &aead_##isa##_alg,                                  \
	};

AEAD_X86_DRIVER(avx2, poly1305_avx2_core, CHACHA20_AVX2_ONEPASS_BYTES, 1,
		chacha20_xor_block0_avx2, 600, CPU_FEAT_AVX2)
/* its Poly1305 needs IFMA: on AVX-512 CPUs without it (Skylake-SP) the avx2 driver serves */
AEAD_X86_DRIVER(avx512, poly1305_avx512ifma_core,
		CHACHA20_AVX512_ONEPASS_BYTES, CHACHA20_BLOCK_SIZE + 1, NULL,
		800, CPU_FEAT_AVX512F | CPU_FEAT_AVX512IFMA | CPU_FEAT_AVX2)

int chacha20poly1305_x86_register(struct crypto_registry *reg)
{
	int err = chacha20_x86_register(reg);

	if (err)
		return err;
	err = crypto_register_driver(reg, &aead_avx2_driver);
	if (err)
		return err;
	return crypto_register_driver(reg, &aead_avx512_driver);
}

#else /* not x86-64, or built without the cores: nothing to register */

int chacha20poly1305_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
