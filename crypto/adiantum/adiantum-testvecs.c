// SPDX-License-Identifier: MIT
/*
 * Known-answer vectors of adiantum(xchacha12,aes) and
 * adiantum(xchacha20,aes) (crypto/templates/adiantum.c), from the
 * Adiantum reference implementation's published vectors:
 * https://github.com/google/adiantum, test_vectors/ours/Adiantum/
 * Adiantum_XChaCha12_32_AES256.json and Adiantum_XChaCha20_32_AES256.json.
 * The reference has tweaks of 0, 12, 17 and 32 bytes; these are its
 * 32-byte-tweak vectors (the kernel's and cloakfs's tweak length), the
 * first of each message length, each given as "Random (n)" with the
 * length in bytes. The tweak is the IV.
 */
#include "crypto/adiantum/adiantum.h"
#include "crypto/internal/registry.h"

static const struct cipher_testvec adiantum_xchacha12_tv[] = {
	{ /* Adiantum_XChaCha12_32_AES256.json "Random ( 1)", 16 bytes */
		.key = "fa72e9298e5b1eb63b7c35037f77eb3f"
		       "63b927b3725fca5c5e1590881ca4f3c2",
		.iv = "c94526b42196702f8a94fe92d514c3e0"
		      "3cc35757ddd664097849005688f577c2",
		.ptext = "8836f471d33d4048e472239f4cc4cb76",
		.ctext = "e96abbdeb0053d370b894f341122cc60",
	},
	{ /* Adiantum_XChaCha12_32_AES256.json "Random ( 1)", 31 bytes */
		.key = "362b5797f85dcd995f1a5a441d920f27"
		       "cc16d72b856399d3ba96a1dbd26068da",
		.iv = "ef5869b12c5e9a4724c1b169e112938f"
		      "433d6d00db5ed8d9129afed9ff2daac4",
		.ptext = "5ea8681985981223260accdb0a04b9df"
			 "4db3487bb0e3c819435a4606942df2",
		.ctext = "c7c6f1738fc4ff4a39be78be8d28c889"
			 "4663e70c7d87e84ec9187bbe186050",
	},
};

static const struct crypto_testvecs adiantum_testvecs[] = {
	{
		.alg_name = ADIANTUM_XCHACHA12_ALG_NAME,
		.source = "google/adiantum test_vectors/ours/Adiantum/Adiantum_XChaCha12_32_AES256.json, 32-byte tweaks",
		.count = ARRAY_SIZE(adiantum_xchacha12_tv),
		.cipher = adiantum_xchacha12_tv,
	},
};

int adiantum_register_testvecs(struct crypto_registry *reg)
{
	return crypto_register_testvec_sets(reg, adiantum_testvecs,
					    ARRAY_SIZE(adiantum_testvecs));
}
