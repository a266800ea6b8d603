/* SPDX-License-Identifier: MIT */
/*
 * NHPoly1305, Adiantum's hash of the bulk of a message (Crowley and
 * Biggers, ToSC 2018(4), section 6.3; the kernel's crypto/nhpoly1305.c
 * layout): the "nhpoly1305" keyed hash.
 *
 *   key (1088 bytes) = K_M (16, a Poly1305 r, clamped) || K_N (1072, NH);
 *   the message, zero-padded to a multiple of 16 bytes, is cut into
 *   1024-byte chunks (the last may be shorter); each chunk's NH hash
 *   (32 bytes, nh.h) is two 16-byte Poly1305 blocks; the digest is the
 *   Poly1305 accumulator over all of them (each block + 2^128, times
 *   r, mod 2^130 - 5), fully reduced, low 128 bits, little-endian:
 *   no "+ s" (Adiantum adds its own terms). An empty message hashes to
 *   zero.
 *
 * The state keeps the key and its NH function, so init (and final)
 * start another message under the same key, as polyval's; a state is
 * ~1.2 KiB and its owner wipes it.
 */
#ifndef CLOAKFS_CRYPTO_NHPOLY1305_H
#define CLOAKFS_CRYPTO_NHPOLY1305_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/chacha20poly1305/poly1305.h"
#include "crypto/nhpoly1305/nh.h"
#include "crypto/internal/registry.h"

#define NHPOLY1305_ALG_NAME "nhpoly1305"
#define NHPOLY1305_KEY_SIZE (POLY1305_BLOCK_SIZE + NH_KEY_BYTES) /* 1088 */
#define NHPOLY1305_DIGEST_SIZE 16

#define NHPOLY1305_POLY_PW_WORDS 36

struct nhpoly1305_state;

/*
 * A driver's Poly1305 for nhpoly1305_digest's runs of NH sums: nblocks
 * blocks (pad bit 1) into the generic-layout state poly, with what the
 * driver's setkey left in ks->poly_pw
 */
typedef void nhpoly1305_poly_fn(const struct nhpoly1305_state *ks,
				union poly1305_core_state *poly,
				const uint8_t *src, size_t nblocks);

struct nhpoly1305_state {
	_Alignas(16) union poly1305_core_state poly;
	uint32_t nh_key[NH_KEY_WORDS]; /* host order */
	nh_fn *nh;
	nhpoly1305_poly_fn *poly_blocks; /* NULL: the generic block function */
	uint32_t poly_pw[NHPOLY1305_POLY_PW_WORDS]; /* poly_blocks' key data */
	uint8_t r[POLY1305_BLOCK_SIZE]; /* K_M, to restart the accumulator */
	uint64_t nh_sum[NH_NUM_PASSES]; /* the current chunk's NH so far */
	size_t chunk_pos;               /* bytes of the current chunk hashed */
	uint8_t buf[NH_MESSAGE_UNIT];   /* a partial unit */
	size_t buflen;
};

/* setkey of a driver whose NH is nh: 0, or -EINVAL for a wrong length */
int nhpoly1305_setkey(void *state, const uint8_t *key, size_t keylen, nh_fn *nh);
void nhpoly1305_init(void *state);
void nhpoly1305_update(void *state, const uint8_t *data, size_t len);
void nhpoly1305_final(void *state, uint8_t *out);

/*
 * The digest of one whole message under the keyed state ks, which is not
 * changed (so callers may share it): what init, update(msg), final give,
 * without copying the state. For the adiantum template, which hashes
 * twice per message under one key.
 */
void nhpoly1305_digest(const struct nhpoly1305_state *ks, const uint8_t *msg,
		       size_t len, uint8_t out[NHPOLY1305_DIGEST_SIZE]);

/* the hash_alg of an "nhpoly1305" driver whose setkey is setkeyfn */
#define NHPOLY1305_HASH_ALG(setkeyfn)                                        \
	{                                                                    \
		.digestsize = NHPOLY1305_DIGEST_SIZE,                        \
		.blocksize = NH_MESSAGE_UNIT,                                \
		.statesize = sizeof(struct nhpoly1305_state),                \
		.keysizes = { NHPOLY1305_KEY_SIZE },                         \
		.setkey = setkeyfn,                                          \
		.init = nhpoly1305_init,                                     \
		.update = nhpoly1305_update,                                 \
		.final = nhpoly1305_final,                                   \
	}

/*
 * One line per driver: the static setkey, hash_alg and crypto_driver
 * `ident` of driver drvname ("nhpoly1305-avx2") over nhfn, at priority
 * prio, needing CPU features feats (CPU_FEAT_* bits). Register it with
 * crypto_register_driver(reg, &ident).
 */
#define DEFINE_NHPOLY1305_DRIVER(ident, drvname, prio, feats, nhfn)         \
	static int ident##_setkey(void *state, const uint8_t *key,           \
				  size_t keylen)                             \
	{                                                                    \
		return nhpoly1305_setkey(state, key, keylen, nhfn);          \
	}                                                                    \
	static const struct hash_alg ident##_alg =                           \
		NHPOLY1305_HASH_ALG(ident##_setkey);                         \
	static const struct crypto_driver ident = {                          \
		.alg_name = NHPOLY1305_ALG_NAME,                             \
		.driver_name = drvname,                                      \
		.priority = prio,                                            \
		.features = feats,                                           \
		.flags = CRYPTO_F_CONST_TIME,                                \
		.type = CRYPTO_TYPE_HASH,                                    \
		.u.hash = &ident##_alg,                                      \
	}

/* "nhpoly1305-generic" and the reference's NHPoly1305 vectors */
int nhpoly1305_generic_register(struct crypto_registry *reg);
int nhpoly1305_register_testvecs(struct crypto_registry *reg);

#endif
