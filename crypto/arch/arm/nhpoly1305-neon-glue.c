/* SPDX-License-Identifier: MIT */
/*
 * Glue for the NEON NH core (nh-neon-core-arm{64,32}.S, nh-neon.h): the
 * nhpoly1305-neon driver. See nhpoly1305-neon-glue.h. The core is built
 * only when meson defines CLOAKFS_NH_NEON_CORE (ARM host, simd option
 * on); otherwise this file registers nothing.
 */
#include "crypto/arch/arm/nhpoly1305-neon-glue.h"

#include "crypto/internal/registry.h"

#if defined(CLOAKFS_NH_NEON_CORE) && (defined(__aarch64__) || defined(__arm__))

#include "crypto/arch/arm/nh-neon.h"
#include "crypto/internal/alg.h"
#include "crypto/nhpoly1305/nhpoly1305.h"

#if defined(__arm__)

#include "crypto/arch/arm/poly1305-neon.h"
#include "crypto/arch/arm/poly1305-neon-glue.h"

_Static_assert(NHPOLY1305_POLY_PW_WORDS == POLY1305_NEON_POWER_WORDS,
	       "the state holds the NEON Poly1305 core's powers of r");

/*
 * ARMv7: the digest's NH sums (8 blocks a 4 KiB message's batch of four
 * chunks) through the NEON Poly1305 core, its powers of r made once at
 * setkey (the key is the tfm's, not one-time), rather than the generic
 * 26-bit block function (about 105 instructions a block there). AArch64's
 * generic, with 64-bit products, is close enough to leave alone.
 */
static void nhpoly1305_neon_poly(const struct nhpoly1305_state *ks,
				 union poly1305_core_state *poly,
				 const uint8_t *src, size_t nblocks)
{
	size_t n = nblocks & ~(size_t)3;

	if (n)
		poly1305_neon_run(poly, ks->poly_pw, src, n, 1);
	if (nblocks > n)
		poly1305_generic_core.blocks(poly, src + n * POLY1305_BLOCK_SIZE,
					     nblocks - n, 1);
}

#endif

static int nhpoly1305_neon_setkey(void *state, const uint8_t *key, size_t keylen)
{
	int err = nhpoly1305_setkey(state, key, keylen, nh_neon);

#if defined(__arm__)
	if (!err) {
		struct nhpoly1305_state *s = state;

		/* init keyed s->poly with r */
		poly1305_neon_powers(&s->poly, s->poly_pw);
		s->poly_blocks = nhpoly1305_neon_poly;
	}
#endif
	return err;
}

static const struct hash_alg nhpoly1305_neon_alg =
	NHPOLY1305_HASH_ALG(nhpoly1305_neon_setkey);

static const struct crypto_driver nhpoly1305_neon_driver = {
	.alg_name = NHPOLY1305_ALG_NAME,
	.driver_name = "nhpoly1305-neon",
	.priority = 300,
	.features = CPU_FEAT_NEON,
	.flags = CRYPTO_F_CONST_TIME,
	.type = CRYPTO_TYPE_HASH,
	.u.hash = &nhpoly1305_neon_alg,
};

int nhpoly1305_neon_register(struct crypto_registry *reg)
{
	return crypto_register_driver(reg, &nhpoly1305_neon_driver);
}

#else /* no NEON core in this build */

int nhpoly1305_neon_register(struct crypto_registry *reg)
{
	(void)reg;
	return 0;
}

#endif
