# SPDX-License-Identifier: MIT
"""File handles (name_to_handle_at, open_by_handle_at) on a mount.
cloakfs offers FUSE export support (docs/design.md, "File handles of the
mount"): a handle names a nodeid of the mount's export table, which
outlives the kernel's inode. So name_to_handle_at works for anyone;
open_by_handle_at (root: CAP_DAC_READ_SEARCH) opens the same file and
directory while the kernel holds its inode and after the kernel forgot it
(a cache drop: the mount brings it back by the backing store's own
handle); a deleted file's handle gives ESTALE, never another file, even
when a newer file took the deleted one's nodeid (the generation tells
them apart)."""
import ctypes
import errno
import os
import re
import shutil
import struct
import time

import pytest

import conftest
from conftest import fsck_clean, read_file, write_file

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
        assert read_fd(open_by_handle(mfd, h)) == b"the file's bytes"
    finally:
        os.close(mfd)


def assert_stale(mfd, handle):
    """the handle gives ESTALE, never a file"""
    try:
        fd = open_by_handle(mfd, handle)
    except OSError as e:
        assert e.errno == errno.ESTALE, e
    else:
        raise AssertionError("a stale handle opened %r" % read_fd(fd))


def revived(v):
    """forgotten inodes the mount brought back for file handles, from its
    summary at unmount"""
    m = re.findall(r"(\d+) forgotten inodes brought back", v.stderr())
    assert m, "no summary in the mount's log:\n" + v.stderr()
    return int(m[-1])


def try_outlive(v, first):
    """one try of test_handles_outlive_the_kernels_inode on mounted v"""
    f, g = v.path("a", "b", "f"), v.path("a", "g")
    if first:
        os.makedirs(v.path("a", "b"))
        write_file(f, b"kept by its handle")
    write_file(g, b"deleted")
    want = {p: os.stat(p).st_ino for p in (f, v.path("a", "b"))}
    hf, hd, hg = name_to_handle(f), name_to_handle(v.path("a", "b")), name_to_handle(g)
    os.unlink(g)
    mfd = os.open(v.mnt, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(2):  # the second drop frees what the first unpinned
            drop_caches()
        fd = open_by_handle(mfd, hf, os.O_RDWR)
        try:
            assert os.fstat(fd).st_ino == want[f]
            assert os.pread(fd, 100, 0) in (b"kept by its handle", b"KEPT by its handle")
            os.pwrite(fd, b"KEPT", 0)  # an inode with no name yet
        finally:
            os.close(fd)
        fd = open_by_handle(mfd, hd, os.O_RDONLY | os.O_DIRECTORY)
        try:
            assert os.fstat(fd).st_ino == want[v.path("a", "b")]
            assert os.listdir(fd) == ["f"]
        finally:
            os.close(fd)
        assert_stale(mfd, hg)
        with open(f, "rb") as fo:
            assert fo.read() == b"KEPT by its handle"
    finally:
        os.close(mfd)


@pytest.mark.skipif(not IS_ROOT, reason="open_by_handle_at and drop_caches take root")
def test_handles_outlive_the_kernels_inode(volume_factory):
    """handles of a file and of a directory two levels down, and of a file
    then deleted; the kernel forgets them all (cache drops, no descriptor
    open), the mount is left with their nodeids only: the file opens with
    its bytes and inode number, the directory with its entries (the
    kernel connects it to the tree through LOOKUP of ".."), the deleted
    file gives ESTALE; the mount counts the inodes it brought back, and
    fsck finds the volume clean"""
    v = volume_factory(mount=False)
    # a cache drop leaves an inode something else holds a moment (a busy
    # machine, other tests walking their trees): a try in which the
    # kernel forgot neither shows nothing, so up to three, each mounted
    # anew (handles name a mount's nodeids)
    for attempt in range(3):
        v.mount(env=dict(os.environ, CLOAKFS_LOG="info"))  # for its summary
        try_outlive(v, first=attempt == 0)
        v.umount()
        if revived(v) >= 2:  # the file and the directory: the kernel forgot them
            break
    else:
        raise AssertionError("the kernel forgot the file or the directory in none of 3 tries:\n" + v.stderr())
    fsck_clean(v)


@pytest.mark.skipif(not IS_ROOT, reason="open_by_handle_at and drop_caches take root")
def test_stale_handle_never_opens_a_newer_file(cvol, d):
    """files made and removed one by one until a new one has the nodeid
    of a removed one (the mount gives a nodeid again once a handle showed
    its file gone): that removed file's handle gives ESTALE, not the new
    file"""
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
            assert_stale(mfd, h)
        else:
            raise AssertionError("no new inode took a removed one's nodeid in 300 tries "
                                 "(a nodeid whose handle gave ESTALE is given again)")
        assert_stale(mfd, removed[nodeid(h)])
        assert read_fd(open_by_handle(mfd, h)) == b"file %d" % i
    finally:
        os.close(mfd)


@pytest.mark.skipif(not IS_ROOT or not shutil.which("setpriv"),
                    reason="open_by_handle_at and drop_caches take root; setpriv drops a capability")
def test_unprivileged_mount_gives_estale_after_forget(volume_factory, monkeypatch):
    """a mount without CAP_DAC_READ_SEARCH cannot open a file by its
    backing handle: a handle works while the kernel holds the inode and
    gives ESTALE once it forgot it (docs/design.md); the mount brings
    nothing back. (The kernel turns any error of the decoding into ESTALE:
    that no file opens is what this can tell.)"""
    v = volume_factory(mount=False)
    wrapper = os.path.join(v.top, "cloakfs-without-dac-read-search")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nexec setpriv --inh-caps=-dac_read_search '
                '--bounding-set=-dac_read_search "%s" "$@"\n' % conftest.CLOAKFS)
    os.chmod(wrapper, 0o755)
    monkeypatch.setattr(conftest, "CLOAKFS", wrapper)
    v.mount(env=dict(os.environ, CLOAKFS_LOG="info"))
    p = v.path("f")
    write_file(p, b"bytes")
    h = name_to_handle(p)
    mfd = os.open(v.mnt, os.O_RDONLY | os.O_DIRECTORY)
    try:
        keep = os.open(p, os.O_RDONLY)
        assert read_fd(open_by_handle(mfd, h)) == b"bytes"
        os.close(keep)
        # the kernel's FORGET may reach the mount after the handle's
        # LOOKUP (other threads serve them): the entry is then still
        # live and rightly opens; so the drop is tried again, a little
        # later each time, and one ESTALE must come
        for attempt in range(20):
            for _ in range(2):
                drop_caches()
            time.sleep(0.02 * attempt)
            try:
                fd = open_by_handle(mfd, h)
            except OSError as e:
                assert e.errno == errno.ESTALE, e
                break
            assert read_fd(fd) == b"bytes"
        else:
            raise AssertionError("the handle still opened after 20 cache drops")
        assert read_file(p) == b"bytes"  # by its name, as ever
    finally:
        os.close(mfd)
    v.umount()
    assert revived(v) == 0
    fsck_clean(v)


def try_bounded(v, paths, first):
    """one try of test_forgotten_entries_are_bounded on mounted v: how
    many of the files' handles opened after the cache drops"""
    if first:
        for i, p in enumerate(paths):
            write_file(p, b"file %d" % i)
    handles = [name_to_handle(p) for p in paths]
    mfd = os.open(v.mnt, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(2):
            drop_caches()
        opened = 0
        for i, h in enumerate(handles):
            try:
                fd = open_by_handle(mfd, h)
            except OSError as e:
                assert e.errno == errno.ESTALE, e
            else:
                assert read_fd(fd) == b"file %d" % i
                opened += 1
        for i, p in enumerate(paths):
            with open(p, "rb") as f:
                assert f.read() == b"file %d" % i
            assert read_fd(open_by_handle(mfd, name_to_handle(p))) == b"file %d" % i
    finally:
        os.close(mfd)
    return opened


@pytest.mark.skipif(not IS_ROOT, reason="open_by_handle_at and drop_caches take root")
def test_forgotten_entries_are_bounded(volume_factory):
    """a mount keeping at most 2 forgotten entries (CLOAKFS_EXPORT_KEEP;
    the default is 262,144): of 6 files the kernel forgot, the handles of
    2 open their own file and the other 4 give ESTALE (their entries were
    reclaimed), never another file; every file still opens by its name,
    and then by a new handle"""
    v = volume_factory(mount=False)
    paths = [v.path("f%d" % i) for i in range(6)]
    # a try counts when the kernel forgot all 6 (each open then revived
    # its file); one it kept opens without the table, so up to three tries
    for attempt in range(3):
        v.mount(env=dict(os.environ, CLOAKFS_LOG="info", CLOAKFS_EXPORT_KEEP="2"))
        opened = try_bounded(v, paths, first=attempt == 0)
        v.umount()
        assert revived(v) <= 2, "more forgotten entries kept than the bound"
        if revived(v) == 2 and opened == 2:
            break
        assert opened > revived(v), "opened %d, revived %d: fewer kept than the bound of 2" % (
            opened, revived(v))
    else:
        raise AssertionError("the kernel kept some of the 6 inodes in 3 tries")
    fsck_clean(v)
