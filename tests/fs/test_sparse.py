# SPDX-License-Identifier: MIT
"""SEEK_DATA/SEEK_HOLE on sparse files: plaintext offsets on unit
boundaries, as the data really lies (docs/format.md: a unit whose
ciphertext is all zero is a hole; the end of file is a hole), checked at
every unit's edges against the ciphertext itself, for a 16-byte and an
8-byte cipher, with holes between data written at aligned and unaligned
offsets, and the tail rules (a CTS tail, a short tail joined to the sector
before it, a padded tiny file). Then cp --sparse=always of such a file
gives an identical copy whose ciphertext stays small. fsck stays clean.
"""
import errno
import os
import shutil
import subprocess

import pytest

from conftest import AEAD_CIPHERS, CIPHERS, CONTENT_CIPHERS, HEADER, Volume, fsck_clean

S = 4096  # the volumes' sector size
MIB = 1 << 20


def layouts(bs):
    """name -> (final size, [(offset, length)] written with nonzero bytes)"""
    return {
        # the report's: 1 MiB at 0 and at 5 MiB
        "report": (6 * MIB, [(0, MIB), (5 * MIB, MIB)]),
        # unaligned writes, holes between, a size grown by truncate
        "gaps": (20 * S + 5, [(0, 5000), (3 * S + 100, 100), (8 * S, 2 * S),
                              (13 * S - 1, 2)]),
        # data ending in a short tail joined to the sector before it
        "joined": (12 * S + bs - 1, [(2 * S, 10), (11 * S + 7, S + bs - 8)]),
        # a ciphertext-stealing tail after a hole
        "cts": (7 * S + 100, [(S, S), (7 * S + 99, 1)]),
        # a padded tiny file, and a one-sector file
        "tiny": (bs - 3, [(1, bs - 4)]),
        "sector": (S, [(S - 1, 1)]),
        # a hole only: a file grown by truncate alone
        "empty-grown": (3 * S + 17, []),
    }


def build(path, size, writes):
    """the file through the mount, and its plaintext"""
    plain = bytearray(size)
    with open(path, "wb") as f:
        for i, (off, n) in enumerate(writes):
            data = (bytes(range(i + 1, 256)) * (n // (255 - i) + 1))[:n]
            f.seek(off)
            f.write(data)
            plain[off:off + n] = data
        f.truncate(size)
    return bytes(plain)


def units(size, bs):
    """(plaintext start, plaintext length, ciphertext length) per unit
    (volume/content/content.h)"""
    if size == 0:
        return []
    n = (size + S - 1) // S
    if n > 1 and size - (n - 1) * S < bs:
        n -= 1  # a tail shorter than a block joins the sector before it
    out = [(i * S, S, S) for i in range(n - 1)]
    last = size - (n - 1) * S
    out.append(((n - 1) * S, last, max(last, bs)))
    return out


def holes(size, bs, cipher):
    """per unit (start, length, hole?): an all-zero ciphertext unit is a
    hole (docs/format.md)"""
    return [(start, plen, not any(cipher[HEADER + start:HEADER + start + clen]))
            for start, plen, clen in units(size, bs)]


def expected(size, layout, off, whence):
    """lseek's answer: the first unit at or after off of the kind asked"""
    if off >= size:
        return -errno.ENXIO
    for start, plen, hole in layout[min(off // S, len(layout) - 1):]:
        if start + plen > off and hole == (whence == os.SEEK_HOLE):
            return max(start, off)
    return size if whence == os.SEEK_HOLE else -errno.ENXIO


def lseek(fd, off, whence):
    try:
        return os.lseek(fd, off, whence)
    except OSError as e:
        return -e.errno


def cipher_of(v, path):
    """the ciphertext file of a plaintext file (same inode number)"""
    ino = os.stat(path).st_ino
    for c in v.cipher_files():
        if os.lstat(c).st_ino == ino:
            return c
    raise AssertionError("no ciphertext file for %s" % path)


def backing_has_holes(v):
    """whether the volume's backing store keeps and reports holes (tmpfs
    and most local filesystems do; one that cannot tell has data
    everywhere, which the tests here would not expect)"""
    probe = os.path.join(v.top, "probe")
    fd = os.open(probe, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        os.pwrite(fd, b"x" * 4096, MIB)
        return (lseek(fd, 0, os.SEEK_HOLE) == 0 and
                os.fstat(fd).st_blocks * 512 < MIB)
    finally:
        os.close(fd)
        os.unlink(probe)


def offsets(size, bs):
    out = {0, size - 1, size, size + 1, size + S}
    for start, plen, _ in units(size, bs):
        out |= {start, start + 1, start + plen // 2, start + plen - 1}
    return sorted(o for o in out if o >= 0)


def check_layout(name, path, size, bs, plain, ct):
    layout = holes(size, bs, ct)
    for start, plen, hole in layout:
        # a unit with data is never a hole
        assert not (hole and any(plain[start:start + plen])), (name, start)
    assert any(h for _, _, h in layout) or name in ("tiny", "sector"), name
    fd = os.open(path, os.O_RDONLY)
    try:
        for off in offsets(size, bs):
            for whence in (os.SEEK_DATA, os.SEEK_HOLE):
                want = expected(size, layout, off, whence)
                got = lseek(fd, off, whence)
                assert got == want, "%s (%d bytes): %s from %d: %d, want %d" % (
                    name, size, "SEEK_DATA" if whence == os.SEEK_DATA
                    else "SEEK_HOLE", off, got, want)
    finally:
        os.close(fd)


@pytest.mark.parametrize("cipher", [c for c in ("aes256-xts", "speck64-xts", "adiantum")
                                    if c in CIPHERS])
def test_seek_data_hole(cipher):
    v = Volume(cipher, sector=S, tag="sparse")
    try:
        if not backing_has_holes(v):
            pytest.skip("the backing store keeps no holes")
        v.mount()
        for name, (size, writes) in layouts(v.block).items():
            path = v.path(name)
            plain = build(path, size, writes)
            with open(cipher_of(v, path), "rb") as f:
                ct = f.read()
            check_layout(name, path, size, v.block, plain, ct)
        # the report's numbers, spelled out
        fd = os.open(v.path("report"), os.O_RDONLY)
        try:
            assert lseek(fd, 0, os.SEEK_HOLE) == MIB
            assert lseek(fd, MIB, os.SEEK_DATA) == 5 * MIB
            assert lseek(fd, 5 * MIB, os.SEEK_HOLE) == 6 * MIB
        finally:
            os.close(fd)
        v.umount()
        fsck_clean(v)
    finally:
        v.destroy()


@pytest.mark.parametrize("cipher", [c for c in AEAD_CIPHERS if c in CONTENT_CIPHERS])
def test_seek_on_sealed_volume(cipher):
    """an authenticated volume keeps no holes (a never-written unit is
    sealed zeros, so that a zeroed sector is caught): SEEK_DATA answers
    every offset inside the file with itself, SEEK_HOLE with the end, and
    cp --sparse=always still copies every byte"""
    v = Volume(cipher, sector=S, tag="sparse-sealed")
    try:
        v.mount()
        for name, (size, writes) in layouts(16).items():
            path = v.path(name)
            plain = build(path, size, writes)
            fd = os.open(path, os.O_RDONLY)
            try:
                for off in offsets(size, 16):
                    want_data = off if off < size else -errno.ENXIO
                    want_hole = size if off < size else -errno.ENXIO
                    assert lseek(fd, off, os.SEEK_DATA) == want_data, (name, off)
                    assert lseek(fd, off, os.SEEK_HOLE) == want_hole, (name, off)
            finally:
                os.close(fd)
            dst = path + ".copy"
            subprocess.run(["cp", "--sparse=always", path, dst], check=True)
            with open(dst, "rb") as f:
                assert f.read() == plain, name
        v.umount()
        fsck_clean(v)
    finally:
        v.destroy()


@pytest.mark.skipif(shutil.which("cp") is None, reason="no cp")
def test_cp_sparse_always():
    v = Volume(CIPHERS[0], sector=S, tag="sparse-cp")
    try:
        if not backing_has_holes(v):
            pytest.skip("the backing store keeps no holes")
        v.mount()
        for name, (size, writes) in layouts(v.block).items():
            src, dst = v.path(name), v.path(name + ".copy")
            plain = build(src, size, writes)
            subprocess.run(["cp", "--sparse=always", src, dst], check=True)
            with open(dst, "rb") as f:
                assert f.read() == plain, name
            # the copy's ciphertext holds its data units only (each
            # spans two 4 KiB blocks of a sparse backing store, such
            # as tmpfs), not the holes between
            data = sum(1 for start, plen, _ in units(size, v.block)
                       if any(plain[start:start + plen]))
            used = os.stat(cipher_of(v, dst)).st_blocks * 512
            assert used <= (2 * data + 1) * 4096, (name, used, data)
        v.umount()
        fsck_clean(v)
    finally:
        v.destroy()
