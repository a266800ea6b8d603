/* SPDX-License-Identifier: MIT */
/*
 * Adiantum's wide-block property, through the best driver of each
 * algorithm: one flipped bit anywhere in a message (first byte, the
 * bulk, the last 16 bytes) or in the 32-byte tweak changes every
 * 16-byte block of the ciphertext, and one flipped ciphertext bit every
 * block of the decryption (a mode that is not wide-block, XTS or a
 * stream, would leave the other blocks as they were; a chance match of
 * a 16-byte block is 2^-128). Lengths 16, 17, 512 and 4096; messages
 * under 16 bytes are refused with -EINVAL. The vectors and the
 * comparisons with the generic instance are test_kat's and
 * test_drivers'.
 */
#include <errno.h>
#include <string.h>

#include "crypto/crypto.h"
#include "testutil.h"

#define MAXLEN 4096

/*
 * 1 when every 16-byte block of a and b differs; a short tail is judged
 * by the last 16 bytes (len >= 16), as a tail of a byte or two would
 * match by chance one time in 256 or 65536
 */
static int all_blocks_differ(const uint8_t *a, const uint8_t *b, size_t len)
{
	for (size_t off = 0; off < len; off += 16) {
		size_t at = len - off < 16 ? len - 16 : off;

		if (!memcmp(a + at, b + at, 16))
			return 0;
	}
	return 1;
}

static void check_alg(const char *alg)
{
	static const size_t lens[] = { 16, 17, 512, 4096 };
	static uint8_t pt[MAXLEN], ct[MAXLEN], ct2[MAXLEN], buf[MAXLEN];
	uint8_t key[32], iv[32], iv2[32];
	int err;
	struct crypto_tfm *t = crypto_alloc(alg, NULL, &err);

	CHECK(t != NULL, "%s: alloc %d", alg, err);
	if (!t)
		return;
	test_random_bytes(key, sizeof(key));
	CHECK(crypto_setkey(t, key, sizeof(key)) == 0, "%s: setkey", alg);
	test_random_bytes(iv, sizeof(iv));
	CHECK(crypto_encrypt(t, iv, ct, pt, 15) == -EINVAL, "%s: 15 bytes accepted", alg);
	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
		size_t len = lens[l];
		size_t bits[] = { 0, 8 * len / 2 + 3, 8 * len - 1 };

		test_random_bytes(pt, len);
		CHECK(crypto_encrypt(t, iv, ct, pt, len) == 0, "%s: encrypt %zu", alg, len);
		for (size_t b = 0; b < sizeof(bits) / sizeof(bits[0]); b++) {
			memcpy(buf, pt, len);
			buf[bits[b] / 8] ^= (uint8_t)(1u << (bits[b] % 8));
			CHECK(crypto_encrypt(t, iv, ct2, buf, len) == 0, "encrypt");
			CHECK(all_blocks_differ(ct, ct2, len), "%s: %zu bytes, plaintext bit "
			      "%zu flipped: a ciphertext block unchanged", alg, len, bits[b]);
			memcpy(buf, ct, len);
			buf[bits[b] / 8] ^= (uint8_t)(1u << (bits[b] % 8));
			CHECK(crypto_decrypt(t, iv, ct2, buf, len) == 0, "decrypt");
			CHECK(all_blocks_differ(pt, ct2, len), "%s: %zu bytes, ciphertext bit "
			      "%zu flipped: a plaintext block unchanged", alg, len, bits[b]);
		}
		memcpy(iv2, iv, sizeof(iv2));
		iv2[31] ^= 0x80;
		CHECK(crypto_encrypt(t, iv2, ct2, pt, len) == 0, "encrypt");
		CHECK(all_blocks_differ(ct, ct2, len), "%s: %zu bytes, tweak bit flipped: "
		      "a ciphertext block unchanged", alg, len);
		CHECK(crypto_decrypt(t, iv, ct2, ct, len) == 0 && !memcmp(ct2, pt, len),
		      "%s: %zu bytes do not decrypt", alg, len);
	}
	crypto_free(t);
}

int main(void)
{
	test_seed();
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	check_alg("adiantum(xchacha12,aes)");
	check_alg("adiantum(xchacha20,aes)");
	return test_finish("test_adiantum");
}
