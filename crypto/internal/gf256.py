# SPDX-License-Identifier: MIT
"""
GF(2)-linear algebra on bytes and GF(2^8) arithmetic for the scripts that
derive S-box maps (crypto/internal/gf256_circuit.py, crypto/sm4/, the
Camellia and SM4 affine-map generators), and the encodings of such maps
for the x86 and ARM instructions.

Matrices are lists of 8 row masks: row i holds the input bits that make
output bit i (bit 0 = least significant).
"""


def parity(x):
    return bin(x).count("1") & 1


def matvec(rows, x):
    return sum(parity(r & x) << i for i, r in enumerate(rows))


def matmul(m, n):
    cols = [matvec(m, matvec(n, 1 << j)) for j in range(8)]
    return [sum(((cols[j] >> i) & 1) << j for j in range(8)) for i in range(len(m))]


def mat_of(f, n=8):
    cols = [f(1 << j) for j in range(n)]
    return [sum(((cols[j] >> i) & 1) << j for j in range(n)) for i in range(n)]


def matinv(m):
    n = len(m)
    aug = [[m[i], 1 << i] for i in range(n)]
    for c in range(n):
        p = next(i for i in range(c, n) if aug[i][0] >> c & 1)
        aug[c], aug[p] = aug[p], aug[c]
        for i in range(n):
            if i != c and aug[i][0] >> c & 1:
                aug[i] = [aug[i][0] ^ aug[c][0], aug[i][1] ^ aug[c][1]]
    return [aug[i][1] for i in range(n)]


def fmul(a, b, poly):
    """a * b in GF(2)[t]/(poly)"""
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & 0x100:
            a ^= poly
    return r


def finv(a, poly):
    """a^-1 in GF(2)[t]/(poly), 0 for 0"""
    r = 1
    for _ in range(254):
        r = fmul(r, a, poly)
    return r if a else 0


def from_columns(cols):
    """the matrix whose column j (the image of bit j) is cols[j]"""
    return [sum(((cols[j] >> i) & 1) << j for j in range(8)) for i in range(8)]


def gfni_qword(m):
    """GF2P8AFFINE(INV)QB: result bit i = parity(x & byte[7 - i] of the qword)"""
    return sum(m[i] << (8 * (7 - i)) for i in range(8))


def nibble_tables(m, c):
    """m x ^ c as LO[x & 15] ^ HI[x >> 4] (VPSHUFB / TBL lookups)"""
    return ([matvec(m, n) ^ c for n in range(16)],
            [matvec(m, n << 4) for n in range(16)])
