/* SPDX-License-Identifier: MIT */
/*
 * x86-64 POLYVAL cores (carry-less multiplication), glue
 * polyval-x86-glue.c:
 *   polyval_blocks_pclmul        polyval-pclmul.c          PCLMULQDQ, SSSE3; 8 blocks a step
 *   polyval_blocks_vpclmul_avx2  polyval-vpclmul-avx2.c    VPCLMULQDQ, AVX2; 16 blocks
 *   polyval_blocks_vpclmul_avx512 polyval-vpclmul-avx512.c VPCLMULQDQ, AVX-512F; 16 blocks
 *
 * The entry points take the hash state (struct polyval_state,
 * crypto/polyval/polyval.h) with the signatures the drivers need, so the
 * glue lists them in its tables as they are:
 *  - polyval_blocks_<isa> is a polyval_blocks_fn: st->acc, POLYVAL's
 *    accumulator (128-bit little-endian halves), updated by nblocks
 *    (>= 0) blocks of src, each byte-reversed first when st->ghash.
 *    st->key.powers[16 - k] = H^k in POLYVAL's sense (H^1 = H, H^(k+1) =
 *    dot(H^k, H)), 16 bytes little-endian each: a step of n blocks
 *    multiplies block j by H^(n - j), so the powers it needs are
 *    contiguous. Single blocks use powers[15] (H) only, which is how
 *    polyval_key_powers computes the other powers;
 *  - polyval_setkey_<isa> and ghash_setkey_<isa> are the hash_alg
 *    setkeys of the core's polyval and ghash drivers
 *    (polyval_setkey_state over the core's blocks and polyval_key_powers).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_POLYVAL_X86_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/polyval/polyval.h"

#define POLYVAL_X86_ENTRY_POINTS(isa)                                        \
	void polyval_blocks_##isa(struct polyval_state *st,                  \
				  const uint8_t *src, size_t nblocks);       \
	int polyval_setkey_##isa(void *state, const uint8_t *key,            \
				 size_t keylen);                             \
	int ghash_setkey_##isa(void *state, const uint8_t *key, size_t keylen)

POLYVAL_X86_ENTRY_POINTS(pclmul);
POLYVAL_X86_ENTRY_POINTS(vpclmul_avx2);
POLYVAL_X86_ENTRY_POINTS(vpclmul_avx512);

#endif
