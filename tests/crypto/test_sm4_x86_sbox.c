/* SPDX-License-Identifier: MIT */
/*
 * The affine maps that the x86 SM4 cores wrap around the AES field
 * inversion (asm/x86/sm4-x86-affine.h, derived by sm4-x86-affine.py),
 * checked for all 256 inputs against the GB/T 32907-2016 S-box table:
 *  1. in portable C, emulating GF2P8AFFINEQB / GF2P8AFFINEINVQB (Intel
 *     SDM vol. 2: result bit i = parity(matrix byte 7 - i AND x) XOR
 *     imm bit i; INV first inverts x in GF(2^8) mod 0x11b) and the
 *     AESENCLAST path (AES SubBytes, FIPS-197 5.1.1, between the VPSHUFB
 *     nibble tables), so the constants are checked on any machine;
 *  2. on the instructions, through each core's tau (sm4_tau_<isa>) that
 *     this CPU can run (CLOAKFS_CRYPTO=nocpu:... hides cores), with all
 *     four byte positions of the word holding different inputs.
 */
#include <stdint.h>
#include <string.h>

#include "asm/x86/sm4-x86-affine.h"
#include "crypto/crypto.h"
#include "crypto/sm4/sm4-internal.h"
#include "testutil.h"

#if defined(CLOAKFS_SM4_X86_CORES)
#include "asm/x86/sm4-x86.h"
#endif

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1b : 0));
		b >>= 1;
	}
	return r;
}

/* x^254 = x^-1 in the AES field (0 -> 0) */
static uint8_t gf_inv(uint8_t x)
{
	uint8_t r = 1;

	for (int i = 0; i < 254; i++)
		r = gf_mul(r, x);
	return r;
}

static uint8_t affine(uint64_t matrix, uint8_t imm, uint8_t x)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++) {
		uint8_t row = (uint8_t)(matrix >> (8 * (7 - i)));

		r |= (uint8_t)((__builtin_popcount(row & x) & 1) << i);
	}
	return r ^ imm;
}

static uint8_t aes_sbox(uint8_t x)
{
	uint8_t b = gf_inv(x), r = 0x63;

	for (int i = 0; i < 8; i++) {
		unsigned int bit = (b >> i ^ b >> ((i + 4) & 7) ^ b >> ((i + 5) & 7) ^
				    b >> ((i + 6) & 7) ^ b >> ((i + 7) & 7)) & 1;

		r ^= (uint8_t)(bit << i);
	}
	return r;
}

static void check_constants(void)
{
	static const uint8_t in_lo[16] = { SM4_AESNI_IN_LO };
	static const uint8_t in_hi[16] = { SM4_AESNI_IN_HI };
	static const uint8_t out_lo[16] = { SM4_AESNI_OUT_LO };
	static const uint8_t out_hi[16] = { SM4_AESNI_OUT_HI };
	unsigned int bad_gfni = 0, bad_aesni = 0;

	CHECK(aes_sbox(0x00) == 0x63 && aes_sbox(0x53) == 0xed,
	      "AES S-box emulation (FIPS-197 5.1.1 examples)");
	for (unsigned int x = 0; x < 256; x++) {
		uint8_t y = affine(SM4_GFNI_IN_MATRIX, SM4_GFNI_IN_CONST, (uint8_t)x);
		uint8_t g = affine(SM4_GFNI_OUT_MATRIX, SM4_GFNI_OUT_CONST, gf_inv(y));
		uint8_t n = in_lo[x & 15] ^ in_hi[x >> 4];
		uint8_t s = aes_sbox(n);
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
	const char *names[16];
	unsigned int n = test_drivers_for("sm4", names, 16);

	for (size_t c = 0; c < sizeof(cores) / sizeof(cores[0]); c++) {
		unsigned int bad = 0, run = 0;

		for (unsigned int i = 0; i < n; i++)
			run |= !strcmp(names[i], cores[c].driver);
		if (!run) {
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
