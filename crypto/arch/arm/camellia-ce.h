/* SPDX-License-Identifier: MIT */
/*
 * The AArch64 Camellia core with the ARMv8 Crypto Extensions
 * (camellia-ce-core.c; internal, the glue is
 * camellia-ce-glue.c): 16 blocks a step, byte-sliced, the
 * S-boxes through AESE. Like the x86 cores (../x86/camellia-x86.h) the
 * entry points take the cipher context itself with the signatures of
 * struct cipher_alg and struct crypto_bulk_ops, so the glue lists them
 * in its tables as they are. Contract:
 *  - the bulk functions take nbytes, a nonzero multiple of
 *    CAMELLIA_CE_STEP; the cipher functions any number of blocks, a
 *    partial step padded on the stack;
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - chaining state is updated so C continues where the core stopped:
 *    XTS tweak (already encrypted, little-endian GF(2^128) element) to the
 *    tweak of the next block, CBC/CFB iv to the last ciphertext block,
 *    CTR to the next big-endian 128-bit counter value.
 * Constant time: AESE, TBL with public indices or nibbles of the data
 * into 16-byte tables held in registers, xor/and/or and shifts; no
 * secret-dependent branch or address.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_CAMELLIA_CE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_CAMELLIA_CE_H

#include <stddef.h>
#include <stdint.h>

/* bytes per step: 16 blocks, one byte of each per vector register */
#define CAMELLIA_CE_STEP 256

/* subkeys of one direction, at most 2 + 24 + 6 + 2 (camellia_key_order) */
#define CAMELLIA_CE_MAX_KEYS 34

/*
 * The key schedule as the core takes it: the subkeys of each direction in
 * the order it applies them, 8 bytes each, most significant first. The
 * F subkeys (every one but the two at each end and the FL pairs) are
 * stored mapped by the linear part of their byte's S-box input map
 * (camellia-affine.h: PRE4's for bytes 3 and 6, PRE1's for the others),
 * so that AESE's key operand adds them where the core needs them:
 * PRE(x ^ k) = PRE(x) ^ L(k).
 */
struct camellia_ce_ctx {
	uint8_t enc[CAMELLIA_CE_MAX_KEYS][8];
	uint8_t dec[CAMELLIA_CE_MAX_KEYS][8];
	unsigned int rounds; /* 18 or 24 */
};

void camellia_encrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src);
void camellia_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src);
void camellia_encrypt_blocks_ce(const void *ctx, uint8_t *dst,
				const uint8_t *src, size_t n);
void camellia_decrypt_blocks_ce(const void *ctx, uint8_t *dst,
				const uint8_t *src, size_t n);
void camellia_ecb_encrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes);
void camellia_ecb_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes);
void camellia_xts_encrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *tweak);
void camellia_xts_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *tweak);
void camellia_cbc_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *iv);
void camellia_cfb_decrypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, uint8_t *iv);
void camellia_ctr_crypt_ce(const void *ctx, uint8_t *dst, const uint8_t *src,
			   size_t nbytes, uint8_t *ctr);
/* s_kind (kind 1..4) on each of the 4 bytes of w, for the S-box test */
uint32_t camellia_sbox_ce(int kind, uint32_t w);

#endif
