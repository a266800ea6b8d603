#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
The Camellia S-box as affine maps around an inversion in GF(2^8), derived
and checked against the RFC 3713 table (crypto/camellia/camellia-sbox.c),
and the two headers built on it:

  camellia-sbox.py circuit TABLE   > camellia-sbox-bs.h  (generated at build
        time: s1 as a bitsliced AND/XOR circuit for camellia-generic.c)
  camellia-sbox.py affine TABLE    > camellia-affine.h   (committed: the
        maps the SIMD cores wrap around AESENCLAST / AESE /
        GF2P8AFFINEINVQB, for s1, s2, s3 and s4)
  camellia-sbox.py search TABLE    (gate counts of the tower choices)

Facts used (the construction is ours):
 * RFC 3713 section 2.4.4: the SBOX1 table; s2(x) = s1(x) <<< 1,
   s3(x) = s1(x) <<< 7, s4(x) = s1(x <<< 1) (byte rotations).
 * The designers' description of s1 (K. Aoki et al., "Camellia: A 128-bit
   block cipher suitable for multiple platforms", SAC 2000, and the
   Camellia specification): s1(x) = h(g(f(x ^ 0xc5))) ^ 0x6e with the
   linear maps f and h below (bits a1..a8, a1 the most significant) and
   g the inversion in GF(2^8) built as GF(2^4)[beta]/(beta^2+beta+omega),
   GF(2^4) = GF(2)[alpha]/(alpha^4+alpha+1), an element
   (a8 + a7 alpha + a6 alpha^2 + a5 alpha^3) + (a4 + ... + a1 alpha^3) beta.
   omega is the element whose choice makes g an inversion matching the
   table: the script tries all 15 and keeps the one that reproduces the
   RFC 3713 table for all 256 inputs (omega = 1 + alpha^3).

Derivation: a field isomorphism B from that field to the AES field
GF(2)[t]/(t^8+t^4+t^3+t+1) (alpha -> a root of x^4+x+1 there, beta -> a
root of y^2+y+B(omega)) turns g into the AES inversion:
g(u) = B^-1 inv_aes(B u). So

    s1(x) = H inv_aes(F (x ^ 0xc5)) ^ 0x6e,  F = B f,  H = h B^-1,

and with R the byte rotation by one bit:
    s2: output map R H, constant rol1(0x6e);  s3: R^7 H, rol7(0x6e);
    s4: input map F R (constant F 0xc5 unchanged).
GF2P8AFFINEQB(x, M, c) = M x ^ c and GF2P8AFFINEINVQB(x, M, c) =
M inv_aes(x) ^ c (Intel SDM vol. 2) take these directly. AESENCLAST with a
zero key and AESE with a zero key give AES SubBytes = Ma inv_aes(v) ^ 0x63
(FIPS-197 5.1.1) after a ShiftRows the cores undo, so their output map is
(M Ma^-1) y ^ (M Ma^-1 0x63 ^ c), done with two 16-entry nibble tables
(VPSHUFB / TBL), as is the input map. Every map is checked here for all
256 inputs against the table; tests/crypto/test_camellia_sbox.c checks
the header's constants again in C and on the instructions.
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "internal"))
import gf256 as gf  # noqa: E402
import gf256_circuit as gc  # noqa: E402

AES_POLY = 0x11B
IN_XOR = 0xC5   # s1(x) = S''(x ^ IN_XOR) ...
OUT_XOR = 0x6E  # ... ^ OUT_XOR

# the tower chosen by "search" (fewest gates), and the SLP seed
NU, LAM, BETA, VARIANT, SEED, TRIES = 3, 11, 89, 1, 0, 150


def rol8(x, n):
    return ((x << n) | (x >> (8 - n))) & 0xFF


def spec_bits(x):
    """[None, a1, ..., a8]: a1 the most significant bit"""
    return [None] + [(x >> (8 - k)) & 1 for k in range(1, 9)]


def from_bits(b):
    return sum(v << (8 - k) for k, v in enumerate(b, 1))


def f_map(x):
    a = spec_bits(x)
    return from_bits([a[6] ^ a[2], a[7] ^ a[1], a[8] ^ a[5] ^ a[3], a[8] ^ a[3],
                      a[7] ^ a[4], a[5] ^ a[2], a[8] ^ a[1], a[6] ^ a[4]])


def h_map(x):
    a = spec_bits(x)
    return from_bits([a[5] ^ a[6] ^ a[2], a[6] ^ a[2], a[7] ^ a[4], a[8] ^ a[2],
                      a[7] ^ a[3], a[8] ^ a[1], a[5] ^ a[1], a[6] ^ a[3]])


def gf16_mul(a, b):
    """GF(2)[alpha]/(alpha^4 + alpha + 1)"""
    r = 0
    for i in range(4):
        if b >> i & 1:
            r ^= a << i
    for i in (6, 5, 4):
        if r >> i & 1:
            r ^= 0x13 << (i - 4)
    return r


def composite_mul(omega):
    def mul(x, y):
        xl, xh, yl, yh = x & 15, x >> 4, y & 15, y >> 4
        hh = gf16_mul(xh, yh)  # beta^2 = beta + omega
        return ((gf16_mul(xl, yl) ^ gf16_mul(hh, omega)) |
                (gf16_mul(xl, yh) ^ gf16_mul(xh, yl) ^ hh) << 4)
    return mul


def inverse_table(mul):
    inv = [0] * 256
    for x in range(1, 256):
        ys = [y for y in range(1, 256) if mul(x, y) == 1]
        if len(ys) != 1:
            return None
        inv[x] = ys[0]
    return inv


def load_table(path):
    text = open(path).read()
    body = text[text.index("{") + 1:text.index("}")]
    vals = [int(v, 0) for v in re.findall(r"0x[0-9a-fA-F]+|\d+", body)]
    assert len(vals) == 256, "SBOX1 table of 256 values"
    return vals


def derive(sbox):
    """(F, H) with s1(x) = H inv_aes(F (x ^ 0xc5)) ^ 0x6e"""
    omegas = []
    for omega in range(1, 16):
        inv = inverse_table(composite_mul(omega))
        if inv and all(h_map(inv[f_map(x ^ IN_XOR)]) ^ OUT_XOR == sbox[x]
                       for x in range(256)):
            omegas.append(omega)
    assert len(omegas) == 1, "the designers' form matches the RFC table"
    omega = omegas[0]
    aes_mul = lambda a, b: gf.fmul(a, b, AES_POLY)  # noqa: E731

    def aes_pow(a, e):
        r = 1
        for _ in range(e):
            r = aes_mul(r, a)
        return r
    inv_k = inverse_table(composite_mul(omega))
    for a in range(2, 256):
        if aes_pow(a, 4) ^ a ^ 1:
            continue
        w = aes_pow(a, 3) ^ 1  # B(omega), omega = 1 + alpha^3
        assert omega == 0x9
        for b in range(2, 256):
            if aes_mul(b, b) ^ b ^ w:
                continue
            cols = [aes_pow(a, j) for j in range(4)] + \
                   [aes_mul(aes_pow(a, j), b) for j in range(4)]
            bm = gf.from_columns(cols)
            if all(gf.matvec(bm, inv_k[u]) == gf.finv(gf.matvec(bm, u), AES_POLY)
                   for u in range(256)):
                fm = gf.matmul(bm, gf.mat_of(f_map))
                hm = gf.matmul(gf.mat_of(h_map), gf.matinv(bm))
                for x in range(256):
                    v = gf.matvec(fm, x ^ IN_XOR)
                    assert gf.matvec(hm, gf.finv(v, AES_POLY)) ^ OUT_XOR == sbox[x]
                return fm, hm
    raise AssertionError("no field isomorphism found")


def rot_matrix(n):
    return gf.mat_of(lambda v: rol8(v, n))


# ---- the bitsliced circuit (camellia-generic.c) -------------------------

def circuit_parts(sbox):
    fm, hm = derive(sbox)

    def want(v):
        """S''(v) = s1(v ^ 0xc5) ^ 0x6e"""
        return sbox[v ^ IN_XOR] ^ OUT_XOR
    return fm, hm, want


def search(sbox):
    fm, hm, want = circuit_parts(sbox)
    for r in gc.search(AES_POLY, fm, hm, want, random.Random(SEED))[:10]:
        print("gates %d (AND %d XOR %d): nu=%d lambda=%d beta=%d variant=%d" % r)


def emit_circuit(sbox):
    fm, hm, want = circuit_parts(sbox)
    net, outs = gc.build(AES_POLY, fm, hm, NU, LAM, BETA, VARIANT,
                         random.Random(SEED), TRIES)
    assert gc.check(net, outs, want)
    ands, xors = gc.count(net)
    nots = bin(OUT_XOR).count("1")
    body = gc.c_body(net, outs).split("\n")
    # the output constant inside: complement the outputs of its bits
    for i in range(8):
        if OUT_XOR >> i & 1:
            pre = "\ty[%d] = " % i
            k = next(j for j, line in enumerate(body) if line.startswith(pre))
            body[k] = pre + "~" + body[k][len(pre):]
    print("""/* SPDX-License-Identifier: MIT */
/*
 * GENERATED by crypto/camellia/camellia-sbox.py -- do not edit; see that
 * script for the derivation and the sources of the facts it uses.
 *
 * The Camellia S-box s1 (RFC 3713) as %d AND + %d XOR + %d NOT gates on
 * 64-bit words: bit i of every lane of x[i]/y[i] is bit i (0 = least
 * significant) of one S-box input/output byte, so 64 lookups run at once
 * with no table and no branch (constant time). The input constant is
 * outside the circuit (the cipher folds it into its round keys):
 *     s1(v) = camellia_sbox_bs(v ^ CAMELLIA_SBOX_IN_XOR)
 * (tower GF(((2^2)^2)^2): nu=%d, lambda=%d, root %d, norm variant %d)
 */
#ifndef CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_SBOX_BS_H
#define CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_SBOX_BS_H

#include <stdint.h>

#define CAMELLIA_SBOX_IN_XOR 0x%02xu

static inline void camellia_sbox_bs(uint64_t y[8], const uint64_t x[8])
{
%s
}

#endif""" % (ands, xors, nots, NU, LAM, BETA, VARIANT, IN_XOR, "\n".join(body)))


# ---- the SIMD cores' maps (camellia-affine.h) ---------------------------

AES_MA = [(0xF1 << i | 0xF1 >> (8 - i)) & 0xFF for i in range(8)]
AES_C = 0x63


def emit_affine(sbox):
    fm, hm = derive(sbox)
    r1, r7 = rot_matrix(1), rot_matrix(7)
    pre = {  # input maps: s1/s2/s3, s4
        "1": (fm, gf.matvec(fm, IN_XOR)),
        "4": (gf.matmul(fm, r1), gf.matvec(fm, IN_XOR)),
    }
    post = {  # output maps: s1/s4, s2, s3
        "1": (hm, OUT_XOR),
        "2": (gf.matmul(r1, hm), rol8(OUT_XOR, 1)),
        "3": (gf.matmul(r7, hm), rol8(OUT_XOR, 7)),
    }
    kinds = {1: ("1", "1"), 2: ("1", "2"), 3: ("1", "3"), 4: ("4", "1")}
    ma_inv = gf.matinv(AES_MA)
    aes_sbox = [gf.matvec(AES_MA, gf.finv(v, AES_POLY)) ^ AES_C for v in range(256)]
    tables = {}
    for k, (m, c) in pre.items():
        tables["PRE" + k] = gf.nibble_tables(m, c)
    for k, (m, c) in post.items():
        mo = gf.matmul(m, ma_inv)
        tables["POST" + k] = gf.nibble_tables(mo, gf.matvec(mo, AES_C) ^ c)
    for s, (pi, qi) in kinds.items():
        (mi, ci), (mo, co) = pre[pi], post[qi]
        lo_i, hi_i = tables["PRE" + pi]
        lo_o, hi_o = tables["POST" + qi]
        for x in range(256):
            want = sbox[x]
            if s == 2:
                want = rol8(want, 1)
            elif s == 3:
                want = rol8(want, 7)
            elif s == 4:
                want = sbox[rol8(x, 1)]
            v = gf.matvec(mi, x) ^ ci
            assert gf.matvec(mo, gf.finv(v, AES_POLY)) ^ co == want
            u = lo_i[x & 15] ^ hi_i[x >> 4]
            assert u == v
            y = aes_sbox[u]
            assert lo_o[y & 15] ^ hi_o[y >> 4] == want
    print("""/* SPDX-License-Identifier: MIT */
/*
 * Generated by crypto/camellia/camellia-sbox.py (do not edit; rerun it as
 * "camellia-sbox.py affine crypto/camellia/camellia-sbox.c"). The affine
 * maps around the AES field inversion that give the Camellia S-boxes
 * (RFC 3713: s1; s2 = s1 <<< 1; s3 = s1 <<< 7; s4(x) = s1(x <<< 1)):
 *     s_k(x) = POST(inv_aes(PRE(x)))
 * with PRE1 for s1, s2, s3 and PRE4 for s4; POST1 for s1 and s4, POST2
 * for s2, POST3 for s3. See the script for the derivation; checked there
 * for all 256 inputs, and again by tests/crypto/test_camellia_sbox.c.
 */
#ifndef CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_AFFINE_H
#define CLOAKFS_CRYPTO_CAMELLIA_CAMELLIA_AFFINE_H

/*
 * GF2P8AFFINEQB (PRE) / GF2P8AFFINEINVQB (POST) matrices (qword) and
 * constants: PRE(x) = M x ^ c, POST(v) = M inv_aes(v) ^ c
 */""")
    for k, (m, c) in sorted(pre.items()):
        print("#define CAMELLIA_GFNI_PRE%s_MATRIX 0x%016xull" % (k, gf.gfni_qword(m)))
        print("#define CAMELLIA_GFNI_PRE%s_CONST 0x%02x" % (k, c))
    for k, (m, c) in sorted(post.items()):
        print("#define CAMELLIA_GFNI_POST%s_MATRIX 0x%016xull" % (k, gf.gfni_qword(m)))
        print("#define CAMELLIA_GFNI_POST%s_CONST 0x%02x" % (k, c))
    print("""
/*
 * Nibble tables for the AES-round paths (AESENCLAST, AESE; each applies
 * ShiftRows, which the core undoes, then AES SubBytes): a map is
 * LO[x & 15] ^ HI[x >> 4]; PRE* before the AES instruction, POST* after
 * it (with the inverse of the AES affine map folded in).
 */""")
    for name in sorted(tables):
        for half, tab in zip(("LO", "HI"), tables[name]):
            vals = ["0x%02x" % v for v in tab]
            print("#define CAMELLIA_AES_%s_%s \\\n\t%s, \\\n\t%s" %
                  (name, half, ", ".join(vals[:8]), ", ".join(vals[8:])))
    print()
    print("#endif")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("circuit", "affine", "search"):
        sys.exit("usage: camellia-sbox.py circuit|affine|search camellia-sbox.c")
    sbox = load_table(sys.argv[2])
    {"circuit": emit_circuit, "affine": emit_affine, "search": search}[sys.argv[1]](sbox)


if __name__ == "__main__":
    main()
