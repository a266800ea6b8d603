// SPDX-License-Identifier: MIT
/*
 * The ChaCha skcipher drivers over the x86-64 SIMD cores
 * (chacha20-x86.h), one per core and algorithm: chacha20-, chacha12-,
 * xchacha12- and xchacha20-{ssse3,avx2,avx512}. Same key context, IV
 * formats and IV update as the generic drivers (chacha20.h, chacha.h):
 * for chacha20 and chacha12 the 16-byte IV is the 32-bit little-endian
 * block counter then the 96-bit nonce, for XChaCha 32 bytes (nonce, then
 * the stream position), and the counter written back has advanced by one
 * per 64-byte block started. The cores take any length: whole groups of
 * blocks in the widest layout, the rest in the narrowest one that covers
 * it in one pass. The round count is a parameter of the cores, so the
 * four algorithms run the same code.
 */
#include "crypto/arch/x86/chacha20poly1305-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_CHACHA_X86_CORES)

#include <string.h>

#include "crypto/arch/x86/chacha20-x86.h"
#include "crypto/chacha20poly1305/chacha.h"
#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"

/*
 * crypt_ks0 (crypto/internal/alg.h): keystream block 0 (the AEAD
 * template's Poly1305 key) with the first data, as the fused AEAD
 * drivers this replaced computed it (docs/crypto.md):
 *  - block 0 and a message of up to onepass_bytes - 64 bytes go through
 *    a single pass on a stack copy (zero block | message), padded to the
 *    whole group of the pass the core takes for that total (a core fed a
 *    partial group goes through a stack copy of a whole one): a pass is
 *    bound by the latency of the rounds, so the two cost one;
 *  - longer: the core's block-0 function, which from 1 KiB on computes
 *    block 0 in scalar registers inside the round loop of the first 16
 *    data blocks.
 */
struct chacha20_ks0_impl {
	chacha20_xor_fn *onepass;
	/* the whole group of onepass's pass for total bytes */
	size_t (*onepass_round)(size_t total);
	size_t onepass_bytes;
	void (*block0)(uint32_t state[16], uint8_t block0[64], uint8_t *dst,
		       const uint8_t *src, size_t len);
};

static int chacha20_ks0(const struct chacha20_ks0_impl *impl,
			const struct crypto_tfm *tfm, uint8_t *iv, uint8_t *ks0,
			uint8_t *dst, const uint8_t *src, size_t len)
{
	uint32_t state[CHACHA20_STATE_WORDS];

	chacha20_init_state(state, tfm->ctx, iv);
	if (len <= impl->onepass_bytes - CHACHA20_BLOCK_SIZE) {
		_Alignas(64) uint8_t buf[CHACHA20_AVX512_ONEPASS_BYTES];
		size_t n = impl->onepass_round(CHACHA20_BLOCK_SIZE + len);
		uint32_t next = state[12] + 1 + (uint32_t)((len + 63) / 64);

		memset(buf, 0, CHACHA20_BLOCK_SIZE);
		if (len) /* src may be NULL then */
			memcpy(buf + CHACHA20_BLOCK_SIZE, src, len);
		memset(buf + CHACHA20_BLOCK_SIZE + len, 0,
		       n - CHACHA20_BLOCK_SIZE - len);
		impl->onepass(state, buf, buf, n);
		memcpy(ks0, buf, CHACHA20_BLOCK_SIZE);
		if (len)
			memcpy(dst, buf + CHACHA20_BLOCK_SIZE, len);
		wipe_blocks(buf, n);
		/* one step per block started, not per block of the group */
		state[12] = next;
	} else {
		impl->block0(state, ks0, dst, src, len);
	}
	store_le32(iv, state[12]);
	wipe(state, sizeof(state));
	return 0;
}

/* chacha20_xor_avx2's passes up to its one-pass size: 2 or 8 blocks */
static size_t onepass_round_avx2(size_t total)
{
	return total <= 2 * CHACHA20_BLOCK_SIZE ? 2 * CHACHA20_BLOCK_SIZE :
						  8 * CHACHA20_BLOCK_SIZE;
}

/*
 * chacha20_xor_avx512's passes up to its one-pass size: 2 or 4 blocks
 * row-wise, 8 (its AVX2 pass, the fastest for 5 to 8 blocks on Zen 4) or
 * 16
 */
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

static const struct chacha20_ks0_impl chacha20_ks0_avx2_impl = {
	.onepass = chacha20_xor_avx2,
	.onepass_round = onepass_round_avx2,
	.onepass_bytes = CHACHA20_AVX2_ONEPASS_BYTES,
	.block0 = chacha20_xor_block0_avx2,
};

static const struct chacha20_ks0_impl chacha20_ks0_avx512_impl = {
	.onepass = chacha20_xor_avx512,
	.onepass_round = onepass_round_avx512,
	.onepass_bytes = CHACHA20_AVX512_ONEPASS_BYTES,
	.block0 = chacha20_xor_block0_avx512,
};

static int chacha20_ks0_avx2(const struct crypto_tfm *tfm, uint8_t *iv,
			     uint8_t *ks0, uint8_t *dst, const uint8_t *src,
			     size_t len)
{
	return chacha20_ks0(&chacha20_ks0_avx2_impl, tfm, iv, ks0, dst, src, len);
}

static int chacha20_ks0_avx512(const struct crypto_tfm *tfm, uint8_t *iv,
			       uint8_t *ks0, uint8_t *dst, const uint8_t *src,
			       size_t len)
{
	return chacha20_ks0(&chacha20_ks0_avx512_impl, tfm, iv, ks0, dst, src, len);
}

/*
 * The skcipher encrypt (= decrypt) of chacha20, chacha12, xchacha12 and
 * xchacha20 over one core: the shared bodies of chacha.h over its
 * chacha_xor_<isa>, whatever the length. Short messages too go to the
 * core: its narrowest pass (SSSE3 one block, AVX2 and AVX-512 two blocks
 * row-wise) beats the generic C on a single block (Zen 4, 16 and 64
 * bytes: SSSE3 and AVX-512 5-13% faster, AVX2 about equal;
 * docs/performance.md).
 */
#define CHACHA_X86_ENTRY(alg, body, nrounds, isa)                           \
	static int alg##_crypt_##isa(const struct crypto_tfm *tfm,           \
				     uint8_t *iv, uint8_t *dst,              \
				     const uint8_t *src, size_t len)         \
	{                                                                    \
		return body(chacha_xor_##isa, nrounds, tfm, iv, dst, src, len); \
	}
/* XChaCha's body with the core's HChaCha (chacha20-x86.h): the AVX2
 * drivers take the SSSE3 one (every AVX2 CPU has SSSE3) */
#define hchacha_x86_ssse3 hchacha_ssse3
#define hchacha_x86_avx2 hchacha_ssse3
#define hchacha_x86_avx512 hchacha_avx512
#define XCHACHA_X86_BODY(isa) xchacha_x86_crypt_##isa
#define XCHACHA_X86_BODY_DEF(isa)                                            \
	static int xchacha_x86_crypt_##isa(chacha_crypt_fn *crypt,           \
					   unsigned int nrounds,             \
					   const struct crypto_tfm *tfm,     \
					   uint8_t *iv, uint8_t *dst,        \
					   const uint8_t *src, size_t len)   \
	{                                                                    \
		return xchacha_skcipher_crypt_h(hchacha_x86_##isa, crypt,    \
						nrounds, tfm, iv, dst, src,  \
						len);                        \
	}
#define CHACHA_X86_ENTRIES(isa)                                              \
	XCHACHA_X86_BODY_DEF(isa)                                            \
	CHACHA_X86_ENTRY(chacha20, chacha_skcipher_crypt, 20, isa)           \
	CHACHA_X86_ENTRY(chacha12, chacha_skcipher_crypt, 12, isa)           \
	CHACHA_X86_ENTRY(xchacha12, XCHACHA_X86_BODY(isa), 12, isa)          \
	CHACHA_X86_ENTRY(xchacha20, XCHACHA_X86_BODY(isa), 20, isa)          \
	static const struct skcipher_alg chacha12_##isa##_alg =              \
		CHACHA12_SKCIPHER_ALG(chacha12_crypt_##isa);                 \
	static const struct skcipher_alg xchacha12_##isa##_alg =             \
		XCHACHA_SKCIPHER_ALG(xchacha12_crypt_##isa);                 \
	static const struct skcipher_alg xchacha20_##isa##_alg =             \
		XCHACHA_SKCIPHER_ALG(xchacha20_crypt_##isa)

CHACHA_X86_ENTRIES(ssse3);
CHACHA_X86_ENTRIES(avx2);
CHACHA_X86_ENTRIES(avx512);

/*
 * chacha20's skcipher_algs: the AVX2 and AVX-512 ones with crypt_ks0;
 * all with their HChaCha for the xchacha20poly1305 template
 */
static const struct skcipher_alg chacha20_ssse3_alg =
	CHACHA20_SKCIPHER_ALG_KS0_H(chacha20_crypt_ssse3, NULL,
				    hchacha_x86_ssse3);
static const struct skcipher_alg chacha20_avx2_alg =
	CHACHA20_SKCIPHER_ALG_KS0_H(chacha20_crypt_avx2, chacha20_ks0_avx2,
				    hchacha_x86_avx2);
static const struct skcipher_alg chacha20_avx512_alg =
	CHACHA20_SKCIPHER_ALG_KS0_H(chacha20_crypt_avx512, chacha20_ks0_avx512,
				    hchacha_x86_avx512);

/*
 * The four algorithms over one core: the same priority and CPU features
 * for each (a ChaCha12 pass is a ChaCha20 pass with fewer rounds).
 */
#define CHACHA_X86_DRIVER(alg, name, isa, prio, feat)                       \
	{ .alg_name = (alg), .driver_name = #name "-" #isa,                 \
	  .priority = (prio), .features = (feat),                            \
	  .flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_SKCIPHER,        \
	  .u.skcipher = &name##_##isa##_alg }
#define CHACHA_X86_DRIVERS(isa, prio, feat)                                  \
	CHACHA_X86_DRIVER("chacha20", chacha20, isa, prio, feat),            \
	CHACHA_X86_DRIVER(CHACHA12_ALG_NAME, chacha12, isa, prio, feat),     \
	CHACHA_X86_DRIVER(XCHACHA12_ALG_NAME, xchacha12, isa, prio, feat),   \
	CHACHA_X86_DRIVER(XCHACHA20_ALG_NAME, xchacha20, isa, prio, feat)

static const struct crypto_driver chacha20_x86_drivers[] = {
	CHACHA_X86_DRIVERS(ssse3, 300, CPU_FEAT_SSSE3),
	/* SSSE3 too: the HChaCha of its XChaCha (every AVX2 CPU has it) */
	CHACHA_X86_DRIVERS(avx2, 600, CPU_FEAT_AVX2 | CPU_FEAT_SSSE3),
	/*
	 * AVX2 too: the compiler may use it in the -mavx512f core;
	 * AVX-512VL for the 256-bit row-wise pass (VPROLD, VPTERNLOGD on ymm)
	 */
	CHACHA_X86_DRIVERS(avx512, 800,
			   CPU_FEAT_AVX512F | CPU_FEAT_AVX512VL | CPU_FEAT_AVX2),
};

int chacha20_x86_register(struct crypto_registry *reg)
{
	return crypto_register_drivers(reg, chacha20_x86_drivers,
				       ARRAY_SIZE(chacha20_x86_drivers));
}

#else /* not x86-64, or built without the cores: nothing to register */

int chacha20_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
