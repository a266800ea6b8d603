# SPDX-License-Identifier: MIT
"""File handles (name_to_handle_at, open_by_handle_at) on a mount.
cloakfs does not offer FUSE export support (docs/design.md, "File
handles"): a handle names the inode the kernel holds. So:
name_to_handle_at works for anyone; open_by_handle_at (root:
CAP_DAC_READ_SEARCH) opens the same file while the kernel holds its
inode, and after the kernel forgot it (a cache drop) fails with ESTALE,
never opening another file, even when a newer inode took the forgotten
one's nodeid (nodeids are addresses: the generation tells them apart)."""
import ctypes
import errno
import os
import struct

import pytest

from conftest import write_file

IS_ROOT = os.geteuid() == 0
MAX_HANDLE = 128
_libc = ctypes.CDLL(None, use_errno=True)


def name_to_handle(path):
    """the handle of path: (type, bytes)"""
    buf = ctypes.create_string_buffer(8 + MAX_HANDLE)
    struct.pack_into("I", buf, 0, MAX_HANDLE)
    mnt = ctypes.c_int()
    AT_FDCWD = -100
    if _libc.name_to_handle_at(AT_FDCWD, os.fsencode(path), buf, ctypes.byref(mnt), 0) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), path)
    n, kind = struct.unpack_from("Ii", buf, 0)
    return kind, buf.raw[8:8 + n]


def open_by_handle(mount_fd, handle, flags=os.O_RDONLY):
    kind, fh = handle
    buf = ctypes.create_string_buffer(struct.pack("Ii", len(fh), kind) + fh)
    fd = _libc.open_by_handle_at(mount_fd, buf, flags)
    if fd < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return fd


def nodeid(handle):
    """the FUSE nodeid a handle names (its first two 32-bit words)"""
    hi, lo = struct.unpack_from("II", handle[1], 0)
    return hi << 32 | lo


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("2\n")


def read_fd(fd):
    try:
        return os.pread(fd, 1 << 16, 0)
    finally:
        os.close(fd)


def test_name_to_handle(cvol, d):
    p = os.path.join(d, "f")
    write_file(p, b"x")
    kind, fh = name_to_handle(p)
    assert len(fh) >= 12 and nodeid((kind, fh)) != 0
    assert name_to_handle(p) == (kind, fh)  # stable while it is known


@pytest.mark.skipif(not IS_ROOT, reason="open_by_handle_at and drop_caches take root")
def test_open_by_handle_cached_and_dropped(cvol, d):
    p = os.path.join(d, "f")
    write_file(p, b"the file's bytes")
    h = name_to_handle(p)
    mfd = os.open(cvol.mnt, os.O_RDONLY | os.O_DIRECTORY)
    try:
        keep = os.open(p, os.O_RDONLY)  # the kernel holds the inode
        assert read_fd(open_by_handle(mfd, h)) == b"the file's bytes"
        os.close(keep)
        drop_caches()
        try:
            fd = open_by_handle(mfd, h)
        except OSError as e:
            assert e.errno == errno.ESTALE, e
        else:  # still held somewhere: then it is the same file
            assert read_fd(fd) == b"the file's bytes"
    finally:
        os.close(mfd)


@pytest.mark.skipif(not IS_ROOT, reason="open_by_handle_at and drop_caches take root")
def test_stale_handle_never_opens_a_newer_file(cvol, d):
    """files made and removed one by one until a new one has the nodeid
    of a removed one (an address reused): that removed file's handle
    gives ESTALE, not the new file"""
    mfd = os.open(cvol.mnt, os.O_RDONLY | os.O_DIRECTORY)
    removed = {}  # nodeid -> handle
    try:
        for i in range(300):
            p = os.path.join(d, "f%d" % i)
            write_file(p, b"file %d" % i)
            h = name_to_handle(p)
            if nodeid(h) in removed:
                break
            os.unlink(p)
            drop_caches()
            removed[nodeid(h)] = h
        else:
            pytest.skip("no new inode took a removed one's nodeid in 300 tries")
        try:
            fd = open_by_handle(mfd, removed[nodeid(h)])
        except OSError as e:
            assert e.errno == errno.ESTALE, e
        else:
            got = read_fd(fd)
            raise AssertionError("a removed file's handle opened %r" % got)
        assert read_fd(open_by_handle(mfd, h)) == b"file %d" % i
    finally:
        os.close(mfd)
