/* SPDX-License-Identifier: MIT */
/*
 * Glue for the x86-64 AES cores (asm/x86/aes-*.c, see asm/x86/aes-x86.h).
 *
 * "aes-aesni" is a single-block cipher driver whose context is the cores'
 * key schedule (struct aes_x86_ctx); every mode driver here is a template
 * instance over it, so keys, the first XTS tweak, remainders shorter than
 * a chunk, ciphertext stealing and serial CBC/CFB encryption stay in the
 * C templates (through aes-aesni's 8-block path) and the cores only see
 * whole 128-byte chunks. See aes-x86-glue.h.
 *
 * The SIMD instances get names of their own ("-x8", "-vaes-avx2",
 * "-vaes-avx512"): the registry also builds the plain template instances
 * "<mode>-aes-aesni" over the cipher, and the self-test compares every
 * SIMD instance with that one on a 5.6 KiB message.
 */
#include "crypto/aes/aes-x86-glue.h"

#include "crypto/internal/registry.h"

#if defined(__x86_64__) && defined(CLOAKFS_AES_X86_CORES)

#include "asm/x86/aes-x86.h"

/* ---- the single-block cipher ------------------------------------------- */

static int aesni_setkey(void *ctx, const uint8_t *key, size_t keylen)
{
	return aes_x86_setkey(ctx, key, keylen);
}

static void aesni_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	aes_encrypt_aesni(ctx, dst, src);
}

static void aesni_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	aes_decrypt_aesni(ctx, dst, src);
}

static void aesni_encrypt_blocks(const void *ctx, uint8_t *dst,
				 const uint8_t *src, size_t nblocks)
{
	aes_encrypt_blocks_aesni(ctx, dst, src, nblocks);
}

static void aesni_decrypt_blocks(const void *ctx, uint8_t *dst,
				 const uint8_t *src, size_t nblocks)
{
	aes_decrypt_blocks_aesni(ctx, dst, src, nblocks);
}

static const struct cipher_alg aes_aesni_alg = {
	.blocksize = 16,
	.keysizes = { 16, 24, 32, 0 },
	.ctxsize = sizeof(struct aes_x86_ctx),
	.setkey = aesni_setkey,
	.encrypt = aesni_encrypt,
	.decrypt = aesni_decrypt,
	.encrypt_blocks = aesni_encrypt_blocks,
	.decrypt_blocks = aesni_decrypt_blocks,
};

/* every AES-NI CPU has SSE4.1, and the core file is built with it */
#define FEAT_AESNI (CPU_FEAT_AESNI | CPU_FEAT_SSE41)
#define FEAT_VAES_AVX2 \
	(FEAT_AESNI | CPU_FEAT_PCLMUL | CPU_FEAT_AVX2 | CPU_FEAT_VAES | \
	 CPU_FEAT_VPCLMULQDQ)
#define FEAT_VAES_AVX512 \
	(FEAT_VAES_AVX2 | CPU_FEAT_AVX512F | CPU_FEAT_AVX512VL | \
	 CPU_FEAT_AVX512BW)

static const struct crypto_driver aes_aesni_driver = {
	.alg_name = "aes",
	.driver_name = "aes-aesni",
	.priority = 400,
	.features = FEAT_AESNI,
	.flags = CRYPTO_F_CONST_TIME,
	.type = CRYPTO_TYPE_CIPHER,
	.u.cipher = &aes_aesni_alg,
};

/* ---- bulk hooks: the child context is the key schedule ------------------ */

/*
 * Every core takes any multiple of 128 bytes (the wide ones run 256 or
 * 512 bytes per pass and finish with one narrower pass), so one chunk
 * size serves all and a request of 128 bytes or more never waits in C.
 */
#define AES_X86_MIN_BYTES AES_X86_CHUNK

#define AES_X86_HOOKS(isa)                                                     \
	static void xts_enc_##isa(const void *cctx, uint8_t *dst,               \
				  const uint8_t *src, size_t nbytes,            \
				  uint8_t *tweak)                               \
	{                                                                      \
		aes_xts_encrypt_##isa(cctx, dst, src, nbytes, tweak);          \
	}                                                                      \
	static void xts_dec_##isa(const void *cctx, uint8_t *dst,               \
				  const uint8_t *src, size_t nbytes,            \
				  uint8_t *tweak)                               \
	{                                                                      \
		aes_xts_decrypt_##isa(cctx, dst, src, nbytes, tweak);          \
	}                                                                      \
	static void ecb_enc_##isa(const void *cctx, uint8_t *dst,               \
				  const uint8_t *src, size_t nbytes)            \
	{                                                                      \
		aes_ecb_encrypt_##isa(cctx, dst, src, nbytes);                 \
	}                                                                      \
	static void ecb_dec_##isa(const void *cctx, uint8_t *dst,               \
				  const uint8_t *src, size_t nbytes)            \
	{                                                                      \
		aes_ecb_decrypt_##isa(cctx, dst, src, nbytes);                 \
	}                                                                      \
	static void cbc_dec_##isa(const void *cctx, uint8_t *dst,               \
				  const uint8_t *src, size_t nbytes,            \
				  uint8_t *iv)                                  \
	{                                                                      \
		aes_cbc_decrypt_##isa(cctx, dst, src, nbytes, iv);             \
	}                                                                      \
	static void cfb_dec_##isa(const void *cctx, uint8_t *dst,               \
				  const uint8_t *src, size_t nbytes,            \
				  uint8_t *iv)                                  \
	{                                                                      \
		aes_cfb_decrypt_##isa(cctx, dst, src, nbytes, iv);             \
	}                                                                      \
	static void ctr_##isa(const void *cctx, uint8_t *dst,                   \
			      const uint8_t *src, size_t nbytes, uint8_t *ctr)  \
	{                                                                      \
		aes_ctr_crypt_##isa(cctx, dst, src, nbytes, ctr);              \
	}                                                                      \
	static const struct crypto_bulk_ops aes_ops_##isa = {                 \
		.chunk = AES_X86_CHUNK,                                        \
		.min_bytes = AES_X86_MIN_BYTES,                                \
		.xts_encrypt = xts_enc_##isa,                                  \
		.xts_decrypt = xts_dec_##isa,                                  \
		.ecb_encrypt = ecb_enc_##isa,                                  \
		.ecb_decrypt = ecb_dec_##isa,                                  \
		.cbc_decrypt = cbc_dec_##isa,                                  \
		.cfb_decrypt = cfb_dec_##isa,                                  \
		.ctr_crypt = ctr_##isa,                                        \
	};

AES_X86_HOOKS(aesni)
AES_X86_HOOKS(vaes_avx2)
AES_X86_HOOKS(vaes_avx512)

/* e.g. INSTANCE(xts, "aesni-x8", aesni, ...): "xts-aes-aesni-x8" */
#define INSTANCE(m, name, isa, prio, feat)                                     \
	{                                                                      \
		.mode = #m,                                                    \
		.child_driver = "aes-aesni",                                   \
		.driver_name = #m "-aes-" name,                                \
		.priority = (prio),                                            \
		.features = (feat),                                            \
		.flags = CRYPTO_F_CONST_TIME,                                  \
		.bulk = &aes_ops_##isa,                                        \
	}

#define INSTANCES(name, isa, prio, feat)                                       \
	INSTANCE(xts, name, isa, prio, feat),                                  \
	INSTANCE(ecb, name, isa, prio, feat),                                  \
	INSTANCE(cbc, name, isa, prio, feat),                                  \
	INSTANCE(cfb, name, isa, prio, feat),                                  \
	INSTANCE(ctr, name, isa, prio, feat),                                  \
	INSTANCE(cts, name, isa, prio, feat)

/*
 * Priorities as docs/design.md ("Driver priorities"): AES-NI 400-500 (the plain template instances
 * over aes-aesni get its 400, the 8-block cores 500), VAES-AVX2 600,
 * VAES-AVX-512 800.
 */
static const struct crypto_mode_instance aes_x86_instances[] = {
	INSTANCES("aesni-x8", aesni, 500, FEAT_AESNI),
	INSTANCES("vaes-avx2", vaes_avx2, 600, FEAT_VAES_AVX2),
	INSTANCES("vaes-avx512", vaes_avx512, 800, FEAT_VAES_AVX512),
};

/*
 * Registered whatever the CPU: the registry hides drivers whose features
 * are missing (and --list shows why).
 */
int aes_x86_register(struct crypto_registry *reg)
{
	int err = crypto_register_driver(reg, &aes_aesni_driver);

	for (size_t i = 0; !err && i < ARRAY_SIZE(aes_x86_instances); i++)
		err = crypto_register_mode(reg, &aes_x86_instances[i]);
	return err;
}

#else /* no x86-64 cores in this build */

int aes_x86_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
