/* SPDX-License-Identifier: MIT */
/*
 * Constant-time AES on NEON, bitsliced, eight blocks per pass: one file
 * of intrinsics for both AArch64 and ARMv7 AArch32 (arm_neon.h is the
 * same API there; meson builds this file alone with -mfpu=neon on
 * AArch32). Entry points and key layout: see aes-neonbs-core.h.
 *
 * Layout (E. Kasper, P. Schwabe, "Faster and timing-attack resistant
 * AES-GCM", CHES 2009, https://eprint.iacr.org/2009/129): eight 128-bit
 * registers q[0..7], q[b] holding bit b of every byte of the eight
 * blocks; byte m of q[b] is byte position m of the AES state (m = 4c + r,
 * FIPS-197 order) and its bit k comes from block k. So every byte
 * permutation of the state is one permutation of the bytes of each
 * register:
 *  - ShiftRows: a table lookup (tbl; two vtbl.8 on AArch32);
 *  - MixColumns needs "the byte one row down": a rotation of each 32-bit
 *    lane by 8 bits (tbl on AArch64, shift + insert on AArch32), and two
 *    rows down: vrev32.16.
 * No lookup is indexed by secret data; the tables only hold positions.
 *
 * S-box: the Boyar-Peralta circuits, the same gate sequence as
 * crypto/aes/aes-generic.c (its comment cites the paper), with AND as
 * vand and XOR as veor. Their XNORs are left out: they amount to the
 * affine constant 0x63 on the forward output and on the inverse input,
 * and since ShiftRows, MixColumns and InvMixColumns map a state of equal
 * bytes c to itself (each matrix row sums to 1), that constant moves
 * into round keys 1..Nr (aes-neonbs-glue.c XORs it in), for encryption
 * and decryption alike.
 *
 * Decryption is the textbook inverse cipher (FIPS-197 5.3), with
 * InvMixColumns = MixColumns after multiplying by 04x^2 + 05 ("The Design
 * of Rijndael", 4.1.3), as in aes-generic.c.
 */
#include "crypto/arch/arm/aes-neonbs-core.h"

#include <arm_neon.h>
#include <string.h>

#if defined(__GNUC__)
#define NEONBS_INLINE static inline __attribute__((always_inline))
#else
#define NEONBS_INLINE static inline
#endif

/* per-block loops written once, unrolled: the vectors stay in registers */
#define NEONBS_UNROLL _Pragma("GCC unroll 8")

typedef uint8x16_t v128;

/* ---- S-box (Boyar-Peralta, see aes-generic.c) ---------------------------- */

/* what the top linear layer hands to the shared middle (figure 7) */
struct bp_top {
	v128 t1, t2, t3, t4, t6, t8, t9, t10, t13, t14, t15, t16, t17, t19,
		t20, t22, t23, t24, t25, t26, t27, d;
};

/* what the middle hands to the bottom linear layer */
struct bp_mid {
	v128 m46, m47, m48, m49, m50, m51, m52, m53, m54, m55, m56, m57,
		m58, m59, m60, m61, m62, m63;
};

/* figure 5 */
NEONBS_INLINE void bp_top_forward(const v128 q[8], struct bp_top *out)
{
	const v128 u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	const v128 u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];

	const v128 t1 = veorq_u8(u0, u3);
	const v128 t2 = veorq_u8(u0, u5);
	const v128 t3 = veorq_u8(u0, u6);
	const v128 t4 = veorq_u8(u3, u5);
	const v128 t5 = veorq_u8(u4, u6);
	const v128 t6 = veorq_u8(t1, t5);
	const v128 t7 = veorq_u8(u1, u2);
	const v128 t8 = veorq_u8(u7, t6);
	const v128 t9 = veorq_u8(u7, t7);
	const v128 t10 = veorq_u8(t6, t7);
	const v128 t11 = veorq_u8(u1, u5);
	const v128 t12 = veorq_u8(u2, u5);
	const v128 t13 = veorq_u8(t3, t4);
	const v128 t14 = veorq_u8(t6, t11);
	const v128 t15 = veorq_u8(t5, t11);
	const v128 t16 = veorq_u8(t5, t12);
	const v128 t17 = veorq_u8(t9, t16);
	const v128 t18 = veorq_u8(u3, u7);
	const v128 t19 = veorq_u8(t7, t18);
	const v128 t20 = veorq_u8(t1, t19);
	const v128 t21 = veorq_u8(u6, u7);
	const v128 t22 = veorq_u8(t7, t21);
	const v128 t23 = veorq_u8(t2, t22);
	const v128 t24 = veorq_u8(t2, t10);
	const v128 t25 = veorq_u8(t20, t17);
	const v128 t26 = veorq_u8(t3, t16);
	const v128 t27 = veorq_u8(t1, t12);
	*out = (struct bp_top){
		.t1 = t1, .t2 = t2, .t3 = t3, .t4 = t4, .t6 = t6, .t8 = t8, .t9 = t9,
		.t10 = t10, .t13 = t13, .t14 = t14, .t15 = t15, .t16 = t16, .t17 = t17,
		.t19 = t19, .t20 = t20, .t22 = t22, .t23 = t23, .t24 = t24, .t25 = t25,
		.t26 = t26, .t27 = t27, .d = u7
	};
}

/* figure 6, without its XNORs (the input comes XORed with 0x63) */
NEONBS_INLINE void bp_top_inverse(const v128 q[8], struct bp_top *out)
{
	const v128 u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	const v128 u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];

	const v128 t23 = veorq_u8(u0, u3);
	const v128 t22 = veorq_u8(u1, u3);
	const v128 t2 = veorq_u8(u0, u1);
	const v128 t1 = veorq_u8(u3, u4);
	const v128 t24 = veorq_u8(u4, u7);
	const v128 r5 = veorq_u8(u6, u7);
	const v128 t8 = veorq_u8(u1, t23);
	const v128 t19 = veorq_u8(t22, r5);
	const v128 t9 = veorq_u8(u7, t1);
	const v128 t10 = veorq_u8(t2, t24);
	const v128 t13 = veorq_u8(t2, r5);
	const v128 t3 = veorq_u8(t1, r5);
	const v128 t25 = veorq_u8(u2, t1);
	const v128 r13 = veorq_u8(u1, u6);
	const v128 t17 = veorq_u8(u2, t19);
	const v128 t20 = veorq_u8(t24, r13);
	const v128 t4 = veorq_u8(u4, t8);
	const v128 r17 = veorq_u8(u2, u5);
	const v128 r18 = veorq_u8(u5, u6);
	const v128 r19 = veorq_u8(u2, u4);
	const v128 y5 = veorq_u8(u0, r17);
	const v128 t6 = veorq_u8(t22, r17);
	const v128 t16 = veorq_u8(r13, r19);
	const v128 t27 = veorq_u8(t1, r18);
	const v128 t15 = veorq_u8(t10, t27);
	const v128 t14 = veorq_u8(t10, r18);
	const v128 t26 = veorq_u8(t3, t16);
	*out = (struct bp_top){
		.t1 = t1, .t2 = t2, .t3 = t3, .t4 = t4, .t6 = t6, .t8 = t8, .t9 = t9,
		.t10 = t10, .t13 = t13, .t14 = t14, .t15 = t15, .t16 = t16, .t17 = t17,
		.t19 = t19, .t20 = t20, .t22 = t22, .t23 = t23, .t24 = t24, .t25 = t25,
		.t26 = t26, .t27 = t27, .d = y5
	};
}

/* figure 7: inversion in GF(2^8) through a tower field */
NEONBS_INLINE void bp_middle(const struct bp_top *in, struct bp_mid *out)
{
	const v128 m1 = vandq_u8(in->t13, in->t6);
	const v128 m2 = vandq_u8(in->t23, in->t8);
	const v128 m3 = veorq_u8(in->t14, m1);
	const v128 m4 = vandq_u8(in->t19, in->d);
	const v128 m5 = veorq_u8(m4, m1);
	const v128 m6 = vandq_u8(in->t3, in->t16);
	const v128 m7 = vandq_u8(in->t22, in->t9);
	const v128 m8 = veorq_u8(in->t26, m6);
	const v128 m9 = vandq_u8(in->t20, in->t17);
	const v128 m10 = veorq_u8(m9, m6);
	const v128 m11 = vandq_u8(in->t1, in->t15);
	const v128 m12 = vandq_u8(in->t4, in->t27);
	const v128 m13 = veorq_u8(m12, m11);
	const v128 m14 = vandq_u8(in->t2, in->t10);
	const v128 m15 = veorq_u8(m14, m11);
	const v128 m16 = veorq_u8(m3, m2);
	const v128 m17 = veorq_u8(m5, in->t24);
	const v128 m18 = veorq_u8(m8, m7);
	const v128 m19 = veorq_u8(m10, m15);
	const v128 m20 = veorq_u8(m16, m13);
	const v128 m21 = veorq_u8(m17, m15);
	const v128 m22 = veorq_u8(m18, m13);
	const v128 m23 = veorq_u8(m19, in->t25);
	const v128 m24 = veorq_u8(m22, m23);
	const v128 m25 = vandq_u8(m22, m20);
	const v128 m26 = veorq_u8(m21, m25);
	const v128 m27 = veorq_u8(m20, m21);
	const v128 m28 = veorq_u8(m23, m25);
	const v128 m29 = vandq_u8(m28, m27);
	const v128 m30 = vandq_u8(m26, m24);
	const v128 m31 = vandq_u8(m20, m23);
	const v128 m32 = vandq_u8(m27, m31);
	const v128 m33 = veorq_u8(m27, m25);
	const v128 m34 = vandq_u8(m21, m22);
	const v128 m35 = vandq_u8(m24, m34);
	const v128 m36 = veorq_u8(m24, m25);
	const v128 m37 = veorq_u8(m21, m29);
	const v128 m38 = veorq_u8(m32, m33);
	const v128 m39 = veorq_u8(m23, m30);
	const v128 m40 = veorq_u8(m35, m36);
	const v128 m41 = veorq_u8(m38, m40);
	const v128 m42 = veorq_u8(m37, m39);
	const v128 m43 = veorq_u8(m37, m38);
	const v128 m44 = veorq_u8(m39, m40);
	const v128 m45 = veorq_u8(m42, m41);
	out->m46 = vandq_u8(m44, in->t6);
	out->m47 = vandq_u8(m40, in->t8);
	out->m48 = vandq_u8(m39, in->d);
	out->m49 = vandq_u8(m43, in->t16);
	out->m50 = vandq_u8(m38, in->t9);
	out->m51 = vandq_u8(m37, in->t17);
	out->m52 = vandq_u8(m42, in->t15);
	out->m53 = vandq_u8(m45, in->t27);
	out->m54 = vandq_u8(m41, in->t10);
	out->m55 = vandq_u8(m44, in->t13);
	out->m56 = vandq_u8(m40, in->t23);
	out->m57 = vandq_u8(m39, in->t19);
	out->m58 = vandq_u8(m43, in->t3);
	out->m59 = vandq_u8(m38, in->t22);
	out->m60 = vandq_u8(m37, in->t20);
	out->m61 = vandq_u8(m42, in->t1);
	out->m62 = vandq_u8(m45, in->t4);
	out->m63 = vandq_u8(m41, in->t2);
}

/* figure 8, without its XNORs (the 0x63 is in the round keys) */
NEONBS_INLINE void bp_bottom_forward(const struct bp_mid *in, v128 q[8])
{
	const v128 l0 = veorq_u8(in->m61, in->m62);
	const v128 l1 = veorq_u8(in->m50, in->m56);
	const v128 l2 = veorq_u8(in->m46, in->m48);
	const v128 l3 = veorq_u8(in->m47, in->m55);
	const v128 l4 = veorq_u8(in->m54, in->m58);
	const v128 l5 = veorq_u8(in->m49, in->m61);
	const v128 l6 = veorq_u8(in->m62, l5);
	const v128 l7 = veorq_u8(in->m46, l3);
	const v128 l8 = veorq_u8(in->m51, in->m59);
	const v128 l9 = veorq_u8(in->m52, in->m53);
	const v128 l10 = veorq_u8(in->m53, l4);
	const v128 l11 = veorq_u8(in->m60, l2);
	const v128 l12 = veorq_u8(in->m48, in->m51);
	const v128 l13 = veorq_u8(in->m50, l0);
	const v128 l14 = veorq_u8(in->m52, in->m61);
	const v128 l15 = veorq_u8(in->m55, l1);
	const v128 l16 = veorq_u8(in->m56, l0);
	const v128 l17 = veorq_u8(in->m57, l1);
	const v128 l18 = veorq_u8(in->m58, l8);
	const v128 l19 = veorq_u8(in->m63, l4);
	const v128 l20 = veorq_u8(l0, l1);
	const v128 l21 = veorq_u8(l1, l7);
	const v128 l22 = veorq_u8(l3, l12);
	const v128 l23 = veorq_u8(l18, l2);
	const v128 l24 = veorq_u8(l15, l9);
	const v128 l25 = veorq_u8(l6, l10);
	const v128 l26 = veorq_u8(l7, l9);
	const v128 l27 = veorq_u8(l8, l10);
	const v128 l28 = veorq_u8(l11, l14);
	const v128 l29 = veorq_u8(l11, l17);
	const v128 s0 = veorq_u8(l6, l24);
	const v128 s1 = veorq_u8(l16, l26);
	const v128 s2 = veorq_u8(l19, l28);
	const v128 s3 = veorq_u8(l6, l21);
	const v128 s4 = veorq_u8(l20, l22);
	const v128 s5 = veorq_u8(l25, l29);
	const v128 s6 = veorq_u8(l13, l27);
	const v128 s7 = veorq_u8(l6, l23);

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
NEONBS_INLINE void bp_bottom_inverse(const struct bp_mid *in, v128 q[8])
{
	const v128 p0 = veorq_u8(in->m52, in->m61);
	const v128 p1 = veorq_u8(in->m58, in->m59);
	const v128 p2 = veorq_u8(in->m54, in->m62);
	const v128 p3 = veorq_u8(in->m47, in->m50);
	const v128 p4 = veorq_u8(in->m48, in->m56);
	const v128 p5 = veorq_u8(in->m46, in->m51);
	const v128 p6 = veorq_u8(in->m49, in->m60);
	const v128 p7 = veorq_u8(p0, p1);
	const v128 p8 = veorq_u8(in->m50, in->m53);
	const v128 p9 = veorq_u8(in->m55, in->m63);
	const v128 p10 = veorq_u8(in->m57, p4);
	const v128 p11 = veorq_u8(p0, p3);
	const v128 p12 = veorq_u8(in->m46, in->m48);
	const v128 p13 = veorq_u8(in->m49, in->m51);
	const v128 p14 = veorq_u8(in->m49, in->m62);
	const v128 p15 = veorq_u8(in->m54, in->m59);
	const v128 p16 = veorq_u8(in->m57, in->m61);
	const v128 p17 = veorq_u8(in->m58, p2);
	const v128 p18 = veorq_u8(in->m63, p5);
	const v128 p19 = veorq_u8(p2, p3);
	const v128 p20 = veorq_u8(p4, p6);
	const v128 p22 = veorq_u8(p2, p7);
	const v128 p23 = veorq_u8(p7, p8);
	const v128 p24 = veorq_u8(p5, p7);
	const v128 p25 = veorq_u8(p6, p10);
	const v128 p26 = veorq_u8(p9, p11);
	const v128 p27 = veorq_u8(p10, p18);
	const v128 p28 = veorq_u8(p11, p25);
	const v128 p29 = veorq_u8(p15, p20);
	const v128 w0 = veorq_u8(p13, p22);
	const v128 w1 = veorq_u8(p26, p29);
	const v128 w2 = veorq_u8(p17, p28);
	const v128 w3 = veorq_u8(p12, p22);
	const v128 w4 = veorq_u8(p23, p27);
	const v128 w5 = veorq_u8(p19, p24);
	const v128 w6 = veorq_u8(p14, p23);
	const v128 w7 = veorq_u8(p9, p16);

	q[7] = w0;
	q[6] = w1;
	q[5] = w2;
	q[4] = w3;
	q[3] = w4;
	q[2] = w5;
	q[1] = w6;
	q[0] = w7;
}

NEONBS_INLINE void sub_bytes(v128 q[8])
{
	struct bp_top t;
	struct bp_mid m;

	bp_top_forward(q, &t);
	bp_middle(&t, &m);
	bp_bottom_forward(&m, q);
}

NEONBS_INLINE void inv_sub_bytes(v128 q[8])
{
	struct bp_top t;
	struct bp_mid m;

	bp_top_inverse(q, &t);
	bp_middle(&t, &m);
	bp_bottom_inverse(&m, q);
}

/* ---- linear layers ------------------------------------------------------ */

/* byte m = 4c + r of the result is byte idx[m] of the input */
static const uint8_t shift_rows_idx[16] = {
	0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11,
};
static const uint8_t inv_shift_rows_idx[16] = {
	0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3,
};
/* one row down in each column: a 32-bit lane rotated right by 8 bits */
static const uint8_t row_down_idx[16] = {
	1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
};

/* the permutations of one pass, loaded once */
struct perms {
	v128 sr, isr, down;
};

NEONBS_INLINE void load_perms(struct perms *p)
{
	p->sr = vld1q_u8(shift_rows_idx);
	p->isr = vld1q_u8(inv_shift_rows_idx);
	p->down = vld1q_u8(row_down_idx);
}

NEONBS_INLINE v128 permute(v128 x, v128 idx)
{
#if defined(__aarch64__)
	return vqtbl1q_u8(x, idx);
#else
	uint8x8x2_t t = { { vget_low_u8(x), vget_high_u8(x) } };

	return vcombine_u8(vtbl2_u8(t, vget_low_u8(idx)),
			   vtbl2_u8(t, vget_high_u8(idx)));
#endif
}

NEONBS_INLINE v128 row_down(v128 x, v128 idx)
{
#if defined(__aarch64__)
	return vqtbl1q_u8(x, idx);
#else
	uint32x4_t w = vreinterpretq_u32_u8(x);

	(void)idx;
	return vreinterpretq_u8_u32(vsliq_n_u32(vshrq_n_u32(w, 8), w, 24));
#endif
}

NEONBS_INLINE v128 two_rows_down(v128 x)
{
	return vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(x)));
}

NEONBS_INLINE void shift_rows(v128 q[8], v128 idx)
{
	q[0] = permute(q[0], idx);
	q[1] = permute(q[1], idx);
	q[2] = permute(q[2], idx);
	q[3] = permute(q[3], idx);
	q[4] = permute(q[4], idx);
	q[5] = permute(q[5], idx);
	q[6] = permute(q[6], idx);
	q[7] = permute(q[7], idx);
}

/*
 * out[r] = 2a[r] + 3a[r+1] + a[r+2] + a[r+3]
 *        = 2t[r] + a'[r] + t[r+2],  a' = a one row down, t = a + a'.
 * Doubling a bitsliced byte shifts across the planes, with
 * x^8 = x^4 + x^3 + x + 1 folded in (planes 1, 3, 4 take t[7]).
 */
#define MIX_PREP(b)                          \
	a1[b] = row_down(q[b], down);        \
	t[b] = veorq_u8(q[b], a1[b]);        \
	a1[b] = veorq_u8(a1[b], two_rows_down(t[b]));

NEONBS_INLINE void mix_columns(v128 q[8], v128 down)
{
	v128 a1[8], t[8];

	MIX_PREP(0) MIX_PREP(1) MIX_PREP(2) MIX_PREP(3)
	MIX_PREP(4) MIX_PREP(5) MIX_PREP(6) MIX_PREP(7)
	q[0] = veorq_u8(a1[0], t[7]);
	q[1] = veorq_u8(veorq_u8(a1[1], t[0]), t[7]);
	q[2] = veorq_u8(a1[2], t[1]);
	q[3] = veorq_u8(veorq_u8(a1[3], t[2]), t[7]);
	q[4] = veorq_u8(veorq_u8(a1[4], t[3]), t[7]);
	q[5] = veorq_u8(a1[5], t[4]);
	q[6] = veorq_u8(a1[6], t[5]);
	q[7] = veorq_u8(a1[7], t[6]);
}

/* a[r] += 4(a[r] + a[r+2]), then MixColumns; 4u is u * x^2 mod 0x11b */
NEONBS_INLINE void inv_mix_columns(v128 q[8], v128 down)
{
	v128 u[8];

	u[0] = veorq_u8(q[0], two_rows_down(q[0]));
	u[1] = veorq_u8(q[1], two_rows_down(q[1]));
	u[2] = veorq_u8(q[2], two_rows_down(q[2]));
	u[3] = veorq_u8(q[3], two_rows_down(q[3]));
	u[4] = veorq_u8(q[4], two_rows_down(q[4]));
	u[5] = veorq_u8(q[5], two_rows_down(q[5]));
	u[6] = veorq_u8(q[6], two_rows_down(q[6]));
	u[7] = veorq_u8(q[7], two_rows_down(q[7]));
	q[0] = veorq_u8(q[0], u[6]);
	q[1] = veorq_u8(q[1], veorq_u8(u[6], u[7]));
	q[2] = veorq_u8(q[2], veorq_u8(u[0], u[7]));
	q[3] = veorq_u8(q[3], veorq_u8(u[1], u[6]));
	q[4] = veorq_u8(q[4], veorq_u8(veorq_u8(u[2], u[6]), u[7]));
	q[5] = veorq_u8(q[5], veorq_u8(u[3], u[7]));
	q[6] = veorq_u8(q[6], u[4]);
	q[7] = veorq_u8(q[7], u[5]);
	mix_columns(q, down);
}

NEONBS_INLINE void add_round_key(v128 q[8], const uint8_t *rk)
{
	q[0] = veorq_u8(q[0], vld1q_u8(rk));
	q[1] = veorq_u8(q[1], vld1q_u8(rk + 16));
	q[2] = veorq_u8(q[2], vld1q_u8(rk + 32));
	q[3] = veorq_u8(q[3], vld1q_u8(rk + 48));
	q[4] = veorq_u8(q[4], vld1q_u8(rk + 64));
	q[5] = veorq_u8(q[5], vld1q_u8(rk + 80));
	q[6] = veorq_u8(q[6], vld1q_u8(rk + 96));
	q[7] = veorq_u8(q[7], vld1q_u8(rk + 112));
}

/* ---- bitslicing ---------------------------------------------------------- */

/* exchange the bits of a selected by mask << n with those of b under mask */
#define SWAPMOVE(a, b, mask, n)                                               \
	do {                                                                  \
		v128 swapmove_t = vandq_u8(veorq_u8(vshrq_n_u8(a, n), b), mask); \
		(b) = veorq_u8(b, swapmove_t);                                \
		(a) = veorq_u8(a, vshlq_n_u8(swapmove_t, n));                 \
	} while (0)

/*
 * 8x8 bit transpose in every byte position: afterwards bit i of byte m of
 * w[b] is what bit b of byte m of w[i] was. From eight blocks (w[k] =
 * block k) it makes the bitsliced state; it is its own inverse.
 */
NEONBS_INLINE void transpose8(v128 w[8])
{
	const v128 m1 = vdupq_n_u8(0x55), m2 = vdupq_n_u8(0x33),
		   m4 = vdupq_n_u8(0x0f);

	SWAPMOVE(w[0], w[1], m1, 1);
	SWAPMOVE(w[2], w[3], m1, 1);
	SWAPMOVE(w[4], w[5], m1, 1);
	SWAPMOVE(w[6], w[7], m1, 1);
	SWAPMOVE(w[0], w[2], m2, 2);
	SWAPMOVE(w[1], w[3], m2, 2);
	SWAPMOVE(w[4], w[6], m2, 2);
	SWAPMOVE(w[5], w[7], m2, 2);
	SWAPMOVE(w[0], w[4], m4, 4);
	SWAPMOVE(w[1], w[5], m4, 4);
	SWAPMOVE(w[2], w[6], m4, 4);
	SWAPMOVE(w[3], w[7], m4, 4);
}

/* ---- eight blocks -------------------------------------------------------- */

/* x[k] = block k, encrypted in place; the round count is public */
static void encrypt8(const struct aes_neonbs_key *key, v128 x[8])
{
	const uint8_t *rk = &key->rk[0][0][0];
	unsigned int rounds = key->rounds;
	struct perms p;
	v128 q[8];

	load_perms(&p);
	memcpy(q, x, sizeof(q));
	transpose8(q);
	add_round_key(q, rk);
	for (unsigned int r = 1; r < rounds; r++) {
		sub_bytes(q);
		shift_rows(q, p.sr);
		mix_columns(q, p.down);
		add_round_key(q, rk + 128 * r);
	}
	sub_bytes(q);
	shift_rows(q, p.sr);
	add_round_key(q, rk + 128 * rounds);
	transpose8(q);
	memcpy(x, q, sizeof(q));
}

/* InvShiftRows and InvSubBytes commute: both act on bytes */
static void decrypt8(const struct aes_neonbs_key *key, v128 x[8])
{
	const uint8_t *rk = &key->rk[0][0][0];
	unsigned int rounds = key->rounds;
	struct perms p;
	v128 q[8];

	load_perms(&p);
	memcpy(q, x, sizeof(q));
	transpose8(q);
	add_round_key(q, rk + 128 * rounds);
	for (unsigned int r = rounds - 1; r > 0; r--) {
		shift_rows(q, p.isr);
		inv_sub_bytes(q);
		add_round_key(q, rk + 128 * r);
		inv_mix_columns(q, p.down);
	}
	shift_rows(q, p.isr);
	inv_sub_bytes(q);
	add_round_key(q, rk);
	transpose8(q);
	memcpy(x, q, sizeof(q));
}

NEONBS_INLINE void load8(v128 x[8], const uint8_t *src)
{
	NEONBS_UNROLL
	for (int k = 0; k < 8; k++)
		x[k] = vld1q_u8(src + 16 * k);
}

NEONBS_INLINE void store8(uint8_t *dst, const v128 x[8])
{
	NEONBS_UNROLL
	for (int k = 0; k < 8; k++)
		vst1q_u8(dst + 16 * k, x[k]);
}

/* ---- ECB ---------------------------------------------------------------- */

void aes_ecb_encrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes)
{
	v128 x[8];

	for (; nbytes; nbytes -= AES_NEONBS_CHUNK) {
		load8(x, src);
		encrypt8(key, x);
		store8(dst, x);
		src += AES_NEONBS_CHUNK;
		dst += AES_NEONBS_CHUNK;
	}
	explicit_bzero(x, sizeof(x));
}

void aes_ecb_decrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes)
{
	v128 x[8];

	for (; nbytes; nbytes -= AES_NEONBS_CHUNK) {
		load8(x, src);
		decrypt8(key, x);
		store8(dst, x);
		src += AES_NEONBS_CHUNK;
		dst += AES_NEONBS_CHUNK;
	}
	explicit_bzero(x, sizeof(x));
}

/* ---- XTS ---------------------------------------------------------------- */

/*
 * T * x in GF(2^128) mod x^128 + x^7 + x^2 + x + 1, T little-endian (lane
 * 0 the low half): each lane shifts left by one, the top bit of the low
 * lane carries into the high one and that of the high lane folds back as
 * 0x87. The carries are masks from an arithmetic shift, not branches.
 */
NEONBS_INLINE uint64x2_t xts_mul_x(uint64x2_t t, uint64x2_t poly)
{
	uint64x2_t top = vreinterpretq_u64_s64(
		vshrq_n_s64(vreinterpretq_s64_u64(t), 63));

	top = vandq_u64(vextq_u64(top, top, 1), poly);
	return veorq_u64(vshlq_n_u64(t, 1), top);
}

static void xts_crypt(const struct aes_neonbs_key *key, uint8_t *dst,
		      const uint8_t *src, size_t nbytes, uint8_t *tweak, int enc)
{
	const uint64x2_t poly = vcombine_u64(vcreate_u64(0x87), vcreate_u64(1));
	uint64x2_t t = vreinterpretq_u64_u8(vld1q_u8(tweak));
	v128 x[8], tw[8];

	for (; nbytes; nbytes -= AES_NEONBS_CHUNK) {
		NEONBS_UNROLL
		for (int k = 0; k < 8; k++) {
			tw[k] = vreinterpretq_u8_u64(t);
			x[k] = veorq_u8(vld1q_u8(src + 16 * k), tw[k]);
			t = xts_mul_x(t, poly);
		}
		if (enc)
			encrypt8(key, x);
		else
			decrypt8(key, x);
		NEONBS_UNROLL
		for (int k = 0; k < 8; k++)
			vst1q_u8(dst + 16 * k, veorq_u8(x[k], tw[k]));
		src += AES_NEONBS_CHUNK;
		dst += AES_NEONBS_CHUNK;
	}
	vst1q_u8(tweak, vreinterpretq_u8_u64(t));
	explicit_bzero(x, sizeof(x));
	explicit_bzero(tw, sizeof(tw));
}

void aes_xts_encrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *tweak)
{
	xts_crypt(key, dst, src, nbytes, tweak, 1);
}

void aes_xts_decrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *tweak)
{
	xts_crypt(key, dst, src, nbytes, tweak, 0);
}

/* ---- CBC and CFB decryption ------------------------------------------- */

/*
 * The ciphertext of a chunk is loaded before any plaintext is stored (it
 * is needed for the chaining), so dst == src works.
 */
void aes_cbc_decrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *iv)
{
	v128 prev = vld1q_u8(iv), c[8], x[8];

	for (; nbytes; nbytes -= AES_NEONBS_CHUNK) {
		load8(c, src);
		memcpy(x, c, sizeof(x));
		decrypt8(key, x);
		vst1q_u8(dst, veorq_u8(x[0], prev));
		NEONBS_UNROLL
		for (int k = 1; k < 8; k++)
			vst1q_u8(dst + 16 * k, veorq_u8(x[k], c[k - 1]));
		prev = c[7];
		src += AES_NEONBS_CHUNK;
		dst += AES_NEONBS_CHUNK;
	}
	vst1q_u8(iv, prev);
	explicit_bzero(x, sizeof(x));
}

/* P = E(C_prev) ^ C */
void aes_cfb_decrypt_neonbs(const void *key, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *iv)
{
	v128 prev = vld1q_u8(iv), c[8], x[8];

	for (; nbytes; nbytes -= AES_NEONBS_CHUNK) {
		load8(c, src);
		x[0] = prev;
		NEONBS_UNROLL
		for (int k = 1; k < 8; k++)
			x[k] = c[k - 1];
		encrypt8(key, x);
		NEONBS_UNROLL
		for (int k = 0; k < 8; k++)
			vst1q_u8(dst + 16 * k, veorq_u8(x[k], c[k]));
		prev = c[7];
		src += AES_NEONBS_CHUNK;
		dst += AES_NEONBS_CHUNK;
	}
	vst1q_u8(iv, prev);
	explicit_bzero(x, sizeof(x));
}

/* ---- CTR ---------------------------------------------------------------- */

static uint64_t ctr_load_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return __builtin_bswap64(v);
}

static void ctr_store_be64(uint8_t *p, uint64_t v)
{
	v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

/* the counter is public: built in memory with a full 128-bit increment */
void aes_ctr_crypt_neonbs(const void *key, uint8_t *dst,
			  const uint8_t *src, size_t nbytes, uint8_t *ctr)
{
	uint64_t hi = ctr_load_be64(ctr), lo = ctr_load_be64(ctr + 8);
	uint8_t blocks[AES_NEONBS_CHUNK];
	v128 x[8];

	for (; nbytes; nbytes -= AES_NEONBS_CHUNK) {
		NEONBS_UNROLL
		for (int k = 0; k < 8; k++) {
			ctr_store_be64(blocks + 16 * k, hi);
			ctr_store_be64(blocks + 16 * k + 8, lo);
			lo++;
			hi += lo == 0;
		}
		load8(x, blocks);
		encrypt8(key, x);
		NEONBS_UNROLL
		for (int k = 0; k < 8; k++)
			vst1q_u8(dst + 16 * k,
				 veorq_u8(x[k], vld1q_u8(src + 16 * k)));
		src += AES_NEONBS_CHUNK;
		dst += AES_NEONBS_CHUNK;
	}
	ctr_store_be64(ctr, hi);
	ctr_store_be64(ctr + 8, lo);
	explicit_bzero(x, sizeof(x));
}
