/* SPDX-License-Identifier: MIT */
/*
 * ARM SHA-512 block functions, glue sha512-arm-glue.c:
 *   sha512_blocks_ce    sha512-ce-core.S  AArch64, FEAT_SHA512
 *   sha512_blocks_neon  sha512-neon-core.S  ARMv7 AArch32 NEON
 *   sha512_blocks_arm64 sha512-arm64-core.S  AArch64, any
 * nblocks > 0 whole 128-byte blocks into the chaining value h: the
 * sha512_blocks_fn of crypto/sha512/sha512.h. Each core reads FIPS
 * 180-4's round constants from sha512_k (crypto/sha512/sha512-generic.c,
 * the one copy), addressed PC-relative: the crypto library is linked
 * statically into every program, so the link resolves the address and
 * no relocation is left for run time.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_SHA512_ARM_H
#define CLOAKFS_CRYPTO_ARCH_ARM_SHA512_ARM_H

#include <stddef.h>
#include <stdint.h>

void sha512_blocks_ce(uint64_t h[8], const uint8_t *data, size_t nblocks);
void sha512_blocks_arm64(uint64_t h[8], const uint8_t *data, size_t nblocks);
void sha512_blocks_neon(uint64_t h[8], const uint8_t *data, size_t nblocks);

#endif
