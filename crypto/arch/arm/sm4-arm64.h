/* SPDX-License-Identifier: MIT */
/*
 * The AArch64 SM4 cores (internal; the glues are sm4-ce-glue.c
 * and sm4-neon-glue.c):
 *   *_ce     sm4-ce-core.S, the SM4 extension (SM4E, SM4EKEY)
 *   *_neon   sm4-neon-core.S, plain Advanced SIMD (TBL S-box)
 * both 8 blocks (128 bytes) per step.
 *
 * As for the x86 cores (crypto/arch/x86/sm4-x86.h), the entry points take the
 * cipher context itself (struct sm4_arm64_ctx) with the signatures of
 * struct cipher_alg and struct crypto_bulk_ops (crypto/internal/alg.h),
 * so the glues list them in their tables as they are. The assembly
 * includes this header for the offsets below, the only place the layout
 * is written down for it; the C side checks them against the struct.
 * Contract:
 *  - encryption uses rk_enc, decryption rk_dec; CFB and CTR always
 *    encrypt;
 *  - the bulk functions take nbytes, a nonzero multiple of
 *    SM4_ARM64_CHUNK; the cipher functions any number of blocks, 0
 *    included;
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - chaining state is updated so C continues where the core stopped:
 *    XTS tweak (already encrypted, little-endian GF(2^128) element) to the
 *    tweak of the next block, CBC/CFB iv to the last ciphertext block,
 *    CTR to the next big-endian 128-bit counter value.
 * Constant time: see each core's header comment.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_SM4_ARM64_H
#define CLOAKFS_CRYPTO_ARCH_ARM_SM4_ARM64_H

/* the bulk hooks' granularity: both cores' step, 8 blocks */
#define SM4_ARM64_CHUNK 128

/* byte offsets in struct sm4_arm64_ctx, for the assembly */
#define SM4_ARM64_CTX_RK_ENC 0
#define SM4_ARM64_CTX_RK_DEC 128

/* what sm4_setkey_ce returns for a bad key length: -EINVAL (Linux) */
#define SM4_ARM64_EINVAL 22

#ifdef __ASSEMBLER__

/*
 * Entry point NAME of both cores: x0 = ctx + OFF, the round keys of its
 * direction; the body shared by both directions follows (or is branched
 * to). endfn closes it.
 */
.macro entry name, off
	.align	4
	.global	\name
	.type	\name, %function
\name:
	add	x0, x0, #\off
.endm
.macro endfn name
	.size	\name, . - \name
.endm

#else

#include <stddef.h>
#include <stdint.h>

#include "crypto/sm4/sm4-internal.h"

/* the round keys in the order they are applied */
struct sm4_arm64_ctx {
	uint32_t rk_enc[32];
	uint32_t rk_dec[32]; /* rk_enc reversed */
};

/* a layout change must change the offsets the assembly loads from */
_Static_assert(offsetof(struct sm4_arm64_ctx, rk_enc) == SM4_ARM64_CTX_RK_ENC,
	       "SM4_ARM64_CTX_RK_ENC");
_Static_assert(offsetof(struct sm4_arm64_ctx, rk_dec) == SM4_ARM64_CTX_RK_DEC,
	       "SM4_ARM64_CTX_RK_DEC");

SM4_CORE_ENTRY_POINTS(ce);   /* sm4-ce-core.S */
SM4_CORE_ENTRY_POINTS(neon); /* sm4-neon-core.S */

/* the CE core's key schedule (SM4EKEY): 0, or -EINVAL unless keylen is 16 */
int sm4_setkey_ce(void *ctx, const uint8_t *key, size_t keylen);
/* the NEON core's S-box on each byte of w (tau, for the key schedule) */
uint32_t sm4_tau_neon(uint32_t w);

#endif /* __ASSEMBLER__ */

#endif
