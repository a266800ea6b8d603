// SPDX-License-Identifier: MIT
/*
 * SHA-512 (FIPS 180-4, sections 4.1.3, 5.3.5 and 6.4) in portable C and
 * the "sha512-generic" hash driver. Only 64-bit additions, rotations and
 * logic: constant time by construction.
 */
#include <string.h>

#include "crypto/internal/alg.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"
#include "crypto/sha512/sha512.h"

/* FIPS 180-4 4.2.3: first 64 bits of the fractional parts of the cube
 * roots of the first 80 primes */
const uint64_t sha512_k[80] = {
	0x428a2f98d728ae22ull, 0x7137449123ef65cdull,
	0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull,
	0x3956c25bf348b538ull, 0x59f111f1b605d019ull,
	0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull,
	0xd807aa98a3030242ull, 0x12835b0145706fbeull,
	0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
	0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull,
	0x9bdc06a725c71235ull, 0xc19bf174cf692694ull,
	0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull,
	0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,
	0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull,
	0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
	0x983e5152ee66dfabull, 0xa831c66d2db43210ull,
	0xb00327c898fb213full, 0xbf597fc7beef0ee4ull,
	0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull,
	0x06ca6351e003826full, 0x142929670a0e6e70ull,
	0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull,
	0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
	0x650a73548baf63deull, 0x766a0abb3c77b2a8ull,
	0x81c2c92e47edaee6ull, 0x92722c851482353bull,
	0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull,
	0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull,
	0xd192e819d6ef5218ull, 0xd69906245565a910ull,
	0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
	0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull,
	0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull,
	0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull,
	0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull,
	0x748f82ee5defb2fcull, 0x78a5636f43172f60ull,
	0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
	0x90befffa23631e28ull, 0xa4506cebde82bde9ull,
	0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull,
	0xca273eceea26619cull, 0xd186b8c721c0c207ull,
	0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull,
	0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull,
	0x113f9804bef90daeull, 0x1b710b35131c471bull,
	0x28db77f523047d84ull, 0x32caab7b40c72493ull,
	0x3c9ebe0a15c9bebcull, 0x431d67c49c100d4cull,
	0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull,
	0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull,
};

/* FIPS 180-4 5.3.5: square roots of the first 8 primes */
static const uint64_t sha512_iv[8] = {
	0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull,
	0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
	0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
	0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

#define BSIG0(x) (ror64(x, 28) ^ ror64(x, 34) ^ ror64(x, 39))
#define BSIG1(x) (ror64(x, 14) ^ ror64(x, 18) ^ ror64(x, 41))
#define SSIG0(x) (ror64(x, 1) ^ ror64(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ror64(x, 19) ^ ror64(x, 61) ^ ((x) >> 6))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/*
 * One round with the working variables renamed instead of shifted: the
 * caller rotates the argument list, so eight rounds move nothing.
 */
#define ROUND(a, b, c, d, e, f, g, h, t)                                   \
	do {                                                               \
		uint64_t t1 = h + BSIG1(e) + CH(e, f, g) + sha512_k[t] +   \
			      w[(t) & 15];                                 \
		d += t1;                                                   \
		h = t1 + BSIG0(a) + MAJ(a, b, c);                          \
	} while (0)

/* the message schedule in a 16-word ring: W[t] for t >= 16 */
#define SCHEDULE(t)                                                        \
	(w[(t) & 15] += SSIG1(w[((t) - 2) & 15]) + w[((t) - 7) & 15] +     \
			SSIG0(w[((t) - 15) & 15]))

void sha512_blocks_generic(uint64_t h[8], const uint8_t *data, size_t nblocks)
{
	uint64_t w[16];

	while (nblocks--) {
		uint64_t a = h[0], b = h[1], c = h[2], d = h[3];
		uint64_t e = h[4], f = h[5], g = h[6], hh = h[7];

		for (unsigned int t = 0; t < 16; t++)
			w[t] = load_be64(data + 8 * t);
		for (unsigned int t = 0; t < 80; t += 8) {
			if (t >= 16)
				for (unsigned int i = t; i < t + 8; i++)
					SCHEDULE(i);
			ROUND(a, b, c, d, e, f, g, hh, t + 0);
			ROUND(hh, a, b, c, d, e, f, g, t + 1);
			ROUND(g, hh, a, b, c, d, e, f, t + 2);
			ROUND(f, g, hh, a, b, c, d, e, t + 3);
			ROUND(e, f, g, hh, a, b, c, d, t + 4);
			ROUND(d, e, f, g, hh, a, b, c, t + 5);
			ROUND(c, d, e, f, g, hh, a, b, t + 6);
			ROUND(b, c, d, e, f, g, hh, a, t + 7);
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += hh;
		data += SHA512_BLOCK_SIZE;
	}
	explicit_bzero(w, sizeof(w));
}

void sha512_init_with(struct sha512_state *st, sha512_blocks_fn *blocks)
{
	memcpy(st->h, sha512_iv, sizeof(st->h));
	st->bytes_lo = 0;
	st->bytes_hi = 0;
	st->blocks = blocks;
}

void sha512_init(struct sha512_state *st)
{
	sha512_init_with(st, sha512_blocks_generic);
}

void sha512_update(struct sha512_state *st, const uint8_t *data, size_t len)
{
	size_t used = st->bytes_lo % SHA512_BLOCK_SIZE, n;

	if (!len) /* data may be NULL then */
		return;
	st->bytes_lo += len;
	st->bytes_hi += st->bytes_lo < len; /* carry; lengths are public */
	if (used) {
		n = SHA512_BLOCK_SIZE - used;
		if (n > len) {
			memcpy(st->buf + used, data, len);
			return;
		}
		memcpy(st->buf + used, data, n);
		st->blocks(st->h, st->buf, 1);
		data += n;
		len -= n;
	}
	n = len / SHA512_BLOCK_SIZE;
	if (n) {
		st->blocks(st->h, data, n);
		data += n * SHA512_BLOCK_SIZE;
		len -= n * SHA512_BLOCK_SIZE;
	}
	if (len)
		memcpy(st->buf, data, len);
}

void sha512_final(struct sha512_state *st, uint8_t out[SHA512_DIGEST_SIZE])
{
	size_t used = st->bytes_lo % SHA512_BLOCK_SIZE;

	/* 0x80, zeros to 112 mod 128, then the length in bits (128-bit BE) */
	st->buf[used++] = 0x80;
	if (used > SHA512_BLOCK_SIZE - 16) {
		memset(st->buf + used, 0, SHA512_BLOCK_SIZE - used);
		st->blocks(st->h, st->buf, 1);
		used = 0;
	}
	memset(st->buf + used, 0, SHA512_BLOCK_SIZE - 16 - used);
	store_be64(st->buf + 112, st->bytes_hi << 3 | st->bytes_lo >> 61);
	store_be64(st->buf + 120, st->bytes_lo << 3);
	st->blocks(st->h, st->buf, 1);
	for (int i = 0; i < 8; i++)
		store_be64(out + 8 * i, st->h[i]);
	explicit_bzero(st, sizeof(*st));
}

/* ---- the hash driver ---------------------------------------------- */

static void sha512_driver_init(void *state)
{
	sha512_init(state);
}

void sha512_hash_update(void *state, const uint8_t *data, size_t len)
{
	sha512_update(state, data, len);
}

void sha512_hash_final(void *state, uint8_t *out)
{
	sha512_final(state, out);
}

static const struct hash_alg sha512_generic_alg =
	SHA512_HASH_ALG(sha512_driver_init);

static const struct crypto_driver sha512_generic_driver = {
	.alg_name = "sha512",
	.driver_name = "sha512-generic",
	.priority = 100,
	.flags = CRYPTO_F_CONST_TIME,
	.type = CRYPTO_TYPE_HASH,
	.u.hash = &sha512_generic_alg,
};

int sha512_generic_register(struct crypto_registry *reg)
{
	int err = crypto_register_driver(reg, &sha512_generic_driver);

	if (err)
		return err;
	return sha512_register_testvecs(reg);
}
