# SPDX-License-Identifier: MIT
"""Authenticated volumes (aes256-gcm, xchacha20-poly1305; docs/format.md
6.2) through a real mount: each tampering done to the ciphertext of an
unmounted volume (a flipped bit, a sector copied from another file, a
sector moved, whole sectors cut off the end, an old last sector appended
again, a zeroed sector) makes exactly that sector's range read EIO while
the other sectors read their data, the mount logs the file and the
sector's offset, and cloakfs-fsck --deep lists the sector by path and
offset (exit 4). Also: the same data written twice gives other
ciphertext, and a file with a gap has no holes."""
import errno
import os
import subprocess

import pytest

from conftest import AEAD_CIPHERS as AEAD, FSCK
S = 4096
UNIT = S + 32  # nonce field and tag per sector
SIZE = 4 * S + S // 2  # five sectors, the last one short
pytestmark = pytest.mark.skipif(not FSCK, reason="built without cloakfs-fsck")


def pos(i):
    return 32 + i * UNIT


def data_files(v):
    """the ciphertext files of regular files (names without a dot)"""
    return {p for p in v.cipher_files()
            if os.path.isfile(p) and "." not in os.path.basename(p)}


def make(volume_factory, cipher, names=("a", "b"), size=SIZE):
    """a volume with files of random data; unmounted. Returns the volume,
    {name: plaintext} and {name: ciphertext path}"""
    v = volume_factory(cipher, tag="auth")
    v.allowed_stderr = [r"is damaged"]
    plain, cpath = {}, {}
    for n in names:
        before = data_files(v)
        plain[n] = os.urandom(size)
        with open(v.path(n), "wb") as f:
            f.write(plain[n])
        v.remount()
        (cpath[n],) = data_files(v) - before
    v.umount()
    return v, plain, cpath


def raw(path, off, n):
    with open(path, "rb") as f:
        f.seek(off)
        return f.read(n)


def poke(path, off, data):
    with open(path, "r+b") as f:
        f.seek(off)
        f.write(data)


def sectors(v, name, size):
    """each sector of name read on its own: its bytes or the errno"""
    out = []
    fd = os.open(v.path(name), os.O_RDONLY)
    try:
        for i in range((size + S - 1) // S):
            try:
                out.append(os.pread(fd, S, i * S))
            except OSError as e:
                out.append(e.errno)
    finally:
        os.close(fd)
    return out


def flip(v, plain, c):
    at = pos(2) + 100
    poke(c["a"], at, bytes([raw(c["a"], at, 1)[0] ^ 0x10]))
    return 2, SIZE


def copy_from_other(v, plain, c):
    poke(c["a"], pos(2), raw(c["b"], pos(2), UNIT))
    return 2, SIZE


def move(v, plain, c):
    poke(c["a"], pos(1), raw(c["a"], pos(2), UNIT))
    return 1, SIZE


def cut(v, plain, c):
    os.truncate(c["a"], pos(4))  # the last sector gone: sector 3 lacks the flag
    return 3, 4 * S


def zero(v, plain, c):
    poke(c["a"], pos(2), bytes(UNIT))
    return 2, SIZE


TAMPER = {"flip": flip, "copy-from-other": copy_from_other, "move": move,
          "cut": cut, "zero": zero}


def check(v, plain, bad, size):
    """through a mount: EIO for sector bad only; the log names it; then
    fsck --deep lists it (exit 4)"""
    v.mount()
    got = sectors(v, "a", size)
    for i, g in enumerate(got):
        if i == bad:
            assert g == errno.EIO, "sector %d read %r, not EIO" % (i, g)
        else:
            assert g == plain["a"][i * S:(i + 1) * S][:size - i * S], \
                "sector %d: %r" % (i, g if isinstance(g, int) else len(g))
    # a read across the damage: EIO, or (the good sectors cached) the
    # data before the damaged sector, never its range
    fd = os.open(v.path("a"), os.O_RDONLY)
    try:
        got = os.pread(fd, size, 0)
    except OSError as e:
        got = e.errno
    finally:
        os.close(fd)
    assert got == errno.EIO or (len(got) <= bad * S and
                                got == plain["a"][:len(got)]), \
        "read across: %r" % (got if isinstance(got, int) else len(got))
    v.umount()
    log = v.stderr()
    assert "sector at offset %d fails its tag" % (bad * S) in log, log
    r = subprocess.run([FSCK, "--deep", "--passfile", v.passfile, v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert r.returncode == 4, r.stdout
    lines = [l for l in r.stdout.splitlines() if "fails its tag" in l]
    assert len(lines) == 1, r.stdout
    assert "/a" in lines[0] or " a" in lines[0], r.stdout
    assert "sector at offset %d " % (bad * S) in lines[0], r.stdout
    # without --deep the damage is not looked for, and nothing is changed
    r = subprocess.run([FSCK, "--passfile", v.passfile, v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert r.returncode == 0, r.stdout


@pytest.mark.parametrize("cipher", AEAD)
@pytest.mark.parametrize("how", sorted(TAMPER))
def test_tamper(volume_factory, cipher, how):
    v, plain, c = make(volume_factory, cipher)
    bad, size = TAMPER[how](v, plain, c)
    check(v, plain, bad, size)


@pytest.mark.parametrize("cipher", AEAD)
def test_old_last_sector_appended(volume_factory, cipher):
    """a file of 5 whole sectors truncated to 4, its old last sector put
    back: that one verifies (it is its own), sector 3 carries the flag"""
    v, plain, c = make(volume_factory, cipher, names=("a",), size=5 * S)
    old_last = raw(c["a"], pos(4), UNIT)
    v.mount()
    os.truncate(v.path("a"), 4 * S)
    v.umount()
    with open(c["a"], "ab") as f:
        f.write(old_last)
    check(v, plain, 3, 5 * S)


@pytest.mark.parametrize("cipher", AEAD)
def test_fresh_nonces_and_no_holes(volume_factory, cipher):
    v, plain, c = make(volume_factory, cipher, names=("a",), size=2 * S)
    first = raw(c["a"], 0, pos(2))
    v.mount()
    with open(v.path("a"), "r+b") as f:
        f.write(plain["a"])
    # a gap: written as sectors of zeros, never a hole
    with open(v.path("g"), "wb") as f:
        f.seek(3 * S)
        f.write(b"x")
    fd = os.open(v.path("g"), os.O_RDONLY)
    try:
        assert os.lseek(fd, 0, os.SEEK_HOLE) == 3 * S + 1
        assert os.pread(fd, 3 * S + 1, 0) == bytes(3 * S) + b"x"
    finally:
        os.close(fd)
    v.umount()
    again = raw(c["a"], 0, pos(2))
    for i in range(2):
        assert first[pos(i):pos(i) + 16] != again[pos(i):pos(i) + 16]
        assert first[pos(i) + 16:pos(i + 1)] != again[pos(i) + 16:pos(i + 1)]
    v.mount()
    with open(v.path("a"), "rb") as f:
        assert f.read() == plain["a"]
    v.umount()
    r = subprocess.run([FSCK, "--deep", "--passfile", v.passfile, v.cipherdir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout
