# SPDX-License-Identifier: MIT
"""What the filesystem survives (issue: hardening): a crash (the mount
killed with SIGKILL, and the backing store losing every file content that
was not synced: crash_preload.c) during a write-heavy workload and after
each way of syncing, a backing store that fills up, and read errors of the
backing store. Afterwards every file that was synced (or written before
the fault) reads back exactly, and cloakfs-fsck (when built) finds the
volume clean."""
import errno
import hashlib
import json
import os
import random
import signal
import stat
import subprocess
import sys
import tempfile
import time

import pytest

from conftest import (Volume, fsck_clean, fusermount_u, preload_env, read_file,
                      write_file)

FSCK = os.environ.get("CLOAKFS_FSCK", "")
EIO_PRELOAD = os.environ.get("CLOAKFS_EIO_PRELOAD", "")
CRASH_PRELOAD = os.environ.get("CLOAKFS_CRASH_PRELOAD", "")


def fsck_after_crash(v):
    """cloakfs-fsck after a crash: clean, but for the temporary name of a
    directory being made when the machine stopped (docs/fsck.md,
    temp-entry), which --repair quarantines; then clean"""
    if not FSCK:
        return
    r = subprocess.run([FSCK, "--json", "--passfile", v.passfile, v.cipherdir],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    found = {f["class"] for f in json.loads(r.stdout)["findings"]}
    assert found <= {"temp-entry"}, "fsck exit %d after a crash:\n%s" % (r.returncode, r.stdout)
    if found:
        r = subprocess.run([FSCK, "--repair", "--passfile", v.passfile, v.cipherdir],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert r.returncode in (0, 1), "fsck --repair exit %d:\n%s" % (r.returncode, r.stdout)
    fsck_clean(v)


def content(seed, size):
    return random.Random(seed).randbytes(size)


# ---- crashes -----------------------------------------------------------------

def crash_env(v, skip_fsync=False):
    """the environment of a mount whose backing store can crash (and, with
    skip_fsync, of a cloakfs that does not sync: the test-only switch)"""
    v.shadow = os.path.join(v.top, "shadow")
    os.makedirs(v.shadow, exist_ok=True)
    extra = {"CLOAKFS_CRASH_DIR": os.path.realpath(v.cipherdir), "CLOAKFS_CRASH_SHADOW": v.shadow}
    if skip_fsync:
        extra["CLOAKFS_TEST_SKIP_FSYNC"] = "1"
    return preload_env(CRASH_PRELOAD, **extra)


def crash(v, before_detach=None):
    """the machine stops: the mount is killed, then (before_detach() done,
    e.g. stopping writers) detached, and every ciphertext file it changed
    goes back to its content at its last fsync, or to nothing"""
    v.proc.send_signal(signal.SIGKILL)
    v.proc.wait()
    v.proc = None
    if before_detach:
        before_detach()
    fusermount_u(v.mnt, lazy=True)
    dirty = {n[:-len(".dirty")] for n in os.listdir(v.shadow) if n.endswith(".dirty")}
    assert dirty, "the crash shim saw no write: is it preloaded?"
    for root, dirs, files in os.walk(v.cipherdir):
        for n in files:
            p = os.path.join(root, n)
            st = os.lstat(p)
            key = "%d-%d" % (st.st_dev, st.st_ino)
            if not stat.S_ISREG(st.st_mode) or key not in dirty:
                continue
            synced = os.path.join(v.shadow, key + ".data")
            data = read_file(synced) if os.path.exists(synced) else b""
            if read_file(p) == data:
                continue
            os.chmod(p, st.st_mode | stat.S_IWUSR)  # a 0440 directory nonce
            with open(p, "r+b") as f:
                f.truncate(0)
                f.write(data)
            os.chmod(p, st.st_mode)
    for n in os.listdir(v.shadow):
        os.unlink(os.path.join(v.shadow, n))


def synced_write(way, path, data, off=0, truncate=None, create=False):
    """write data at off (then truncate to truncate, if given) and sync it
    the given way: fsync, fdatasync, or each write through O_SYNC or
    O_DSYNC (a truncate is fdatasync'ed there)"""
    flags = os.O_WRONLY | (os.O_CREAT | os.O_TRUNC if create else 0)
    flags |= {"O_SYNC": os.O_SYNC, "O_DSYNC": os.O_DSYNC}.get(way, 0)
    fd = os.open(path, flags, 0o644)
    try:
        pos = 0
        while pos < len(data):  # pieces, so the kernel sends several WRITEs
            pos += os.pwrite(fd, data[pos:pos + 50000], off + pos)
        if truncate is not None:
            os.ftruncate(fd, truncate)
        if way == "fsync":
            os.fsync(fd)
        elif way == "fdatasync" or truncate is not None:
            os.fdatasync(fd)
    finally:
        os.close(fd)


@pytest.mark.skipif(not CRASH_PRELOAD, reason="CLOAKFS_CRASH_PRELOAD not built")
@pytest.mark.parametrize("way", ["fsync", "fdatasync", "O_SYNC", "O_DSYNC"])
@pytest.mark.parametrize("skip_fsync", [False, True], ids=["synced", "sync-skipped"])
def test_synced_data_survives_a_crash(volume_factory, way, skip_fsync):
    """Each file is written and synced, then the machine crashes: every
    synced byte is back after it. With cloakfs' syncing switched off
    (CLOAKFS_TEST_SKIP_FSYNC, test-only) the same run must lose data: the
    check that this test sees a sync that does nothing."""
    v = volume_factory("speck128-xts", mount=False)
    v.mount(env=crash_env(v, skip_fsync))
    want = {}
    for name, size in [("one-byte", 1), ("unit", 4096), ("units", 70000), ("odd", 5000)]:
        want[name] = content(size, size)
        synced_write(way, v.path(name), want[name], create=True)
    # a rewrite in place of a synced file, an append, a shrink
    new = content(7, 300)
    synced_write(way, v.path("units"), new, off=4000)
    want["units"] = want["units"][:4000] + new + want["units"][4300:]
    synced_write(way, v.path("odd"), content(8, 3000), off=5000)
    want["odd"] += content(8, 3000)
    synced_write(way, v.path("unit"), b"", truncate=1000)
    want["unit"] = want["unit"][:1000]
    os.mkdir(v.path("sub"))
    want["sub/deep"] = content(9, 9000)
    synced_write(way, v.path("sub/deep"), want["sub/deep"], create=True)
    dfd = os.open(v.path("sub"), os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)  # (names are kept at the crash: it must work, that is all)
    finally:
        os.close(dfd)
    # never synced: may be lost, must not hurt the others
    write_file(v.path("unsynced"), content(10, 20000))
    crash(v)
    fsck_after_crash(v)
    v.mount()
    lost = [n for n, data in want.items() if read_file(v.path(n)) != data]
    if skip_fsync:
        assert lost, "nothing lost with cloakfs' syncs switched off: the crash test cannot see them"
    else:
        assert not lost, "synced (%s) content lost in a crash: %s" % (way, lost)
    assert read_file(v.path("unsynced")) in (b"", content(10, 20000))


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


def synced_in(log):
    """{path: sha256 hex} of the writer's log, None for a path whose
    rewrite was in flight; a torn last line (the writer killed mid-write)
    is left out"""
    expect = {}
    try:
        with open(log) as f:
            lines = f.read().split("\n")[:-1]
    except FileNotFoundError:
        return expect
    for line in lines:
        parts = line.split()
        if len(parts) == 2 and parts[0] == "begin":
            expect[parts[1]] = None
        elif len(parts) == 2 and len(parts[1]) == 64:
            expect[parts[0]] = parts[1]
    return expect


def wait_for_synced(log, count, writer):
    """until the writer has fsync'ed count files that are not being
    rewritten (an event, with a deadline against a hang, not a timing
    floor)"""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert writer.poll() is None, "the writer stopped before the crash"
        if sum(d is not None for d in synced_in(log).values()) >= count:
            return
        time.sleep(0.01)
    raise AssertionError("the writer did not fsync %d files in 300 s" % count)


@pytest.mark.skipif(not CRASH_PRELOAD, reason="CLOAKFS_CRASH_PRELOAD not built")
@pytest.mark.parametrize("cipher,synced_files,skip_fsync", [
    ("speck128-xts", 3, False), ("speck128-xts", 12, False), ("aes256-xts", 8, False),
    ("sm4-xts", 20, False), ("speck64-xts", 10, False),
    ("speck128-xts", 6, True),
])
def test_crash_during_writes(volume_factory, cipher, synced_files, skip_fsync):
    """The machine crashes in the middle of a write-heavy workload, once
    the writer has fsync'ed synced_files files: every file fsync'ed before
    the crash reads back as it was synced. With cloakfs' syncs switched off
    (test-only), fsync'ed files must be lost: the test sees that."""
    v = volume_factory(cipher, sector=512 if cipher == "speck64-xts" else None, mount=False)
    v.mount(env=crash_env(v, skip_fsync))
    log = os.path.join(v.top, "synced.log")
    w = subprocess.Popen([sys.executable, "-c", WRITER, v.mnt, log, str(synced_files)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop_writer():
        # before the mountpoint is detached: once it is, the writer's
        # paths would name the bare mountpoint directory, and files it
        # wrote (and fsync'ed, and logged) there would be hidden by the
        # remount
        w.kill()
        w.wait()

    try:
        wait_for_synced(log, synced_files, w)
    finally:
        crash(v, before_detach=stop_writer)
    assert os.listdir(v.mnt) == [], "something was written beside the mount"
    expect = synced_in(log)
    # (more may have come between the event and the kill, or a rewrite
    # begun, so at least count - 1)
    assert sum(d is not None for d in expect.values()) >= synced_files - 1
    # no torn state is left that fsck calls damage: the header of a new
    # file goes out in one write with its first data (steps.h)
    fsck_after_crash(v)
    v.mount()
    lost = []
    for rel, digest in expect.items():
        if digest is None:
            continue
        if hashlib.sha256(read_file(v.path(rel))).hexdigest() != digest:
            lost.append(rel)
    if skip_fsync:
        assert lost, "no fsync'ed file lost with cloakfs' syncs switched off"
    else:
        assert not lost, "fsync'ed content lost in a crash: %s" % lost
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
    env = preload_env(EIO_PRELOAD, CLOAKFS_EIO_CTL=ctl)
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
    # no allowed_stderr: an I/O error of the backing store is the
    # reader's EIO; the mount has nothing to warn about
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
    env = preload_env(EIO_PRELOAD, CLOAKFS_EIO_CTL=ctl)
    v.mount(env=env)
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
