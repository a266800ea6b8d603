# SPDX-License-Identifier: MIT
"""Format version 2 (docs/format.md 7.4, 7.2, "Upgrade from version 1"):
symlinks independent of their directory (renames keep inode numbers, hard
links of symlinks stay one inode, link() of a symlink into another
directory), targets up to 4095 bytes, canonical encodings only, and the
upgrade of a version-1 volume (a fixture made by the cloakfs of before
version 2), interrupted at every step.
"""
import errno
import hashlib
import json
import os
import shutil
import socket
import stat
import subprocess
import tempfile
import time

import pytest

from conftest import (CLOAKFS, KEYTOOL, MKVOL, Volume, expect_errno, fusermount_u,
                      renameat2, scratch_base)

FSCK = os.environ.get("CLOAKFS_FSCK", "")
FORGE = os.environ.get("CLOAKFS_FSCK_FORGE", "")
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "v1-volume.tar.gz")
FIXTURE_PASS = "fixture passphrase"
CRASH_EXIT = 99  # tools/keytool-upgrade.c

needs_tools = pytest.mark.skipif(not FSCK or not FORGE or not KEYTOOL,
                                 reason="built without cloakfs-fsck or the keytool")


@pytest.fixture
def vol(volume_factory):
    return volume_factory("speck128-xts")


def run_fsck(cipherdir, passfile):
    r = subprocess.run([FSCK, "--passfile", passfile, "--json", cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return r.returncode, json.loads(r.stdout.decode())


def errors_of(report):
    return [x for x in report["findings"] if x["severity"] != "warning"]


# ---- renames and links --------------------------------------------------

KINDS = ["regular", "dir", "symlink", "hardlinked-symlink", "fifo", "socket"]


def make(kind, path):
    if kind == "regular":
        with open(path, "w") as f:
            f.write("data")
    elif kind == "dir":
        os.mkdir(path)
        with open(os.path.join(path, "inside"), "w") as f:
            f.write("x")
    elif kind in ("symlink", "hardlinked-symlink"):
        os.symlink("some/target", path)
        if kind == "hardlinked-symlink":
            os.link(path, path + ".other", follow_symlinks=False)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX)
        s.bind(path)
        s.close()


@pytest.mark.parametrize("across", [False, True], ids=["same-dir", "across-dirs"])
@pytest.mark.parametrize("kind", KINDS)
def test_rename_keeps_inode_links_owner(vol, kind, across):
    a, b = vol.path("a"), vol.path("b")
    os.mkdir(a)
    os.mkdir(b)
    src = os.path.join(a, "src")
    dst = os.path.join(b if across else a, "dst")
    make(kind, src)
    if os.geteuid() == 0:
        os.lchown(src, 4321, 8765)
    before = os.lstat(src)
    os.rename(src, dst)
    after = os.lstat(dst)
    assert (after.st_ino, after.st_nlink, after.st_uid, after.st_gid, after.st_mode) == \
        (before.st_ino, before.st_nlink, before.st_uid, before.st_gid, before.st_mode)
    expect_errno(errno.ENOENT, os.lstat, src)
    if kind.endswith("symlink"):
        assert os.readlink(dst) == "some/target"
    if kind == "hardlinked-symlink":
        other = os.lstat(src + ".other")
        assert other.st_ino == after.st_ino and other.st_nlink == 2
    # and after the kernel forgot everything
    vol.remount()
    again = os.lstat(dst)
    assert (again.st_ino, again.st_nlink, again.st_uid, again.st_gid) == \
        (before.st_ino, before.st_nlink, before.st_uid, before.st_gid)
    if kind.endswith("symlink"):
        assert os.readlink(dst) == "some/target"


def test_exchange_of_symlinks_across_dirs(vol):
    os.mkdir(vol.path("a"))
    os.mkdir(vol.path("b"))
    os.symlink("to-a", vol.path("a", "s"))
    os.symlink("to-b", vol.path("b", "s"))
    ia, ib = os.lstat(vol.path("a", "s")).st_ino, os.lstat(vol.path("b", "s")).st_ino
    renameat2(vol.path("a", "s"), vol.path("b", "s"), 2)  # RENAME_EXCHANGE
    assert os.readlink(vol.path("a", "s")) == "to-b" and os.lstat(vol.path("a", "s")).st_ino == ib
    assert os.readlink(vol.path("b", "s")) == "to-a" and os.lstat(vol.path("b", "s")).st_ino == ia


def test_link_of_symlink_across_dirs(vol):
    os.mkdir(vol.path("a"))
    os.mkdir(vol.path("b"))
    os.symlink("../elsewhere", vol.path("a", "s"))
    os.link(vol.path("a", "s"), vol.path("b", "t"), follow_symlinks=False)
    sa, sb = os.lstat(vol.path("a", "s")), os.lstat(vol.path("b", "t"))
    assert sa.st_ino == sb.st_ino and sa.st_nlink == sb.st_nlink == 2
    vol.remount()
    assert os.readlink(vol.path("a", "s")) == os.readlink(vol.path("b", "t")) == "../elsewhere"
    os.unlink(vol.path("a", "s"))
    assert os.lstat(vol.path("b", "t")).st_nlink == 1
    assert os.readlink(vol.path("b", "t")) == "../elsewhere"


# ---- long targets ---------------------------------------------------------

def stored_targets(vol):
    store = os.path.join(vol.cipherdir, "cloakfs.targets")
    return sorted(os.listdir(store)) if os.path.isdir(store) else []


@pytest.mark.parametrize("length", [3040, 3041, 4095])
def test_long_target_round_trips(vol, length):
    target = ("d/" * length)[:length - 1] + "x"
    os.mkdir(vol.path("a"))
    os.mkdir(vol.path("b"))
    os.symlink(target, vol.path("a", "s"))
    assert os.readlink(vol.path("a", "s")) == target
    assert os.lstat(vol.path("a", "s")).st_size == length
    assert len(stored_targets(vol)) == (1 if length > 3040 else 0)
    os.rename(vol.path("a", "s"), vol.path("b", "s"))
    os.link(vol.path("b", "s"), vol.path("a", "l"), follow_symlinks=False)
    vol.remount()
    assert os.readlink(vol.path("b", "s")) == os.readlink(vol.path("a", "l")) == target
    # the stored target lives as long as the inode
    os.unlink(vol.path("b", "s"))
    assert len(stored_targets(vol)) == (1 if length > 3040 else 0)
    assert os.readlink(vol.path("a", "l")) == target
    os.symlink("short", vol.path("a", "r"))
    os.rename(vol.path("a", "r"), vol.path("a", "l"))  # over the last name
    assert stored_targets(vol) == []
    os.symlink(target, vol.path("b", "t"))
    os.unlink(vol.path("b", "t"))  # its last name
    assert stored_targets(vol) == []


def test_target_too_long(vol):
    expect_errno(errno.ENAMETOOLONG, os.symlink, "x" * 4096, vol.path("s"))


# ---- canonical encodings ---------------------------------------------------

@needs_tools
def test_overpadded_name_refused(vol):
    """a name with more NUL padding than the rule asks for is a second
    spelling: hidden and logged by the mount, reported by fsck"""
    os.mkdir(vol.path("d"))
    with open(vol.path("d", "overpadded"), "w") as f:
        f.write("real")
    vol.umount()
    cdir = [n for n in os.listdir(vol.cipherdir) if "." not in n][0]
    name = b"overpadded" + b"\0" * 54  # 64 bytes: one block more than needed
    enc = subprocess.run([FORGE, "name", vol.cipherdir, vol.passfile, cdir, name.hex()],
                         stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    assert len(enc) == 86
    open(os.path.join(vol.cipherdir, cdir, enc), "w").close()  # an empty file
    rc, rep = run_fsck(vol.cipherdir, vol.passfile)
    assert rc == 4 and [x["class"] for x in errors_of(rep)] == ["name-overpadded"], rep
    vol.allowed_stderr = [r"overpadded|undecodable|damaged|does not decode"]
    vol.mount()
    assert os.listdir(vol.path("d")) == ["overpadded"]
    with open(vol.path("d", "overpadded")) as f:
        assert f.read() == "real"


def forge_target(vol, data):
    return subprocess.run([FORGE, "target", vol.cipherdir, vol.passfile, "-", data.hex()],
                          stdout=subprocess.PIPE, check=True).stdout.decode().strip()


@needs_tools
def test_overpadded_target_refused(vol):
    os.symlink("fine", vol.path("victim"))
    vol.umount()
    links = [os.path.join(vol.cipherdir, n) for n in os.listdir(vol.cipherdir)
             if os.path.islink(os.path.join(vol.cipherdir, n))]
    assert len(links) == 1
    # "abc" with 61 NULs: two blocks where the rule asks for one
    os.unlink(links[0])
    os.symlink(forge_target(vol, b"abc" + b"\0" * 61), links[0])
    rc, rep = run_fsck(vol.cipherdir, vol.passfile)
    assert [x["class"] for x in errors_of(rep)] == ["symlink-undecodable"], rep
    vol.allowed_stderr = [r"victim|inode"]
    vol.mount()
    expect_errno(errno.EIO, os.readlink, vol.path("victim"))
    vol.umount()
    # the same bytes padded as the rule asks: a target (the forge is right)
    os.unlink(links[0])
    os.symlink(forge_target(vol, b"abc"), links[0])
    rc, rep = run_fsck(vol.cipherdir, vol.passfile)
    assert errors_of(rep) == [], rep
    vol.mount()
    assert os.readlink(vol.path("victim")) == "abc"


# ---- version 1 and the upgrade ---------------------------------------------

def tree(root):
    """everything a user sees below root: type, size, content hash or target,
    and the hard-link groups"""
    out, inodes = {}, {}
    for dirpath, dirs, files in os.walk(root):
        for n in sorted(dirs + files):
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                what = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    what = ("file", hashlib.sha256(f.read()).hexdigest())
            elif stat.S_ISDIR(st.st_mode):
                what = ("dir",)
            else:
                what = ("other", stat.S_IFMT(st.st_mode))
            out[rel] = what + (stat.S_IMODE(st.st_mode), st.st_nlink)
            inodes.setdefault(st.st_ino, []).append(rel)
    return out, sorted(sorted(v) for v in inodes.values() if len(v) > 1)


def without_links(t):
    return {k: v[:-1] for k, v in t[0].items()}


class V1Volume(Volume):
    """the committed fixture: a volume made by the cloakfs of before
    version 2 (speck128-xts), unpacked"""

    def __init__(self):
        self.cipher, self.sector, self.block = "speck128-xts", 4096, 16
        self.top = tempfile.mkdtemp(prefix="cloakfs-v1-", dir=scratch_base())
        self.cipherdir = os.path.join(self.top, "cipher")
        self.mnt = os.path.join(self.top, "mnt")
        self.passfile = os.path.join(self.top, "pass")
        os.mkdir(self.cipherdir)
        os.mkdir(self.mnt)
        with open(self.passfile, "w") as f:
            f.write(FIXTURE_PASS + "\n")
        os.chmod(self.passfile, 0o600)
        subprocess.run(["tar", "--xattrs", "--xattrs-include=user.*", "-xzf", FIXTURE,
                        "-C", self.cipherdir], check=True)
        self.proc = None
        self.stderr_path = os.path.join(self.top, "stderr")
        self.stderr_seen = 0
        self.allowed_stderr = []

    def version(self):
        with open(os.path.join(self.cipherdir, "cloakfs.conf")) as f:
            for line in f:
                if line.startswith("version = "):
                    return int(line.split("=")[1].strip(" ;\n"))

    def upgrade(self, crash_at=None):
        env = dict(os.environ)
        env.pop("CLOAKFS_TEST_UPGRADE_CRASH", None)
        if crash_at:
            env["CLOAKFS_TEST_UPGRADE_CRASH"] = str(crash_at)
        return subprocess.run([KEYTOOL, "upgrade", "--passfile", self.passfile,
                               self.cipherdir], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=120)


@pytest.fixture
def v1():
    v = V1Volume()
    yield v
    v.destroy()


V1_KNOWN = {
    "a/file.txt": "hello v1\n",
    "a/ln": "../b/random.bin",
    "a/hl1": "dir-relative target",
    "b/longtarget": "t" * 3000,
}
RANDOM_SHA = "88376c9d6f5add69b774898148467197ab6d88fe5f3d5583bcd7c088c293be10"


def check_known(v):
    with open(v.path("a", "file.txt")) as f:
        assert f.read() == V1_KNOWN["a/file.txt"]
    for k in ("a/ln", "a/hl1", "b/longtarget"):
        assert os.readlink(v.path(k)) == V1_KNOWN[k]
    with open(v.path("b", "random.bin"), "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == RANDOM_SHA
    assert os.getxattr(v.path("a", "file.txt"), "user.note") == b"v1 xattr value"
    assert os.lstat(v.path("a", "hl1")).st_ino == os.lstat(v.path("a", "hl2")).st_ino


@needs_tools
def test_v1_volume_mounts_reads_writes(v1):
    assert v1.version() == 1
    rc, rep = run_fsck(v1.cipherdir, v1.passfile)
    assert rc == 0 and errors_of(rep) == [], rep
    v1.mount()
    check_known(v1)
    with open(v1.path("a", "new.txt"), "w") as f:
        f.write("written by v2 code")
    os.symlink("new target", v1.path("a", "newlink"))
    os.rename(v1.path("a", "newlink"), v1.path("b", "moved"))  # version-1 rules
    expect_errno(errno.EPERM, os.link, v1.path("b", "moved"), v1.path("a", "l2"),
                 follow_symlinks=False)
    v1.remount()
    assert os.readlink(v1.path("b", "moved")) == "new target"
    with open(v1.path("a", "new.txt")) as f:
        assert f.read() == "written by v2 code"
    v1.umount()
    assert v1.version() == 1  # still version 1: an older cloakfs reads it
    assert not os.path.exists(os.path.join(v1.cipherdir, "cloakfs.targets"))
    rc, rep = run_fsck(v1.cipherdir, v1.passfile)
    assert rc == 0 and errors_of(rep) == [], rep


# ---- version-1 symlinks changing directory -----------------------------------
# A version-1 target is encrypted under its directory's name key, so a
# symlink renamed into another directory is re-encrypted there as a new
# symlink (docs/format.md 7.4, volume/respell.h): readable at once (the
# kernel keeps its nodeid) and after a remount, with its owner and times,
# and no temporary name or sidecar left behind.

V1_TARGETS = {
    "short": "some/target",
    # the longest version-1 target (VNAME_MAX_SYMLINK_PLAIN): 4054 characters
    "longest": ("../d" * 760)[:3039] + "x",
}


@pytest.fixture(params=["short-names", "long-names"])
def v1new(request, volume_factory):
    """a new volume of format version 1 with directories a and b; with long
    names, every name is past name_max 64 (cloakfs.long.X and its sidecar)"""
    v = volume_factory("speck128-xts", name_max=64 if request.param == "long-names" else None,
                       version=1)
    v.long_names = request.param == "long-names"
    os.mkdir(v.path("a"))
    os.mkdir(v.path("b"))
    return v


def nm(vol, base):
    return base + ("-" + "n" * 60 if vol.long_names else "")


def cipher_leftovers(vol):
    """temporary names, and sidecars whose long entry is gone"""
    out = []
    for dirpath, dirs, files in os.walk(vol.cipherdir):
        names = set(dirs + files)
        for n in sorted(names):
            if n.startswith("cloakfs.tmp."):
                out.append(os.path.join(dirpath, n))
            elif n.startswith("cloakfs.long.") and n.endswith(".name") and \
                    n[:-len(".name")] not in names:
                out.append(os.path.join(dirpath, n))
    return out


def lnk(vol, target, path):
    os.symlink(target, path)
    if os.geteuid() == 0:
        os.lchown(path, 4321, 8765)
    os.utime(path, ns=(1_000_000_123, 2_000_000_456), follow_symlinks=False)


def same_owner_times(a, b):
    """owner and mtime (a readlink may touch the atime: relatime)"""
    return (a.st_uid, a.st_gid, a.st_mtime_ns) == (b.st_uid, b.st_gid, b.st_mtime_ns)


@pytest.mark.parametrize("how", ["rename", "over-file", "over-symlink", "noreplace"])
@pytest.mark.parametrize("target", sorted(V1_TARGETS))
def test_v1_symlink_renamed_across_dirs(v1new, target, how):
    vol, t = v1new, V1_TARGETS[target]
    src, dst = vol.path("a", nm(vol, "s")), vol.path("b", nm(vol, "d"))
    lnk(vol, t, src)
    if how == "over-file":
        with open(dst, "w") as f:
            f.write("replaced")
    elif how == "over-symlink":
        os.symlink("replaced", dst)
    before = os.lstat(src)
    if how == "noreplace":
        renameat2(src, dst, 1)  # RENAME_NOREPLACE
    else:
        os.rename(src, dst)
    expect_errno(errno.ENOENT, os.lstat, src)
    assert os.readlink(dst) == t  # through the nodeid the kernel kept
    assert same_owner_times(os.lstat(dst), before)
    assert os.listdir(vol.path("a")) == [] and os.listdir(vol.path("b")) == [nm(vol, "d")]
    assert cipher_leftovers(vol) == []
    vol.remount()
    assert os.readlink(dst) == t
    assert same_owner_times(os.lstat(dst), before)
    if FSCK:
        vol.umount()
        rc, rep = run_fsck(vol.cipherdir, vol.passfile)
        assert rc == 0 and errors_of(rep) == [], rep


@pytest.mark.parametrize("target", sorted(V1_TARGETS))
def test_v1_hardlinked_symlink_renamed_across_dirs(v1new, target):
    """the moved name becomes a symlink of its own; the other name stays"""
    vol, t = v1new, V1_TARGETS[target]
    src, other = vol.path("a", nm(vol, "s")), vol.path("a", nm(vol, "o"))
    lnk(vol, t, src)
    os.link(src, other, follow_symlinks=False)
    os.rename(src, vol.path("b", nm(vol, "d")))
    assert os.readlink(vol.path("b", nm(vol, "d"))) == os.readlink(other) == t
    assert os.lstat(other).st_nlink == 1
    assert cipher_leftovers(vol) == []
    vol.remount()
    assert os.readlink(vol.path("b", nm(vol, "d"))) == os.readlink(other) == t


def test_v1_link_of_symlink(v1new):
    """a hard link of a version-1 symlink stays in its directory"""
    vol = v1new
    src, same = vol.path("a", nm(vol, "s")), vol.path("a", nm(vol, "l"))
    os.symlink("here", src)
    os.link(src, same, follow_symlinks=False)
    expect_errno(errno.EPERM, os.link, src, vol.path("b", nm(vol, "l")),
                 follow_symlinks=False)
    assert os.lstat(src).st_nlink == 2 and os.listdir(vol.path("b")) == []
    vol.remount()
    assert os.readlink(src) == os.readlink(same) == "here"
    assert cipher_leftovers(vol) == []


@pytest.mark.parametrize("pair", ["symlink-symlink", "symlink-file", "file-symlink"])
@pytest.mark.parametrize("target", sorted(V1_TARGETS))
def test_v1_exchange_across_dirs(v1new, target, pair):
    vol, t = v1new, V1_TARGETS[target]
    x, y = vol.path("a", nm(vol, "x")), vol.path("b", nm(vol, "y"))
    want = {}
    for path, kind, tag in ((x, pair.split("-")[0], "A"), (y, pair.split("-")[1], "B")):
        if kind == "symlink":
            want[path] = ("link", t[:-1] + tag)
            lnk(vol, want[path][1], path)
        else:
            want[path] = ("file", "file " + tag)
            with open(path, "w") as f:
                f.write(want[path][1])
    before = {p: os.lstat(p) for p in (x, y)}

    def what(p):
        if os.path.islink(p):
            return ("link", os.readlink(p))
        with open(p) as f:
            return ("file", f.read())

    renameat2(x, y, 2)  # RENAME_EXCHANGE
    for i in range(2):
        assert what(y) == want[x] and what(x) == want[y], i
        assert same_owner_times(os.lstat(y), before[x])
        assert same_owner_times(os.lstat(x), before[y])
        for new, old in ((y, x), (x, y)):
            if want[old][0] == "file":  # a file moves as it is
                assert os.lstat(new).st_ino == before[old].st_ino
        assert cipher_leftovers(vol) == []
        vol.remount()


@needs_tools
def test_upgrade_refuses_a_mounted_volume(v1):
    v1.mount()
    r = v1.upgrade()
    assert r.returncode == 5 and b"is mounted at" in r.stderr, r
    v1.umount()
    assert v1.version() == 1


@needs_tools
def test_upgrade_waits_for_a_starting_mount_then_refuses(v1):
    """a mount holds the volume's lock from before it reads the config
    until it is in mountinfo: an upgrade started meanwhile waits for it,
    then finds it mounted and refuses (it used to check mountinfo first,
    find nothing, and convert the volume under the new mount); fsck
    --repair refuses at once"""
    go, started = os.path.join(v1.top, "go"), os.path.join(v1.top, "started")
    # the passphrase command holds the mount in its start until told to go
    extpass = "touch %s; while [ ! -e %s ]; do sleep 0.02; done; cat %s" % (
        started, go, v1.passfile)
    err = open(v1.stderr_path, "a")
    v1.proc = subprocess.Popen([CLOAKFS, "-f", "--no-cloakfsd", "--extpass", extpass,
                                v1.cipherdir, v1.mnt],
                               stdin=subprocess.DEVNULL, stdout=err, stderr=err)
    err.close()
    up = None
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(started):
            assert v1.proc.poll() is None and time.monotonic() < deadline, v1.stderr()
            time.sleep(0.02)
        up_err = os.path.join(v1.top, "upgrade.err")
        with open(up_err, "wb") as f:
            up = subprocess.Popen([KEYTOOL, "upgrade", "--passfile", v1.passfile,
                                   v1.cipherdir], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=f)
        while b"waiting for" not in open(up_err, "rb").read():
            assert up.poll() is None, open(up_err, "rb").read()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert up.poll() is None and not os.path.ismount(v1.mnt)
        # fsck --repair does not wait: it says who holds the lock
        r = subprocess.run([FSCK, "--repair", "--passfile", v1.passfile, v1.cipherdir],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
        assert r.returncode == 8 and b"a starting mount" in r.stderr, r
    finally:
        open(go, "w").close()
    v1.wait_for_mount()
    assert up.wait(timeout=120) == 5, open(up_err, "rb").read()
    assert b"is mounted at" in open(up_err, "rb").read()
    assert v1.version() == 1
    check_known(v1)  # the mount reads the volume it found
    v1.umount()


@needs_tools
def test_upgrade_interrupted_at_every_step(v1):
    v1.mount()
    want = tree(v1.mnt)
    v1.umount()
    pristine = os.path.join(v1.top, "pristine")
    # cp -a keeps hard links, FIFOs and xattrs
    subprocess.run(["cp", "-a", v1.cipherdir, pristine], check=True)
    step = 1
    while True:
        shutil.rmtree(v1.cipherdir)
        subprocess.run(["cp", "-a", pristine, v1.cipherdir], check=True)
        r = v1.upgrade(crash_at=step)
        if r.returncode == 0:
            break  # step is past the last one: the upgrade ran whole
        assert r.returncode == CRASH_EXIT, (step, r)
        # interrupted: every entry still reads the same (a link count may
        # show the hidden temporary name, and a hard-linked symlink may be
        # split until the rerun joins it again), then a rerun finishes
        v1.mount()
        assert without_links(tree(v1.mnt)) == without_links(want), step
        v1.umount()
        r = v1.upgrade()
        assert r.returncode == 0, (step, r)
        assert v1.version() == 2
        v1.mount()
        assert tree(v1.mnt) == want, step
        check_known(v1)
        v1.umount()
        leftovers = [n for _, _, fs in os.walk(v1.cipherdir) for n in fs
                     if n.startswith("cloakfs.tmp.")]
        assert leftovers == [], (step, leftovers)
        rc, rep = run_fsck(v1.cipherdir, v1.passfile)
        assert rc == 0 and errors_of(rep) == [], (step, rep)
        step += 1
    assert step > 10, step  # 4 symlink inodes, 5 names, the config
    assert v1.version() == 2
    v1.mount()
    assert tree(v1.mnt) == want
    check_known(v1)
    # version-2 rules now hold
    os.rename(v1.path("a", "hl1"), v1.path("b", "hl1"))
    assert os.lstat(v1.path("b", "hl1")).st_ino == os.lstat(v1.path("a", "hl2")).st_ino
    os.link(v1.path("a", "ln"), v1.path("b", "ln2"), follow_symlinks=False)
    os.symlink("y" * 4095, v1.path("long"))
    v1.remount()
    assert os.readlink(v1.path("long")) == "y" * 4095
    assert os.readlink(v1.path("b", "ln2")) == "../b/random.bin"
    v1.umount()
    rc, rep = run_fsck(v1.cipherdir, v1.passfile)
    assert rc == 0 and errors_of(rep) == [], rep
    r = v1.upgrade()
    assert r.returncode == 0 and b"nothing to do" in r.stdout


@needs_tools
def test_new_volume_is_version_2_and_v1_mkvol(volume_factory):
    v = volume_factory("speck128-xts", mount=False)
    with open(os.path.join(v.cipherdir, "cloakfs.conf")) as f:
        assert "version = 2;" in f.read()
    top = tempfile.mkdtemp(dir=scratch_base())
    try:
        subprocess.run([MKVOL, "speck128-xts", top, v.passfile, "0", "0", "1"], check=True)
        with open(os.path.join(top, "cloakfs.conf")) as f:
            assert "version = 1;" in f.read()
    finally:
        shutil.rmtree(top)
