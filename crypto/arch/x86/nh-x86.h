/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SIMD cores for NH (crypto/nhpoly1305/nh.h), internal; the glue
 * is nhpoly1305-x86-glue.c, the body nh-x86-core.h.
 *
 * Variants and the CPUs they are for:
 *   nh_sse2   SSE2 (every x86-64 CPU), 128-bit vectors: one 16-byte
 *             unit per step
 *   nh_avx2   AVX2 (Haswell and later, Zen 1 and later): two units per
 *             step, one per 128-bit lane
 *
 * Contract: nh_fn's (nh.h), the same result as nh_generic: key is the
 * 268-word NH key in host order (read up to 4 * (len / 16) + 12 words),
 * len a nonzero multiple of 16 and at most 1024, msg unaligned allowed;
 * hash = the four passes as le64. Constant time: 32-bit adds, 32x32->64
 * multiplies, 64-bit adds, fixed shuffles and shifts.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_NH_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_NH_X86_H

#include <stddef.h>
#include <stdint.h>

void nh_sse2(const uint32_t *key, const uint8_t *msg, size_t len,
	     uint8_t hash[32]);
void nh_avx2(const uint32_t *key, const uint8_t *msg, size_t len,
	     uint8_t hash[32]);

#endif
