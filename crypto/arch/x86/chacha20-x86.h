/* SPDX-License-Identifier: MIT */
/*
 * x86-64 SIMD cores for ChaCha20 (RFC 8439) and the other round counts
 * of the ChaCha family (ChaCha12 for XChaCha12 and Adiantum), internal;
 * the glue is chacha20-x86-glue.c. The rounds are a parameter of each
 * core, not a copy of it.
 *
 * Variants and the CPUs they are for:
 *   *_ssse3   SSSE3 (Core 2 and later), 128-bit vectors: 8 blocks as two
 *             interleaved 4-block groups, 4 blocks, 1 block row-wise
 *   *_avx2    AVX2 (Haswell and later, Zen 1 and later): 16 blocks as two
 *             interleaved 8-block groups, 8 blocks, 2 blocks row-wise
 *   *_avx512  AVX-512F + VL (Skylake-SP, Ice Lake, Zen 4 and later): 32
 *             blocks as two 16-block groups in zmm (assembly), 16 blocks,
 *             4 row-wise in zmm and 2 row-wise in ymm for the tail
 *
 * Contract of every entry point (the same as chacha20_crypt() in
 * crypto/chacha20poly1305/chacha20.h, with the round count added):
 *  - state is the 16-word ChaCha matrix; dst = src ^ keystream of
 *    nrounds rounds (even and at least 2: 20, 12 or 8; the chacha20_*
 *    names: 20) from state[12]'s block on, and state[12] advances by one
 *    per 64-byte block started, modulo 2^32 (the nonce words never
 *    change);
 *  - any len (0 included); dst == src is allowed, partial overlap is not;
 *    no alignment needed. A partial last block goes through a stack copy
 *    that is wiped afterwards.
 * All run in constant time: 32-bit add, rotate, xor and fixed shuffles.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_CHACHA20_X86_H
#define CLOAKFS_CRYPTO_ARCH_X86_CHACHA20_X86_H

#include <stddef.h>
#include <stdint.h>

struct chacha20_key;
struct crypto_tfm;

#define CHACHA20_ROUNDS 20

/*
 * The whole-message functions, on a ChaCha state (the skcipher entry
 * points are in the glue):
 */
void chacha_xor_ssse3(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		      size_t len, unsigned int nrounds);
void chacha_xor_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		     size_t len, unsigned int nrounds);
void chacha_xor_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		       size_t len, unsigned int nrounds);

/*
 * They with 20 rounds, the AEAD's chacha20_xor_fn (on its state, which
 * goes on from block 1 after its block 0):
 */
void chacha20_xor_ssse3(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t len);
void chacha20_xor_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		       size_t len);
void chacha20_xor_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			 size_t len);

/*
 * Block 0 of an AEAD message with its data (AVX2): block0 = the keystream
 * of block state[12], then chacha20_xor_avx2 from the next block on
 * (state[12] advances by 1 + len / 64 rounded up). From 1 KiB on block0
 * shares the pass of the first 16 data blocks (in scalar registers, on
 * the integer ALUs the vector rounds leave idle); below, it comes from a
 * two-block pass whose second block is dropped (wiped).
 */
void chacha20_xor_block0_avx2(uint32_t state[16], uint8_t block0[64],
			      uint8_t *dst, const uint8_t *src, size_t len);

/*
 * The same with AVX-512F + VL: from 1 KiB on block0 shares the pass of
 * the first 16 data blocks (16-block vertical pass, block 0 in scalar
 * registers); below, it comes from a two-block row-wise pass.
 */
void chacha20_xor_block0_avx512(uint32_t state[16], uint8_t block0[64],
				uint8_t *dst, const uint8_t *src, size_t len);

/*
 * HChaCha with nrounds rounds (even: 20 for XChaCha20, 12 for XChaCha12
 * and Adiantum), chacha.h's hchacha_fn: the same output as
 * hchacha_generic. One block, its rows in xmm registers: SSSE3 (byte
 * shuffles for the rotations by 16 and 8), and AVX-512F + VL (VPROLD and
 * the shorter chain of the row-wise passes in chacha20-avx512.c). The
 * subkey's words stay in xmm registers the caller cannot wipe; they are
 * overwritten by the next vector code.
 */
void hchacha_ssse3(uint8_t out[32], const struct chacha20_key *key,
		   const uint8_t nonce[16], unsigned int nrounds);
void hchacha_avx512(uint8_t out[32], const struct chacha20_key *key,
		    const uint8_t nonce[16], unsigned int nrounds);

/*
 * The 32-block core of chacha_xor_avx512 (chacha20-avx512-x86_64.S):
 * dst = src ^ 2 KiB of keystream of nrounds rounds from state[12]; state
 * is not changed.
 */
void chacha_32blocks_avx512(const uint32_t state[16], uint8_t *dst,
			    const uint8_t *src, unsigned int nrounds);

/*
 * The longest input a variant covers in a single pass of one core: a pass
 * is bound by the latency of the rounds, so up to this length it costs
 * about what one block costs (the AEAD puts block 0 and a message this
 * long minus 64 through one call).
 */
#define CHACHA20_SSSE3_ONEPASS_BYTES 256
#define CHACHA20_AVX2_ONEPASS_BYTES 512
#define CHACHA20_AVX512_ONEPASS_BYTES 1024

#endif
