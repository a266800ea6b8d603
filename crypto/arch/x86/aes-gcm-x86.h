/* SPDX-License-Identifier: MIT */
/*
 * x86-64 fused GCM cores (internal; glue aes-gcm-x86-glue.c):
 *   aes_gcm_crypt_vaes_avx512   aes-gcm-vaes-avx512.c   VAES + VPCLMULQDQ
 *                               on zmm, AVX-512F/BW/VL; 16 blocks a step
 *   aes_gcm_crypt_vaes_avx2     aes-gcm-vaes-avx2.c     VAES + VPCLMULQDQ
 *                               on ymm, AVX2; 16 blocks a step
 *   aes_gcm_crypt_aesni_pclmul  aes-gcm-aesni-pclmul.c  AES-NI + PCLMULQDQ
 *                               on xmm, SSE4.1; 16 blocks a step
 *
 * One pass over the data: counter-mode AES of 16 blocks and GHASH of 16
 * ciphertext blocks (the ones just made when encrypting, the ones read
 * when decrypting) per step, one reduction per step. Contract:
 *  - aes is the key schedule of aes_x86_setkey (aes-x86.h);
 *  - st is a GHASH state keyed by the ghash_setkey_* of the same ISA
 *    (polyval-x86.h: vpclmul_avx512, vpclmul_avx2, pclmul) with
 *    H = E_K(0^128); only its powers of H are read;
 *  - ghash gets GHASH(H, A | pad16 | C | pad16 | be64(8 |A|) |
 *    be64(8 |C|)), the tag before its mask E_K(J0);
 *  - ctr is the counter block of the first byte (J0 + 1), big-endian;
 *    GCM's inc32 on its low 32 bits (the caller keeps to 2^32 - 2 blocks);
 *  - any aadlen and len; dst == src allowed, partial overlap not.
 * Constant time: AES, carry-less multiplies, XOR, fixed shuffles and
 * masks computed from the public length only. The cores may spill round
 * keys, powers of H and keystream to their stack frames (the xmm one up
 * to about 2.6 KiB) and do not wipe them: as for every SIMD driver, the
 * volume layer calls secmem_scrub_stack() after each batch of keyed work
 * (docs/security.md), zeroing the vector registers and 16 KiB of stack.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_AES_GCM_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_AES_GCM_X86_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/arch/x86/aes-x86.h"
#include "crypto/polyval/polyval.h"

#define AES_GCM_X86_DECLARE(isa)                                               \
	void aes_gcm_crypt_##isa(const struct aes_x86_ctx *aes,                \
				 const struct polyval_state *st,               \
				 const uint8_t *aad, size_t aadlen,            \
				 uint8_t *dst, const uint8_t *src, size_t len, \
				 const uint8_t ctr[16], int enc,               \
				 uint8_t ghash[16])

AES_GCM_X86_DECLARE(vaes_avx512);
AES_GCM_X86_DECLARE(vaes_avx2);
AES_GCM_X86_DECLARE(aesni_pclmul);

#endif
