/* SPDX-License-Identifier: MIT */
/*
 * Bitsliced NEON AES cores (aes-neonbs-core.c): eight blocks per pass in
 * constant time, for AArch64 and for ARMv7 AArch32 with NEON. Used only
 * through aes-neonbs-glue.c, which builds the key and calls
 * these on CPUs with NEON.
 *
 * Every entry point: nbytes is a nonzero multiple of AES_NEONBS_CHUNK;
 * dst == src (in place) is fine, partial overlap is not; buffers may be
 * unaligned. Chaining values are updated in place so C can continue:
 * the XTS tweak (already encrypted with K2) is multiplied by x once per
 * block, the CBC/CFB iv becomes the last ciphertext block, the CTR
 * counter (big-endian, 128 bits) is advanced by one per block.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_AES_NEONBS_CORE_H
#define CLOAKFS_CRYPTO_ARCH_ARM_AES_NEONBS_CORE_H

#include <stddef.h>
#include <stdint.h>

#define AES_NEONBS_CHUNK 128 /* eight 16-byte blocks */
#define AES_NEONBS_MAX_ROUNDS 14

/*
 * Round keys in the bitsliced layout of the cores: rk[r][b][m] is 0xff
 * when bit b of byte m of round key r is set, else 0 (the same bit for
 * all eight blocks). For r >= 1 the key is XORed with 0x63 in every byte:
 * the cores' S-box circuits leave out that constant (see the .c file).
 */
struct aes_neonbs_key {
	uint8_t rk[AES_NEONBS_MAX_ROUNDS + 1][8][16];
	unsigned int rounds; /* 10, 12 or 14 */
};

void aes_ecb_encrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes);
void aes_ecb_decrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes);
void aes_xts_encrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *tweak);
void aes_xts_decrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *tweak);
void aes_cbc_decrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *iv);
void aes_cfb_decrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *iv);
void aes_ctr_crypt_neonbs(const void *key, uint8_t *dst,
			  const uint8_t *src, size_t nbytes, uint8_t *ctr);

#endif
