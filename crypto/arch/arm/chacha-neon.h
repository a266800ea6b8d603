/* SPDX-License-Identifier: MIT */
/*
 * The NEON ChaCha core (chacha-neon-core.c with its 4-block pass in
 * chacha-neon-core-arm64.S, -arm32.S), AArch64 and ARMv7 AArch32,
 * internal; the glue is chacha-neon-glue.c. One core for every round
 * count of the ChaCha family (ChaCha20, ChaCha12, ChaCha8): the rounds
 * are a parameter, not a copy of the core.
 *
 * Contract (the same as chacha20_crypt() in
 * crypto/chacha20poly1305/chacha20.h, with the round count added):
 *  - state is the 16-word ChaCha matrix; dst = src ^ keystream of
 *    nrounds rounds (a multiple of 4: 20, 12 or 8, as the 4-block
 *    assembly needs) from state[12]'s block on, and
 *    state[12] advances by one per 64-byte block started, modulo 2^32
 *    (the nonce words never change);
 *  - any len (0 included); dst == src is allowed, partial overlap is not;
 *    no alignment needed. A partial group goes through a stack copy that
 *    is wiped afterwards.
 * Constant time: 32-bit add, rotate, xor and fixed permutations only.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_ARM_CHACHA_NEON_H
#define CLOAKFS_CRYPTO_ARCH_ARM_CHACHA_NEON_H

#include <stddef.h>
#include <stdint.h>

void chacha_neon_xor(uint32_t state[16], uint8_t *dst, const uint8_t *src,
		     size_t len, unsigned int nrounds);

struct chacha20_key;

/*
 * HChaCha<nrounds> (nrounds even) of key and the 16-byte nonce, one block
 * in rows: the subkey XChaCha derives once a message (chacha.h's
 * hchacha_fn; the same as hchacha_generic).
 */
void chacha_neon_hchacha(uint8_t out[32], const struct chacha20_key *key,
			 const uint8_t nonce[16], unsigned int nrounds);

/* the bytes of the core's widest pass (4 blocks, one per 32-bit lane) */
#define CHACHA_NEON_GROUP_BYTES 256

#endif
