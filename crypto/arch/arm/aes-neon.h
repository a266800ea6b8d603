/* SPDX-License-Identifier: MIT */
/*
 * Single-block NEON AES core (aes-neon-core.c) for AArch64 and ARMv7
 * AArch32 without the Crypto Extensions: SubBytes by table lookups
 * within registers (TBL/TBX, VTBL/VTBX), so no load depends on a secret.
 * Used only through aes-neon-glue.c, on CPUs with NEON.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_NEON_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_NEON_H

#define AES_NEON_MAX_ROUNDS 14
/* offset of struct aes_neon_key's rounds, for the ARMv7 assembly */
#define AES_NEON_ROUNDS_OFFSET 240

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

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

/* aes-neon-core.c: the S-boxes and ShiftRows shuffles both cores use */
extern const uint8_t aes_neon_sbox[256], aes_neon_inv_sbox[256];
extern const uint8_t aes_neon_shift_rows_idx[16];
extern const uint8_t aes_neon_inv_shift_rows_idx[16];

_Static_assert(offsetof(struct aes_neon_key, rounds) == AES_NEON_ROUNDS_OFFSET,
	       "the assembly's offset of rounds");

#endif

#endif
