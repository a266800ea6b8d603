/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 SIMD drivers of this folder (cores in chacha20-* and
 * poly1305-*):
 *   alg "chacha20":  chacha20-ssse3 (300), chacha20-avx2 (600),
 *                    chacha20-avx512 (800)
 *   algs "chacha12", "xchacha12", "xchacha20": chacha12-ssse3 and so on,
 *                    the same cores and priorities with their round
 *                    count (12 or 20) and IV (chacha.h)
 *   alg "poly1305":  poly1305-avx2 (600), poly1305-avx512ifma (800)
 *                    (poly1305-x86-glue.h)
 *   alg "rfc7539(chacha20,poly1305)": the rfc7539 template over them,
 *                    rfc7539-chacha20-poly1305-avx2 (600) and
 *                    rfc7539-chacha20-poly1305-avx512 (800, needs AVX-512
 *                    IFMA for its Poly1305)
 * They register on x86-64 builds with the cores (meson option simd; the
 * registry hides those whose CPU features are missing), else not at all.
 * The vectors are the generic drivers' (chacha20poly1305.h, poly1305.h,
 * chacha.h), registered by them.
 */
#ifndef CLOAKFS_CRYPTO_CHACHA20POLY1305_X86_GLUE_H
#define CLOAKFS_CRYPTO_CHACHA20POLY1305_X86_GLUE_H

#include <stddef.h>
#include <stdint.h>

struct crypto_registry;

/*
 * The registrars crypto/drivers.c lists, each one table; 0 or -errno
 * (crypto/internal/registry.h): the twelve ChaCha drivers
 * (chacha20-x86-glue.c), the two AEAD instances
 * (chacha20poly1305-x86-glue.c), after the chacha20 and poly1305
 * drivers they are built over.
 */
int chacha20_x86_register(struct crypto_registry *reg);
int chacha20poly1305_x86_register(struct crypto_registry *reg);

/* a core's whole-message function: see chacha20-x86.h */
typedef void chacha20_xor_fn(uint32_t state[16], uint8_t *dst,
			     const uint8_t *src, size_t len);

#endif
