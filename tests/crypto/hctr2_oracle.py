#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""HCTR2 written from its paper, an oracle independent of crypto/templates.

Crowley, Huckleberry, Biggers, "Length-preserving encryption with HCTR2"
(IACR ePrint 2021/1441), section 3, over any 16-byte block cipher given as
an ECB encryptor (python3-cryptography's AES, SM4 or Camellia). Slow and
plain on purpose: POLYVAL as multiplication of polynomials over GF(2),
XCTR block by block.

Run as a script it prints the C vector table of hctr2(sm4) or
hctr2(camellia) (crypto/sm4/sm4-testvecs.c, crypto/camellia/camellia-
testvecs.c): ./hctr2_oracle.py sm4 | camellia
"""

import hashlib
import sys

BLOCK = 16
# POLYVAL's field: x^128 + x^127 + x^126 + x^121 + 1 (RFC 8452, 3)
POLY = (1 << 128) | (1 << 127) | (1 << 126) | (1 << 121) | 1


def _alg(name, key):
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    if name == "camellia":
        try:  # moved in cryptography 43
            from cryptography.hazmat.decrepit.ciphers.algorithms import Camellia
        except ImportError:
            Camellia = algorithms.Camellia
        alg = Camellia(key)
    else:
        alg = {"aes": algorithms.AES, "sm4": algorithms.SM4}[name](key)
    return Cipher(alg, modes.ECB())


def block_cipher(name, key):
    """An ECB encryptor of one cipher: a function of 16 bytes."""
    enc = _alg(name, key).encryptor()
    return lambda blk: enc.update(blk)


def block_decryptor(name, key):
    dec = _alg(name, key).decryptor()
    return lambda blk: dec.update(blk)


def le(b):
    return int.from_bytes(b, "little")


def le128(n):
    return n.to_bytes(BLOCK, "little")


def dot(a, b):
    """POLYVAL's dot(a, b) = a * b * x^-128 mod POLY (RFC 8452, 3)."""
    p = 0
    for i in range(128):
        if (b >> i) & 1:
            p ^= a << i
    for _ in range(128):  # divide by x 128 times, mod POLY
        if p & 1:
            p ^= POLY
        p >>= 1
    return p


def polyval(h, data):
    """POLYVAL_h over data, a whole number of 16-byte blocks."""
    assert len(data) % BLOCK == 0
    hk, s = le(h), 0
    for i in range(0, len(data), BLOCK):
        s = dot(s ^ le(data[i:i + BLOCK]), hk)
    return le128(s)


def zero_pad(b):
    return b + bytes(-len(b) % BLOCK)


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


class HCTR2:
    """HCTR2 with key schedule E (an ECB encryptor of the block cipher)."""

    def __init__(self, encrypt):
        self.e = encrypt
        self.h = encrypt(bytes(BLOCK))    # hbar = E_K(0^128)
        self.l = encrypt(le128(1))        # L = E_K(bin(1))

    def hash(self, tweak, x):
        """H_hbar(T, X): the tweak's bit length encoded in the first block,
        2|T| + 2 for whole blocks of X, 2|T| + 3 (and X padded with 1 0*)
        otherwise."""
        if len(x) % BLOCK == 0:
            head, tail = 2 * 8 * len(tweak) + 2, x
        else:
            head, tail = 2 * 8 * len(tweak) + 3, zero_pad(x + b"\x01")
        return polyval(self.h, le128(head) + zero_pad(tweak) + tail)

    def xctr(self, nonce, n):
        """XCTR_K(S): E_K(S ^ le128(i)) for i = 1, 2, ..., n bytes of it."""
        out = b""
        i = 1
        while len(out) < n:
            out += self.e(xor(nonce, le128(i)))
            i += 1
        return out[:n]

    def encrypt(self, tweak, p):
        assert len(p) >= BLOCK
        m, n = p[:BLOCK], p[BLOCK:]
        mm = xor(m, self.hash(tweak, n))
        uu = self.e(mm)
        s = xor(xor(mm, uu), self.l)
        v = xor(n, self.xctr(s, len(n)))
        u = xor(uu, self.hash(tweak, v))
        return u + v

    def decrypt(self, tweak, c, d):
        """d: the block cipher's decryptor (E_K^-1)."""
        u, v = c[:BLOCK], c[BLOCK:]
        uu = xor(u, self.hash(tweak, v))
        mm = d(uu)
        s = xor(xor(mm, uu), self.l)
        n = xor(v, self.xctr(s, len(v)))
        m = xor(mm, self.hash(tweak, n))
        return m + n


def hctr2(name, key):
    return HCTR2(block_cipher(name, key))


def det_bytes(label, n):
    """n reproducible bytes named by label (SHA-256 in counter mode)."""
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(b"%s/%d" % (label.encode(), i)).digest()
        i += 1
    return out[:n]


# the checked-in vectors: key sizes per cipher, message lengths (whole and
# partial last blocks, one block, a name-sized and a sector-sized one) and
# the tweaks names use (all zero; a 16-byte iv then zeros; any)
VECTOR_KEYS = {"sm4": [16], "camellia": [16, 24, 32]}
VECTOR_LENS = [16, 17, 31, 48, 255, 512]


def vectors(name):
    out = []
    for klen in VECTOR_KEYS[name]:
        for i, n in enumerate(VECTOR_LENS):
            label = "hctr2(%s)/%d/%d" % (name, klen, n)
            key = det_bytes(label + "/key", klen)
            tweak = [bytes(32), det_bytes(label + "/iv", 16) + bytes(16),
                     det_bytes(label + "/tweak", 32)][i % 3]
            p = det_bytes(label + "/ptext", n)
            out.append((key, tweak, p, hctr2(name, key).encrypt(tweak, p)))
    return out


def c_hex(field, b, indent="\t\t"):
    h = b.hex()
    lines = [h[i:i + 64] for i in range(0, len(h), 64)]
    pad = indent + " " * (len(field) + 4)
    return "%s.%s = \"%s\"" % (indent, field, ("\"\n" + pad + "\"").join(lines))


def print_vectors(name):
    for key, tweak, p, c in vectors(name):
        print("\t{ /* %d-byte key, %d bytes */" % (len(key), len(p)))
        for field, b in (("key", key), ("iv", tweak), ("ptext", p), ("ctext", c)):
            print(c_hex(field, b) + ",")
        print("\t},")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in VECTOR_KEYS:
        sys.exit("usage: hctr2_oracle.py sm4|camellia")
    print_vectors(sys.argv[1])
