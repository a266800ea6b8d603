# SPDX-License-Identifier: MIT
"""O_DIRECT writes leave no stale page: writes through an O_DIRECT
descriptor, asynchronous (Linux AIO, io_submit, as xfstests generic/451
does) and synchronous, race buffered readers of the same range; right
after each write completes, a buffered read must return the new bytes.
The kernel completed an asynchronous direct write without dropping the
pages the readers had cached meanwhile (57 to 194 stale reads in 1500
writes). fsck stays clean.
"""
import ctypes
import ctypes.util
import mmap
import os
import threading

import pytest

from conftest import CIPHERS, CONTENT_CIPHERS, Volume, fsck_clean

SIZE = 64 * 1024  # the range written and read, several pages
ROUNDS = 1500


class IOCB(ctypes.Structure):
    """the kernel's struct iocb (linux/aio_abi.h), little-endian"""
    _fields_ = [("data", ctypes.c_uint64), ("key", ctypes.c_uint32),
                ("rw_flags", ctypes.c_uint32), ("opcode", ctypes.c_uint16),
                ("reqprio", ctypes.c_int16), ("fildes", ctypes.c_uint32),
                ("buf", ctypes.c_uint64), ("nbytes", ctypes.c_uint64),
                ("offset", ctypes.c_int64), ("reserved2", ctypes.c_uint64),
                ("flags", ctypes.c_uint32), ("resfd", ctypes.c_uint32)]


class IOEvent(ctypes.Structure):
    _fields_ = [("data", ctypes.c_uint64), ("obj", ctypes.c_uint64),
                ("res", ctypes.c_int64), ("res2", ctypes.c_int64)]


IOCB_CMD_PWRITE = 1
_libaio = ctypes.util.find_library("aio")


class Aio:
    """one Linux AIO context (libaio's wrappers of the system calls)"""

    def __init__(self):
        self.lib = ctypes.CDLL(_libaio, use_errno=True)
        self.ctx = ctypes.c_void_p(0)
        rc = self.lib.io_setup(4, ctypes.byref(self.ctx))
        if rc != 0:
            pytest.skip("io_setup: %s" % os.strerror(-rc))

    def pwrite(self, fd, buf, off):
        """submit one write and wait for its completion: bytes written"""
        cb = IOCB(opcode=IOCB_CMD_PWRITE, fildes=fd, nbytes=len(buf), offset=off,
                  buf=ctypes.addressof(ctypes.c_char.from_buffer(buf)))
        cbs = (ctypes.POINTER(IOCB) * 1)(ctypes.pointer(cb))
        assert self.lib.io_submit(self.ctx, 1, cbs) == 1
        ev = IOEvent()
        assert self.lib.io_getevents(self.ctx, 1, 1, ctypes.byref(ev), None) == 1
        return ev.res

    def close(self):
        self.lib.io_destroy(self.ctx)


def race(path, write, rounds):
    """rounds direct writes of a new pattern each, with three buffered
    readers of the range running; the number read back stale"""
    stop = threading.Event()

    def reader():
        fd = os.open(path, os.O_RDONLY)
        try:
            while not stop.is_set():
                os.pread(fd, SIZE, 0)
        finally:
            os.close(fd)

    readers = [threading.Thread(target=reader) for _ in range(3)]
    for t in readers:
        t.start()
    dfd = os.open(path, os.O_RDWR | os.O_DIRECT)
    bfd = os.open(path, os.O_RDONLY)
    buf = mmap.mmap(-1, SIZE)  # page-aligned, as O_DIRECT wants
    stale = 0
    try:
        for i in range(rounds):
            pattern = bytes([i % 250 + 1]) * SIZE
            buf[:] = pattern
            assert write(dfd, buf, 0) == SIZE
            stale += os.pread(bfd, SIZE, 0) != pattern
    finally:
        stop.set()
        for t in readers:
            t.join()
        os.close(dfd)
        os.close(bfd)
        buf.close()
    return stale, pattern


@pytest.mark.skipif(not _libaio, reason="no libaio (libaio1) for io_submit")
@pytest.mark.parametrize("cipher", CIPHERS[:1] + [c for c in ("aes256-gcm", "adiantum")
                                                   if c in CONTENT_CIPHERS and c != CIPHERS[0]])
def test_aio_direct_write_vs_buffered_readers(cipher):
    """on an XTS volume, a sealed one and a wide-block one"""
    v = Volume(cipher, tag="direct")
    aio = None
    try:
        v.mount()
        path = v.path("f")
        with open(path, "wb") as f:
            f.write(b"\0" * SIZE * 4)  # overwrites, not extensions
        aio = Aio()
        stale, last = race(path, aio.pwrite, ROUNDS)
        assert stale == 0, "%d of %d AIO direct writes read back stale" % (
            stale, ROUNDS)
        stale, last = race(path, os.pwrite, ROUNDS // 4)
        assert stale == 0, "%d of %d direct pwrites read back stale" % (
            stale, ROUNDS // 4)
        v.remount()
        with open(path, "rb") as f:
            assert f.read(SIZE) == last
        v.umount()
        fsck_clean(v)
    finally:
        if aio:
            aio.close()
        v.destroy()
