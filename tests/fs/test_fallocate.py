# SPDX-License-Identifier: MIT
"""fallocate(2) modes on a mount, in plaintext terms, on every content
cipher: preallocation (0, KEEP_SIZE), PUNCH_HOLE|KEEP_SIZE and
ZERO_RANGE (with and without KEEP_SIZE), each checked against a model
file after every call, through a remount, with fsck clean after. On an
XTS volume the whole units of a punched range become holes (ciphertext
all zero bytes, unallocated in the store, SEEK_HOLE finds them); on an
authenticated volume, which has no holes, they are sealed zeros.
COLLAPSE_RANGE and INSERT_RANGE are refused with EOPNOTSUPP (the
kernel's FUSE client passes neither on). The steps of a punch and of a
growing ZERO_RANGE failing one by one: test_steps.py."""
import errno
import os
import random

import pytest

from conftest import (HEADER, FALLOC_FL_COLLAPSE_RANGE, FALLOC_FL_INSERT_RANGE,
                      FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE, FALLOC_FL_ZERO_RANGE,
                      expect_errno, fallocate_mode, fsck_clean)
from test_sparse import cipher_of, backing_has_holes

S = 4096  # the volumes' sector size
PUNCH = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
SEALED_UNIT = S + 32  # a sealed unit: nonce field, data, tag


def sealed(v):
    return v.block == 1


def edge(rng, limit):
    """an offset near a unit or block boundary, or anywhere"""
    if rng.random() < 0.3:
        return rng.randrange(limit)
    return max(0, rng.randrange(limit // S + 1) * S + rng.choice((0, 0, 1, -1, 16, -16, 7, 100)))


def apply_model(m, op, off, length, data=None):
    """the plaintext a call makes of model m (a bytearray)"""
    end = off + length
    if op == "write":
        if len(m) < off:
            m.extend(bytes(off - len(m)))
        m[off:end] = data
    elif op in ("punch", "zero-keep"):
        end = min(end, len(m))
        if off < end:
            m[off:end] = bytes(end - off)
    elif op == "zero":
        if len(m) < end:
            m.extend(bytes(end - len(m)))
        m[off:end] = bytes(end - off)
    elif op == "alloc" and len(m) < end:
        m.extend(bytes(end - len(m)))
    elif op == "truncate":
        del m[off:]
        m.extend(bytes(off - len(m)))


MODES = {"punch": PUNCH, "zero": FALLOC_FL_ZERO_RANGE,
         "zero-keep": FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE,
         "alloc": 0, "alloc-keep": FALLOC_FL_KEEP_SIZE}


def do(fd, op, off, length, data=None):
    if op == "write":
        assert os.pwrite(fd, data, off) == len(data)
    elif op == "truncate":
        os.ftruncate(fd, off)
    else:
        fallocate_mode(fd, MODES[op], off, length)


def new_file(d, seed, size):
    """a file of size random bytes in d: its path and bytes"""
    p = os.path.join(d, "f")
    data = random.Random(seed).randbytes(size)
    with open(p, "wb") as f:
        f.write(data)
    return p, data


def read_all(path):
    with open(path, "rb") as f:
        return f.read()


def test_modes_against_model(cvol, d):
    """random writes, punches, zeroings, preallocations and truncates of
    one file, at and beside unit and block edges, read back after each
    call through a new descriptor, then through a remount"""
    rng = random.Random("fallocate-" + cvol.cipher)
    p = os.path.join(d, "f")
    m = bytearray()
    fd = os.open(p, os.O_CREAT | os.O_RDWR, 0o600)
    log = []
    try:
        for i in range(120):
            op = rng.choice(["write", "write", "punch", "punch", "zero", "zero-keep",
                             "alloc", "alloc-keep", "truncate"])
            off = edge(rng, max(len(m), 1) + 2 * S)
            length = rng.choice((1, 15, 16, 17, S - 1, S, S + 1, 2 * S, 3 * S + 5,
                                 rng.randrange(1, 6 * S)))
            if op == "truncate":
                off = edge(rng, 8 * S)
            data = rng.randbytes(length) if op == "write" else None
            log.append("%s %d+%d (size %d)" % (op, off, length, len(m)))
            do(fd, op, off, length, data)
            apply_model(m, op, off, length, data)
            assert os.fstat(fd).st_size == len(m), "; ".join(log[-5:])
            got = read_all(p)
            assert got == bytes(m), "%s: first difference at %s" % (
                "; ".join(log[-5:]),
                next((j for j in range(min(len(got), len(m))) if got[j] != m[j]), None))
    finally:
        os.close(fd)
    cvol.umount()
    fsck_clean(cvol)
    cvol.mount()
    assert read_all(p) == bytes(m), "after a remount"


def test_punch_on_disk(cvol, d):
    """a punch of [100, 4S + 50) of a 6-unit file: units 1..3 are holes
    in an XTS file (all-zero, unallocated ciphertext; SEEK_HOLE at S),
    sealed zeros in an authenticated one (no all-zero unit, SEEK_HOLE at
    the end); the edge units keep their other bytes"""
    p, data = new_file(d, 5, 6 * S)
    fd = os.open(p, os.O_RDWR)
    try:
        fallocate_mode(fd, PUNCH, 100, 4 * S - 50)
        assert os.fstat(fd).st_size == 6 * S
        want = data[:100] + bytes(4 * S - 50) + data[4 * S + 50:]
        assert read_all(p) == want
        hole = os.lseek(fd, 0, os.SEEK_HOLE)
    finally:
        os.close(fd)
    c = read_all(cipher_of(cvol, p))
    if sealed(cvol):
        assert len(c) == HEADER + 6 * SEALED_UNIT
        for i in range(6):
            u = c[HEADER + i * SEALED_UNIT:HEADER + (i + 1) * SEALED_UNIT]
            assert u.count(0) < len(u) // 2, "sealed unit %d is zeros" % i
        assert hole == 6 * S
        return
    assert len(c) == HEADER + 6 * S
    for i in range(6):
        u = c[HEADER + i * S:HEADER + (i + 1) * S]
        assert (u == bytes(S)) == (i in (1, 2, 3)), "unit %d" % i
    assert hole == S
    if backing_has_holes(cvol):
        cfd = os.open(cipher_of(cvol, p), os.O_RDONLY)
        try:
            # the store's hole: from the first backing block wholly in unit 1
            h = os.lseek(cfd, HEADER, os.SEEK_HOLE)
            assert HEADER + S <= h < HEADER + 2 * S, h
        finally:
            os.close(cfd)


def test_zero_range_grows(cvol, d):
    """ZERO_RANGE over the end grows the file; with KEEP_SIZE it does not;
    wholly past the end it grows as a truncate does"""
    p, data = new_file(d, 6, S + 100)
    fd = os.open(p, os.O_RDWR)
    try:
        fallocate_mode(fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, 50, 10 * S)
        assert os.fstat(fd).st_size == S + 100
        assert read_all(p) == data[:50] + bytes(S + 50)
        fallocate_mode(fd, FALLOC_FL_ZERO_RANGE, 10, 3 * S)
        assert os.fstat(fd).st_size == 3 * S + 10
        assert read_all(p) == data[:10] + bytes(3 * S)
        fallocate_mode(fd, FALLOC_FL_ZERO_RANGE, 5 * S, 7)
        assert os.fstat(fd).st_size == 5 * S + 7
        assert read_all(p) == data[:10] + bytes(5 * S - 3)
    finally:
        os.close(fd)


def test_tiny_and_empty(cvol, d):
    """a padded tiny file punched whole and in part; an empty file
    punched (nothing) and zeroed (grown)"""
    p = os.path.join(d, "tiny")
    with open(p, "wb") as f:
        f.write(b"abcde")
    fd = os.open(p, os.O_RDWR)
    try:
        fallocate_mode(fd, PUNCH, 1, 2)
        assert read_all(p) == b"a\0\0de"
        fallocate_mode(fd, PUNCH, 0, 100)
        assert read_all(p) == bytes(5)
    finally:
        os.close(fd)
    p = os.path.join(d, "empty")
    fd = os.open(p, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fallocate_mode(fd, PUNCH, 0, S)
        assert os.fstat(fd).st_size == 0
        fallocate_mode(fd, FALLOC_FL_ZERO_RANGE, 3, S)
        assert read_all(p) == bytes(S + 3)
    finally:
        os.close(fd)


@pytest.mark.parametrize("mode", [FALLOC_FL_COLLAPSE_RANGE, FALLOC_FL_INSERT_RANGE],
                         ids=["collapse", "insert"])
def test_collapse_insert_refused(cvol, d, mode):
    """refused, aligned or not, and the file is as it was"""
    p, data = new_file(d, 7, 8 * S)
    fd = os.open(p, os.O_RDWR)
    try:
        expect_errno(errno.EOPNOTSUPP, fallocate_mode, fd, mode, S, 2 * S)
        expect_errno(errno.EOPNOTSUPP, fallocate_mode, fd, mode, 100, 2 * S + 3)
    finally:
        os.close(fd)
    assert read_all(p) == data


def test_punch_needs_keep_size(cvol, d):
    """PUNCH_HOLE alone: EOPNOTSUPP (as the VFS answers), nothing changed"""
    p = os.path.join(d, "f")
    with open(p, "wb") as f:
        f.write(b"x" * 100)
    fd = os.open(p, os.O_RDWR)
    try:
        expect_errno(errno.EOPNOTSUPP,
                 fallocate_mode, fd, FALLOC_FL_PUNCH_HOLE, 0, 10)
    finally:
        os.close(fd)
    assert read_all(p) == b"x" * 100
