/* SPDX-License-Identifier: MIT */
/*
 * ARM POLYVAL core (AArch64 PMULL and AArch32 VMULL.P64), glue
 * crypto/polyval/polyval-arm-glue.c: asm/arm/polyval-pmull.c. Contract as
 * asm/x86/polyval-x86.h (acc, powers[16 - k] = H^k, bswap for GHASH).
 */
#ifndef CLOAKFS_ASM_ARM_POLYVAL_ARM_H
#define CLOAKFS_ASM_ARM_POLYVAL_ARM_H

#include <stddef.h>
#include <stdint.h>

void polyval_blocks_pmull(uint64_t acc[2], const uint8_t powers[16][16],
			  const uint8_t *src, size_t nblocks, int bswap);

#endif
