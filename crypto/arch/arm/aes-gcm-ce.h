/* SPDX-License-Identifier: MIT */
/*
 * The fused AES-GCM core for the ARMv8 Crypto Extensions (AES + PMULL),
 * AArch64 and AArch32 (internal; core aes-gcm-ce-core.c, glue
 * aes-gcm-ce-glue.c). One pass over the data: counter-mode AES of 8
 * blocks (AESE/AESMC, the blocks interleaved round by round) and GHASH
 * of 8 ciphertext blocks (the ones just made when encrypting, the ones
 * read when decrypting) times H^8 .. H^1 with one reduction per step.
 * Contract, as the x86 cores' (../x86/aes-gcm-x86.h):
 *  - aes is a key schedule of aes_ce_setkey (aes-ce.h);
 *  - st is a GHASH state keyed by ghash_setkey_pmull (polyval-arm.h)
 *    with H = E_K(0^128); only its powers of H are read; keys made
 *    from it by aes_gcm_ce_step_keys;
 *  - ghash gets GHASH(H, A | pad16 | C | pad16 | be64(8 |A|) |
 *    be64(8 |C|)), the tag before its mask E_K(J0);
 *  - ctr is the counter block of the first byte (J0 + 1), big-endian;
 *    GCM's inc32 on its last 32 bits (the caller keeps to 2^32 - 2 blocks);
 *  - any aadlen and len; dst == src allowed, partial overlap not.
 * Constant time: AES and carry-less multiply instructions, XOR, fixed
 * permutations; branches and copies depend on the lengths only.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_GCM_CE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_GCM_CE_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/arch/arm/aes-ce.h"
#include "crypto/polyval/polyval.h"

/*
 * The powers of the whole steps as the loop loads them: H^(8 - j) with
 * its 64-bit halves swapped, and the XOR of its halves (Karatsuba)
 */
struct aes_gcm_ce_keys {
	uint8_t h[8][16];
	uint64_t hk[8];
};

/* keys from st (keyed, as below); at setkey */
void aes_gcm_ce_step_keys(struct aes_gcm_ce_keys *keys,
			  const struct polyval_state *st);

void aes_gcm_crypt_ce(const struct aes_ce_ctx *aes,
		      const struct polyval_state *st,
		      const struct aes_gcm_ce_keys *keys, const uint8_t *aad,
		      size_t aadlen, uint8_t *dst, const uint8_t *src,
		      size_t len, const uint8_t ctr[16], int enc,
		      uint8_t ghash[16]);

#endif
