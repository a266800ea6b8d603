/* SPDX-License-Identifier: MIT */
/*
 * The NEON NH core (nh-neon-core-arm64.S, nh-neon-core-arm32.S),
 * AArch64 and ARMv7 AArch32, internal; the glue is
 * nhpoly1305-neon-glue.c. nh_neon is an nh_fn
 * (crypto/nhpoly1305/nh.h): the same contract and result as nh_generic
 * (len a nonzero multiple of 16, at most 1024; key 268 host-order words,
 * of which it reads no more than nh_generic does; message unaligned).
 *
 * Each 16-byte unit m and pass p take the key words k = key[4 (i + p) ..]
 * as one vector t = m + k (four 32-bit lanes), and one VMLAL/UMLAL
 * multiplies lanes 0, 1 by lanes 2, 3 into the pass's two 64-bit sums:
 * 2 instructions a pass. On ARMv7 the halves of t are registers of their
 * own; on AArch64, where UMLAL takes low halves and UMLAL2 high ones, two
 * units go together, loaded de-interleaved by 64-bit halves (LD4 of four
 * units: first halves of units 0 and 2 in one vector, second halves in
 * another, units 1 and 3 likewise; the key the same way), so that one
 * UMLAL and one UMLAL2 serve two units.
 * Constant time: 32-bit additions and 32x32->64 multiply-adds only.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_NH_NEON_H
#define CLOAKFS_CRYPTO_ARCH_ARM_NH_NEON_H

#include <stddef.h>
#include <stdint.h>

void nh_neon(const uint32_t *key, const uint8_t *msg, size_t len,
	     uint8_t hash[32]);

#endif
