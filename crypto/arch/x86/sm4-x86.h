/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SIMD cores for SM4 (internal; the glue is
 * sm4-x86-glue.c). One body, sm4-x86-core.h,
 * instantiated per ISA:
 *   *_aesni_avx2    AES-NI + AVX2 (Haswell and later, Zen 1 and later):
 *                   S-box through AESENCLAST, 32 blocks per step
 *   *_gfni_avx2     GFNI + AVX2 (Alder Lake and later client cores):
 *                   S-box through GF2P8AFFINE(INV)QB, 32 blocks per step
 *   *_gfni_avx512   GFNI + AVX-512F/BW (Ice Lake, Sapphire Rapids, Zen 4,
 *                   Zen 5): 512-bit vectors, 64 blocks per step
 *
 * The entry points take the cipher context itself (struct sm4_x86_ctx,
 * filled by the core's own setkey) with the signatures of struct
 * cipher_alg and struct crypto_bulk_ops (crypto/internal/alg.h), so the
 * glue lists them in its tables as they are. Contract:
 *  - encryption uses rk_enc, decryption rk_dec; CFB and CTR always
 *    encrypt;
 *  - the bulk functions take nbytes, a nonzero multiple of SM4_X86_CHUNK;
 *    the cipher functions any number of blocks (a partial set padded on
 *    the stack);
 *  - dst == src is allowed, partial overlap is not; no alignment needed;
 *  - chaining state is updated so C continues where the core stopped:
 *    XTS tweak (already encrypted, little-endian GF(2^128) element) to the
 *    tweak of the next block, CBC/CFB iv to the last ciphertext block,
 *    CTR to the next big-endian 128-bit counter value.
 * All run in constant time: fixed shuffles, xor, shifts, rotates,
 * AESENCLAST and GF2P8AFFINE(INV)QB; no secret-dependent branch or
 * address.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_SM4_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_SM4_X86_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/sm4/sm4-internal.h"

/*
 * The bulk hooks' granularity, 16 blocks: two AVX2 sets, one AVX-512 set
 * (a main step is 4 sets; what is left of a request runs as 1 to 3).
 */
#define SM4_X86_CHUNK 256

/* the round keys in the order they are applied */
struct sm4_x86_ctx {
	uint32_t rk_enc[32];
	uint32_t rk_dec[32]; /* rk_enc reversed */
};

/*
 * Per core: setkey is the key schedule (GB/T 32907-2016 7.3) with tau on
 * the core's own S-box, 0 or -EINVAL; tau alone, the S-box on each byte
 * of w, is there for the S-box test.
 */
#define SM4_X86_ENTRY_POINTS(isa)                                              \
	uint32_t sm4_tau_##isa(uint32_t w);                                    \
	int sm4_setkey_##isa(void *ctx, const uint8_t *key, size_t keylen);    \
	SM4_CORE_ENTRY_POINTS(isa)

SM4_X86_ENTRY_POINTS(aesni_avx2);  /* sm4-aesni-avx2.c */
SM4_X86_ENTRY_POINTS(gfni_avx2);   /* sm4-gfni-avx2.c */
SM4_X86_ENTRY_POINTS(gfni_avx512); /* sm4-gfni-avx512.c */

#endif
