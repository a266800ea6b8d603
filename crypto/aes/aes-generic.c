/* SPDX-License-Identifier: MIT */
/*
 * Constant-time AES-128/192/256 (FIPS-197), bitsliced on 64-bit words.
 *
 * Four blocks share one state of eight words; no table lookups and no
 * branches depend on keys or data, key schedule included. Speed comes from
 * encrypt_blocks/decrypt_blocks (the mode templates batch through them);
 * a single block costs as much as four.
 *
 * Layout: word q[b] holds bit b of every byte; byte (row r, column c) of
 * block k (byte index 4*c + r) sits at bit 16*r + 4*c + k. A row is then
 * one 16-bit lane, a column one nibble of it: the "next row" MixColumns
 * needs is a 16-bit rotation of the whole word, and ShiftRows (folded
 * into MixColumns by fixslicing, see the linear layers) moves nibbles.
 *
 * S-box: the circuits of J. Boyar and R. Peralta, "A small depth-16 circuit
 * for the AES S-box", Proc. SEC 2012, IFIP AICT 376, Springer, pp. 287-298
 * (preprint https://eprint.iacr.org/2011/332): figure 5 (forward top
 * linear layer) or 6 (inverse), figure 7 (the shared non-linear middle,
 * D = U7 forward, Y5 inverse), figure 8 (forward bottom) or 9 (inverse).
 * U0/S0/W0 are the most significant bits. "#" in the paper is XNOR.
 */
#include "crypto/aes/aes-generic.h"

#include <errno.h>
#include <string.h>

#include "crypto/aes/aes-internal.h"
#include "crypto/internal/alg.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/util.h"

#if defined(__GNUC__)
#define BS_INLINE static inline __attribute__((always_inline))
#else
#define BS_INLINE static inline
#endif

#define AES_MAX_ROUNDS 14
#define BS_BLOCKS 4 /* blocks per bitsliced state */
#define BS_BYTES (BS_BLOCKS * AES_BLOCK_SIZE)

struct aes_bs_ctx {
	/* round keys in the bitsliced layout, the same in all four lanes */
	uint64_t rk[(AES_MAX_ROUNDS + 1) * 8];
	unsigned int rounds;
};

/* ---- S-box (Boyar-Peralta) ------------------------------------------- */

/* what the top linear layer hands to the shared middle (figure 7) */
struct bp_top {
	uint64_t t1, t2, t3, t4, t6, t8, t9, t10, t13, t14, t15, t16, t17, t19,
		t20, t22, t23, t24, t25, t26, t27, d;
};

/* what the middle hands to the bottom linear layer */
struct bp_mid {
	uint64_t m46, m47, m48, m49, m50, m51, m52, m53, m54, m55, m56, m57,
		m58, m59, m60, m61, m62, m63;
};

/* figure 5 */
BS_INLINE void bp_top_forward(const uint64_t q[8], struct bp_top *out)
{
	const uint64_t u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	const uint64_t u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];

	const uint64_t t1 = u0 ^ u3;
	const uint64_t t2 = u0 ^ u5;
	const uint64_t t3 = u0 ^ u6;
	const uint64_t t4 = u3 ^ u5;
	const uint64_t t5 = u4 ^ u6;
	const uint64_t t6 = t1 ^ t5;
	const uint64_t t7 = u1 ^ u2;
	const uint64_t t8 = u7 ^ t6;
	const uint64_t t9 = u7 ^ t7;
	const uint64_t t10 = t6 ^ t7;
	const uint64_t t11 = u1 ^ u5;
	const uint64_t t12 = u2 ^ u5;
	const uint64_t t13 = t3 ^ t4;
	const uint64_t t14 = t6 ^ t11;
	const uint64_t t15 = t5 ^ t11;
	const uint64_t t16 = t5 ^ t12;
	const uint64_t t17 = t9 ^ t16;
	const uint64_t t18 = u3 ^ u7;
	const uint64_t t19 = t7 ^ t18;
	const uint64_t t20 = t1 ^ t19;
	const uint64_t t21 = u6 ^ u7;
	const uint64_t t22 = t7 ^ t21;
	const uint64_t t23 = t2 ^ t22;
	const uint64_t t24 = t2 ^ t10;
	const uint64_t t25 = t20 ^ t17;
	const uint64_t t26 = t3 ^ t16;
	const uint64_t t27 = t1 ^ t12;
	*out = (struct bp_top){
		.t1 = t1, .t2 = t2, .t3 = t3, .t4 = t4, .t6 = t6, .t8 = t8, .t9 = t9,
		.t10 = t10, .t13 = t13, .t14 = t14, .t15 = t15, .t16 = t16, .t17 = t17,
		.t19 = t19, .t20 = t20, .t22 = t22, .t23 = t23, .t24 = t24, .t25 = t25,
		.t26 = t26, .t27 = t27, .d = u7
	};
}

/* figure 6 */
BS_INLINE void bp_top_inverse(const uint64_t q[8], struct bp_top *out)
{
	const uint64_t u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	const uint64_t u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];

	const uint64_t t23 = u0 ^ u3;
	const uint64_t t22 = ~(u1 ^ u3);
	const uint64_t t2 = ~(u0 ^ u1);
	const uint64_t t1 = u3 ^ u4;
	const uint64_t t24 = ~(u4 ^ u7);
	const uint64_t r5 = u6 ^ u7;
	const uint64_t t8 = ~(u1 ^ t23);
	const uint64_t t19 = t22 ^ r5;
	const uint64_t t9 = ~(u7 ^ t1);
	const uint64_t t10 = t2 ^ t24;
	const uint64_t t13 = t2 ^ r5;
	const uint64_t t3 = t1 ^ r5;
	const uint64_t t25 = ~(u2 ^ t1);
	const uint64_t r13 = u1 ^ u6;
	const uint64_t t17 = ~(u2 ^ t19);
	const uint64_t t20 = t24 ^ r13;
	const uint64_t t4 = u4 ^ t8;
	const uint64_t r17 = ~(u2 ^ u5);
	const uint64_t r18 = ~(u5 ^ u6);
	const uint64_t r19 = ~(u2 ^ u4);
	const uint64_t y5 = u0 ^ r17;
	const uint64_t t6 = t22 ^ r17;
	const uint64_t t16 = r13 ^ r19;
	const uint64_t t27 = t1 ^ r18;
	const uint64_t t15 = t10 ^ t27;
	const uint64_t t14 = t10 ^ r18;
	const uint64_t t26 = t3 ^ t16;
	*out = (struct bp_top){
		.t1 = t1, .t2 = t2, .t3 = t3, .t4 = t4, .t6 = t6, .t8 = t8, .t9 = t9,
		.t10 = t10, .t13 = t13, .t14 = t14, .t15 = t15, .t16 = t16, .t17 = t17,
		.t19 = t19, .t20 = t20, .t22 = t22, .t23 = t23, .t24 = t24, .t25 = t25,
		.t26 = t26, .t27 = t27, .d = y5
	};
}

/* figure 7: inversion in GF(2^8) through a tower field, 32 AND gates */
BS_INLINE void bp_middle(const struct bp_top *in, struct bp_mid *out)
{
	const uint64_t m1 = in->t13 & in->t6;
	const uint64_t m2 = in->t23 & in->t8;
	const uint64_t m3 = in->t14 ^ m1;
	const uint64_t m4 = in->t19 & in->d;
	const uint64_t m5 = m4 ^ m1;
	const uint64_t m6 = in->t3 & in->t16;
	const uint64_t m7 = in->t22 & in->t9;
	const uint64_t m8 = in->t26 ^ m6;
	const uint64_t m9 = in->t20 & in->t17;
	const uint64_t m10 = m9 ^ m6;
	const uint64_t m11 = in->t1 & in->t15;
	const uint64_t m12 = in->t4 & in->t27;
	const uint64_t m13 = m12 ^ m11;
	const uint64_t m14 = in->t2 & in->t10;
	const uint64_t m15 = m14 ^ m11;
	const uint64_t m16 = m3 ^ m2;
	const uint64_t m17 = m5 ^ in->t24;
	const uint64_t m18 = m8 ^ m7;
	const uint64_t m19 = m10 ^ m15;
	const uint64_t m20 = m16 ^ m13;
	const uint64_t m21 = m17 ^ m15;
	const uint64_t m22 = m18 ^ m13;
	const uint64_t m23 = m19 ^ in->t25;
	const uint64_t m24 = m22 ^ m23;
	const uint64_t m25 = m22 & m20;
	const uint64_t m26 = m21 ^ m25;
	const uint64_t m27 = m20 ^ m21;
	const uint64_t m28 = m23 ^ m25;
	const uint64_t m29 = m28 & m27;
	const uint64_t m30 = m26 & m24;
	const uint64_t m31 = m20 & m23;
	const uint64_t m32 = m27 & m31;
	const uint64_t m33 = m27 ^ m25;
	const uint64_t m34 = m21 & m22;
	const uint64_t m35 = m24 & m34;
	const uint64_t m36 = m24 ^ m25;
	const uint64_t m37 = m21 ^ m29;
	const uint64_t m38 = m32 ^ m33;
	const uint64_t m39 = m23 ^ m30;
	const uint64_t m40 = m35 ^ m36;
	const uint64_t m41 = m38 ^ m40;
	const uint64_t m42 = m37 ^ m39;
	const uint64_t m43 = m37 ^ m38;
	const uint64_t m44 = m39 ^ m40;
	const uint64_t m45 = m42 ^ m41;
	out->m46 = m44 & in->t6;
	out->m47 = m40 & in->t8;
	out->m48 = m39 & in->d;
	out->m49 = m43 & in->t16;
	out->m50 = m38 & in->t9;
	out->m51 = m37 & in->t17;
	out->m52 = m42 & in->t15;
	out->m53 = m45 & in->t27;
	out->m54 = m41 & in->t10;
	out->m55 = m44 & in->t13;
	out->m56 = m40 & in->t23;
	out->m57 = m39 & in->t19;
	out->m58 = m43 & in->t3;
	out->m59 = m38 & in->t22;
	out->m60 = m37 & in->t20;
	out->m61 = m42 & in->t1;
	out->m62 = m45 & in->t4;
	out->m63 = m41 & in->t2;
}

/* figure 8 */
BS_INLINE void bp_bottom_forward(const struct bp_mid *in, uint64_t q[8])
{
	const uint64_t l0 = in->m61 ^ in->m62;
	const uint64_t l1 = in->m50 ^ in->m56;
	const uint64_t l2 = in->m46 ^ in->m48;
	const uint64_t l3 = in->m47 ^ in->m55;
	const uint64_t l4 = in->m54 ^ in->m58;
	const uint64_t l5 = in->m49 ^ in->m61;
	const uint64_t l6 = in->m62 ^ l5;
	const uint64_t l7 = in->m46 ^ l3;
	const uint64_t l8 = in->m51 ^ in->m59;
	const uint64_t l9 = in->m52 ^ in->m53;
	const uint64_t l10 = in->m53 ^ l4;
	const uint64_t l11 = in->m60 ^ l2;
	const uint64_t l12 = in->m48 ^ in->m51;
	const uint64_t l13 = in->m50 ^ l0;
	const uint64_t l14 = in->m52 ^ in->m61;
	const uint64_t l15 = in->m55 ^ l1;
	const uint64_t l16 = in->m56 ^ l0;
	const uint64_t l17 = in->m57 ^ l1;
	const uint64_t l18 = in->m58 ^ l8;
	const uint64_t l19 = in->m63 ^ l4;
	const uint64_t l20 = l0 ^ l1;
	const uint64_t l21 = l1 ^ l7;
	const uint64_t l22 = l3 ^ l12;
	const uint64_t l23 = l18 ^ l2;
	const uint64_t l24 = l15 ^ l9;
	const uint64_t l25 = l6 ^ l10;
	const uint64_t l26 = l7 ^ l9;
	const uint64_t l27 = l8 ^ l10;
	const uint64_t l28 = l11 ^ l14;
	const uint64_t l29 = l11 ^ l17;
	const uint64_t s0 = l6 ^ l24;
	const uint64_t s1 = ~(l16 ^ l26);
	const uint64_t s2 = ~(l19 ^ l28);
	const uint64_t s3 = l6 ^ l21;
	const uint64_t s4 = l20 ^ l22;
	const uint64_t s5 = l25 ^ l29;
	const uint64_t s6 = ~(l13 ^ l27);
	const uint64_t s7 = ~(l6 ^ l23);

	q[7] = s0;
	q[6] = s1;
	q[5] = s2;
	q[4] = s3;
	q[3] = s4;
	q[2] = s5;
	q[1] = s6;
	q[0] = s7;
}

/* figure 9 */
BS_INLINE void bp_bottom_inverse(const struct bp_mid *in, uint64_t q[8])
{
	const uint64_t p0 = in->m52 ^ in->m61;
	const uint64_t p1 = in->m58 ^ in->m59;
	const uint64_t p2 = in->m54 ^ in->m62;
	const uint64_t p3 = in->m47 ^ in->m50;
	const uint64_t p4 = in->m48 ^ in->m56;
	const uint64_t p5 = in->m46 ^ in->m51;
	const uint64_t p6 = in->m49 ^ in->m60;
	const uint64_t p7 = p0 ^ p1;
	const uint64_t p8 = in->m50 ^ in->m53;
	const uint64_t p9 = in->m55 ^ in->m63;
	const uint64_t p10 = in->m57 ^ p4;
	const uint64_t p11 = p0 ^ p3;
	const uint64_t p12 = in->m46 ^ in->m48;
	const uint64_t p13 = in->m49 ^ in->m51;
	const uint64_t p14 = in->m49 ^ in->m62;
	const uint64_t p15 = in->m54 ^ in->m59;
	const uint64_t p16 = in->m57 ^ in->m61;
	const uint64_t p17 = in->m58 ^ p2;
	const uint64_t p18 = in->m63 ^ p5;
	const uint64_t p19 = p2 ^ p3;
	const uint64_t p20 = p4 ^ p6;
	const uint64_t p22 = p2 ^ p7;
	const uint64_t p23 = p7 ^ p8;
	const uint64_t p24 = p5 ^ p7;
	const uint64_t p25 = p6 ^ p10;
	const uint64_t p26 = p9 ^ p11;
	const uint64_t p27 = p10 ^ p18;
	const uint64_t p28 = p11 ^ p25;
	const uint64_t p29 = p15 ^ p20;
	const uint64_t w0 = p13 ^ p22;
	const uint64_t w1 = p26 ^ p29;
	const uint64_t w2 = p17 ^ p28;
	const uint64_t w3 = p12 ^ p22;
	const uint64_t w4 = p23 ^ p27;
	const uint64_t w5 = p19 ^ p24;
	const uint64_t w6 = p14 ^ p23;
	const uint64_t w7 = p9 ^ p16;

	q[7] = w0;
	q[6] = w1;
	q[5] = w2;
	q[4] = w3;
	q[3] = w4;
	q[2] = w5;
	q[1] = w6;
	q[0] = w7;
}

BS_INLINE void sub_bytes(uint64_t q[8])
{
	struct bp_top t;
	struct bp_mid m;

	bp_top_forward(q, &t);
	bp_middle(&t, &m);
	bp_bottom_forward(&m, q);
}

BS_INLINE void inv_sub_bytes(uint64_t q[8])
{
	struct bp_top t;
	struct bp_mid m;

	bp_top_inverse(q, &t);
	bp_middle(&t, &m);
	bp_bottom_inverse(&m, q);
}

/* ---- linear layers ------------------------------------------------------ */

/*
 * Fixslicing (A. Adomnicai, T. Peyrin, "Fixslicing AES-like ciphers",
 * TCHES 2021(1)): ShiftRows is never applied to the state. After round i
 * the state y holds SR^-i(x), x the state of the textbook cipher, so round
 * i is SubBytes, then MC_i = SR^-i o MixColumns o SR^i, then the round key
 * SR^-i(k_i) (prepared by the key schedule). MC_i only depends on i mod 4:
 *     MC_i(a)[r][c] = sum over j of M[r][r+j] * a[r+j][c + i*j],
 * so the "row below" MixColumns needs is the next lane, its columns
 * rotated by i: tau_i below. SR^Nr is applied once after the last round.
 *
 * With bit 16r + 4c + k, tau_i moves nibble 4(r+1) + (c+i)%4 to 4r + c:
 * two rotations and two masks (one rotation for i = 0).
 */
BS_INLINE uint64_t tau0(uint64_t x)
{
	return ror64(x, 16);
}

BS_INLINE uint64_t tau1(uint64_t x)
{
	return (ror64(x, 20) & 0x0fff0fff0fff0fffull) |
	       (ror64(x, 4) & 0xf000f000f000f000ull);
}

BS_INLINE uint64_t tau2(uint64_t x)
{
	return (ror64(x, 24) & 0x00ff00ff00ff00ffull) |
	       (ror64(x, 8) & 0xff00ff00ff00ff00ull);
}

BS_INLINE uint64_t tau3(uint64_t x)
{
	return (ror64(x, 28) & 0x000f000f000f000full) |
	       (ror64(x, 12) & 0xfff0fff0fff0fff0ull);
}

/* tau_i twice: two lanes on, columns rotated by 2i (0 or 2) */
BS_INLINE uint64_t tau_sq_even(uint64_t x)
{
	return ror64(x, 32);
}

BS_INLINE uint64_t tau_sq_odd(uint64_t x)
{
	return (ror64(x, 40) & 0x00ff00ff00ff00ffull) |
	       (ror64(x, 24) & 0xff00ff00ff00ff00ull);
}

/*
 * MC_i: out[r] = 2a[r] + 3a[r+1] + a[r+2] + a[r+3]
 *             = 2(a + a')[r] + a'[r] + tau_i^2(a + a')[r],  a' = tau_i(a).
 * Multiplying a bitsliced byte by 2 is a shift across the eight words
 * with the reduction x^8 = x^4 + x^3 + x + 1 folded in. The loops over
 * the eight words are written out: at -O2 GCC neither unrolls them nor
 * keeps the state in registers otherwise.
 */
#define MIX_PREP(b, TAU)            \
	a1[b] = TAU(q[b]);          \
	t[b] = q[b] ^ a1[b];

#define DEFINE_MIX_COLUMNS(name, TAU, TAU_SQ)                               \
	BS_INLINE void name(uint64_t q[8])                                  \
	{                                                                   \
		uint64_t a1[8], t[8];                                       \
                                                                            \
		MIX_PREP(0, TAU) MIX_PREP(1, TAU) MIX_PREP(2, TAU)          \
		MIX_PREP(3, TAU) MIX_PREP(4, TAU) MIX_PREP(5, TAU)          \
		MIX_PREP(6, TAU) MIX_PREP(7, TAU)                           \
		q[0] = t[7] ^ a1[0] ^ TAU_SQ(t[0]);                         \
		q[1] = t[0] ^ t[7] ^ a1[1] ^ TAU_SQ(t[1]);                  \
		q[2] = t[1] ^ a1[2] ^ TAU_SQ(t[2]);                         \
		q[3] = t[2] ^ t[7] ^ a1[3] ^ TAU_SQ(t[3]);                  \
		q[4] = t[3] ^ t[7] ^ a1[4] ^ TAU_SQ(t[4]);                  \
		q[5] = t[4] ^ a1[5] ^ TAU_SQ(t[5]);                         \
		q[6] = t[5] ^ a1[6] ^ TAU_SQ(t[6]);                         \
		q[7] = t[6] ^ a1[7] ^ TAU_SQ(t[7]);                         \
	}

DEFINE_MIX_COLUMNS(mix_columns_0, tau0, tau_sq_even)
DEFINE_MIX_COLUMNS(mix_columns_1, tau1, tau_sq_odd)
DEFINE_MIX_COLUMNS(mix_columns_2, tau2, tau_sq_even)
DEFINE_MIX_COLUMNS(mix_columns_3, tau3, tau_sq_odd)

/*
 * InvMixColumns = MixColumns after multiplying by 04x^2 + 05 ("The Design
 * of Rijndael", 4.1.3): a[r] += 4(a[r] + a[r+2]); the same holds for the
 * MC_i with a[r+2] = tau_i^2(a). 4u is u * x^2 mod 0x11b, bit by bit.
 */
#define DEFINE_INV_MIX_COLUMNS(name, MIX, TAU_SQ)                           \
	BS_INLINE void name(uint64_t q[8])                                  \
	{                                                                   \
		uint64_t u[8];                                              \
                                                                            \
		u[0] = q[0] ^ TAU_SQ(q[0]);                                 \
		u[1] = q[1] ^ TAU_SQ(q[1]);                                 \
		u[2] = q[2] ^ TAU_SQ(q[2]);                                 \
		u[3] = q[3] ^ TAU_SQ(q[3]);                                 \
		u[4] = q[4] ^ TAU_SQ(q[4]);                                 \
		u[5] = q[5] ^ TAU_SQ(q[5]);                                 \
		u[6] = q[6] ^ TAU_SQ(q[6]);                                 \
		u[7] = q[7] ^ TAU_SQ(q[7]);                                 \
		q[0] ^= u[6];                                               \
		q[1] ^= u[6] ^ u[7];                                        \
		q[2] ^= u[0] ^ u[7];                                        \
		q[3] ^= u[1] ^ u[6];                                        \
		q[4] ^= u[2] ^ u[6] ^ u[7];                                 \
		q[5] ^= u[3] ^ u[7];                                        \
		q[6] ^= u[4];                                               \
		q[7] ^= u[5];                                               \
		MIX(q);                                                     \
	}

DEFINE_INV_MIX_COLUMNS(inv_mix_columns_0, mix_columns_0, tau_sq_even)
DEFINE_INV_MIX_COLUMNS(inv_mix_columns_1, mix_columns_1, tau_sq_odd)
DEFINE_INV_MIX_COLUMNS(inv_mix_columns_2, mix_columns_2, tau_sq_even)
DEFINE_INV_MIX_COLUMNS(inv_mix_columns_3, mix_columns_3, tau_sq_odd)

/*
 * ShiftRows twice: row r rotated by 2r columns, i.e. a byte swap inside
 * lanes 1 and 3. Its own inverse; SR^Nr for AES-128/256 (Nr % 4 == 2).
 */
BS_INLINE void shift_rows_twice(uint64_t q[8])
{
	for (int b = 0; b < 8; b++) {
		uint64_t t = ((q[b] >> 8) ^ q[b]) & 0x00ff000000ff0000ull;

		q[b] ^= t ^ (t << 8);
	}
}

/* inverse ShiftRows on one word: row r (lane r) rotated left by 4r bits */
static uint64_t inv_shift_rows_word(uint64_t x)
{
	uint64_t t = ((x >> 8) ^ x) & 0x00ff00ff00000000ull;

	x ^= t ^ (t << 8); /* lanes 2, 3 by 8 */
	return (x & 0x0000ffff0000ffffull) |
	       ((x << 4) & 0xfff00000fff00000ull) |
	       ((x >> 12) & 0x000f0000000f0000ull); /* lanes 1, 3 by 4 */
}

BS_INLINE void add_round_key(uint64_t q[8], const uint64_t *rk)
{
	q[0] ^= rk[0];
	q[1] ^= rk[1];
	q[2] ^= rk[2];
	q[3] ^= rk[3];
	q[4] ^= rk[4];
	q[5] ^= rk[5];
	q[6] ^= rk[6];
	q[7] ^= rk[7];
}

/* ---- bitslicing ----------------------------------------------------------- */

/* exchange the bits of a selected by mask << n with those of b under mask */
#define SWAPMOVE(a, b, mask, n)                                  \
	do {                                                     \
		uint64_t swapmove_t = (((a) >> (n)) ^ (b)) & (mask); \
		(b) ^= swapmove_t;                               \
		(a) ^= swapmove_t << (n);                        \
	} while (0)

/* bytes a0..a3 b0..b3 -> a0 b0 a1 b1 a2 b2 a3 b3 (and back, in reverse) */
BS_INLINE uint64_t zip_bytes(uint64_t x)
{
	uint64_t t = ((x >> 16) ^ x) & 0x00000000ffff0000ull;

	x ^= t ^ (t << 16);
	t = ((x >> 8) ^ x) & 0x0000ff000000ff00ull;
	return x ^ t ^ (t << 8);
}

BS_INLINE uint64_t unzip_bytes(uint64_t x)
{
	uint64_t t = ((x >> 8) ^ x) & 0x0000ff000000ff00ull;

	x ^= t ^ (t << 8);
	t = ((x >> 16) ^ x) & 0x00000000ffff0000ull;
	return x ^ t ^ (t << 16);
}

/*
 * 8x8 bit transpose in every byte position: afterwards bit 8m + i of word
 * b is what bit 8m + b of word i was. Its own inverse.
 */
BS_INLINE void transpose8(uint64_t w[8])
{
	SWAPMOVE(w[0], w[1], 0x5555555555555555ull, 1);
	SWAPMOVE(w[2], w[3], 0x5555555555555555ull, 1);
	SWAPMOVE(w[4], w[5], 0x5555555555555555ull, 1);
	SWAPMOVE(w[6], w[7], 0x5555555555555555ull, 1);
	SWAPMOVE(w[0], w[2], 0x3333333333333333ull, 2);
	SWAPMOVE(w[1], w[3], 0x3333333333333333ull, 2);
	SWAPMOVE(w[4], w[6], 0x3333333333333333ull, 2);
	SWAPMOVE(w[5], w[7], 0x3333333333333333ull, 2);
	SWAPMOVE(w[0], w[4], 0x0f0f0f0f0f0f0f0full, 4);
	SWAPMOVE(w[1], w[5], 0x0f0f0f0f0f0f0f0full, 4);
	SWAPMOVE(w[2], w[6], 0x0f0f0f0f0f0f0f0full, 4);
	SWAPMOVE(w[3], w[7], 0x0f0f0f0f0f0f0f0full, 4);
}

/*
 * Four blocks -> bitsliced state. Word k (k < 4) gets columns 0 and 2 of
 * block k, word 4 + k columns 1 and 3, bytes zipped so that byte 2r + c/2
 * is row r; the transpose then puts byte m of word i at bit 8m + i, which
 * is bit 16r + 8(c/2) + 4(c%2) + k = 16r + 4c + k.
 */
BS_INLINE void bs_load(uint64_t q[8], const uint8_t *in)
{
	for (int k = 0; k < BS_BLOCKS; k++) {
		uint64_t lo = load_le64(in + 16 * k);     /* columns 0, 1 */
		uint64_t hi = load_le64(in + 16 * k + 8); /* columns 2, 3 */

		q[k] = zip_bytes((lo & 0xffffffffull) | (hi << 32));
		q[k + 4] = zip_bytes((lo >> 32) | (hi & 0xffffffff00000000ull));
	}
	transpose8(q);
}

/* the inverse of bs_load; q is clobbered */
BS_INLINE void bs_store(uint8_t *out, uint64_t q[8])
{
	transpose8(q);
	for (int k = 0; k < BS_BLOCKS; k++) {
		uint64_t a = unzip_bytes(q[k]);     /* columns 0, 2 */
		uint64_t b = unzip_bytes(q[k + 4]); /* columns 1, 3 */

		store_le64(out + 16 * k, (a & 0xffffffffull) | (b << 32));
		store_le64(out + 16 * k + 8,
			   (a >> 32) | (b & 0xffffffff00000000ull));
	}
}

/* ---- rounds ---------------------------------------------------------------- */

/* the switches branch on the round number, which is public */
static void bs_encrypt(const struct aes_bs_ctx *ctx, uint64_t state[8])
{
	const uint64_t *rk = ctx->rk;
	unsigned int rounds = ctx->rounds;
	uint64_t q[8];

	memcpy(q, state, sizeof(q));
	add_round_key(q, rk);
	for (unsigned int r = 1; r < rounds; r++) {
		sub_bytes(q);
		switch (r % 4) {
		case 0:
			mix_columns_0(q);
			break;
		case 1:
			mix_columns_1(q);
			break;
		case 2:
			mix_columns_2(q);
			break;
		default:
			mix_columns_3(q);
			break;
		}
		add_round_key(q, rk + 8 * r);
	}
	sub_bytes(q);
	add_round_key(q, rk + 8 * rounds);
	if (rounds % 4 == 2)
		shift_rows_twice(q);
	memcpy(state, q, sizeof(q));
}

static void bs_decrypt(const struct aes_bs_ctx *ctx, uint64_t state[8])
{
	const uint64_t *rk = ctx->rk;
	unsigned int rounds = ctx->rounds;
	uint64_t q[8];

	memcpy(q, state, sizeof(q));
	if (rounds % 4 == 2)
		shift_rows_twice(q);
	add_round_key(q, rk + 8 * rounds);
	inv_sub_bytes(q);
	for (unsigned int r = rounds - 1; r > 0; r--) {
		add_round_key(q, rk + 8 * r);
		switch (r % 4) {
		case 0:
			inv_mix_columns_0(q);
			break;
		case 1:
			inv_mix_columns_1(q);
			break;
		case 2:
			inv_mix_columns_2(q);
			break;
		default:
			inv_mix_columns_3(q);
			break;
		}
		inv_sub_bytes(q);
	}
	add_round_key(q, rk);
	memcpy(state, q, sizeof(q));
}

/* ---- key schedule (FIPS-197 5.2) -------------------------------------------- */

/* SubWord through the same circuit: byte j of w in lane position j */
static uint32_t sub_word(uint32_t w)
{
	uint64_t q[8];
	uint32_t r = 0;

	for (unsigned int b = 0; b < 8; b++) {
		q[b] = 0;
		for (unsigned int j = 0; j < 4; j++)
			q[b] |= (uint64_t)((w >> (8 * j + b)) & 1) << j;
	}
	sub_bytes(q);
	for (unsigned int b = 0; b < 8; b++)
		for (unsigned int j = 0; j < 4; j++)
			r |= (uint32_t)((q[b] >> j) & 1) << (8 * j + b);
	explicit_bzero(q, sizeof(q));
	return r;
}

unsigned int aes_expand_key(uint32_t w[AES_MAX_KEY_WORDS], const uint8_t *key,
			    size_t keylen)
{
	/* x^(i-1) in GF(2^8), enough for AES-128's ten rounds */
	static const uint8_t rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10,
					  0x20, 0x40, 0x80, 0x1b, 0x36 };
	size_t nk = keylen / 4, nw;

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return 0;
	nw = 4 * (nk + 7);

	/* words little-endian: byte 0 of the key is the low byte of w[0] */
	for (size_t i = 0; i < nk; i++)
		w[i] = load_le32(key + 4 * i);
	for (size_t i = nk; i < nw; i++) {
		uint32_t t = w[i - 1];

		/* branches on the key length only, which is public */
		if (i % nk == 0)
			t = sub_word(ror32(t, 8)) ^ rcon[i / nk - 1];
		else if (nk > 6 && i % nk == 4)
			t = sub_word(t);
		w[i] = w[i - nk] ^ t;
	}
	return (unsigned int)nk + 6;
}

static int aes_bs_setkey(void *vctx, const uint8_t *key, size_t keylen)
{
	struct aes_bs_ctx *ctx = vctx;
	uint32_t w[AES_MAX_KEY_WORDS];
	uint8_t blocks[BS_BYTES];
	uint64_t q[8];

	ctx->rounds = aes_expand_key(w, key, keylen);
	if (!ctx->rounds)
		return -EINVAL;

	for (unsigned int r = 0; r <= ctx->rounds; r++) {
		for (int k = 0; k < BS_BLOCKS; k++)
			for (unsigned int j = 0; j < 4; j++)
				store_le32(blocks + 16 * k + 4 * j, w[4 * r + j]);
		bs_load(q, blocks);
		/* fixslicing: round key r is SR^-r(k_r), see MC_i above */
		for (unsigned int i = 0; i < r % 4; i++)
			for (int b = 0; b < 8; b++)
				q[b] = inv_shift_rows_word(q[b]);
		memcpy(ctx->rk + 8 * r, q, sizeof(q));
	}
	explicit_bzero(w, sizeof(w));
	explicit_bzero(blocks, sizeof(blocks));
	explicit_bzero(q, sizeof(q));
	return 0;
}

/* ---- block interface ----------------------------------------------------------- */

static void aes_bs_crypt_blocks(const struct aes_bs_ctx *ctx, uint8_t *dst,
				const uint8_t *src, size_t nblocks, int enc)
{
	uint64_t q[8];

	/* the whole input is loaded before any output is stored: in place is fine */
	for (; nblocks >= BS_BLOCKS; nblocks -= BS_BLOCKS) {
		bs_load(q, src);
		if (enc)
			bs_encrypt(ctx, q);
		else
			bs_decrypt(ctx, q);
		bs_store(dst, q);
		src += BS_BYTES;
		dst += BS_BYTES;
	}
	if (nblocks) {
		uint8_t buf[BS_BYTES] = { 0 };

		memcpy(buf, src, nblocks * AES_BLOCK_SIZE);
		bs_load(q, buf);
		if (enc)
			bs_encrypt(ctx, q);
		else
			bs_decrypt(ctx, q);
		bs_store(buf, q);
		memcpy(dst, buf, nblocks * AES_BLOCK_SIZE);
		explicit_bzero(buf, sizeof(buf));
	}
	explicit_bzero(q, sizeof(q));
}

static void aes_bs_encrypt_blocks(const void *ctx, uint8_t *dst,
				  const uint8_t *src, size_t nblocks)
{
	aes_bs_crypt_blocks(ctx, dst, src, nblocks, 1);
}

static void aes_bs_decrypt_blocks(const void *ctx, uint8_t *dst,
				  const uint8_t *src, size_t nblocks)
{
	aes_bs_crypt_blocks(ctx, dst, src, nblocks, 0);
}

static void aes_bs_encrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	aes_bs_crypt_blocks(ctx, dst, src, 1, 1);
}

static void aes_bs_decrypt(const void *ctx, uint8_t *dst, const uint8_t *src)
{
	aes_bs_crypt_blocks(ctx, dst, src, 1, 0);
}

static const struct cipher_alg aes_bs_alg = {
	.blocksize = AES_BLOCK_SIZE,
	.keysizes = { 16, 24, 32, 0 },
	.ctxsize = sizeof(struct aes_bs_ctx),
	.setkey = aes_bs_setkey,
	.encrypt = aes_bs_encrypt,
	.decrypt = aes_bs_decrypt,
	.encrypt_blocks = aes_bs_encrypt_blocks,
	.decrypt_blocks = aes_bs_decrypt_blocks,
};

static const struct crypto_driver aes_generic_driver = {
	.alg_name = "aes",
	.driver_name = "aes-generic",
	.priority = 100,
	.features = 0,
	.flags = CRYPTO_F_CONST_TIME,
	.type = CRYPTO_TYPE_CIPHER,
	.u.cipher = &aes_bs_alg,
};

int aes_generic_register(struct crypto_registry *reg)
{
	int err;

	err = crypto_register_driver(reg, &aes_generic_driver);
	if (err)
		return err;
	err = crypto_register_driver(reg, &aes_table_driver);
	if (err)
		return err;
	return aes_register_testvecs(reg);
}
