# SPDX-License-Identifier: MIT
"""A hostile or damaged ciphertext directory (issue 19, findings 1, 4, 6):

* a FIFO where a format file belongs (.cloakfs.dir, a long-name sidecar,
  cloakfs.conf): the mount, cloakfs-fsck and cloakfs-keytool answer with an
  error naming the file within seconds, and the mount keeps serving the
  other directories (every call that could hang runs under a deadline, so
  a regression fails instead of hanging the suite);
* a lost or damaged .cloakfs.dir keeps its directory's names through the
  copy in the user.cloakfs.dir attribute (mount and fsck --repair), and
  when both are lost --repair keeps everything that could identify an
  entry (lost+found and its repair note);
* a 100,000-deep directory chain is checked by cloakfs-fsck without a
  crash, under the default 8 MiB stack and 1024 descriptors.
"""
import os
import re
import resource
import signal
import stat
import subprocess
import threading
import time

import pytest

from conftest import KEYTOOL, Volume, read_file, write_file

FSCK = os.environ.get("CLOAKFS_FSCK", "")
FORGE = os.environ.get("CLOAKFS_FSCK_FORGE", "")
LF = "lost+found.cloakfs"
XATTR = "user.cloakfs.dir"
DEADLINE = 10  # seconds: far above what any of these takes when it works

pytestmark = pytest.mark.skipif(not FSCK or not FORGE, reason="built without cloakfs-fsck")

LONG = "L" * 200
FILES = {"a/one": b"first file" * 50, "a/two": b"2", "a/" + LONG: b"long" * 999,
         "b/three": b"third" * 100}


class Hung(AssertionError):
    pass


def in_time(fn, *args, timeout=DEADLINE, on_hang=None):
    """fn(*args) in a thread; a call still running after timeout fails the
    test (on_hang first unblocks it, e.g. by killing the mount)"""
    box = {}

    def run():
        try:
            box["ok"] = fn(*args)
        except BaseException as e:  # handed to the test's thread
            box["err"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        if on_hang:
            on_hang()
        t.join(10)
        raise Hung("%s did not answer within %d s" % (getattr(fn, "__name__", fn), timeout))
    if "err" in box:
        raise box["err"]
    return box.get("ok")


def run_tool(args, timeout=DEADLINE, **kw):
    """a tool under a deadline: a hang is a failure, not a stuck suite"""
    try:
        r = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        raise Hung("%s did not answer within %d s" % (" ".join(args), timeout))
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def fsck(v, *args, timeout=DEADLINE, **kw):
    return run_tool([FSCK, "--passfile", v.passfile] + list(args) + [v.cipherdir],
                    timeout=timeout, **kw)


def kill_mount(v):
    if v.proc and v.proc.poll() is None:
        v.proc.send_signal(signal.SIGKILL)  # aborts the FUSE connection


def cdir_of(v, plain_dir):
    """ciphertext directory of a top-level plaintext directory, by inode"""
    ino = os.stat(v.path(plain_dir)).st_ino
    for n in os.listdir(v.cipherdir):
        p = os.path.join(v.cipherdir, n)
        if os.path.isdir(p) and os.stat(p).st_ino == ino:
            return p
    raise AssertionError("no ciphertext directory for " + plain_dir)


@pytest.fixture
def vol(volume_factory):
    """a volume with directories a/ (a long name among its files) and b/,
    unmounted; v.ca / v.cb their ciphertext directories"""
    v = volume_factory("speck128-xts")
    for p, data in FILES.items():
        os.makedirs(os.path.dirname(v.path(p)), exist_ok=True)
        write_file(v.path(p), data)
    v.ca, v.cb = cdir_of(v, "a"), cdir_of(v, "b")
    v.umount()
    v.nonce_a = read_file(os.path.join(v.ca, ".cloakfs.dir"))
    return v


def mount_allowing(v, *patterns):
    v.allowed_stderr = list(patterns)
    v.mount()


def replace_with_fifo(path):
    os.chmod(path, 0o600)
    os.unlink(path)
    os.mkfifo(path)


def drop_copy(d):
    os.removexattr(d, XATTR)


# ---- finding 1: a FIFO where a format file belongs ---------------------

def test_new_directories_carry_the_copy(vol):
    """the nonce is written in both places when a directory is made"""
    for d in (vol.cipherdir, vol.ca, vol.cb):
        assert os.getxattr(d, XATTR) == read_file(os.path.join(d, ".cloakfs.dir"))


def test_fifo_dirnonce_mount(vol):
    """no copy: listing and lookup answer EIO at once, b/ keeps working"""
    replace_with_fifo(os.path.join(vol.ca, ".cloakfs.dir"))
    drop_copy(vol.ca)
    mount_allowing(vol, r"is a FIFO, not a regular file")
    hang = lambda: kill_mount(vol)
    with pytest.raises(OSError) as e:
        in_time(os.listdir, vol.path("a"), on_hang=hang)
    assert e.value.errno == 5
    with pytest.raises(OSError) as e:
        in_time(os.stat, vol.path("a", "one"), on_hang=hang)
    assert e.value.errno == 5
    assert in_time(os.listdir, vol.path("b"), on_hang=hang) == ["three"]
    assert in_time(read_file, vol.path("b", "three"), on_hang=hang) == FILES["b/three"]
    vol.umount()
    # the warning names the directory by its ciphertext path
    assert re.search(re.escape(vol.ca) + r": \.cloakfs\.dir is a FIFO, not a regular "
                     r"file and user\.cloakfs\.dir is absent", vol.stderr()), vol.stderr()


def test_fifo_dirnonce_with_copy_mount(vol):
    """with the copy the directory keeps working, with a warning"""
    replace_with_fifo(os.path.join(vol.ca, ".cloakfs.dir"))
    mount_allowing(vol, r"is a FIFO, not a regular file; the names are read from its copy")
    hang = lambda: kill_mount(vol)
    assert sorted(in_time(os.listdir, vol.path("a"), on_hang=hang)) == sorted(["one", "two", LONG])
    assert in_time(read_file, vol.path("a", "one"), on_hang=hang) == FILES["a/one"]
    vol.umount()
    assert vol.ca + ": .cloakfs.dir is a FIFO" in vol.stderr()


def test_fifo_sidecar_mount(vol):
    """the long name's entry is skipped with a warning; the rest lists"""
    side = [n for n in os.listdir(vol.ca) if n.endswith(".name")]
    assert len(side) == 1
    replace_with_fifo(os.path.join(vol.ca, side[0]))
    mount_allowing(vol, r"skipping undecodable entry cloakfs\.long\.")
    hang = lambda: kill_mount(vol)
    assert sorted(in_time(os.listdir, vol.path("a"), on_hang=hang)) == ["one", "two"]
    # lookup needs no sidecar (the long name is a hash of the encoding)
    assert in_time(read_file, vol.path("a", LONG), on_hang=hang) == FILES["a/" + LONG]
    vol.umount()


def test_fifo_config(vol):
    """mount, fsck and keytool refuse a FIFO cloakfs.conf, naming it"""
    conf = os.path.join(vol.cipherdir, "cloakfs.conf")
    replace_with_fifo(conf)
    want = conf + ": not a regular file (a FIFO)"
    rc, out, err = run_tool([os.environ["CLOAKFS"], "-f", "--no-cloakfsd", "--passfile",
                             vol.passfile, vol.cipherdir, vol.mnt])
    assert rc != 0 and want in err, (rc, err)
    rc, out, err = fsck(vol)
    assert rc == 4 and "unexpected-type" in out and want in out, (rc, out, err)
    if KEYTOOL:
        rc, out, err = run_tool([KEYTOOL, "info", vol.cipherdir])
        assert rc == 4 and want in err, (rc, err)
        rc, out, err = run_tool([KEYTOOL, "backup-header", vol.cipherdir,
                                 os.path.join(vol.top, "backup")])
        assert rc != 0 and want in err, (rc, err)


def test_fifo_dirnonce_and_sidecar_fsck(vol):
    """fsck answers in time, names the FIFOs, and repair moves them aside"""
    side = [n for n in os.listdir(vol.ca) if n.endswith(".name")][0]
    replace_with_fifo(os.path.join(vol.ca, side))
    replace_with_fifo(os.path.join(vol.cb, ".cloakfs.dir"))
    rc, out, err = fsck(vol)
    assert rc == 4, (rc, out, err)
    assert re.search(r"error dirnonce-bad: /b .*\.cloakfs\.dir is a FIFO, not a regular "
                     r"file; the names are read from its copy", out), out
    assert re.search(r"error unexpected-type: .*" + re.escape(side) +
                     r": a long-name sidecar that is a FIFO", out), out
    assert "sidecar-mismatch" in out and "its sidecar is not a regular file" in out
    rc, out, err = fsck(vol, "--repair")
    assert rc == 1, (rc, out, err)
    rc, out, err = fsck(vol)
    assert rc == 0 and not re.search(r"^error ", out, re.M), (rc, out, err)
    vol.mount()
    assert sorted(os.listdir(vol.path("b"))) == ["three"]
    lf = sorted(os.listdir(vol.path(LF)))
    # the FIFOs were moved, not deleted; the long-named file is kept too
    assert "dirnonce-bad-1" in lf and "unexpected-type-1" in lf
    assert stat.S_ISFIFO(os.lstat(vol.path(LF, "dirnonce-bad-1")).st_mode)
    assert FILES["a/" + LONG] in [read_file(vol.path(LF, n)) for n in lf
                                  if os.path.isfile(vol.path(LF, n))]
    vol.umount()


# ---- finding 4: a lost .cloakfs.dir keeps its names ------------------------

def check_names_back(vol, damaged_class, extra=()):
    """fsck finds the damage, --repair restores both copies, fsck is clean,
    and the names are all there (and the extra ones made since)"""
    rc, out, err = fsck(vol)
    assert rc == 4 and damaged_class in out, (rc, out, err)
    rc, out, err = fsck(vol, "--repair")
    assert rc == 1 and damaged_class in out and "[fixed" in out, (rc, out, err)
    rc, out, err = fsck(vol)
    assert rc == 0 and not re.search(r"^(error|warning) ", out, re.M), (rc, out, err)
    assert read_file(os.path.join(vol.ca, ".cloakfs.dir")) == vol.nonce_a
    assert os.getxattr(vol.ca, XATTR) == vol.nonce_a
    vol.allowed_stderr = [r"size 1[67] does not decode"]  # the old file, kept
    vol.mount()
    assert sorted(os.listdir(vol.path("a"))) == sorted(["one", "two", LONG] + list(extra))
    for p, data in FILES.items():
        assert read_file(vol.path(p)) == data


@pytest.mark.parametrize("damage", ["deleted", "truncated", "other-nonce"])
def test_lost_dirnonce_keeps_names(vol, damage):
    nf = os.path.join(vol.ca, ".cloakfs.dir")
    os.chmod(nf, 0o600)
    if damage == "deleted":
        os.unlink(nf)
    elif damage == "truncated":
        os.truncate(nf, 15)
    else:
        write_file(nf, os.urandom(16))  # e.g. a sync tool's other version
    # through the mount, before any repair
    mount_allowing(vol, r"\.cloakfs\.dir (is missing|is damaged|and its copy in "
                   r"user\.cloakfs\.dir differ)")
    assert sorted(os.listdir(vol.path("a"))) == sorted(["one", "two", LONG])
    assert read_file(vol.path("a", LONG)) == FILES["a/" + LONG]
    write_file(vol.path("a", "new"), b"made while damaged")
    vol.umount()
    assert vol.ca + ": .cloakfs.dir" in vol.stderr()
    cls = {"deleted": "dirnonce-missing", "truncated": "dirnonce-bad",
           "other-nonce": "dirnonce-differ"}[damage]
    check_names_back(vol, cls, ["new"])
    assert read_file(vol.path("a", "new")) == b"made while damaged"
    vol.umount()
    if damage == "other-nonce":
        # the losing file is kept in lost+found, the note says what happened
        vol.mount()
        assert "dirnonce-bad-1" in os.listdir(vol.path(LF))
        notes = [n for n in os.listdir(vol.path(LF)) if n.startswith("fsck-repair-")]
        assert len(notes) == 1
        text = read_file(vol.path(LF, notes[0])).decode()
        assert "dirnonce-differ" in text and vol.nonce_a.hex() in text
        vol.umount()


def test_damaged_copy_is_restored_from_the_file(vol):
    os.setxattr(vol.ca, XATTR, os.urandom(16))
    mount_allowing(vol, r"differ; the names are read with the file")
    assert sorted(os.listdir(vol.path("a"))) == sorted(["one", "two", LONG])
    vol.umount()
    check_names_back(vol, "dirnonce-differ")
    vol.umount()


def test_volume_without_copies(vol):
    """directories made before the copy existed: the mount is silent, fsck
    warns, --repair adds every copy without making lost+found"""
    for d in (vol.cipherdir, vol.ca, vol.cb):
        drop_copy(d)
    vol.mount()
    assert sorted(os.listdir(vol.path("a"))) == sorted(["one", "two", LONG])
    vol.umount()  # checks that the mount said nothing
    rc, out, err = fsck(vol)
    assert rc == 0 and out.count("warning dirnonce-copy-missing") == 3, (rc, out, err)
    rc, out, err = fsck(vol, "--repair")
    assert rc == 0 and out.count("[fixed: copied from .cloakfs.dir]") == 3, (rc, out, err)
    rc, out, err = fsck(vol)
    assert rc == 0 and not re.search(r"^warning ", out, re.M), (rc, out, err)
    assert not os.path.exists(os.path.join(vol.cipherdir, LF))
    assert os.getxattr(vol.ca, XATTR) == vol.nonce_a


def test_both_lost_repair_keeps_what_identifies(vol):
    """no copy left: --repair moves every entry into lost+found, keeps the
    damaged nonce file, and notes each entry's encrypted name (the long
    one's from its sidecar)"""
    nf = os.path.join(vol.ca, ".cloakfs.dir")
    drop_copy(vol.ca)
    os.chmod(nf, 0o600)
    write_file(nf, vol.nonce_a + b"x")  # 17 bytes: damaged
    cnames = sorted(os.listdir(vol.ca))
    long_c = [c for c in cnames if c.startswith("cloakfs.long.") and not c.endswith(".name")][0]
    long_enc = read_file(os.path.join(vol.ca, long_c + ".name")).decode()
    mount_allowing(vol, r"is damaged \(not 16 bytes, or all zero\) and user\.cloakfs\.dir "
                   r"is absent: the directory's names cannot be read")
    with pytest.raises(OSError) as e:
        os.listdir(vol.path("a"))
    assert e.value.errno == 5
    vol.umount()
    rc, out, err = fsck(vol, "--repair")
    assert rc == 1 and "dirnonce-bad" in out and "name-undecodable" in out, (rc, out, err)
    rc, out, err = fsck(vol)
    assert rc == 0, (rc, out, err)
    vol.allowed_stderr = [r"size 17 does not decode"]  # the old nonce file
    vol.mount()
    lf = os.listdir(vol.path(LF))
    assert "dirnonce-bad-1" in lf  # the damaged file, kept
    got = {n: read_file(vol.path(LF, n)) for n in lf if n != "dirnonce-bad-1"}
    for p in ("a/one", "a/two", "a/" + LONG):
        assert FILES[p] in got.values()
    notes = [n for n in lf if n.startswith("fsck-repair-")]
    text = got[notes[0]].decode()
    for c in cnames:
        if not c.endswith(".name"):
            assert c in text, (c, text)
    assert long_enc in text, text
    vol.umount()


# ---- finding 6: a deep chain ----------------------------------------------

DEPTH = 100000


def build_chain(v, depth):
    """depth nested directories "d" in the ciphertext directory, built
    directly with *at calls: each has the root's nonce, so one encoding of
    "d" is right at every level"""
    nonce = read_file(os.path.join(v.cipherdir, ".cloakfs.dir"))
    name = subprocess.run([FORGE, "name", v.cipherdir, v.passfile, ".", b"d".hex()],
                          stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    fd = os.open(v.cipherdir, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir(name, 0o700, dir_fd=fd)
        nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
        n = os.open(".cloakfs.dir", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o440, dir_fd=fd)
        os.write(n, nonce)
        os.close(n)
        os.setxattr(fd, XATTR, nonce)
    os.close(fd)
    return name


def limits(nofile):
    def set_limits():
        resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        if hard != resource.RLIM_INFINITY and hard < nofile:
            nofile_ = hard  # an ordinary user's ceiling
        else:
            nofile_ = nofile
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile_, nofile_))
    return set_limits


def test_deep_chain(vol):
    """1024 descriptors as users have them, then many (where a recursive
    walk would run out of stack, not descriptors: SIGSEGV at ~3,500)"""
    t = time.monotonic()
    name = build_chain(vol, DEPTH)
    built = time.monotonic() - t
    try:
        rc, out, err = fsck(vol, "--json", timeout=600, preexec_fn=limits(1024))
        rc2, out2, err2 = fsck(vol, "--repair", timeout=600,
                               preexec_fn=limits(4 * DEPTH))
        # both exits first: a crash shows as -11 (SIGSEGV)
        assert (rc, rc2) == (0, 0), (rc, rc2, out[-1000:], err[-1000:],
                                     out2[-1000:], err2[-1000:])
        assert '"directories": %d' % (DEPTH + 3) in out, out[-500:]
        print("chain of %d built in %.1f s, checked twice in %.1f s"
              % (DEPTH, built, time.monotonic() - t - built))
    finally:
        subprocess.run(["rm", "-rf", os.path.join(vol.cipherdir, name)])
