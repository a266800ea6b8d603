/* SPDX-License-Identifier: MIT */
/*
 * Registration of the portable C Speck drivers and of the Speck vectors
 * (see speck-generic.h). The registry builds xts/ecb/cbc/cfb/ctr/cts over
 * both drivers by itself.
 */
#include "crypto/speck/speck-generic.h"

#include "crypto/internal/registry.h"
#include "crypto/speck/speck-testvec.h"
#include "crypto/speck/speck.h"

static const struct crypto_driver speck_generic_drivers[] = {
	{
		.alg_name = "speck128",
		.driver_name = "speck128-generic",
		.priority = 100,
		.flags = CRYPTO_F_CONST_TIME, /* add-rotate-xor only */
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &speck128_generic_cipher,
	}, {
		.alg_name = "speck64",
		.driver_name = "speck64-generic",
		.priority = 100,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = &speck64_generic_cipher,
	},
};

int speck_generic_register(struct crypto_registry *reg)
{
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(speck_generic_drivers); i++) {
		err = crypto_register_driver(reg, &speck_generic_drivers[i]);
		if (err)
			return err;
	}
	for (unsigned int i = 0; i < speck_testvecs_count; i++) {
		err = crypto_register_testvecs(reg, &speck_testvecs[i]);
		if (err)
			return err;
	}
	for (unsigned int i = 0; i < speck_mode_testvecs_count; i++) {
		err = crypto_register_testvecs(reg, &speck_mode_testvecs[i]);
		if (err)
			return err;
	}
	return 0;
}
