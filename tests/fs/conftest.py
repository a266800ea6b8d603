# SPDX-License-Identifier: MIT
"""Shared pieces of the cloakfs filesystem tests: make volumes with the
volume library (fs_mkvol), mount them for real with cloakfs in the
foreground, wait for the mount, unmount and check cloakfs' stderr.

Environment (set by tests/fs/meson.build): CLOAKFS, CLOAKFS_MKVOL,
CLOAKFS_FSX, CLOAKFS_KEYTOOL, CLOAKFSD (the last two may be empty).
CLOAKFS_TEST_TMP picks the scratch directory (default: /dev/shm when it
is a writable tmpfs, since fsync on a real disk makes the tests slow).
"""
import errno
import os
import pty
import re
import select
import shutil
import stat
import subprocess
import tempfile
import time

import pytest

# adiantum: the units of a 16-byte block cipher, each one wide-block message
ALL_CIPHERS = ["speck128-xts", "speck64-xts", "aes256-xts", "sm4-xts",
               "camellia256-xts", "adiantum"]
# authenticated volumes (feature "authenticated"): no padding, no holes
AEAD_CIPHERS = ["aes256-gcm", "xchacha20-poly1305"]
# $CLOAKFS_TEST_CIPHERS (a comma list) narrows the per-cipher cases: the
# sanitizer runs keep the ciphers whose generic C is fast when instrumented
# (the fs and volume code is the same for every cipher of a block size;
# every cipher runs in the plain suite). An unknown name is an error, so a
# typo cannot turn the cases off.
_only = [c for c in os.environ.get("CLOAKFS_TEST_CIPHERS", "").split(",") if c]
assert all(c in ALL_CIPHERS + AEAD_CIPHERS for c in _only), \
    "CLOAKFS_TEST_CIPHERS: unknown cipher in %r (known: %s)" % (
        _only, ", ".join(ALL_CIPHERS + AEAD_CIPHERS))
CIPHERS = [c for c in ALL_CIPHERS if c in _only] if _only else ALL_CIPHERS
# the XTS ciphers and the authenticated ones: for the tests of file
# contents (the cvol fixture, fsx), where both kinds must hold
CONTENT_CIPHERS = CIPHERS + ([c for c in AEAD_CIPHERS if c in _only]
                             if _only else AEAD_CIPHERS)
BLOCK = {"speck128-xts": 16, "speck64-xts": 8, "aes256-xts": 16, "sm4-xts": 16,
         "camellia256-xts": 16, "adiantum": 16, "aes256-gcm": 1,
         "xchacha20-poly1305": 1}
HEADER = 32
PASSPHRASE = "correct horse battery staple"

CLOAKFS = os.environ.get("CLOAKFS", "")
MKVOL = os.environ.get("CLOAKFS_MKVOL", "")
FSX = os.environ.get("CLOAKFS_FSX", "")
KEYTOOL = os.environ.get("CLOAKFS_KEYTOOL", "")
CLOAKFSD = os.environ.get("CLOAKFSD", "")
FSCK = os.environ.get("CLOAKFS_FSCK", "")

# stderr lines that mean something went wrong inside cloakfs
BAD_STDERR = re.compile(r"error|warn|fault|abort|assert", re.IGNORECASE)
SANITIZER_REPORT = re.compile(r"^==\d+==ERROR: |runtime error: |WARNING: ThreadSanitizer", re.M)


def pytest_configure(config):
    if not os.path.exists("/dev/fuse") or not os.access("/dev/fuse", os.R_OK | os.W_OK):
        pytest.exit("no usable /dev/fuse: skipping the filesystem tests", returncode=77)
    if not CLOAKFS or not MKVOL:
        pytest.exit("CLOAKFS / CLOAKFS_MKVOL not set (run through meson test)", returncode=77)


def scratch_base():
    base = os.environ.get("CLOAKFS_TEST_TMP")
    if base:
        return base
    try:
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            st = os.statvfs("/dev/shm")
            if st.f_bavail * st.f_frsize > 512 << 20:
                return "/dev/shm"
    except OSError:
        pass
    return tempfile.gettempdir()


def reachable_by_all(path):
    """every directory from / down to path lets other users through"""
    p = os.path.realpath(path)
    while True:
        if not os.stat(p).st_mode & stat.S_IXOTH:
            return False
        if p == "/":
            return True
        p = os.path.dirname(p)


def scratch_for_all():
    """a scratch base that processes of another uid can reach (the test
    runs them): scratch_base(), unless that sits in a private directory"""
    base = scratch_base()
    return base if reachable_by_all(base) else "/tmp"


@pytest.fixture
def copy_for_others():
    """copy(path): a copy of the executable path, in a new 0755 directory
    in /tmp, for a process of another uid, which cannot run one from a
    build in a private directory (a clone in /root)"""
    top = tempfile.mkdtemp(prefix="cloakfs-exe-", dir="/tmp")
    os.chmod(top, 0o755)

    def copy(path):
        dst = os.path.join(top, os.path.basename(path))
        shutil.copy(path, dst)
        os.chmod(dst, 0o755)
        return dst

    yield copy
    shutil.rmtree(top, ignore_errors=True)


def preload_env(lib, **extra):
    """the environment of a mount with the test shim lib preloaded"""
    env = dict(os.environ, LD_PRELOAD=lib, **extra)
    # a sanitizer build wants its runtime first; the shims only wrap libc
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0").lstrip(":")
    return env


def fusermount_u(mnt, lazy=False):
    args = ["fusermount3", "-u", "-q"] + (["-z"] if lazy else []) + [mnt]
    return subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


class Volume:
    """One volume with its mountpoint; mount() runs cloakfs -f."""

    def __init__(self, cipher="speck128-xts", sector=None, name_max=None, tag="vol",
                 base=None, version=None, names=None):
        self.cipher = cipher
        self.names = names  # None: the cipher's default names mode
        self.sector = sector or 4096
        self.block = BLOCK[cipher]
        self.top = tempfile.mkdtemp(prefix="cloakfs-%s-" % tag, dir=base or scratch_base())
        self.cipherdir = os.path.join(self.top, "cipher")
        self.mnt = os.path.join(self.top, "mnt")
        self.passfile = os.path.join(self.top, "pass")
        os.mkdir(self.cipherdir)
        os.mkdir(self.mnt)
        with open(self.passfile, "w") as f:
            f.write(PASSPHRASE + "\n")
        os.chmod(self.passfile, 0o600)  # else cloakfs warns (docs/security.md)
        args = [MKVOL] + (["--names=" + names] if names else [])
        args += [cipher, self.cipherdir, self.passfile]
        if sector or name_max or version:
            args.append(str(self.sector))
        if name_max or version:
            args.append(str(name_max or 0))
        if version:
            args.append(str(version))  # 1: a volume of format version 1
        subprocess.run(args, check=True)
        self.proc = None
        self.stderr_path = os.path.join(self.top, "stderr")
        self.stderr_seen = 0
        self.allowed_stderr = []

    def mount(self, *extra, passfile=None, env=None):
        assert self.proc is None
        args = [CLOAKFS, "-f", "--no-cloakfsd", "--passfile", passfile or self.passfile]
        args += list(extra) + [self.cipherdir, self.mnt]
        err = open(self.stderr_path, "a")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=err,
                                     stderr=err, env=env)
        err.close()
        self.wait_for_mount()

    def wait_for_mount(self, timeout=60):  # sanitizer builds on a busy runner are slow
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("cloakfs exited with %d before mounting:\n%s"
                                     % (self.proc.returncode, self.stderr()))
            if os.path.ismount(self.mnt):
                return
            time.sleep(0.02)
        raise AssertionError("mount did not appear:\n" + self.stderr())

    def umount(self):
        if self.proc is None:
            return
        for _ in range(100):
            if fusermount_u(self.mnt) == 0 or not os.path.ismount(self.mnt):
                break
            time.sleep(0.1)  # busy: a process still closing files
        else:
            fusermount_u(self.mnt, lazy=True)
        try:
            rc = self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rc = -9
        self.proc = None
        self.check_stderr()
        assert rc == 0, "cloakfs exited with %d:\n%s" % (rc, self.stderr())

    def remount(self, *extra):
        self.umount()
        self.mount(*extra)

    def stderr(self):
        try:
            with open(self.stderr_path, errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def check_stderr(self):
        text = self.stderr()
        new, self.stderr_seen = text[self.stderr_seen:], len(text)
        bad = [l for l in new.splitlines()
               if BAD_STDERR.search(l) and not any(re.search(a, l) for a in self.allowed_stderr)]
        if bad and SANITIZER_REPORT.search(new):
            # a sanitizer's report: its whole text (the stack is what tells)
            start = SANITIZER_REPORT.search(new).start()
            bad.append(new[start:start + 12000])
        assert not bad, "cloakfs complained:\n" + "\n".join(bad)

    def sealed(self):
        """an authenticated volume: sectors sealed, no holes"""
        return self.cipher in AEAD_CIPHERS

    def path(self, *parts):
        return os.path.join(self.mnt, *parts)

    def cipher_files(self):
        """every file below the ciphertext directory"""
        out = []
        for root, dirs, files in os.walk(self.cipherdir):
            out += [os.path.join(root, n) for n in files + dirs]
        return out

    def destroy(self):
        try:
            self.umount()
        finally:
            if os.path.ismount(self.mnt):
                fusermount_u(self.mnt, lazy=True)
            shutil.rmtree(self.top, ignore_errors=True)


def fsck_clean(v):
    """cloakfs-fsck on the unmounted volume: exit 0 (clean)"""
    if not FSCK:
        return
    r = subprocess.run([FSCK, "--passfile", v.passfile, v.cipherdir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, "fsck exit %d:\n%s" % (r.returncode, r.stdout)


@pytest.fixture
def volume_factory():
    made = []

    def make(*args, mount=True, **kw):
        v = Volume(*args, **kw)
        made.append(v)
        if mount:
            v.mount()
        return v

    yield make
    errs = []
    for v in made:
        try:
            v.destroy()
        except AssertionError as e:
            errs.append(str(e))
    assert not errs, "\n".join(errs)


@pytest.fixture(scope="module", params=CONTENT_CIPHERS)
def cvol(request):
    """one mounted volume per cipher, shared by a module's tests"""
    v = Volume(request.param, tag=request.param)
    v.mount()
    yield v
    v.destroy()


_counter = [0]


@pytest.fixture
def d(cvol):
    """a fresh directory in the shared volume for one test"""
    _counter[0] += 1
    p = cvol.path("t%d" % _counter[0])
    os.mkdir(p)
    yield p
    cvol.check_stderr()


def expect_errno(code, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except OSError as e:
        assert e.errno == code, "%s: expected %s, got %s" % (
            getattr(fn, "__name__", fn), errno.errorcode[code], errno.errorcode.get(e.errno, e.errno))
        return
    raise AssertionError("%s succeeded, expected %s" % (getattr(fn, "__name__", fn), errno.errorcode[code]))


_libc = None


def renameat2(old, new, flags):
    """renameat2(2) through libc: RENAME_NOREPLACE = 1, RENAME_EXCHANGE = 2"""
    global _libc
    import ctypes
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    AT_FDCWD = -100
    if _libc.renameat2(AT_FDCWD, os.fsencode(old), AT_FDCWD, os.fsencode(new),
                       ctypes.c_uint(flags)) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), old)


FALLOC_FL_KEEP_SIZE = 0x01
FALLOC_FL_PUNCH_HOLE = 0x02
FALLOC_FL_COLLAPSE_RANGE = 0x08
FALLOC_FL_ZERO_RANGE = 0x10
FALLOC_FL_INSERT_RANGE = 0x20


def fallocate_mode(fd, mode, off, length):
    """fallocate(2) through libc, any mode (os.posix_fallocate has none)"""
    global _libc
    import ctypes
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    if _libc.fallocate(fd, ctypes.c_int(mode), ctypes.c_int64(off),
                       ctypes.c_int64(length)) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def delay_until(cond, timeout=10, interval=0.01):
    """seconds until cond() holds (0.0 when it holds at once; an OSError
    counts as not yet), polled every interval, or None after timeout"""
    t0 = time.monotonic()
    while True:
        try:
            if cond():
                return time.monotonic() - t0
        except OSError:
            pass
        if time.monotonic() - t0 > timeout:
            return None
        time.sleep(interval)


def write_file(path, data, mode="wb"):
    with open(path, mode) as f:
        f.write(data)


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def run_on_pty(cmd, env, timeout=120):
    """cmd with stderr on a pseudo-terminal (stdout a pipe): its exit
    status, stdout, and what the terminal received"""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=slave, env=env)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r, _, _ = select.select([master], [], [], 0.5)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        elif p.poll() is not None:
            break
    os.close(master)
    out = p.stdout.read()
    rc = p.wait(timeout=timeout)
    return rc, out.decode(errors="replace"), seen.decode(errors="replace")
