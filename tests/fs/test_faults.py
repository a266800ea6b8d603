# SPDX-License-Identifier: MIT
"""What the filesystem survives (issue: hardening): the mount killed with
SIGKILL during a write-heavy workload, a backing store that fills up, and
read errors of the backing store. Afterwards every file that was fsync'ed
(or written before the fault) reads back exactly, and cloakfs-fsck (when
built) finds the volume clean."""
import errno
import hashlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from conftest import Volume, fusermount_u, read_file, write_file

FSCK = os.environ.get("CLOAKFS_FSCK", "")
EIO_PRELOAD = os.environ.get("CLOAKFS_EIO_PRELOAD", "")


def fsck_clean(v):
    """cloakfs-fsck on the unmounted volume: exit 0 (clean)"""
    if not FSCK:
        return
    r = subprocess.run([FSCK, "--passfile", v.passfile, v.cipherdir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, "fsck exit %d:\n%s" % (r.returncode, r.stdout)


def content(seed, size):
    return random.Random(seed).randbytes(size)


# The writer runs in its own process, so that it can be left blocked or
# failing with ENOTCONN once the mount is gone. It appends one line to the
# log (outside the mount) after each fsync returns: "path sha256"; before
# it rewrites a synced file it logs "begin path".
WRITER = r'''
import hashlib, os, random, sys
mnt, log, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(seed)
synced = {}
logf = open(log, "a", buffering=1)
i = 0
while True:
    i += 1
    d = os.path.join(mnt, "d%d" % (i % 7))
    os.makedirs(d, exist_ok=True)
    op = rng.random()
    if op < 0.6 or not synced:
        # a new file, written in pieces, fsync'ed
        p = os.path.join(d, "f%d" % i)
        size = rng.choice([0, 1, 15, 17, 511, 4096, 4097, 65536 + 13, rng.randrange(300000)])
        data = rng.randbytes(size)
        with open(p, "wb") as f:
            pos = 0
            while pos < size:
                n = rng.randrange(1, 70000)
                f.write(data[pos:pos + n])
                pos += n
            f.flush()
            os.fsync(f.fileno())
    elif op < 0.8:
        # rewrite a range of a synced file in place, fsync'ed
        p = rng.choice(sorted(synced))
        # from here until the next digest line the file may hold old, new
        # or (unit-wise) mixed bytes: nothing was promised yet
        logf.write("begin %s\n" % os.path.relpath(p, mnt))
        with open(p, "r+b") as f:
            data = bytearray(f.read())
            off = rng.randrange(len(data) + 1)
            new = rng.randbytes(rng.randrange(1, 9000))
            data[off:off + len(new)] = new
            f.seek(off)
            f.write(new)
            f.flush()
            os.fsync(f.fileno())
        data = bytes(data)
    else:
        # a file left unsynced (may be lost or torn, must not hurt others)
        p = os.path.join(d, "u%d" % i)
        with open(p, "wb") as f:
            f.write(rng.randbytes(rng.randrange(100000)))
        continue
    synced[p] = hashlib.sha256(data).hexdigest()
    logf.write("%s %s\n" % (os.path.relpath(p, mnt), synced[p]))
'''


@pytest.mark.parametrize("cipher,kill_after", [
    ("speck128-xts", 0.4), ("speck128-xts", 1.2), ("aes256-xts", 0.8),
    ("sm4-xts", 2.0), ("speck64-xts", 1.0),
])
def test_kill9_during_writes(volume_factory, cipher, kill_after):
    v = volume_factory(cipher, sector=512 if cipher == "speck64-xts" else None)
    log = os.path.join(v.top, "synced.log")
    w = subprocess.Popen([sys.executable, "-c", WRITER, v.mnt, log, str(int(kill_after * 10))],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(kill_after)
    assert w.poll() is None, "the writer stopped before the kill"
    v.proc.send_signal(signal.SIGKILL)
    v.proc.wait()
    v.proc = None
    # Stop the writer before the mountpoint is detached: once it is, the
    # writer's paths would name the bare mountpoint directory, and files it
    # wrote (and fsync'ed, and logged) there would be hidden by the remount.
    w.kill()
    w.wait()
    fusermount_u(v.mnt, lazy=True)
    assert os.listdir(v.mnt) == [], "something was written beside the mount"
    # the last line of the log may be torn if the writer died mid-write
    expect = {}
    with open(log) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and parts[0] == "begin":
                expect[parts[1]] = None  # a rewrite in flight at the kill
            elif len(parts) == 2 and len(parts[1]) == 64:
                expect[parts[0]] = parts[1]
    assert sum(d is not None for d in expect.values()) >= 3, "the workload fsync'ed too little before the kill: %d" % len(expect)
    v.allowed_stderr.append(r".")  # the killed process' last words are not the point
    # no torn state is left that fsck calls damage: the header of a new
    # file goes out in one write with its first data (fileio.c)
    fsck_clean(v)
    v.mount()
    for rel, digest in expect.items():
        if digest is None:
            continue
        got = hashlib.sha256(read_file(v.path(rel))).hexdigest()
        assert got == digest, "%s: fsync'ed content lost after kill -9" % rel
    # everything else must at least be readable (no EIO from torn files)
    for root, dirs, files in os.walk(v.mnt):
        for n in files:
            read_file(os.path.join(root, n))
    v.umount()
    fsck_clean(v)


def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s" % size, "tmpfs", path], check=True)


@pytest.fixture
def small_backing():
    """a scratch directory on a small tmpfs of its own"""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    top = tempfile.mkdtemp(prefix="cloakfs-enospc-")
    mount_tmpfs(top, "24m")
    old = os.environ.get("CLOAKFS_TEST_TMP")
    os.environ["CLOAKFS_TEST_TMP"] = top
    yield top
    if old is None:
        del os.environ["CLOAKFS_TEST_TMP"]
    else:
        os.environ["CLOAKFS_TEST_TMP"] = old
    subprocess.run(["umount", "-l", top])
    os.rmdir(top)


def write_until_enospc(path, chunk, mode="ab"):
    """append chunks (fsync'ed) until ENOSPC; returns bytes accepted"""
    total = 0
    try:
        with open(path, mode) as f:
            while True:
                f.write(chunk)
                f.flush()
                os.fsync(f.fileno())
                total += len(chunk)
                assert total < 1 << 30, "no ENOSPC after 1 GiB on a 24 MiB store"
    except OSError as e:
        assert e.errno == errno.ENOSPC, "expected ENOSPC, got %s" % errno.errorcode.get(e.errno)
    return total


@pytest.mark.parametrize("cipher", ["speck128-xts", "aes256-xts", "speck64-xts"])
def test_enospc_damages_nothing(volume_factory, small_backing, cipher):
    v = volume_factory(cipher, sector=512 if cipher == "speck64-xts" else None)
    sizes = [0, 1, 7, 15, 16, 17, 100, 511, 512, 513, 4095, 4096, 4097, 10000, 65536 + 5]
    files = {}
    for i, size in enumerate(sizes):
        p = v.path("keep%d" % i)
        files[p] = content(i, size)
        write_file(p, files[p])
    # fill the store with one big file
    filler = v.path("filler")
    write_until_enospc(filler, os.urandom(1 << 20), "wb")
    # now every kind of growth of an existing file must fail cleanly and
    # leave what was there: appends (the old tail unit is re-encrypted),
    # extending writes past the end, truncate-extend of the tail
    for i, p in enumerate(sorted(files)):
        old = files[p]
        grown = 0
        try:
            with open(p, "ab") as f:
                f.write(content(1000 + i, 300000))
                f.flush()
                os.fsync(f.fileno())
            grown = 300000
        except OSError as e:
            assert e.errno == errno.ENOSPC, "%s: %s" % (p, e)
        data = read_file(p)
        assert data[:len(old)] == old, "%s: data before the failed append changed" % p
        if grown:
            files[p] = data
        else:
            # a failed append may keep a prefix of the new bytes, never garbage
            assert data[len(old):] == content(1000 + i, 300000)[:len(data) - len(old)], \
                "%s: garbage after a failed append" % p
            files[p] = data
    # rewriting in place needs no new space and must still work
    p0 = v.path("keep10")
    with open(p0, "r+b") as f:
        f.seek(3)
        f.write(b"in place")
    files[p0] = files[p0][:3] + b"in place" + files[p0][11:]
    # free the space: everything reads back, fsck clean
    os.unlink(filler)
    v.remount()
    for p, data in files.items():
        assert read_file(p) == data, "%s damaged by ENOSPC" % p
    v.umount()
    fsck_clean(v)
    v.mount()


def cipher_name_of(v, create):
    """the ciphertext entries that appear in the volume root when create() runs"""
    before = set(os.listdir(v.cipherdir))
    create()
    return sorted(set(os.listdir(v.cipherdir)) - before)


@pytest.mark.skipif(not EIO_PRELOAD, reason="CLOAKFS_EIO_PRELOAD not built")
@pytest.mark.parametrize("cipher", ["speck128-xts", "aes256-xts"])
def test_backing_read_errors_are_eio(volume_factory, cipher):
    v = volume_factory(cipher, mount=False)
    ctl = os.path.join(v.top, "eio.ctl")
    env = dict(os.environ, LD_PRELOAD=EIO_PRELOAD, CLOAKFS_EIO_CTL=ctl)
    # a sanitizer build wants its runtime first; the shim only wraps pread
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0").lstrip(":")
    v.mount(env=env)
    victim = content(1, 3 * 4096 + 100)
    other = content(2, 5000)
    names = cipher_name_of(v, lambda: write_file(v.path("victim"), victim))
    assert len(names) == 1
    write_file(v.path("other"), other)
    v.umount()  # a new mount starts with an empty page cache: reads reach it
    v.mount(env=env)
    with open(ctl, "w") as f:
        f.write(names[0] + "\n")
    v.allowed_stderr.append(r"(?i)i/o error|eio|read")
    for off in (0, 4096, 3 * 4096):
        try:
            with open(v.path("victim"), "rb") as f:
                f.seek(off)
                got = f.read(100)
        except OSError as e:
            assert e.errno == errno.EIO, "offset %d: expected EIO, got %s" % (off, e)
            continue
        raise AssertionError("offset %d: read of a failing backing file returned %r" % (off, got[:16]))
    assert read_file(v.path("other")) == other
    # the fault goes away: the same file reads right again, nothing was cached wrong
    os.unlink(ctl)
    assert read_file(v.path("victim")) == victim


@pytest.mark.skipif(not EIO_PRELOAD, reason="CLOAKFS_EIO_PRELOAD not built")
@pytest.mark.parametrize("cipher", ["speck128-xts", "sm4-xts"])
def test_failed_first_write_leaves_no_header_alone(volume_factory, cipher):
    """The header of a new file and its first data go out in one write: when
    that write fails (as when the process dies between two writes) the
    ciphertext file stays empty instead of holding a header alone."""
    v = volume_factory(cipher, mount=False)
    ctl = os.path.join(v.top, "eio.ctl")
    env = dict(os.environ, LD_PRELOAD=EIO_PRELOAD, CLOAKFS_EIO_CTL=ctl)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0").lstrip(":")
    v.mount(env=env)
    v.allowed_stderr.append(r"(?i)i/o error|eio|write")
    kept = content(3, 9000)
    write_file(v.path("kept"), kept)
    with open(ctl, "w") as f:
        f.write("w:%s\n" % v.cipherdir)
    for size in (5, 4096, 70000):
        name = "new%d" % size
        names = cipher_name_of(v, lambda: open(v.path(name), "wb").close())
        assert len(names) == 1
        with pytest.raises(OSError) as e:
            write_file(v.path(name), content(size, size))
        assert e.value.errno == errno.EIO, e.value
        st = os.stat(os.path.join(v.cipherdir, names[0]))
        assert st.st_size == 0, "%s: a failed first write left %d bytes" % (name, st.st_size)
        assert read_file(v.path(name)) == b""
    # an append to an existing file: its data fails, nothing old changes
    with pytest.raises(OSError):
        with open(v.path("kept"), "ab") as f:
            f.write(b"x" * 5000)
    os.unlink(ctl)
    assert read_file(v.path("kept")) == kept
    write_file(v.path("new5"), b"again")
    assert read_file(v.path("new5")) == b"again"
    v.umount()
    fsck_clean(v)


@pytest.mark.parametrize("cipher", ["aes256-xts", "speck64-xts"])
def test_header_alone_reads_as_empty(volume_factory, cipher):
    """A 32-byte file (a valid header, no data: what a crash after a header
    written on its own leaves) is an empty file: it reads as empty, takes new
    data, truncates to zero, and fsck calls the volume clean."""
    v = volume_factory(cipher)
    names = cipher_name_of(v, lambda: write_file(v.path("h"), content(4, 4000)))
    assert len(names) == 1
    c = os.path.join(v.cipherdir, names[0])
    v.umount()
    os.truncate(c, 32)
    fsck_clean(v)
    v.mount()
    assert os.stat(v.path("h")).st_size == 0
    assert read_file(v.path("h")) == b""
    with open(v.path("h"), "ab") as f:
        f.write(b"tail")
    assert read_file(v.path("h")) == b"tail"
    os.truncate(v.path("h"), 0)
    assert os.stat(c).st_size == 0
    v.umount()
    fsck_clean(v)
