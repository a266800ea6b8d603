# SPDX-License-Identifier: MIT
"""
Bitsliced circuits for S-boxes of the form  y = OUT * inv(IN * x)  (IN and
OUT 8x8 bit matrices over GF(2), inv the inversion in GF(2)[t]/(poly)),
shared by the S-box generators of the ciphers built on a field inversion
(crypto/sm4/gen-sbox-circuit.py, crypto/camellia/camellia-sbox.py). The
affine constants of such S-boxes stay outside the circuit.

Construction (our own; only the facts are taken from the literature):
 * the inversion is done in the tower GF(((2^2)^2)^2) with polynomial
   bases w^2+w+1, z^2+z+nu, y^2+y+lambda (Satoh et al. / Canright-style
   formulas), the field isomorphism found by searching a root of poly in
   the tower;
 * structure as in Boyar-Peralta's AES circuit (eprint 2011/332): a top
   linear layer computes every multiplier operand directly from the
   input (field change and IN folded in), a middle layer does the 36 ANDs
   of three GF(16) Karatsuba products and the GF(16) inversion, a bottom
   linear layer maps the 18 final products to the output (tower field
   change back and OUT folded in). The linear layers are reduced with
   Paar's greedy common-pair heuristic (C. Paar, ISIT 1997).

Matrices are as in gf256.py.
"""
import functools
import itertools

from gf256 import mat_of, matinv, matmul


def gf4_mul(a, b):
    a1, a0, b1, b0 = a >> 1, a & 1, b >> 1, b & 1
    p, q, r = a1 & b1, a0 & b0, (a1 ^ a0) & (b1 ^ b0)
    return ((r ^ q) << 1) | (p ^ q)


def tower(nu, lam):
    def m16(a, b):
        a1, a0, b1, b0 = a >> 2, a & 3, b >> 2, b & 3
        p, q, r = gf4_mul(a1, b1), gf4_mul(a0, b0), gf4_mul(a1 ^ a0, b1 ^ b0)
        return ((r ^ q) << 2) | (gf4_mul(p, nu) ^ q)

    def m256(a, b):
        ah, al, bh, bl = a >> 4, a & 15, b >> 4, b & 15
        p, q, r = m16(ah, bh), m16(al, bl), m16(ah ^ al, bh ^ bl)
        return ((r ^ q) << 4) | (m16(p, lam) ^ q)
    return m16, m256


def is_field(m256):
    return all(any(m256(a, b) == 1 for b in range(1, 256)) for a in range(1, 256))


def roots(m256, poly):
    """the elements of the tower that are roots of poly"""
    out = []
    for b in range(2, 256):
        acc, p = 0, 1
        for i in range(9):
            if poly >> i & 1:
                acc ^= p
            p = m256(p, b)
        if acc == 0:
            out.append(b)
    return out


def paar(targets, nsig, rng):
    """Greedy SLP: repeatedly XOR the pair of signals shared by most rows."""
    rows, gates = list(targets), []
    while True:
        cnt = {}
        for r in rows:
            bits = [i for i in range(nsig) if r >> i & 1]
            for pair in itertools.combinations(bits, 2):
                cnt[pair] = cnt.get(pair, 0) + 1
        if not cnt:
            break
        top = max(cnt.values())
        a, b = rng.choice(sorted(k for k, v in cnt.items() if v == top))
        s = nsig
        nsig += 1
        gates.append((a, b))
        rows = [(r & ~(1 << a) & ~(1 << b)) | (1 << s)
                if r >> a & 1 and r >> b & 1 else r for r in rows]
    return gates, [r.bit_length() - 1 for r in rows]


class Net:
    """Straight-line program; wires 0..7 are the inputs."""

    def __init__(self):
        self.gates, self.n, self.cache, self.notes = [], 8, {}, {}

    def gate(self, op, a, b):
        key = (op, min(a, b), max(a, b))
        if key not in self.cache:
            self.gates.append(key)
            self.cache[key] = self.n
            self.n += 1
        return self.cache[key]

    def xor(self, a, b):
        return self.gate("^", a, b)

    def and_(self, a, b):
        return self.gate("&", a, b)

    def note(self, text):
        self.notes[len(self.gates)] = text

    def linear(self, sigs, targets, rng, tries):
        best = min((paar(targets, len(sigs), rng) for _ in range(tries)),
                   key=lambda g: len(g[0]))
        s = list(sigs)
        for a, b in best[0]:
            s.append(self.xor(s[a], s[b]))
        return [s[o] for o in best[1]]

    def simulate(self, inputs):
        v = list(inputs)
        for op, a, b in self.gates:
            v.append(v[a] ^ v[b] if op == "^" else v[a] & v[b])
        return v


def xor_all(vals):
    return functools.reduce(lambda x, y: x ^ y, vals, 0)


def apply4(rows, v4):
    return [xor_all(v4[j] for j in range(4) if rows[i] >> j & 1) for i in range(4)]


def operands(g):
    """GF(16) Karatsuba operand bits (g = 4 values, bit 0 first) in AND order."""
    g1, g0 = (g[3], g[2]), (g[1], g[0])
    out = []
    for u in (g1, g0, (g1[0] ^ g0[0], g1[1] ^ g0[1])):
        out += [u[0], u[1], u[0] ^ u[1]]
    return out


def products_to_gf16(p, nu):
    """the 9 AND outputs of a GF(16) product -> its 4 bits (bit 0 first)"""
    def gf4(k):
        return (p[3 * k + 2] ^ p[3 * k + 1], p[3 * k] ^ p[3 * k + 1])
    hp, q, r = gf4(0), gf4(1), gf4(2)
    if nu == 2:
        nup = (hp[0] ^ hp[1], hp[0])
    else:
        nup = (hp[1], hp[0] ^ hp[1])
    hi, lo = (r[0] ^ q[0], r[1] ^ q[1]), (nup[0] ^ q[0], nup[1] ^ q[1])
    return [lo[1], lo[0], hi[1], hi[0]]


def build(poly, in_map, out_map, nu, lam, beta, variant, rng, tries):
    """
    The circuit of y = out_map * inv_poly(in_map * x): returns (net, outs),
    outs[i] the wire of output bit i.
    """
    m16, m256 = tower(nu, lam)
    pw = [1]
    for _ in range(7):
        pw.append(m256(pw[-1], beta))
    to_tower = [sum(((pw[j] >> i) & 1) << j for j in range(8)) for i in range(8)]
    z = matmul(to_tower, in_map)      # tower bits of IN*v, as masks over v
    ah, al = z[4:8], z[0:4]
    hs = [a ^ b for a, b in zip(ah, al)]
    sq = mat_of(lambda a: m16(a, a), 4)
    scale = mat_of(lambda a: m16(a, lam), 4)
    scale1 = mat_of(lambda a: m16(a, lam ^ 1), 4)
    # norm d = ah^2 lam + ah al + al^2, computed as one product plus a
    # linear part: 0: ah*al, 1: ah*(ah+al), 2: al*(ah+al)
    if variant == 0:
        g, h = ah, al
        lin = [a ^ b for a, b in zip(apply4(scale, apply4(sq, ah)), apply4(sq, al))]
    elif variant == 1:
        g, h = ah, hs
        lin = [a ^ b for a, b in zip(apply4(scale1, apply4(sq, ah)), apply4(sq, al))]
    else:
        g, h = al, hs
        lin = apply4(scale, apply4(sq, ah))
    forms = []
    for f in operands(g) + operands(h) + operands(ah) + operands(hs) + lin:
        if f not in forms:
            forms.append(f)
    net = Net()
    net.note("top linear layer: multiplier operands as forms of the input")
    wire = dict(zip(forms, net.linear(list(range(8)), forms, rng, tries)))
    og, oh = operands(g), operands(h)
    net.note("GF(16) product for the norm d")
    m1 = [net.and_(wire[og[k]], wire[oh[k]]) for k in range(9)]
    d_rows = [r | 1 << (9 + i) for i, r in enumerate(products_to_gf16([1 << k for k in range(9)], nu))]
    d = net.linear(m1 + [wire[f] for f in lin], d_rows, rng, tries)

    net.note("GF(16) inversion of d over GF(4): D^-1 = D1*N^-1, (D1+D0)*N^-1")
    x, a_ = net.xor, net.and_

    def gf4_mul_w(p, q):
        pp, qq, rr = a_(p[0], q[0]), a_(p[1], q[1]), a_(x(p[0], p[1]), x(q[0], q[1]))
        return (x(rr, qq), x(pp, qq))
    d1, d0 = (d[3], d[2]), (d[1], d[0])
    prod = gf4_mul_w(d1, d0)
    sq1, sq0 = (d1[0], x(d1[0], d1[1])), (d0[0], x(d0[0], d0[1]))
    nsq = (x(sq1[0], sq1[1]), sq1[0]) if nu == 2 else (sq1[1], x(sq1[0], sq1[1]))
    norm = (x(x(nsq[0], sq0[0]), prod[0]), x(x(nsq[1], sq0[1]), prod[1]))
    ninv = (norm[0], x(norm[0], norm[1]))          # in GF(4), N^-1 = N^2
    o1 = gf4_mul_w(d1, ninv)
    o0 = gf4_mul_w((x(d1[0], d0[0]), x(d1[1], d0[1])), ninv)
    dinv = [o0[1], o0[0], o1[1], o1[0]]

    net.note("inverse = (ah*d^-1, (ah+al)*d^-1): 18 AND")
    f1, f0 = (dinv[3], dinv[2]), (dinv[1], dinv[0])
    f2 = (x(f1[0], f0[0]), x(f1[1], f0[1]))
    od = []
    for u in (f1, f0, f2):
        od += [u[0], u[1], x(u[0], u[1])]
    oa, os_ = operands(ah), operands(hs)
    ph = [a_(wire[oa[k]], od[k]) for k in range(9)]
    pl = [a_(wire[os_[k]], od[k]) for k in range(9)]
    tbits = (products_to_gf16([1 << (9 + k) for k in range(9)], nu) +
             products_to_gf16([1 << k for k in range(9)], nu))
    back = matmul(out_map, matinv(to_tower))
    rows = [xor_all(tbits[j] for j in range(8) if back[i] >> j & 1) for i in range(8)]
    net.note("bottom linear layer: back to the cipher's field, times OUT")
    return net, net.linear(ph + pl, rows, rng, tries)


def check(net, outs, want):
    """the circuit gives want(v) for all 256 inputs v"""
    ins = [sum(((v >> i) & 1) << v for v in range(256)) for i in range(8)]
    w = net.simulate(ins)
    return all(sum(((w[outs[i]] >> v) & 1) << i for i in range(8)) == want(v)
               for v in range(256))


def count(net):
    ands = sum(1 for g in net.gates if g[0] == "&")
    return ands, len(net.gates) - ands


def search(poly, in_map, out_map, want, rng, tries=12):
    """gate counts of every tower, root and norm variant, best first"""
    res = []
    for nu in (2, 3):
        for lam in range(16):
            m16, m256 = tower(nu, lam)
            if not is_field(m256):
                continue
            for beta in roots(m256, poly):
                for variant in range(3):
                    net, outs = build(poly, in_map, out_map, nu, lam, beta,
                                      variant, rng, tries)
                    assert check(net, outs, want)
                    ands, xors = count(net)
                    res.append((ands + xors, ands, xors, nu, lam, beta, variant))
    return sorted(res)


def c_body(net, outs):
    """the circuit as C statements on uint64_t x[8] -> y[8]"""
    name = {i: "x[%d]" % i for i in range(8)}
    body = []
    for k, (op, a, b) in enumerate(net.gates):
        if k in net.notes:
            body.append("\t/* %s */" % net.notes[k])
        w = 8 + k
        name[w] = "t%d" % w
        body.append("\tconst uint64_t t%d = %s %s %s;" % (w, name[a], op, name[b]))
    body += ["\ty[%d] = %s;" % (i, name[o]) for i, o in enumerate(outs)]
    return "\n".join(body)
