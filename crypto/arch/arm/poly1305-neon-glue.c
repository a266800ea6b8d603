/* SPDX-License-Identifier: MIT */
/*
 * Glue for the NEON Poly1305 core (poly1305-neon-core.c,
 * poly1305-neon.h). See poly1305-neon-glue.h.
 *
 * The state is the generic block function's (poly1305_generic_core),
 * with the powers of r after it: the key, short runs, the tail of a run
 * (below a multiple of 4 blocks) and emit are the generic code's, and
 * only long runs move h into radix 2^26 for the core and back. The
 * powers r^1 .. r^4 come from the generic block function too (a zero
 * block without the pad bit turns h = r^k into r^(k+1)), on the first
 * long run: a one-time key on a short message never needs them.
 *
 * The core is built only when meson defines CLOAKFS_POLY1305_NEON_CORE
 * (ARM host, simd option on); otherwise this file registers nothing.
 */
#include "crypto/arch/arm/poly1305-neon-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_POLY1305_NEON_CORE) && (defined(__aarch64__) || defined(__arm__))

#include <string.h>

#include "crypto/arch/arm/poly1305-neon.h"
#include "crypto/chacha20poly1305/poly1305.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/util.h"

/*
 * Shortest run (in blocks) given to the core. A message's first long run
 * pays for the powers (four generic blocks and their conversions), every
 * run for the moves of h: below these the generic blocks cost fewer
 * instructions (bench/arm-insns.sh -a poly1305 -s SIZE, fresh key per
 * message as in the AEAD). AArch64's generic C, with 64-bit products,
 * is much closer to the core than ARMv7's.
 */
#if defined(__aarch64__)
#define POLY1305_NEON_MIN_BLOCKS 48
#else
#define POLY1305_NEON_MIN_BLOCKS 20
#endif

/*
 * Words of union poly1305_core_state.simd after the generic core's
 * (l44[8] or l26[14]): 1 once the powers are there, then the powers
 * (POLY1305_NEON_POWER_WORDS 32-bit words, as the core takes them).
 */
#define POWERS_READY 8
#define POWERS 10

_Static_assert(POWERS * 8 + POLY1305_NEON_POWER_WORDS * 4 <=
		       sizeof(union poly1305_core_state),
	       "the powers of r fit the core state");

static void neon_setkey(union poly1305_core_state *core, const uint8_t r[16])
{
	poly1305_generic_core.setkey(core, r);
	core->simd[POWERS_READY] = 0;
}

/* the core's table: r^(4 - j) in lane j, limbs then 5 x limbs 1..4 */
void poly1305_neon_powers(const union poly1305_core_state *keyed, uint32_t *pw)
{
	static const uint8_t zero[POLY1305_BLOCK_SIZE];
	static const uint32_t one[5] = { 1 };
	union poly1305_core_state t;
	uint32_t p[5];

	/* r in the generic layout: the words before POWERS_READY */
	memcpy(&t, keyed, POWERS_READY * sizeof(t.simd[0]));
	poly1305_generic_set26(&t, one);
	for (int k = 1; k <= 4; k++) {
		poly1305_generic_core.blocks(&t, zero, 1, 0); /* h = r^k */
		poly1305_generic_get26(&t, p);
		for (int i = 0; i < 5; i++)
			pw[4 * i + 4 - k] = p[i];
		for (int i = 1; i < 5; i++)
			pw[4 * (4 + i) + 4 - k] = 5 * p[i];
	}
	wipe(&t, POWERS_READY * sizeof(t.simd[0]));
	wipe(p, sizeof(p));
}

static void neon_powers(union poly1305_core_state *core)
{
	uint32_t pw[POLY1305_NEON_POWER_WORDS];

	poly1305_neon_powers(core, pw);
	memcpy(&core->simd[POWERS], pw, sizeof(pw));
	core->simd[POWERS_READY] = 1;
	wipe(pw, sizeof(pw));
}

void poly1305_neon_run(union poly1305_core_state *core, const void *pw,
		       const uint8_t *src, size_t nblocks, uint32_t padbit)
{
	uint32_t h[5];

	poly1305_generic_get26(core, h);
	poly1305_blocks_neon(h, pw, src, nblocks, padbit);
	poly1305_generic_set26(core, h);
	wipe(h, sizeof(h));
}

static void neon_blocks(union poly1305_core_state *core, const uint8_t *src,
			size_t nblocks, uint32_t padbit)
{
	if (nblocks >= POLY1305_NEON_MIN_BLOCKS) {
		size_t n = nblocks & ~(size_t)3;

		if (!core->simd[POWERS_READY])
			neon_powers(core);
		poly1305_neon_run(core, &core->simd[POWERS], src, n, padbit);
		src += n * POLY1305_BLOCK_SIZE;
		nblocks -= n;
	}
	if (nblocks)
		poly1305_generic_core.blocks(core, src, nblocks, padbit);
}

/* h is the generic core's between calls: its reduction applies */
static void neon_emit(const union poly1305_core_state *core, uint8_t out[16])
{
	poly1305_generic_core.emit(core, out);
}

static const struct poly1305_core_ops poly1305_neon_core = {
	.setkey = neon_setkey,
	.blocks = neon_blocks,
	.emit = neon_emit,
};

static int poly1305_neon_setkey(void *state, const uint8_t *key, size_t keylen)
{
	return poly1305_hash_setkey(state, key, keylen, &poly1305_neon_core);
}

static const struct hash_alg poly1305_neon_alg =
	POLY1305_HASH_ALG(poly1305_neon_setkey);

/* as chacha20-neon, the NEON ChaCha of the same AEADs */
static const struct crypto_driver poly1305_neon_driver = {
	.alg_name = "poly1305", .driver_name = "poly1305-neon",
	.priority = 300, .features = CPU_FEAT_NEON,
	.flags = CRYPTO_F_CONST_TIME, .type = CRYPTO_TYPE_HASH,
	.u.hash = &poly1305_neon_alg,
};

int poly1305_neon_register(struct crypto_registry *reg)
{
	return crypto_register_driver(reg, &poly1305_neon_driver);
}

#else /* no NEON core in this build */

int poly1305_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
