/* SPDX-License-Identifier: MIT */
/*
 * SM4 internals shared by the two portable drivers, the vectors and the
 * tests. SM4 is GB/T 32907-2016 (also ISO/IEC 18033-3:2010/Amd 1:2021,
 * draft-ribose-cfrg-sm4): 128-bit blocks, 128-bit keys, 32 rounds of
 *     X[i+4] = X[i] ^ L(tau(X[i+1] ^ X[i+2] ^ X[i+3] ^ rk[i]))
 * over big-endian 32-bit words; tau is the S-box on each byte,
 * L(B) = B ^ (B <<< 2) ^ (B <<< 10) ^ (B <<< 18) ^ (B <<< 24).
 * The key schedule uses the same shape with L'(B) = B ^ (B <<< 13) ^
 * (B <<< 23), the constants FK and CK[i] (bytes (4i + j) * 7 mod 256).
 */
#ifndef CLOAKFS_CRYPTO_SM4_SM4_INTERNAL_H
#define CLOAKFS_CRYPTO_SM4_SM4_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"

#define SM4_BLOCK_SIZE 16
#define SM4_KEY_SIZE 16
#define SM4_ROUNDS 32

struct crypto_registry;

/*
 * GB/T 32907-2016 S-box (sm4-sbox.c): variable-time users, and the NEON
 * core, which loads it whole into registers (crypto/arch/arm/sm4-neon-core.S)
 */
extern const uint8_t sm4_sbox[256];

/* the cipher tables of the drivers: bitsliced constant-time, T-table */
extern const struct cipher_alg sm4_generic_cipher;
extern const struct cipher_alg sm4_table_cipher;

/*
 * The entry points every SIMD core has (crypto/arch/x86/sm4-x86.h,
 * crypto/arch/arm/sm4-arm64.h): the cipher_alg and crypto_bulk_ops members over
 * the core's context, under the names sm4_<op>_<isa>
 */
#define SM4_CORE_ENTRY_POINTS(isa)                                             \
	void sm4_encrypt_##isa(const void *ctx, uint8_t *dst,                  \
			       const uint8_t *src);                            \
	void sm4_decrypt_##isa(const void *ctx, uint8_t *dst,                  \
			       const uint8_t *src);                            \
	void sm4_encrypt_blocks_##isa(const void *ctx, uint8_t *dst,           \
				      const uint8_t *src, size_t n);           \
	void sm4_decrypt_blocks_##isa(const void *ctx, uint8_t *dst,           \
				      const uint8_t *src, size_t n);           \
	void sm4_ecb_encrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes);         \
	void sm4_ecb_decrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes);         \
	void sm4_xts_encrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes,          \
				   uint8_t *tweak);                            \
	void sm4_xts_decrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes,          \
				   uint8_t *tweak);                            \
	void sm4_cbc_decrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes,          \
				   uint8_t *iv);                               \
	void sm4_cfb_decrypt_##isa(const void *ctx, uint8_t *dst,              \
				   const uint8_t *src, size_t nbytes,          \
				   uint8_t *iv);                               \
	void sm4_ctr_crypt_##isa(const void *ctx, uint8_t *dst,                \
				 const uint8_t *src, size_t nbytes,            \
				 uint8_t *ctr)

/* known-answer vectors of sm4 and its modes (sm4-testvecs.c) */
int sm4_register_testvecs(struct crypto_registry *reg);

/* system parameter FK (GB/T 32907-2016, 7.3) */
static inline uint32_t sm4_fk(unsigned int i)
{
	static const uint32_t fk[4] = {
		0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc,
	};

	return fk[i];
}

/* fixed parameter CK[i]: byte j is (4i + j) * 7 mod 256 (7.3) */
static inline uint32_t sm4_ck(unsigned int i)
{
	uint32_t ck = 0;

	for (unsigned int j = 0; j < 4; j++)
		ck = ck << 8 | (uint8_t)((4 * i + j) * 7);
	return ck;
}

/* round-function linear map L */
static inline uint32_t sm4_l(uint32_t b)
{
	return b ^ rol32(b, 2) ^ rol32(b, 10) ^ rol32(b, 18) ^ rol32(b, 24);
}

/* key-schedule linear map L' */
static inline uint32_t sm4_l_key(uint32_t b)
{
	return b ^ rol32(b, 13) ^ rol32(b, 23);
}

/*
 * GB/T 32907-2016 7.3: the round keys of key in the order encryption
 * applies them, tau being the S-box on each byte of a word (each driver
 * passes its own: a gate circuit, a table, a SIMD core's S-box)
 */
static inline void sm4_expand_key(const uint8_t *key, uint32_t (*tau)(uint32_t),
				  uint32_t rk[SM4_ROUNDS])
{
	uint32_t k[4];

	for (unsigned int i = 0; i < 4; i++)
		k[i] = load_be32(key + 4 * i) ^ sm4_fk(i);
	for (unsigned int i = 0; i < SM4_ROUNDS; i++) {
		rk[i] = k[0] ^ sm4_l_key(tau(k[1] ^ k[2] ^ k[3] ^ sm4_ck(i)));
		k[0] = k[1];
		k[1] = k[2];
		k[2] = k[3];
		k[3] = rk[i];
	}
	explicit_bzero(k, sizeof(k));
}

#endif
