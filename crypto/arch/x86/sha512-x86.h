/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SHA-512 block functions (sha512_blocks_fn of
 * crypto/sha512/sha512.h), glue sha512-x86-glue.c:
 *   sha512_blocks_avx2  sha512-avx2-x86_64.S  AVX2 + BMI2
 *   sha512_blocks_ni    sha512-ni.c    SHA512 (VSHA512RNDS2), AVX2;
 *                       built only where the compiler has the intrinsics
 * nblocks > 0 whole 128-byte blocks; h is the chaining value.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_SHA512_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_SHA512_X86_H

#include <stddef.h>
#include <stdint.h>

void sha512_blocks_avx2(uint64_t h[8], const uint8_t *data, size_t nblocks);
void sha512_blocks_ni(uint64_t h[8], const uint8_t *data, size_t nblocks);

#endif
