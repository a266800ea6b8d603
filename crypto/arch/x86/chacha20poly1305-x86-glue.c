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
 *    through a single pass. The avx512 driver takes that pass from the
 *    core that is fastest for the total on Zen 4 (chacha20_onepass_avx512
 *    below): a 16-byte message costs ~580-630 cycles there (cloakfs-bench
 *    -c), against ~1,050-1,080 with the two scalar blocks it used before
 *    (avx2 driver: ~630-660);
 *  - block 0 of a longer message: a lone block costs ~370 cycles in
 *    scalar C on Zen 4 (~270 on Zen 5) and ~300 in the AVX-512VL
 *    row-wise pass (chacha20_keystream2_avx512). An encryption of 1 KiB
 *    or more gets block 0 from chacha20_xor_block0_avx2/_avx512, which
 *    compute it row-wise inside the round loop of the first 16 data
 *    blocks, where its latency-bound chain mostly fills idle pipes (Zen
 *    4, 4 KiB: ~3,800 cycles a message against ~4,000 with block 0 on its
 *    own; Zen 3, avx2: ~200 cycles less than a scalar block 0; a separate
 *    two-block AVX2 pass saved nothing there, as the scalar block
 *    overlaps the vector work after it). Shorter encryptions past the
 *    one-pass size get it from a two-block pass in the same function.
 *    An avx512 decryption of 1 KiB or more does the same with the
 *    keystream of its first 16 data blocks, kept on the stack until the
 *    tag has been checked (4 KiB: ~3,800 cycles against ~4,080); a
 *    shorter one past the one-pass size uses the two-block pass;
 *  - a long encryption alternates ChaCha20 and Poly1305 over 4 KiB pieces
 *    so that Poly1305 reads the ciphertext from L1 (8 KiB pieces made no
 *    measurable difference at 16 and 64 KiB on Zen 4).
 */
#include "crypto/arch/x86/chacha20poly1305-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_CHACHA_X86_CORES)

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/arch/x86/chacha20-x86.h"
#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/chacha20poly1305/poly1305.h"
#include "crypto/arch/x86/poly1305-x86-glue.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/ct.h"
#include "crypto/internal/util.h"

#define AEAD_TAG_SIZE 16
/* P_MAX of RFC 8439 2.8: 2^32 - 1 blocks, the 32-bit counter starts at 1 */
#define AEAD_MAX_BLOCKS 0xffffffffu
/* encryption piece: a multiple of 64 (ChaCha20) and 16 (Poly1305) */
#define AEAD_PIECE 4096
/* the largest one-pass size (chacha20-x86.h) */
#define AEAD_ONEPASS_MAX CHACHA20_AVX512_ONEPASS_BYTES
/* keystream a decryption computes with block 0 (see aead_start) */
#define AEAD_KS_BYTES 1024

struct aead_x86_impl {
	chacha20_xor_fn *xor_fn;
	/* block 0 and a short message ... */
	chacha20_xor_fn *onepass_fn;
	/*
	 * ... padded with zeros to this many bytes (from the total), the
	 * whole group of the pass onepass_fn takes: a core fed a partial
	 * group goes through a stack copy of a whole one
	 */
	size_t (*onepass_round)(size_t total);
	const struct poly1305_core_ops *poly;
	/* messages up to this long share block 0's pass */
	size_t onepass_len;
	/* blocks 0 and 1 in one pass, for a decryption's block 0 (NULL: scalar) */
	void (*block0_pair)(const uint32_t state[16], uint8_t out[128]);
	/* block 0 with an encryption's first data (NULL: none) */
	void (*block0_xor)(uint32_t state[16], uint8_t block0[64], uint8_t *dst,
			   const uint8_t *src, size_t len);
	/* a decryption gets block 0 from block0_xor too, with keystream it
	 * applies by this after the tag check (NULL: none) */
	void (*ks_xor)(uint8_t *dst, const uint8_t *src, const uint8_t *ks,
		       size_t len);
};

/*
 * The driver context: the key and the cores it runs on, which the
 * driver's setkey stores (aead_alg.encrypt and .decrypt get only the
 * context, so the two drivers share them).
 */
struct aead_x86_ctx {
	struct chacha20_key key;
	const struct aead_x86_impl *impl;
};

static const uint8_t zero_pad[POLY1305_BLOCK_SIZE];
static const uint8_t zero_ks[AEAD_KS_BYTES];

static int aead_setkey(struct aead_x86_ctx *ctx,
		       const struct aead_x86_impl *impl, const uint8_t *key,
		       size_t keylen)
{
	if (keylen != CHACHA20_KEY_SIZE)
		return -EINVAL;
	chacha20_setkey(&ctx->key, key);
	ctx->impl = impl;
	return 0;
}

/*
 * Key ChaCha20 (state, counter 0) and Poly1305 for nonce: buf gets block
 * 0's keystream (the Poly1305 key is its first 32 bytes) and, when len <=
 * impl->onepass_len, src XOR the keystream from block 1 at buf + 64. The
 * MAC is fed the AAD and its padding; state[12] is left at the next
 * unused block. An encryption passes dst: with impl->block0_xor the first
 * piece of a longer message is encrypted into dst in block 0's pass, and
 * the return value says how many bytes that was (else 0). A decryption
 * passes ks (AEAD_KS_BYTES) when impl->ks_xor: a message of that
 * length or more gets block 0 from the pass that fills ks with the
 * keystream of the first data blocks (the block alone is one latency-
 * bound chain, inside the pass it mostly fills idle pipes; the plaintext
 * still waits for the tag), and the return value is AEAD_KS_BYTES.
 */
static size_t aead_start(const struct aead_x86_impl *impl,
			 const struct chacha20_key *key, const uint8_t *nonce,
			 const uint8_t *aad, size_t aadlen, uint8_t *dst,
			 const uint8_t *src, size_t len,
			 uint32_t state[CHACHA20_STATE_WORDS],
			 uint8_t buf[AEAD_ONEPASS_MAX], struct poly1305_ctx *mac,
			 uint8_t *ks)
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

	if (len <= impl->onepass_len) {
		size_t n = impl->onepass_round(CHACHA20_BLOCK_SIZE + len);

		memset(buf, 0, CHACHA20_BLOCK_SIZE);
		if (len) /* src may be NULL then */
			memcpy(buf + CHACHA20_BLOCK_SIZE, src, len);
		memset(buf + CHACHA20_BLOCK_SIZE + len, 0,
		       n - CHACHA20_BLOCK_SIZE - len);
		impl->onepass_fn(state, buf, buf, n);
	} else if (dst && len > impl->onepass_len && impl->block0_xor) {
		done = len < AEAD_PIECE ? len : AEAD_PIECE;
		impl->block0_xor(state, buf, dst, src, done);
	} else if (ks && len > impl->onepass_len && len >= AEAD_KS_BYTES) {
		impl->block0_xor(state, buf, ks, zero_ks, AEAD_KS_BYTES);
		done = AEAD_KS_BYTES;
	} else if (!dst && impl->block0_pair) {
		impl->block0_pair(state, buf);
		state[12] = 1;
	} else {
		chacha20_block(state, buf);
		state[12] = 1;
	}

	poly1305_init_ops(mac, buf, impl->poly);
	poly1305_update(mac, aad, aadlen);
	poly1305_update(mac, zero_pad, (0 - aadlen) % POLY1305_BLOCK_SIZE);
	return done;
}

/* the bytes of buf that aead_start() filled (to wipe) */
static size_t aead_buf_used(const struct aead_x86_impl *impl, size_t len)
{
	if (len <= impl->onepass_len)
		return impl->onepass_round(CHACHA20_BLOCK_SIZE + len);
	return impl->block0_pair ? 2 * CHACHA20_BLOCK_SIZE : CHACHA20_BLOCK_SIZE;
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

static void aead_encrypt(const void *ctx, const uint8_t *nonce,
			 const uint8_t *aad, size_t aadlen, uint8_t *dst,
			 const uint8_t *src, size_t len, uint8_t *tag)
{
	const struct aead_x86_ctx *c = ctx;
	const struct aead_x86_impl *impl = c->impl;
	_Alignas(64) uint8_t buf[AEAD_ONEPASS_MAX];
	uint32_t state[CHACHA20_STATE_WORDS];
	struct poly1305_ctx mac;
	size_t left = len, done;

	done = aead_start(impl, &c->key, nonce, aad, aadlen, dst, src, len,
			  state, buf, &mac, NULL);
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

static int aead_decrypt(const void *ctx, const uint8_t *nonce,
			const uint8_t *aad, size_t aadlen, uint8_t *dst,
			const uint8_t *src, size_t len, const uint8_t *tag)
{
	const struct aead_x86_ctx *c = ctx;
	const struct aead_x86_impl *impl = c->impl;
	_Alignas(64) uint8_t buf[AEAD_ONEPASS_MAX];
	_Alignas(64) uint8_t ks[AEAD_KS_BYTES];
	uint32_t state[CHACHA20_STATE_WORDS];
	struct poly1305_ctx mac;
	uint8_t expected[AEAD_TAG_SIZE];
	uint32_t ok;
	size_t done;

	/*
	 * a short message is already decrypted into buf, a longer one may
	 * have its first keystream in ks: neither is released yet
	 */
	done = aead_start(impl, &c->key, nonce, aad, aadlen, NULL, src, len,
			  state, buf, &mac, impl->ks_xor ? ks : NULL);
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
	else if (len) {
		if (done)
			impl->ks_xor(dst, src, ks, done);
		impl->xor_fn(state, dst + done, src + done, len - done);
	}
	explicit_bzero(state, sizeof(state));
	explicit_bzero(buf, aead_buf_used(impl, len));
	explicit_bzero(ks, done);
	return ok ? 0 : -EBADMSG;
}

/*
 * The avx512 driver's one pass: block 0 and the message through the core
 * that is fastest for the total on Zen 4 (measured, 80 to 1024 bytes):
 * the AVX-512 row-wise passes up to 4 blocks, the AVX2 8-block pass for 5
 * to 8 (the AVX-512 one is a 16-block pass: ~830-970 cycles there
 * against ~640-870), AVX-512 16 blocks above.
 */
static void chacha20_onepass_avx512(uint32_t state[16], uint8_t *dst,
				    const uint8_t *src, size_t len)
{
	if (len > 4 * CHACHA20_BLOCK_SIZE && len <= CHACHA20_AVX2_ONEPASS_BYTES)
		chacha20_xor_avx2(state, dst, src, len);
	else
		chacha20_xor_avx512(state, dst, src, len);
}

/* the groups of those passes: 2, 4, 8 (AVX2), 16 blocks */
static size_t onepass_round_avx512(size_t total)
{
	if (total <= 2 * CHACHA20_BLOCK_SIZE)
		return 2 * CHACHA20_BLOCK_SIZE;
	if (total <= 4 * CHACHA20_BLOCK_SIZE)
		return 4 * CHACHA20_BLOCK_SIZE;
	if (total <= 8 * CHACHA20_BLOCK_SIZE)
		return 8 * CHACHA20_BLOCK_SIZE;
	return 16 * CHACHA20_BLOCK_SIZE;
}

/* chacha20_xor_avx2's passes up to its one-pass size: 2 or 8 blocks */
static size_t onepass_round_avx2(size_t total)
{
	return total <= 2 * CHACHA20_BLOCK_SIZE ? 2 * CHACHA20_BLOCK_SIZE :
						  8 * CHACHA20_BLOCK_SIZE;
}

/* per driver, written out: its cores, the setkey naming them, its alg */
static const struct aead_x86_impl aead_avx2_impl = {
	.xor_fn = chacha20_xor_avx2,
	.onepass_fn = chacha20_xor_avx2,
	.onepass_round = onepass_round_avx2,
	.poly = &poly1305_avx2_core,
	.onepass_len = CHACHA20_AVX2_ONEPASS_BYTES - CHACHA20_BLOCK_SIZE,
	.block0_pair = NULL,
	.block0_xor = chacha20_xor_block0_avx2,
	.ks_xor = NULL,
};

static const struct aead_x86_impl aead_avx512_impl = {
	.xor_fn = chacha20_xor_avx512,
	.onepass_fn = chacha20_onepass_avx512,
	.onepass_round = onepass_round_avx512,
	.poly = &poly1305_avx512ifma_core,
	.onepass_len = CHACHA20_AVX512_ONEPASS_BYTES - CHACHA20_BLOCK_SIZE,
	.block0_pair = chacha20_keystream2_avx512,
	.block0_xor = chacha20_xor_block0_avx512,
	.ks_xor = chacha20_xor_keystream_avx512,
};

static int aead_setkey_avx2(void *ctx, const uint8_t *key, size_t keylen)
{
	return aead_setkey(ctx, &aead_avx2_impl, key, keylen);
}

static int aead_setkey_avx512(void *ctx, const uint8_t *key, size_t keylen)
{
	return aead_setkey(ctx, &aead_avx512_impl, key, keylen);
}

static const struct aead_alg aead_avx2_alg = {
	.keysize = CHACHA20_KEY_SIZE,
	.noncesize = CHACHA20_NONCE_SIZE,
	.tagsize = AEAD_TAG_SIZE,
	.ctxsize = sizeof(struct aead_x86_ctx),
	.setkey = aead_setkey_avx2,
	.encrypt = aead_encrypt,
	.decrypt = aead_decrypt,
};

static const struct aead_alg aead_avx512_alg = {
	.keysize = CHACHA20_KEY_SIZE,
	.noncesize = CHACHA20_NONCE_SIZE,
	.tagsize = AEAD_TAG_SIZE,
	.ctxsize = sizeof(struct aead_x86_ctx),
	.setkey = aead_setkey_avx512,
	.encrypt = aead_encrypt,
	.decrypt = aead_decrypt,
};

static const struct crypto_driver aead_x86_drivers[] = {
	{ .alg_name = "rfc7539(chacha20,poly1305)",
	  .driver_name = "rfc7539-chacha20-poly1305-avx2", .priority = 600,
	  .features = CPU_FEAT_AVX2, .flags = CRYPTO_F_CONST_TIME,
	  .type = CRYPTO_TYPE_AEAD, .u.aead = &aead_avx2_alg },
	/*
	 * Its Poly1305 needs IFMA: on AVX-512 CPUs without it (Skylake-SP)
	 * the avx2 driver serves. IFMA CPUs all have AVX-512VL, which the
	 * row-wise ChaCha20 pass uses.
	 */
	{ .alg_name = "rfc7539(chacha20,poly1305)",
	  .driver_name = "rfc7539-chacha20-poly1305-avx512", .priority = 800,
	  .features = CPU_FEAT_AVX512F | CPU_FEAT_AVX512VL |
		      CPU_FEAT_AVX512IFMA | CPU_FEAT_AVX2,
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_AEAD,
	  .u.aead = &aead_avx512_alg },
};

int chacha20poly1305_x86_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, aead_x86_drivers,
				       ARRAY_SIZE(aead_x86_drivers));
}

#else /* not x86-64, or built without the cores: nothing to register */

int chacha20poly1305_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
