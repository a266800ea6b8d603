/* SPDX-License-Identifier: MIT */
/*
 * The affine maps that the x86 SM4 cores wrap around the AES field
 * inversion (crypto/arch/x86/sm4-x86-affine.h, derived by sm4-x86-affine.py),
 * checked for all 256 inputs against the GB/T 32907-2016 S-box table:
 *  1. in portable C, through the models of GF2P8AFFINEQB /
 *     GF2P8AFFINEINVQB and AES SubBytes in gf256_emul.h (the AESENCLAST
 *     path: AES SubBytes between the VPSHUFB nibble tables), so the
 *     constants are checked on any machine;
 *  2. on the instructions, through each core's tau (sm4_tau_<isa>) that
 *     this CPU can run (CLOAKFS_CRYPTO=nocpu:... hides cores), with all
 *     four byte positions of the word holding different inputs.
 */
#include <stdint.h>
#include <string.h>

#include "crypto/arch/x86/sm4-x86-affine.h"
#include "crypto/crypto.h"
#include "crypto/sm4/sm4-internal.h"
#include "gf256_emul.h"
#include "testutil.h"

#if defined(CLOAKFS_SM4_X86_CORES)
#include "crypto/arch/x86/sm4-x86.h"
#endif

static void check_constants(void)
{
	static const uint8_t in_lo[16] = { SM4_AESNI_IN_LO };
	static const uint8_t in_hi[16] = { SM4_AESNI_IN_HI };
	static const uint8_t out_lo[16] = { SM4_AESNI_OUT_LO };
	static const uint8_t out_hi[16] = { SM4_AESNI_OUT_HI };
	unsigned int bad_gfni = 0, bad_aesni = 0;

	CHECK(emul_aes_sbox(0x00) == 0x63 && emul_aes_sbox(0x53) == 0xed,
	      "AES S-box emulation (FIPS-197 5.1.1 examples)");
	for (unsigned int x = 0; x < 256; x++) {
		uint8_t y = emul_gf2p8affine(SM4_GFNI_IN_MATRIX, SM4_GFNI_IN_CONST,
					     (uint8_t)x);
		uint8_t g = emul_gf2p8affineinv(SM4_GFNI_OUT_MATRIX,
						SM4_GFNI_OUT_CONST, y);
		uint8_t n = in_lo[x & 15] ^ in_hi[x >> 4];
		uint8_t s = emul_aes_sbox(n);
		uint8_t a = out_lo[s & 15] ^ out_hi[s >> 4];

		bad_gfni += g != sm4_sbox[x];
		bad_aesni += a != sm4_sbox[x];
		CHECK(g == sm4_sbox[x], "GFNI maps: S(%02x) = %02x, want %02x", x,
		      g, sm4_sbox[x]);
		CHECK(a == sm4_sbox[x], "AES-NI maps: S(%02x) = %02x, want %02x",
		      x, a, sm4_sbox[x]);
	}
	printf("constants: 256 inputs, GFNI %u wrong, AES-NI %u wrong\n",
	       bad_gfni, bad_aesni);
}

#if defined(CLOAKFS_SM4_X86_CORES)
static const struct {
	const char *driver;
	uint32_t (*tau)(uint32_t);
} cores[] = {
	{ "sm4-aesni-avx2", sm4_tau_aesni_avx2 },
	{ "sm4-gfni-avx2", sm4_tau_gfni_avx2 },
	{ "sm4-gfni-avx512", sm4_tau_gfni_avx512 },
};

static void check_instructions(void)
{
	for (size_t c = 0; c < sizeof(cores) / sizeof(cores[0]); c++) {
		unsigned int bad = 0;

		if (!test_driver_runs("sm4", cores[c].driver)) {
			printf("%s: not available here, skipped\n", cores[c].driver);
			continue;
		}
		for (unsigned int x = 0; x < 256; x++) {
			uint8_t in[4] = { (uint8_t)x, (uint8_t)(x + 85),
					  (uint8_t)(x + 170), (uint8_t)(255 - x) };
			uint32_t w = load_be32(in), got = cores[c].tau(w), want = 0;

			for (int b = 0; b < 4; b++)
				want = want << 8 | sm4_sbox[in[b]];
			bad += got != want;
			CHECK(got == want, "%s: tau(%08x) = %08x, want %08x",
			      cores[c].driver, w, got, want);
		}
		printf("%s: 256 inputs in each byte position, %u wrong\n",
		       cores[c].driver, bad);
	}
}
#endif

int main(void)
{
	check_constants();
#if defined(CLOAKFS_SM4_X86_CORES)
	check_instructions();
#else
	printf("built without the x86 SM4 cores: instruction checks skipped\n");
#endif
	return test_finish("test_sm4_x86_sbox");
}
