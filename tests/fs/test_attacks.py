# SPDX-License-Identifier: MIT
"""The attack table of docs/security.md, the cells that
test_authenticated.py does not show: each change made to the ciphertext
of an unmounted volume, then read through a mount and checked with
cloakfs-fsck --deep. On an XTS volume the sector attacks go unnoticed
(what each one reads as is asserted: a garbled 16-byte block, another
key's garbage, zeros, the old data); on every volume a whole file put
back to an older copy of itself, or two files swapped, reads without an
error; a flipped bit of a header's nonce garbles (XTS) or fails (sealed)
every sector; the same data written twice gives the same ciphertext on
XTS and other ciphertext on sealed volumes; entries deleted from a
directory go unnoticed, an entry moved to another directory shows under a
name of random bytes or (when those do not decode) is reported."""
import errno
import os
import shutil
import subprocess

import pytest

from conftest import AEAD_CIPHERS, CONTENT_CIPHERS, FSCK
from test_authenticated import make as auth_make, poke, raw
from test_authenticated import sectors as auth_sectors

S = 4096
KINDS = [c for c in CONTENT_CIPHERS if c in ("aes256-xts",) + tuple(AEAD_CIPHERS)]
pytestmark = pytest.mark.skipif(not FSCK, reason="built without cloakfs-fsck")


def unit(v):
    """the ciphertext bytes of one whole sector"""
    return S + (32 if v.sealed() else 0)


def pos(v, i):
    return 32 + i * unit(v)


def make(volume_factory, cipher, names=("a", "b"), size=5 * S):
    """test_authenticated's volume of files of random data, unmounted, on
    any cipher: the volume, {name: plaintext}, {name: ciphertext path}"""
    v, plain, cpath = auth_make(volume_factory, cipher, names, size)
    v.allowed_stderr.append(r"fails its tag")
    return v, plain, cpath


def sectors(v, name):
    """each sector of name read on its own: its bytes or the errno"""
    return auth_sectors(v, name, os.stat(v.path(name)).st_size)


def fsck_deep(v):
    r = subprocess.run([FSCK, "--deep", "--passfile", v.passfile, v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    return r.returncode, r.stdout


def reads_unnoticed(v, want):
    """through a mount each file of want reads its data, without an
    error; fsck --deep finds nothing"""
    v.mount()
    for name, data in want.items():
        with open(v.path(name), "rb") as f:
            assert f.read() == data, name
    v.umount()
    rc, out = fsck_deep(v)
    assert rc == 0, out


def cut_of(p, i):
    return p[i * S:(i + 1) * S]


# ---- sector attacks on an XTS volume: no error, and this is what is read

def xts_flip(v, plain, c):
    at = pos(v, 2) + 100
    poke(c["a"], at, bytes([raw(c["a"], at, 1)[0] ^ 0x10]))

    def want(got):
        diff = [k for k in range(S) if got[2][k] != cut_of(plain["a"], 2)[k]]
        # only the 16-byte XTS block holding the bit, garbled
        assert diff and min(diff) >= 96 and max(diff) < 112, diff
        return [cut_of(plain["a"], i) for i in range(5) if i != 2]
    return want


def xts_copy_from_other(v, plain, c):
    poke(c["a"], pos(v, 2), raw(c["b"], pos(v, 2), unit(v)))

    def want(got):  # b's sector under a's key: neither a's nor b's data
        assert got[2] not in (cut_of(plain["a"], 2), cut_of(plain["b"], 2))
        return [cut_of(plain["a"], i) for i in range(5) if i != 2]
    return want


def xts_move(v, plain, c):
    poke(c["a"], pos(v, 1), raw(c["a"], pos(v, 2), unit(v)))

    def want(got):  # another tweak: garbage
        assert got[2 - 1] not in (cut_of(plain["a"], 1), cut_of(plain["a"], 2))
        return [cut_of(plain["a"], i) for i in range(5) if i != 1]
    return want


def xts_cut(v, plain, c):
    os.truncate(c["a"], pos(v, 4))
    return lambda got: [cut_of(plain["a"], i) for i in range(4)]


def xts_zero(v, plain, c):
    poke(c["a"], pos(v, 2), bytes(unit(v)))

    def want(got):  # a hole by the format's rule
        assert got[2] == bytes(S)
        return [cut_of(plain["a"], i) for i in range(5) if i != 2]
    return want


def xts_old_last_appended(v, plain, c):
    old_last = raw(c["a"], pos(v, 4), unit(v))
    v.mount()
    os.truncate(v.path("a"), 4 * S)
    v.umount()
    with open(c["a"], "ab") as f:
        f.write(old_last)
    return lambda got: [cut_of(plain["a"], i) for i in range(5)]


XTS_TAMPER = {"flip": xts_flip, "copy-from-other": xts_copy_from_other, "move": xts_move,
              "cut": xts_cut, "zero": xts_zero, "old-last-appended": xts_old_last_appended}


@pytest.mark.skipif("aes256-xts" not in CONTENT_CIPHERS, reason="aes256-xts not selected")
@pytest.mark.parametrize("how", sorted(XTS_TAMPER))
def test_xts_tamper_unnoticed(volume_factory, how):
    v, plain, c = make(volume_factory, "aes256-xts")
    want = XTS_TAMPER[how](v, plain, c)
    v.mount()
    got = sectors(v, "a")
    v.umount()
    assert all(isinstance(g, bytes) for g in got), "an error on XTS: %r" % [
        g for g in got if isinstance(g, int)]
    rest = want(got)
    assert [g for g in got if g in rest] == rest
    rc, out = fsck_deep(v)
    assert rc == 0, out


# ---- every kind of volume

@pytest.mark.parametrize("cipher", KINDS)
def test_header_nonce_flip(volume_factory, cipher):
    """a bit of the header's file nonce: another key (and AAD) for every
    sector: XTS reads garbage of the right size, sealed volumes EIO for
    every sector, each listed by fsck --deep"""
    v, plain, c = make(volume_factory, cipher, names=("a",), size=3 * S)
    poke(c["a"], 20, bytes([raw(c["a"], 20, 1)[0] ^ 1]))
    v.mount()
    got = sectors(v, "a")
    v.umount()
    rc, out = fsck_deep(v)
    if v.sealed():
        assert got == [errno.EIO] * 3
        assert rc == 4, out
        for i in range(3):
            assert "sector at offset %d " % (i * S) in out, out
    else:
        assert len(got) == 3 and all(isinstance(g, bytes) and len(g) == S for g in got)
        assert all(g != cut_of(plain["a"], i) for i, g in enumerate(got))
        assert rc == 0, out


@pytest.mark.parametrize("cipher", KINDS)
def test_rewrite_equality(volume_factory, cipher):
    """the same data written again over itself: XTS gives the same
    ciphertext (equality over time shows), sealed volumes other bytes in
    every sector's nonce field and ciphertext"""
    v, plain, c = make(volume_factory, cipher, names=("a",), size=2 * S)
    first = raw(c["a"], 0, 1 << 30)
    v.mount()
    with open(v.path("a"), "r+b") as f:
        f.write(plain["a"])
    v.umount()
    again = raw(c["a"], 0, 1 << 30)
    assert len(first) == len(again)
    for i in range(2):
        a, b = first[pos(v, i):pos(v, i + 1)], again[pos(v, i):pos(v, i + 1)]
        if v.sealed():
            assert a[:16] != b[:16] and a[16:] != b[16:]
        else:
            assert a == b


@pytest.mark.parametrize("cipher", KINDS)
def test_rollback_unnoticed(volume_factory, cipher):
    """a whole file put back to an older copy of itself (header and
    sectors): reads the old data without an error, and fsck finds
    nothing, on every kind of volume"""
    v, plain, c = make(volume_factory, cipher, names=("a",), size=3 * S)
    old = raw(c["a"], 0, 1 << 30)
    v.mount()
    with open(v.path("a"), "r+b") as f:
        f.seek(S)
        f.write(os.urandom(S))
    v.umount()
    assert raw(c["a"], 0, 1 << 30) != old
    with open(c["a"], "wb") as f:
        f.write(old)
    reads_unnoticed(v, {"a": plain["a"]})


@pytest.mark.parametrize("cipher", KINDS)
def test_swap_unnoticed(volume_factory, cipher):
    """two files' ciphertext swapped under their names: each reads the
    other's data without an error (a file's key is in its own header),
    and fsck finds nothing"""
    v, plain, c = make(volume_factory, cipher, size=2 * S + 7)
    tmp = c["a"] + "-swap"
    os.rename(c["a"], tmp)
    os.rename(c["b"], c["a"])
    os.rename(tmp, c["b"])
    reads_unnoticed(v, {"a": plain["b"], "b": plain["a"]})


@pytest.mark.parametrize("cipher", KINDS)
def test_listing_changed(volume_factory, cipher):
    """entries deleted from the ciphertext go unnoticed (the directory
    lists the rest, fsck finds nothing); an entry moved into another
    directory is decrypted under that directory's name key: a name of
    random bytes (names carry no tag), or none when the bytes do not
    decode; its data reads whole under whatever name it shows"""
    v, plain, c = make(volume_factory, cipher, size=100)
    os.unlink(c["b"])
    v.mount()
    assert sorted(os.listdir(v.mnt)) == ["a"]
    os.mkdir(v.path("d"))
    v.umount()
    rc, out = fsck_deep(v)
    assert rc == 0, out
    (d,) = [p for p in v.cipher_files() if os.path.isdir(p)]
    shutil.move(c["a"], os.path.join(d, os.path.basename(c["a"])))
    v.allowed_stderr.append(r"undecodable|does not decode|cannot be decoded")
    v.mount()
    assert sorted(os.listdir(v.mnt)) == ["d"]
    shown = os.listdir(v.path("d"))
    assert len(shown) <= 1 and "a" not in shown, shown
    if shown:
        with open(os.path.join(v.path("d"), shown[0]), "rb") as f:
            assert f.read() == plain["a"]
    v.umount()
    rc, out = fsck_deep(v)
    if shown:  # a well-formed name: nothing to find
        assert rc == 0 and "\nerror " not in "\n" + out, out
    else:
        assert rc == 4 and "name-undecodable" in out, out
