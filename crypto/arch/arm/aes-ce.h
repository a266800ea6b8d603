/* SPDX-License-Identifier: MIT */
/*
 * AES with the ARMv8 Crypto Extensions (internal; the glue is
 * aes-ce-glue.c): aes-ce-core-arm64.S for AArch64 and
 * aes-ce-core-arm32.S for AArch32, one set of entry points for both.
 *
 * Like the x86 cores (../x86/aes-x86.h) the entry points take the cipher
 * context itself (a struct aes_ce_ctx, filled by the glue's setkey) with
 * the signatures of struct cipher_alg and struct crypto_bulk_ops
 * (crypto/internal/alg.h), so the glue lists them in its tables as they
 * are. Contract:
 *  - the bulk functions take nbytes, a nonzero multiple of AES_CE_CHUNK;
 *    the cipher functions one block, or any number of blocks (0 too);
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - chaining state is updated so C continues where the core stopped:
 *    XTS tweak (already encrypted with K2) to the tweak of the next block,
 *    CBC/CFB iv to the last ciphertext block, CTR to the next big-endian
 *    128-bit counter value.
 * Constant time: AES instructions, XOR and shifts; branches depend only
 * on the round count, lengths and the public CTR counter.
 *
 * The cores read the context at the AES_CE_CTX_* offsets below: this
 * header is included by the .S files too (only the offsets are seen
 * there), and the glue checks them against the struct with offsetof, so
 * a change of the layout fails the build instead of the cores.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_CE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_CE_H

#define AES_CE_CHUNK 128 /* bytes per bulk step: 8 blocks (AArch32: 2 x 4) */
#define AES_CE_MAX_ROUNDS 14

/* byte offsets in struct aes_ce_ctx, for the assembly */
#define AES_CE_CTX_ENC 0
#define AES_CE_CTX_DEC 240    /* (AES_CE_MAX_ROUNDS + 1) * 16 */
#define AES_CE_CTX_ROUNDS 480 /* 2 * (AES_CE_MAX_ROUNDS + 1) * 16 */

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

/* the key schedule, FIPS-197 byte order (what the cores load) */
struct aes_ce_ctx {
	uint8_t enc[AES_CE_MAX_ROUNDS + 1][16];
	/* equivalent inverse cipher (FIPS-197 5.3.5) for AESD/AESIMC */
	uint8_t dec[AES_CE_MAX_ROUNDS + 1][16];
	int nrounds; /* 10, 12 or 14 */
};

/* the cipher: one block, and nblocks independent blocks (any count) */
void aes_encrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src);
void aes_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src);
void aes_encrypt_blocks_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			   size_t nblocks);
void aes_decrypt_blocks_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			   size_t nblocks);

/* the modes */
void aes_ecb_encrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			size_t nbytes);
void aes_ecb_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			size_t nbytes);
void aes_cbc_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			size_t nbytes, uint8_t *iv);
void aes_cfb_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			size_t nbytes, uint8_t *iv);
void aes_ctr_crypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
		      size_t nbytes, uint8_t *ctr);
void aes_xts_encrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			size_t nbytes, uint8_t *tweak);
void aes_xts_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			size_t nbytes, uint8_t *tweak);

/*
 * The key schedule (aes-ce-glue.c; the fused gcm(aes) driver keys its
 * context with it too): 0, or -EINVAL for a key that is not 16, 24 or
 * 32 bytes.
 */
int aes_ce_setkey(void *ctx, const uint8_t *key, size_t keylen);

/* for the key expansion: SubWord(w), and InvMixColumns of a round key */
uint32_t aes_ce_sub_word(uint32_t w);
void aes_ce_invert_round_key(uint8_t dst[16], const uint8_t src[16]);

#endif /* __ASSEMBLER__ */

#endif
