/* SPDX-License-Identifier: MIT */
/*
 * ARM POLYVAL core (AArch64 PMULL and AArch32 VMULL.P64), glue
 * polyval-arm-glue.c, core polyval-pmull.c. Entry
 * points and contract as crypto/arch/x86/polyval-x86.h's (the hash state;
 * st->key.powers[16 - k] = H^k, st->ghash byte-reverses the blocks).
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_POLYVAL_ARM_H
#define CLOAKFS_CRYPTO_ARCH_ARM_POLYVAL_ARM_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/polyval/polyval.h"

void polyval_blocks_pmull(struct polyval_state *st, const uint8_t *src,
			  size_t nblocks);
int polyval_setkey_pmull(void *state, const uint8_t *key, size_t keylen);
int ghash_setkey_pmull(void *state, const uint8_t *key, size_t keylen);

#endif
