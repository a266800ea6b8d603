# SPDX-License-Identifier: MIT
"""The mount at the file counts real users have (docs/design.md,
"Descriptors"), as an ordinary user lives: a tight descriptor limit, a
tree of tens of thousands of files, hard links and renamed directories,
the kernel's caches dropped under it; a descriptor cache forced tiny under
random operations; what a failed create leaves (nothing); a full disk;
mountpoints that would leak or hide data."""
import errno
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from conftest import (CLOAKFS, FSX, MKVOL, PASSPHRASE, Volume, fusermount_u,
                      preload_env, scratch_base, scratch_for_all)

EIO_PRELOAD = os.environ.get("CLOAKFS_EIO_PRELOAD", "")
FSCK = os.environ.get("CLOAKFS_FSCK", "")

HERE = os.path.dirname(os.path.abspath(__file__))
NFILES = int(os.environ.get("CLOAKFS_SCALE_FILES", 20000))
FD_LIMIT = 256
IS_ROOT = os.geteuid() == 0
OTHER_UID = 65534  # nobody: runs the mount when the suite runs as root


class FdWatch(threading.Thread):
    """samples the mount's open descriptors until stopped; peak kept"""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stopped = pid, 0, threading.Event()
        self.denied = False

    def run(self):
        while not self.stopped.is_set():
            try:
                self.peak = max(self.peak, len(os.listdir("/proc/%d/fd" % self.pid)))
            except PermissionError:
                # the mount is non-dumpable: only root may list its
                # descriptors, not the user that started it
                self.denied = True
                return
            except OSError:
                return
            time.sleep(0.02)

    def stop(self):
        self.stopped.set()
        self.join()
        return self.peak


class UserMount:
    """A volume mounted by an ordinary user (nobody, when the suite runs as
    root; else the user running it) under `ulimit -n FD_LIMIT`; what that
    user must execute is copied where it can reach it."""

    def __init__(self):
        self.top = tempfile.mkdtemp(prefix="cloakfs-scale-", dir=scratch_for_all())
        os.chmod(self.top, 0o755)
        self.bin = os.path.join(self.top, "bin")
        os.mkdir(self.bin)
        for src in (CLOAKFS, FSX, os.path.join(HERE, "scale_worker.py")):
            shutil.copy(src, self.bin)
        self.fsx = os.path.join(self.bin, os.path.basename(FSX))
        self.cloakfs = os.path.join(self.bin, os.path.basename(CLOAKFS))
        self.worker = os.path.join(self.bin, "scale_worker.py")
        self.work = os.path.join(self.top, "work")
        self.cipherdir = os.path.join(self.work, "cipher")
        self.mnt = os.path.join(self.work, "mnt")
        self.passfile = os.path.join(self.work, "pass")
        os.mkdir(self.work, 0o700)
        os.mkdir(self.cipherdir)
        os.mkdir(self.mnt)
        with open(self.passfile, "w") as f:
            f.write(PASSPHRASE + "\n")
        os.chmod(self.passfile, 0o600)
        subprocess.run([MKVOL, "speck128-xts", self.cipherdir, self.passfile], check=True)
        self.fuse_acl = False
        if IS_ROOT:
            for dirpath, dirs, files in os.walk(self.work):
                for n in [dirpath] + [os.path.join(dirpath, x) for x in files]:
                    os.lchown(n, OTHER_UID, OTHER_UID)
            self.grant_fuse()
        self.proc = None
        self.stderr_path = os.path.join(self.top, "stderr")

    def grant_fuse(self):
        """/dev/fuse for nobody, for this test only (taken back in destroy)"""
        if os.stat("/dev/fuse").st_mode & 0o006 == 0o006:
            return
        if not shutil.which("setfacl"):
            pytest.skip("/dev/fuse is closed to other users and setfacl "
                        "(Debian's acl) is missing")
        subprocess.run(["setfacl", "-m", "u:%d:rw" % OTHER_UID, "/dev/fuse"], check=True)
        self.fuse_acl = True

    def as_user(self, argv):
        """argv run as the mount's user"""
        if not IS_ROOT:
            return argv
        return ["setpriv", "--reuid=%d" % OTHER_UID, "--regid=%d" % OTHER_UID,
                "--clear-groups", "--"] + argv

    def mount(self, env=None):
        script = "ulimit -Sn %d && ulimit -Hn %d && exec \"$@\"" % (FD_LIMIT, FD_LIMIT)
        argv = self.as_user(["/bin/sh", "-c", script, "sh", self.cloakfs, "-f",
                             "--no-cloakfsd", "--passfile", self.passfile,
                             self.cipherdir, self.mnt])
        err = open(self.stderr_path, "a")
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err,
                                     stderr=err, env=env)
        err.close()
        deadline = time.monotonic() + 15
        while not self.mounted():
            assert self.proc.poll() is None, "cloakfs exited: " + self.stderr()
            assert time.monotonic() < deadline, "no mount: " + self.stderr()
            time.sleep(0.02)

    def mounted(self):
        """in the mount table (root cannot stat another user's FUSE mount)"""
        with open("/proc/self/mountinfo") as f:
            return any(l.split()[4] == self.mnt for l in f)

    def run(self, *args, timeout=900, program=None):
        argv = self.as_user(([program] if program else ["/usr/bin/python3", self.worker])
                            + list(args))
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
        assert r.returncode == 0, "%s: %s%s\nmount: %s" % (
            args[0], r.stdout, r.stderr, self.stderr())
        return r.stdout

    def stderr(self):
        with open(self.stderr_path, errors="replace") as f:
            return f.read()

    def umount(self):
        if self.proc is None:
            return
        for _ in range(100):
            if fusermount_u(self.mnt) == 0 or not self.mounted():
                break
            time.sleep(0.1)
        rc = self.proc.wait(timeout=30)
        self.proc = None
        assert rc == 0, "cloakfs exited with %d: %s" % (rc, self.stderr())

    def destroy(self):
        try:
            if self.proc is not None and self.proc.poll() is None:
                fusermount_u(self.mnt, lazy=True)
                self.proc.kill()
                self.proc.wait()
        finally:
            if self.fuse_acl:
                subprocess.run(["setfacl", "-x", "u:%d" % OTHER_UID, "/dev/fuse"])
            shutil.rmtree(self.top, ignore_errors=True)


def drop_kernel_caches():
    """the kernel forgets the mount's dentries and inodes (root only)"""
    subprocess.run(["sync"])
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("2\n")


def test_tree_under_a_tight_descriptor_limit():
    """NFILES files as an ordinary user with the mount under ulimit -n 256:
    every hash right, directories renamed with their contents, hard links
    across directories, then all verified again after the kernel dropped
    its caches; the mount's descriptors stay below its limit throughout."""
    m = UserMount()
    try:
        m.mount()
        watch = FdWatch(m.proc.pid)  # sh and setpriv exec cloakfs
        watch.start()
        manifest = os.path.join(m.work, "manifest.json")
        tree = os.path.join(m.mnt, "tree")
        m.run("make", tree, str(NFILES), manifest)
        m.run("check", tree, manifest)
        m.run("shuffle", tree, manifest)
        m.run("check", tree, manifest)
        if IS_ROOT:
            drop_kernel_caches()
            m.run("check", tree, manifest)
        peak = watch.stop()
        # the mount is non-dumpable: only root may list its descriptors
        counted = not (watch.denied and not IS_ROOT)
        if counted:
            print("peak descriptors of the mount: %d (limit %d)" % (peak, FD_LIMIT))
            assert 0 < peak < FD_LIMIT
        m.umount()
        # the same tree after a remount, read from the ciphertext again
        m.mount()
        m.run("check", tree, manifest)
        m.umount()
        bad = [l for l in m.stderr().splitlines()
               if "error" in l.lower() or "warn" in l.lower()]
        assert not bad, "\n".join(bad)
        if not counted:
            pytest.skip("the tree was checked, but the mount's descriptors "
                        "were not counted: it is non-dumpable, so only root "
                        "may read /proc/PID/fd (run the suite as root)")
    finally:
        m.destroy()


FSX_TINY_ARGS = ["--seed", "17", "--ops", os.environ.get("CLOAKFS_FSX_OPS_TINY", "30000"),
                 "--files", "6"]


def pad_tree(root):
    """many inodes beside the test files, to keep the cache churning"""
    for i in range(64):
        os.mkdir(os.path.join(root, "pad%02d" % i))
        open(os.path.join(root, "pad%02d" % i, "f"), "w").close()


def test_fsx_with_a_tiny_descriptor_cache(volume_factory):
    """random operations (renames, links and unlinks of open files among
    them) while the mount keeps 16 descriptors at most, so that they are
    evicted and reopened all the time; run by the suite's user (as root,
    names that no longer lead to an inode are backed by file handles)"""
    v = volume_factory("aes256-xts", mount=False, tag="fsx16")
    v.mount(env=dict(os.environ, CLOAKFS_FD_CACHE="16"))
    test, ref = v.path("fsx"), os.path.join(v.top, "ref")
    os.mkdir(test)
    os.mkdir(ref)
    pad_tree(v.mnt)
    r = subprocess.run([FSX] + FSX_TINY_ARGS + [test, ref],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout)
    assert r.returncode == 0, r.stdout
    assert "link " in r.stdout and "unlink " in r.stdout
    for i in range(64):
        assert os.listdir(v.path("pad%02d" % i)) == ["f"]


@pytest.mark.skipif(not IS_ROOT, reason="the test above is this one when not root")
def test_fsx_with_a_tiny_descriptor_cache_unprivileged():
    """the same as an ordinary user, whose mount cannot open by file
    handle: every evicted inode is found again through its names only"""
    m = UserMount()
    try:
        m.mount(env=dict(os.environ, CLOAKFS_FD_CACHE="16"))
        ref = os.path.join(m.work, "ref")
        m.run("-c", 'mkdir "$1/fsx" "$2" && for i in $(seq 10 73); do '
              'mkdir "$1/pad$i" && : >"$1/pad$i/f"; done', "sh", m.mnt, ref,
              program="/bin/sh")
        out = m.run(*FSX_TINY_ARGS, os.path.join(m.mnt, "fsx"), ref, program=m.fsx)
        print(out)
        assert "link " in out and "unlink " in out
        m.umount()
    finally:
        m.destroy()


def test_renamed_inode_found_after_eviction(volume_factory):
    """a directory and a hard link renamed while their descriptors were
    evicted are found again by their new names (the suite's user)"""
    v = volume_factory("speck64-xts", mount=False, tag="renamed")
    v.mount(env=dict(os.environ, CLOAKFS_FD_CACHE="2"))
    r = subprocess.run([sys.executable, os.path.join(HERE, "scale_worker.py"),
                        "renamed", v.mnt], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert r.returncode == 0, r.stdout


@pytest.mark.skipif(not IS_ROOT, reason="the test above is this one when not root")
def test_renamed_inode_found_after_eviction_unprivileged():
    """the same by an ordinary user's mount, which has no file handles to
    fall back on: only the names the mount learnt from the renames"""
    m = UserMount()
    try:
        m.mount(env=dict(os.environ, CLOAKFS_FD_CACHE="2"))
        m.run("renamed", m.mnt)
        m.umount()
    finally:
        m.destroy()


def test_evicted_inode_is_not_another_file(volume_factory):
    """an inode whose descriptor was evicted and whose ciphertext was
    replaced behind the mount's back is gone (ESTALE), never the new file;
    one moved behind its back is found again by a privileged mount (by
    file handle) and is stale to an unprivileged one"""
    v = volume_factory("speck128-xts", mount=False, tag="stale")
    v.mount(env=dict(os.environ, CLOAKFS_FD_CACHE="2"))
    for name in ("a", "b"):
        with open(v.path(name), "wb") as f:
            f.write(name.encode() * 100)
    st_a, st_b = os.stat(v.path("a")), os.stat(v.path("b"))
    # the mount shows the ciphertext's inode numbers
    cipher = {os.lstat(p).st_ino: p for p in v.cipher_files()}
    pa, pb = cipher[st_a.st_ino], cipher[st_b.st_ino]
    fd_a = os.open(v.path("a"), os.O_PATH)
    fd_b = os.open(v.path("b"), os.O_PATH)
    try:
        for i in range(8):  # other inodes take the two cached descriptors
            open(v.path("pad%d" % i), "w").close()
        # a: another file under the same ciphertext name
        data = open(pa, "rb").read()
        os.unlink(pa)
        with open(pa, "wb") as f:
            f.write(data + b"x" * 4096)
        # b: moved to another directory of the backing store
        os.mkdir(os.path.join(v.top, "elsewhere"))
        os.rename(pb, os.path.join(v.top, "elsewhere", "b"))
        time.sleep(1.2)  # past the attribute cache: fstat asks the mount
        try:
            st = os.fstat(fd_a)
            raise AssertionError("the replaced inode answers: %r" % (st,))
        except OSError as e:
            assert e.errno == errno.ESTALE, e
        if IS_ROOT:
            st = os.fstat(fd_b)
            assert (st.st_ino, st.st_size) == (st_b.st_ino, st_b.st_size)
        else:
            with pytest.raises(OSError) as ei:
                os.fstat(fd_b)
            assert ei.value.errno == errno.ESTALE
    finally:
        os.close(fd_a)
        os.close(fd_b)


# ---- a failed create leaves nothing ------------------------------------

CREATE_STEPS = {
    # operation: the calls to fail, each on its own
    "create": ["after:openat_path", "fail:fstatat_empty"],
    "mkdir": ["fail:mkdirat", "after:openat_path", "fail:renameat2",
              "fail:fstatat_empty"],
    "mkfifo": ["fail:mknodat", "after:openat_path",
               "fail:fstatat_empty"],
    "symlink": ["fail:symlinkat", "after:openat_path", "fail:fstatat_empty"],
    "link": ["fail:linkat", "after:openat_path", "fail:fstatat_empty"],
}


def _make(op, path, src):
    if op == "create":
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o644))
    elif op == "mkdir":
        os.mkdir(path)
    elif op == "mkfifo":
        os.mkfifo(path)
    elif op == "symlink":
        os.symlink("some/target", path)
    else:
        os.link(src, path)


@pytest.mark.skipif(not EIO_PRELOAD, reason="CLOAKFS_EIO_PRELOAD not built")
@pytest.mark.parametrize("long_name", [False, True], ids=["short", "long"])
def test_failed_create_leaves_nothing(volume_factory, long_name):
    """each step of each creating operation, failed by the fault shim:
    the operation reports an error and the ciphertext directory is as it
    was (no entry, no sidecar, no temporary directory); fsck is clean"""
    v = volume_factory("speck128-xts", mount=False, tag="mkfail")
    ctl = os.path.join(v.top, "fault.ctl")
    v.mount(env=preload_env(EIO_PRELOAD, CLOAKFS_EIO_CTL=ctl))
    os.mkdir(v.path("d"))
    src = v.path("d", "src")
    open(src, "w").close()
    stem = ("n" * 200) if long_name else "new"
    tried = 0
    for op, steps in CREATE_STEPS.items():
        for step in steps:
            name = "%s-%s-%d" % (stem, op, tried)
            before = sorted(os.listdir(os.path.join(v.cipherdir)))
            before_d = _cipher_listing(v)
            with open(ctl, "w") as f:
                f.write(step + "\n")
            try:
                with pytest.raises(OSError) as ei:
                    _make(op, v.path("d", name), src)
            finally:
                os.unlink(ctl)
            assert ei.value.errno == errno.EIO, (op, step, ei.value)
            assert _cipher_listing(v) == before_d, (op, step)
            assert sorted(os.listdir(v.cipherdir)) == before
            assert name not in os.listdir(v.path("d")), (op, step)
            tried += 1
            # and the same name works once the fault is gone
            _make(op, v.path("d", name), src)
            assert name in os.listdir(v.path("d"))
    v.allowed_stderr.append(r"a failed operation left|i/o error")
    v.umount()
    if FSCK:
        r = subprocess.run([FSCK, "--passfile", v.passfile, v.cipherdir],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert r.returncode == 0, r.stdout


def _cipher_listing(v):
    """the names in every ciphertext directory"""
    out = []
    for dirpath, dirs, files in os.walk(v.cipherdir):
        out += [os.path.relpath(os.path.join(dirpath, n), v.cipherdir) for n in dirs + files]
    return sorted(out)


# ---- a full disk ---------------------------------------------------------

@pytest.mark.skipif(not IS_ROOT, reason="mounting a small tmpfs needs root")
@pytest.mark.parametrize("cipher", ["speck128-xts", "speck64-xts"])
def test_enospc_keeps_the_acknowledged_size(cipher):
    """on a full backing store the file's size is the sum of the writes
    that were acknowledged, its data reads back, fsck is clean"""
    top = tempfile.mkdtemp(prefix="cloakfs-enospc-", dir=scratch_base())
    small = os.path.join(top, "small")
    os.mkdir(small)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", small], check=True)
    try:
        v = Volume.__new__(Volume)
        os.makedirs(os.path.join(small, "cipher"))
        v.__init__(cipher, tag="enospc")  # a normal volume elsewhere...
        # ...moved onto the small tmpfs
        shutil.rmtree(os.path.join(small, "cipher"))
        shutil.copytree(v.cipherdir, os.path.join(small, "cipher"))
        shutil.rmtree(v.cipherdir)
        v.cipherdir = os.path.join(small, "cipher")
        v.mount()
        try:
            for name, chunk in (("odd", 100001), ("sectors", 4096 * 3)):
                acked = 0
                pattern = bytes(range(256)) * (chunk // 256 + 1)
                fd = os.open(v.path(name), os.O_WRONLY | os.O_CREAT, 0o644)
                try:
                    while True:
                        acked += os.write(fd, pattern[:chunk])
                except OSError as e:
                    assert e.errno == errno.ENOSPC, e
                finally:
                    os.close(fd)
                assert os.stat(v.path(name)).st_size == acked
                with open(v.path(name), "rb") as f:
                    data = f.read()
                assert len(data) == acked
                assert data == (pattern[:chunk] * (acked // chunk + 1))[:acked]
                os.unlink(v.path(name))
        finally:
            v.umount()
            if FSCK:
                r = subprocess.run([FSCK, "--passfile", v.passfile, v.cipherdir],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
                assert r.returncode == 0, r.stdout
            shutil.rmtree(v.top, ignore_errors=True)
    finally:
        subprocess.run(["umount", small])
        shutil.rmtree(top, ignore_errors=True)


# ---- mountpoints -----------------------------------------------------------

EXIT_MOUNT = 9  # cloakfs(1), EXIT STATUS


def _mount_fails(v, mnt, *extra):
    r = subprocess.run([CLOAKFS, "-f", "--no-cloakfsd", "--passfile", v.passfile]
                       + list(extra) + [v.cipherdir, mnt],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=30)
    assert r.returncode == EXIT_MOUNT, (r.returncode, r.stdout)
    assert not os.path.ismount(mnt)
    return r.stdout


def test_refused_mountpoints(volume_factory):
    """the cipherdir itself, a directory inside it, and a non-empty
    directory (unless -o nonempty) are refused with a message and exit 9"""
    v = volume_factory("speck128-xts", mount=False, tag="mntpt")
    out = _mount_fails(v, v.cipherdir)
    assert "is the encrypted directory" in out
    inside = os.path.join(v.cipherdir, "plain")
    os.mkdir(inside)
    out = _mount_fails(v, inside)
    assert "inside the encrypted directory" in out and inside in out
    os.rmdir(inside)
    # a relative and a symlinked way to the same place
    link = os.path.join(v.top, "link-to-cipher")
    os.symlink(v.cipherdir, link)
    _mount_fails(v, link)
    with open(os.path.join(v.mnt, "already-here"), "w") as f:
        f.write("x")
    out = _mount_fails(v, v.mnt)
    assert "not empty" in out and "nonempty" in out
    v.mount("-o", "nonempty")
    assert os.listdir(v.mnt) == []  # the old file is hidden, not gone
    v.umount()
    assert os.listdir(v.mnt) == ["already-here"]


@pytest.mark.skipif(not IS_ROOT, reason="a bind mount needs root")
def test_refused_mountpoints_through_a_bind_mount(volume_factory):
    """a mountpoint inside the cipherdir by another path (a bind mount of
    it, either way round) is refused as well: the check compares device
    and inode up the mountpoint's parents, not path strings"""
    v = volume_factory("speck128-xts", mount=False, tag="mntbind")
    bind = os.path.join(v.top, "bind")
    inside = os.path.join(v.cipherdir, "inside")
    os.mkdir(bind)
    os.mkdir(inside)
    subprocess.run(["mount", "--bind", v.cipherdir, bind], check=True)
    try:
        for cipherdir, mnt in ((bind, inside), (v.cipherdir, os.path.join(bind, "inside"))):
            # not -f: were it mounted, the test fails instead of hanging
            r = subprocess.run([CLOAKFS, "--no-cloakfsd", "--passfile", v.passfile,
                                cipherdir, mnt], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=30)
            mounted = os.path.ismount(mnt)
            if mounted:
                fusermount_u(mnt, lazy=True)
            assert r.returncode == EXIT_MOUNT and not mounted, (cipherdir, mnt, r.stdout)
            assert "inside the encrypted directory" in r.stdout and mnt in r.stdout, r.stdout
            assert "another path" in r.stdout, r.stdout
    finally:
        subprocess.run(["umount", bind], check=True)
