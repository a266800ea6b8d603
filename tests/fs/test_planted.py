# SPDX-License-Identifier: MIT
"""Entries planted in the ciphertext directory at the ciphertext name of a
file being created: a FIFO, or (as root) a character device.

When a create finds its name taken by something that is not a regular
file, the mount must neither open it (a device's driver would see the
open) nor keep a descriptor for it (the kernel refuses a create reply that
is not a file and sends no release: before the fix each such create left
one descriptor open, 20,000 in a 30 s race, until every open failed with
EMFILE). The create ends as an open of what is there, and a warning names
the entry by its ciphertext path.

Names are deterministic per directory, so a file created, removed and
created again under one name uses the same ciphertext name; the kernel
caches the negative entry left by the removal for a second, so the second
create reaches the mount as CREATE without a new LOOKUP.
"""
import ctypes
import errno
import os
import stat
import threading
import time

import pytest

from conftest import write_file

IS_ROOT = os.geteuid() == 0
KINDS = ["fifo", pytest.param("device", marks=pytest.mark.skipif(
    not IS_ROOT, reason="mknod of a character device needs root"))]
WARNING = r"where a new file was being created: not opened"
RACE_SECONDS = 3

_libc = ctypes.CDLL(None, use_errno=True)
IN_OPEN = 0x20


def plant(path, kind):
    if kind == "fifo":
        os.mkfifo(path, 0o600)
    else:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's


class OpenWatch:
    """inotify IN_OPEN on one file: did anything really open it? (O_PATH
    descriptors, which the mount's lookups take, are no open to inotify
    on current kernels; calibrate() says whether this one agrees)"""

    def __init__(self, path):
        self.fd = _libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        assert self.fd >= 0, os.strerror(ctypes.get_errno())
        wd = _libc.inotify_add_watch(self.fd, os.fsencode(path), IN_OPEN)
        assert wd >= 0, os.strerror(ctypes.get_errno())
        self.path = path

    def opened(self):
        try:
            return len(os.read(self.fd, 4096)) > 0
        except BlockingIOError:
            return False

    def calibrate(self):
        """True when O_PATH opens go unreported, so opened() tells"""
        os.close(os.open(self.path, os.O_PATH))
        return not self.opened()

    def close(self):
        os.close(self.fd)


def real_opens(v):
    """the mount's descriptors that are not O_PATH: (fd, target, mode);
    None where they cannot be listed: the mount is non-dumpable, so only
    root reads its /proc/PID/fd (an ordinary user's run checks the rest)"""
    out = []
    base = "/proc/%d" % v.proc.pid
    try:
        names = os.listdir(base + "/fd")
    except PermissionError:
        return None
    for n in names:
        try:
            with open("%s/fdinfo/%s" % (base, n)) as f:
                flags = int(next(l for l in f if l.startswith("flags:")).split()[1], 8)
            if flags & os.O_PATH:
                continue
            target = os.readlink("%s/fd/%s" % (base, n))
            mode = os.stat("%s/fd/%s" % (base, n)).st_mode
        except (FileNotFoundError, StopIteration):
            continue  # closed meanwhile
        out.append((n, target, mode))
    return out


def special_in(v, opens):
    """those of opens that are a FIFO or device under the cipherdir"""
    top = os.path.realpath(v.cipherdir)
    return [o for o in opens if o[1].startswith(top + "/")
            and (stat.S_ISFIFO(o[2]) or stat.S_ISCHR(o[2]) or stat.S_ISBLK(o[2]))]


def cipher_name(v, name):
    """the ciphertext name of a file name in the volume root (made and
    removed through the mount)"""
    before = set(os.listdir(v.cipherdir))
    write_file(v.path(name), b"x")
    new = sorted(set(os.listdir(v.cipherdir)) - before)
    assert len(new) == 1, new
    os.unlink(v.path(name))
    return new[0]


def open_creating(path):
    """open(O_CREAT) as an application does: the fd (closed) and its
    file type, or the errno"""
    try:
        fd = os.open(path, os.O_CREAT | os.O_RDWR | os.O_NONBLOCK, 0o600)
    except OSError as e:
        return e.errno
    try:
        return stat.S_IFMT(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


@pytest.mark.parametrize("kind", KINDS)
def test_planted_at_the_name_of_a_create(volume_factory, kind):
    v = volume_factory("speck128-xts", tag="planted")
    v.allowed_stderr.append(WARNING)
    want_type = stat.S_IFIFO if kind == "fifo" else stat.S_IFCHR
    for attempt in range(5):
        name = "victim%d" % attempt
        cpath = os.path.join(v.cipherdir, cipher_name(v, name))
        opens_before = real_opens(v)
        logged = len(v.stderr())
        # the negative entry the kernel now caches for a second
        assert not os.path.exists(v.path(name))
        plant(cpath, kind)
        watch = OpenWatch(cpath)
        try:
            got = open_creating(v.path(name))
            opened = watch.opened()
            if watch.calibrate():
                assert not opened, "the mount opened the planted %s" % kind
            else:
                print("this kernel reports O_PATH opens to inotify: "
                      "the no-open check rests on the descriptors")
        finally:
            watch.close()
        news = v.stderr()[logged:]
        met = WARNING.split(":")[0] in news
        if not met and got == want_type:
            # the negative entry had expired: the kernel looked the name
            # up and opened the FIFO itself, no CREATE; try again
            os.unlink(cpath)
            continue
        assert got != errno.EIO, "the create answered EIO (the kernel refused its reply)"
        assert met, "no warning for the planted %s:\n%s" % (kind, news)
        assert os.path.realpath(cpath) in news, news
        # the kernel looked again and opened what is there (a FIFO), or
        # refused a device on this nodev mount
        assert got == want_type or (kind == "device" and got in (errno.EACCES, errno.EPERM)), got
        opens = real_opens(v)
        if opens is not None:
            assert not special_in(v, opens), "descriptors left open: %s" % special_in(v, opens)
            assert len(opens) <= len(opens_before), (opens_before, opens)
        assert stat.S_IFMT(os.lstat(cpath).st_mode) == want_type  # left alone
        os.unlink(cpath)
        return
    pytest.fail("the create never met the planted %s (each negative entry expired?)" % kind)


@pytest.mark.parametrize("kind", KINDS)
def test_create_racing_planted_entries(volume_factory, kind):
    """creates of one name against a loop planting a FIFO or device at
    its ciphertext name (and removing whatever is there) for a few
    seconds: no descriptor is left behind, no create answers EIO"""
    v = volume_factory("speck128-xts", tag="planted-race")
    v.allowed_stderr.append(WARNING)
    name = "raced"
    cpath = os.path.join(v.cipherdir, cipher_name(v, name))
    opens_before = real_opens(v)
    logged = len(v.stderr())
    stop = time.monotonic() + RACE_SECONDS
    planted = [0]

    def planter():
        while time.monotonic() < stop:
            try:
                plant(cpath, kind)
                planted[0] += 1
            except FileExistsError:
                pass
            try:
                os.unlink(cpath)
            except FileNotFoundError:
                pass

    t = threading.Thread(target=planter)
    t.start()
    results = {}
    try:
        while time.monotonic() < stop:
            got = open_creating(v.path(name))
            results[got] = results.get(got, 0) + 1
            try:
                os.unlink(v.path(name))
            except OSError:
                pass
    finally:
        t.join()
    if os.path.lexists(cpath):
        os.unlink(cpath)
    met = v.stderr()[logged:].count(WARNING.split(":")[0])
    opens = real_opens(v)
    summary = "planted %d, creates met a planted entry %d times, results %s" % (
        planted[0], met, {(errno.errorcode.get(k) if k < 0x1000 else oct(k)): n
                          for k, n in results.items()})
    print(summary)
    if opens is not None:
        assert not special_in(v, opens), "descriptors left open (%s): %s" % (
            summary, special_in(v, opens)[:5])
        assert len(opens) <= len(opens_before) + 4, (summary, len(opens_before), len(opens))
    # leaked descriptors would end in EMFILE for the mount's own opens
    assert results.get(errno.EMFILE, 0) == 0, summary
    assert results.get(errno.EIO, 0) == 0, summary
    assert met > 0, "the race never reached the create path: " + summary
    # the mount still serves
    write_file(v.path("after"), b"still here")
    with open(v.path("after"), "rb") as f:
        assert f.read() == b"still here"
