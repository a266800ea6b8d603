/* SPDX-License-Identifier: MIT */
/*
 * Single-block NEON AES core (aes-neon-core.c) for AArch64 and ARMv7
 * AArch32 without the Crypto Extensions: SubBytes by table lookups
 * within registers (TBL/TBX, VTBL/VTBX), so no load depends on a secret.
 * Used only through aes-neon-glue.c, on CPUs with NEON.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_NEON_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_NEON_H

#include <stdint.h>

#define AES_NEON_MAX_ROUNDS 14

/* the FIPS-197 round keys, byte for byte as they are XORed in */
struct aes_neon_key {
	uint8_t rk[AES_NEON_MAX_ROUNDS + 1][16];
	unsigned int rounds; /* 10, 12 or 14 */
};

/*
 * One 16-byte block under key (a struct aes_neon_key: the cipher_alg
 * signature, so the glue lists these directly); dst == src is fine,
 * buffers may be unaligned.
 */
void aes_neon_encrypt_block(const void *key, uint8_t *dst, const uint8_t *src);
void aes_neon_decrypt_block(const void *key, uint8_t *dst, const uint8_t *src);

#endif
