/* SPDX-License-Identifier: MIT */
/*
 * The 64-bit stream position of the xchacha12 and xchacha20 skciphers
 * (crypto/chacha20poly1305/chacha.h: IV bytes 24-31, le64 in 64-byte
 * blocks), every driver of each, forced by name. The Adiantum reference
 * (google/adiantum python/latindance.py, ChaCha's "offset" in state words
 * 12-13) and libsodium's crypto_stream_xchacha20_xor_ic count blocks in
 * all 64 bits: a message that crosses a multiple of 2^32 blocks goes on
 * at the next block, never back to block 0 of its high word, which would
 * repeat keystream. For positions below, at and across 2^32 and 2^33:
 *  - k blocks in one call equal k one-block calls at positions p .. p+k-1
 *    (a one-block call never crosses), a short tail too;
 *  - the IV written back is p + the blocks started, all 64 bits;
 *  - two calls chained through the written-back IV: the second goes on
 *    at the block after the last one the first started.
 * xchacha12 has no independent library to compare with (libsodium has
 * XChaCha20 only); its vectors are the reference's, in test_kat.
 */
#include <string.h>

#include "crypto/crypto.h"
#include "crypto/internal/util.h"
#include "testutil.h"

#define BLOCK 64
#define NBLOCKS 6
#define LEN (NBLOCKS * BLOCK - 7) /* a short last block */
#define MAX_DRIVERS 8

static void set_position(uint8_t iv[32], const uint8_t nonce[24], uint64_t pos)
{
	memcpy(iv, nonce, 24);
	store_le64(iv + 24, pos);
}

static void check_position(struct crypto_tfm *t, const char *name, uint64_t pos)
{
	uint8_t nonce[24], iv[32], pt[LEN], whole[LEN], pieces[LEN], chained[LEN];
	size_t cut = 2 * BLOCK + 5;

	test_random_bytes(nonce, sizeof(nonce));
	test_random_bytes(pt, sizeof(pt));
	set_position(iv, nonce, pos);
	CHECK(crypto_encrypt(t, iv, whole, pt, LEN) == 0, "%s: encrypt", name);
	CHECK(load_le64(iv + 24) == pos + NBLOCKS && !memcmp(iv, nonce, 24),
	      "%s: position %#llx + %d blocks written back as %#llx", name,
	      (unsigned long long)pos, NBLOCKS,
	      (unsigned long long)load_le64(iv + 24));
	for (size_t b = 0; b < NBLOCKS; b++) {
		size_t n = LEN - b * BLOCK < BLOCK ? LEN - b * BLOCK : BLOCK;

		set_position(iv, nonce, pos + b);
		CHECK(crypto_encrypt(t, iv, pieces + b * BLOCK, pt + b * BLOCK, n) == 0,
		      "%s: encrypt", name);
	}
	CHECK(!memcmp(whole, pieces, LEN), "%s: %d blocks from position %#llx "
	      "differ from one block at a time", name, NBLOCKS,
	      (unsigned long long)pos);
	set_position(iv, nonce, pos);
	CHECK(crypto_encrypt(t, iv, chained, pt, cut) == 0 &&
	      crypto_encrypt(t, iv, chained + cut, pt + cut, LEN - cut) == 0,
	      "%s: encrypt", name);
	/* cut is inside block 2, which the first call started: the second
	 * call goes on at block 3 */
	set_position(iv, nonce, pos + 3);
	CHECK(crypto_encrypt(t, iv, pieces, pt + cut, LEN - cut) == 0, "%s: encrypt", name);
	CHECK(!memcmp(chained, whole, cut) && !memcmp(chained + cut, pieces, LEN - cut),
	      "%s: two calls from position %#llx chained through the IV", name,
	      (unsigned long long)pos);
}

static void check_alg(const char *alg, unsigned int *exercised)
{
	static const uint64_t positions[] = {
		0, 0xfffffffdull, 0xffffffffull, 0x100000000ull,
		0x1fffffffcull, 0x2fffffffeull,
	};
	const char *names[MAX_DRIVERS];
	unsigned int n = test_drivers_for(alg, names, MAX_DRIVERS);
	uint8_t key[32];

	CHECK(n > 0, "%s: no driver", alg);
	for (unsigned int d = 0; d < n; d++) {
		int err;
		struct crypto_tfm *t = crypto_alloc(NULL, names[d], &err);

		CHECK(t != NULL, "%s: alloc %d", names[d], err);
		if (!t)
			continue;
		test_random_bytes(key, sizeof(key));
		CHECK(crypto_setkey(t, key, sizeof(key)) == 0, "%s: setkey", names[d]);
		for (size_t p = 0; p < sizeof(positions) / sizeof(positions[0]); p++)
			check_position(t, names[d], positions[p]);
		crypto_free(t);
		(*exercised)++;
	}
}

int main(void)
{
	unsigned int exercised = 0;

	test_seed();
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	check_alg("xchacha12", &exercised);
	check_alg("xchacha20", &exercised);
	CHECK(exercised >= 2, "only %u drivers exercised", exercised);
	return test_finish("test_xchacha_position");
}
