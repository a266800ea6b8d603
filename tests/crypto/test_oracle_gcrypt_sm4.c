/* SPDX-License-Identifier: MIT */
/*
 * Differential test against libgcrypt 1.10 (test-only dependency) for
 * every driver of sm4, ecb(sm4), cbc(sm4), cfb(sm4), ctr(sm4), xts(sm4)
 * and cts(cbc(sm4)) this CPU can run, each forced by name, the
 * variable-time sm4-table instances included; what runs is oracle.h's.
 * libgcrypt's CFB is full-block CFB, its CTR a 128-bit big-endian
 * counter, its XTS IEEE 1619 with stealing and its CBC_CTS flag CBC-CS3
 * as the kernel's. The single-block drivers get random batches of 0..150
 * blocks, which covers each of the bitsliced driver's three layouts.
 */
#include <gcrypt.h>

#include "oracle.h"
#include "testutil.h"

#define BLOCK 16

/* libgcrypt's mode and flags for each oracle mode */
static const struct {
	int mode;
	unsigned int flags;
} gcry_modes[ORACLE_NMODES] = {
	[ORACLE_ECB] = { GCRY_CIPHER_MODE_ECB, 0 },
	[ORACLE_CBC] = { GCRY_CIPHER_MODE_CBC, 0 },
	[ORACLE_CFB] = { GCRY_CIPHER_MODE_CFB, 0 },
	[ORACLE_CTR] = { GCRY_CIPHER_MODE_CTR, 0 },
	[ORACLE_XTS] = { GCRY_CIPHER_MODE_XTS, 0 },
	[ORACLE_CTS] = { GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_CTS },
};

/* libgcrypt's encryption of in[0..len); 0 on success */
static int gcry_encrypt(enum oracle_mode mode, const uint8_t *key,
			size_t keylen, const uint8_t *iv, uint8_t *out,
			const uint8_t *in, size_t len)
{
	gcry_cipher_hd_t h;
	gcry_error_t e;

	e = gcry_cipher_open(&h, GCRY_CIPHER_SM4, gcry_modes[mode].mode,
			     gcry_modes[mode].flags);
	if (e)
		return -1;
	e = gcry_cipher_setkey(h, key, keylen);
	if (!e && mode == ORACLE_CTR)
		e = gcry_cipher_setctr(h, iv, BLOCK);
	else if (!e && mode != ORACLE_ECB)
		e = gcry_cipher_setiv(h, iv, BLOCK);
	if (!e && len)
		e = gcry_cipher_encrypt(h, out, len, in, len);
	gcry_cipher_close(h);
	if (e)
		fprintf(stderr, "libgcrypt mode %d len %zu: %s\n", (int)mode,
			len, gcry_strerror(e));
	return e ? -1 : 0;
}

int main(void)
{
	static const struct oracle_cipher sm4 = {
		.name = "sm4", .reference = "libgcrypt",
		.keylens = { 16 }, .xts_keylens = { 32 },
		.batch_below = 151, .encrypt = gcry_encrypt,
	};

	if (!gcry_check_version("1.10.0")) {
		fprintf(stderr, "libgcrypt >= 1.10 needed\n");
		return TEST_SKIP;
	}
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	printf("oracle: libgcrypt %s\n", gcry_check_version(NULL));
	return oracle_run(&sm4, "test_oracle_gcrypt_sm4");
}
