/* SPDX-License-Identifier: MIT */
/*
 * The Camellia key schedule (RFC 3713 sections 2.2 and 2.3), shared by
 * every driver: KA and KB from KL and KR through F with the constants
 * Sigma1..6, then the subkeys as 128-bit rotations of KL, KR, KA, KB.
 * F is camellia_f_ct (constant time); the rotation amounts are public.
 */
#include <errno.h>
#include <string.h>

#include "crypto/camellia/camellia-internal.h"
#include "crypto/camellia/camellia-planes.h"

uint64_t camellia_f_ct(uint64_t x)
{
	uint64_t in[8], k[8], out[8] = { 0 }, r = 0;

	/* one block: bit 0 of each lane */
	for (unsigned int i = 0; i < 8; i++)
		in[i] = (x >> i) & CAMELLIA_LANE_LSB;
	camellia_to_planes(k, CAMELLIA_KEY_FOLD);
	camellia_f_planes(out, in, k);
	for (unsigned int i = 0; i < 8; i++)
		r |= (out[i] & CAMELLIA_LANE_LSB) << i;
	explicit_bzero(in, sizeof(in));
	explicit_bzero(out, sizeof(out));
	return r;
}

/* RFC 3713 2.2: Sigma1..Sigma6 */
static const uint64_t sigma[6] = {
	0xa09e667f3bcc908bull, 0xb67ae8584caa73b2ull, 0xc6ef372fe94f82beull,
	0x54ff53a5f1d36f1cull, 0x10e527fade682d1dull, 0xb05688c2b3e6c1fdull,
};

enum { KL, KR, KA, KB };

/* a 128-bit value as two halves; rot128 is x <<< n */
struct u128 {
	uint64_t hi, lo;
};

static struct u128 rot128(struct u128 x, unsigned int n)
{
	struct u128 r;

	if (n >= 64) {
		uint64_t t = x.hi;

		x.hi = x.lo;
		x.lo = t;
		n -= 64;
	}
	if (!n)
		return x;
	r.hi = x.hi << n | x.lo >> (64 - n);
	r.lo = x.lo << n | x.hi >> (64 - n);
	return r;
}

/* one pair of subkeys: (src <<< shift) >> 64 and & MASK64 */
struct pair {
	unsigned char src, shift;
};

/* RFC 3713 2.3, 128-bit keys: k1..k18 in pairs, then ke, then kw3/kw4 */
static const struct pair k_short[9] = {
	{ KA, 0 }, { KL, 15 }, { KA, 15 }, { KL, 45 }, { KA, 45 },
	{ KA, 60 }, { KL, 94 }, { KA, 94 }, { KL, 111 },
};
static const struct pair ke_short[2] = { { KA, 30 }, { KL, 77 } };
static const struct pair kw_short = { KA, 111 };

/* 192- and 256-bit keys */
static const struct pair k_long[12] = {
	{ KB, 0 }, { KR, 15 }, { KA, 15 }, { KB, 30 }, { KL, 45 }, { KA, 45 },
	{ KR, 60 }, { KB, 60 }, { KL, 77 }, { KR, 94 }, { KA, 94 }, { KL, 111 },
};
static const struct pair ke_long[3] = { { KR, 30 }, { KL, 60 }, { KA, 77 } };
static const struct pair kw_long = { KB, 111 };

static void take(const struct u128 *src, struct pair p, uint64_t *out)
{
	struct u128 r = rot128(src[p.src], p.shift);

	out[0] = r.hi;
	out[1] = r.lo;
}

int camellia_expand_key(struct camellia_subkeys *sk, const uint8_t *key,
			size_t keylen)
{
	struct u128 v[4];
	uint64_t d1, d2;
	const struct pair *kp, *kep, *kwp;
	unsigned int nke;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -EINVAL;
	v[KL].hi = load_be64(key);
	v[KL].lo = load_be64(key + 8);
	v[KR].hi = keylen > 16 ? load_be64(key + 16) : 0;
	v[KR].lo = keylen == 32 ? load_be64(key + 24) :
		   keylen == 24 ? ~v[KR].hi : 0;
	/* KA */
	d1 = v[KL].hi ^ v[KR].hi;
	d2 = v[KL].lo ^ v[KR].lo;
	d2 ^= camellia_f_ct(d1 ^ sigma[0]);
	d1 ^= camellia_f_ct(d2 ^ sigma[1]);
	d1 ^= v[KL].hi;
	d2 ^= v[KL].lo;
	d2 ^= camellia_f_ct(d1 ^ sigma[2]);
	d1 ^= camellia_f_ct(d2 ^ sigma[3]);
	v[KA].hi = d1;
	v[KA].lo = d2;
	/* KB */
	d1 = v[KA].hi ^ v[KR].hi;
	d2 = v[KA].lo ^ v[KR].lo;
	d2 ^= camellia_f_ct(d1 ^ sigma[4]);
	d1 ^= camellia_f_ct(d2 ^ sigma[5]);
	v[KB].hi = d1;
	v[KB].lo = d2;

	memset(sk, 0, sizeof(*sk));
	if (keylen == 16) {
		sk->rounds = CAMELLIA_ROUNDS_SHORT;
		kp = k_short, kep = ke_short, kwp = &kw_short, nke = 2;
	} else {
		sk->rounds = CAMELLIA_ROUNDS_LONG;
		kp = k_long, kep = ke_long, kwp = &kw_long, nke = 3;
	}
	take(v, (struct pair){ KL, 0 }, sk->kw);
	take(v, *kwp, sk->kw + 2);
	for (unsigned int i = 0; i < sk->rounds / 2; i++)
		take(v, kp[i], sk->k + 2 * i);
	for (unsigned int i = 0; i < nke; i++)
		take(v, kep[i], sk->ke + 2 * i);
	if (keylen == 16) {
		/* k10 is the low half of KL <<< 60, not of KA <<< 45 */
		uint64_t t[2];

		take(v, (struct pair){ KL, 60 }, t);
		sk->k[9] = t[1];
		explicit_bzero(t, sizeof(t));
	}
	explicit_bzero(v, sizeof(v));
	return 0;
}

int camellia_expand_key_ordered(const uint8_t *key, size_t keylen,
				uint64_t *enc, uint64_t *dec, unsigned int *n,
				unsigned int *rounds)
{
	struct camellia_subkeys sk;
	int err = camellia_expand_key(&sk, key, keylen);

	if (err)
		return err;
	*rounds = sk.rounds;
	*n = camellia_key_order(&sk, 0, enc);
	camellia_key_order(&sk, 1, dec);
	explicit_bzero(&sk, sizeof(sk));
	return 0;
}

int camellia_setkey_core(const uint8_t *key, size_t keylen,
			 unsigned int *rounds,
			 void (*convert)(void *out, const uint64_t *k,
					 unsigned int n),
			 void *enc_out, void *dec_out)
{
	uint64_t enc[CAMELLIA_MAX_SUBKEYS], dec[CAMELLIA_MAX_SUBKEYS];
	unsigned int n;
	int err = camellia_expand_key_ordered(key, keylen, enc, dec, &n, rounds);

	if (!err) {
		convert(enc_out, enc, n);
		convert(dec_out, dec, n);
	}
	explicit_bzero(enc, sizeof(enc));
	explicit_bzero(dec, sizeof(dec));
	return err;
}

unsigned int camellia_key_order(const struct camellia_subkeys *sk, int dec,
				uint64_t *out)
{
	unsigned int n = 0, groups = sk->rounds / 6;

	out[n++] = sk->kw[dec ? 2 : 0];
	out[n++] = sk->kw[dec ? 3 : 1];
	for (unsigned int g = 0; g < groups; g++) {
		for (unsigned int r = 0; r < 6; r++) {
			unsigned int i = 6 * g + r;

			out[n++] = sk->k[dec ? sk->rounds - 1 - i : i];
		}
		if (g + 1 < groups) {
			/* FL on D1, FL^-1 on D2; decryption takes the pair mirrored */
			unsigned int l = dec ? groups - 2 - g : g;

			out[n++] = sk->ke[2 * l + (dec ? 1 : 0)];
			out[n++] = sk->ke[2 * l + (dec ? 0 : 1)];
		}
	}
	out[n++] = sk->kw[dec ? 0 : 2];
	out[n++] = sk->kw[dec ? 1 : 3];
	return n;
}
