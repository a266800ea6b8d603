# SPDX-License-Identifier: MIT
"""The tail rules of docs/format.md section 6 through the filesystem:
every file size from 0 to two sectors plus 20 bytes, written whole, grown
(by appending and by truncating up) and shrunk across each rule, read back
equal after a remount, with the ciphertext sizes the format prescribes.

Sector size 512 for every cipher, every size; and one volume with the
default 4096-byte sectors, written and shrunk files only, at the sizes
within 40 bytes of each rule's edge (0, one block, a sector, two sectors),
to bound the time. The authenticated ciphers (docs/format.md 6.2: no
tails, 32 bytes per sector) the same, each at 512 in full and at 4096
light."""
import os
import random

import pytest

from conftest import AEAD_CIPHERS, CIPHERS, CONTENT_CIPHERS, HEADER, Volume, read_file

CASES = [(c, 512, "full") for c in CIPHERS] + [("speck128-xts", 4096, "light")]
CASES += [(c, s, k) for c in CONTENT_CIPHERS if c in AEAD_CIPHERS
          for s, k in ((512, "full"), (4096, "light"))]


def cipher_size(n, v):
    """the ciphertext size of an n-byte file on volume v"""
    if n == 0:
        return 0
    if v.sealed():  # a nonce field and a tag per sector
        return HEADER + n + 32 * -(-n // v.sector)
    return HEADER + v.block if n <= v.block else HEADER + n


def write_all(path, data, flags=os.O_CREAT | os.O_WRONLY | os.O_TRUNC):
    fd = os.open(path, flags, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


@pytest.mark.parametrize("cipher,sector,kind", CASES,
                         ids=["%s-%d" % (c, s) for c, s, _ in CASES])
def test_tail_rules(cipher, sector, kind):
    v = Volume(cipher, sector=sector, tag="tail")
    try:
        v.mount()
        top = 2 * sector + 20
        rng = random.Random(sector * 7 + len(cipher))
        # no zero bytes, so a hole or lost tail cannot pass for data
        stream = bytes(rng.randrange(1, 256) for _ in range(top + 1))
        expect = {}
        sets = ["w", "s"] if kind == "light" else ["w", "g", "z", "s", "t"]
        for s in sets:
            os.mkdir(v.path(s))
        sizes = range(top + 1)
        if kind == "light":
            edges = [0, v.block, sector, 2 * sector]
            sizes = sorted(set(n for e in edges for n in range(e - 40, e + 41)
                               if 0 <= n <= top))
        for n in sizes:
            a = n // 2
            if "w" in sets:  # written whole
                write_all(v.path("w", str(n)), stream[:n])
                expect["w/%d" % n] = stream[:n]
            if "g" in sets:  # grown by appending, from half its size
                p = v.path("g", str(n))
                write_all(p, stream[:a])
                write_all(p, stream[a:n], os.O_WRONLY | os.O_APPEND)
                expect["g/%d" % n] = stream[:n]
            if "z" in sets:  # grown by truncate: the gap reads as zeros
                p = v.path("z", str(n))
                write_all(p, stream[:a])
                os.truncate(p, n)
                expect["z/%d" % n] = stream[:a] + b"\0" * (n - a)
            if "s" in sets:  # shrunk from the largest size
                p = v.path("s", str(n))
                write_all(p, stream[:top])
                os.truncate(p, n)
                expect["s/%d" % n] = stream[:n]
            if "t" in sets:  # shrunk by one byte, then rewritten at the end
                p = v.path("t", str(n))
                write_all(p, stream[:n + 1])
                os.truncate(p, n)
                if n:
                    fd = os.open(p, os.O_WRONLY)
                    os.pwrite(fd, stream[n - 1:n], n - 1)
                    os.close(fd)
                expect["t/%d" % n] = stream[:n]
        for name, data in expect.items():
            assert os.stat(v.path(name)).st_size == len(data), name
        v.remount()
        bad = [name for name, data in expect.items() if read_file(v.path(name)) != data]
        assert not bad, "differ after remount: %s" % bad[:20]
        # ciphertext sizes: 0, 32 + one block for 1..bs bytes, else 32 + n
        sizes = {}
        for c in v.cipher_files():
            if os.path.isfile(c) and not os.path.basename(c).startswith((".", "cloakfs.")):
                sizes.setdefault(os.path.getsize(c), 0)
                sizes[os.path.getsize(c)] += 1
        want = {}
        for data in expect.values():
            cs = cipher_size(len(data), v)
            want[cs] = want.get(cs, 0) + 1
        assert sizes == want
    finally:
        v.destroy()
