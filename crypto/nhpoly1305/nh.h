/* SPDX-License-Identifier: MIT */
/*
 * NH, the ε-almost-∆-universal hash at the heart of Adiantum's
 * NHPoly1305 (Crowley and Biggers, "Adiantum: length-preserving
 * encryption for entry-level processors", ToSC 2018(4), section 6.3;
 * from UMAC's NH, with 4 passes, 32-bit words and stride 2).
 *
 * For a message of 16-byte units m (little-endian 32-bit words) and the
 * 268-word key k, pass p (0-3) is
 *     sum over units i, j = 0, 1 of
 *         (u32)(m[4i+j] + k[4i+j+4p]) * (u32)(m[4i+j+2] + k[4i+j+2+4p])
 * modulo 2^64, and the hash is the four passes as le64, 32 bytes.
 *
 * This is the interface a SIMD NH replaces: an nh_fn takes the key as
 * host-order 32-bit words (nhpoly1305.h keeps them so), a message that
 * is a nonzero multiple of 16 bytes and at most 1024 (the NHPoly1305
 * chunk), and writes the 32-byte hash; the message may be unaligned.
 * A driver registers "nhpoly1305-<isa>" with DEFINE_NHPOLY1305_DRIVER
 * (nhpoly1305.h) over its nh_fn.
 */
#ifndef CLOAKFS_CRYPTO_NH_H
#define CLOAKFS_CRYPTO_NH_H

#include <stddef.h>
#include <stdint.h>

#define NH_MESSAGE_UNIT 16     /* bytes */
#define NH_MESSAGE_BYTES 1024  /* the longest message, one NHPoly1305 chunk */
#define NH_NUM_PASSES 4
#define NH_HASH_BYTES 32       /* 4 x le64 */
#define NH_KEY_WORDS 268       /* (1024 + 3 * 16) / 4 */
#define NH_KEY_BYTES (NH_KEY_WORDS * 4) /* 1072 */

/* len: a nonzero multiple of NH_MESSAGE_UNIT, at most NH_MESSAGE_BYTES */
typedef void nh_fn(const uint32_t *key, const uint8_t *msg, size_t len,
		   uint8_t hash[NH_HASH_BYTES]);

/* portable C, constant time (32x32->64 multiplies and additions only) */
void nh_generic(const uint32_t *key, const uint8_t *msg, size_t len,
		uint8_t hash[NH_HASH_BYTES]);

#endif
