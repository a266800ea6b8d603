# SPDX-License-Identifier: MIT
"""Old or new, never half: every operation that changes the ciphertext in
more than one step (truncate down and up, a write that reads back a
partial unit or reshapes the tail, a hole punched or a range zeroed, rename with long-name sidecars and a
replaced directory, link under a long name, setxattr) leaves the plaintext
tree as it was before the call or as the call makes it, when any step
fails or the keys go away between two steps.

The walk: for N = 1, 2, ... the EIO shim (eio_preload.c, "step:") fails
the N-th call that changes the backing store, until the operation
succeeds with no fault reached; after each run the tree, read through a
new mount, must equal the old tree (the call failed) or the new one (it
succeeded), byte for byte, and cloakfs-fsck must find the volume clean.
The lock walk pauses the N-th call instead ("pause:"), locks the volume
in cloakfsd meanwhile, and checks the same after unlocking."""
import errno
import json
import os
import shutil
import subprocess
import threading

import pytest

from conftest import (KEYTOOL, CLOAKFSD, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE,
                      FALLOC_FL_ZERO_RANGE, fallocate_mode, preload_env, renameat2,
                      write_file)
from test_daemon import env, keytool, mount_from_daemon, wait_state  # noqa: F401 (env: a fixture)
from test_faults import FSCK, fsck_clean, content

EIO_PRELOAD = os.environ.get("CLOAKFS_EIO_PRELOAD", "")
pytestmark = pytest.mark.skipif(not EIO_PRELOAD, reason="CLOAKFS_EIO_PRELOAD not built")

# what a step after a call's change may leave when it fails (remount_checked)
LEFTOVERS = {"sidecar-orphan", "temp-entry", "dirnonce-copy-missing"}
LF = "lost+found.cloakfs"
LONG1 = "long-one-" + "x" * 190  # stored with a sidecar (a long name)
LONG2 = "long-two-" + "y" * 190
LONG3 = "long-three-" + "z" * 190


def snapshot(top):
    """the plaintext tree below top: path -> kind and bytes, xattrs"""
    out = {}
    for root, dirs, files in os.walk(top):
        for n in sorted(dirs + files):
            p = os.path.join(root, n)
            rel = os.path.relpath(p, top)
            if os.path.islink(p):
                out[rel] = ("link", os.readlink(p))
                continue
            xattrs = tuple(sorted((k, os.getxattr(p, k)) for k in os.listxattr(p)
                                  if k.startswith("user.")))
            if os.path.isdir(p):
                out[rel] = ("dir", xattrs)
            else:
                with open(p, "rb") as f:
                    out[rel] = ("file", f.read(), xattrs)
    return out


def link_targets(*trees):
    """the symlink targets in snapshots"""
    return {e[1] for t in trees for e in t.values() if e[0] == "link"}


def quarantined_links(w):
    """lost+found.cloakfs's symlinks through the mount: name -> target
    (None: it does not read)"""
    lf = w.v.path(LF)
    out = {}
    for n in sorted(os.listdir(lf)) if os.path.isdir(lf) else []:
        if os.path.islink(os.path.join(lf, n)):
            try:
                out[n] = os.readlink(os.path.join(lf, n))
            except OSError:
                out[n] = None
    return out


def differs(got, want):
    """a short account of how tree got differs from want"""
    lines = []
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            g, w = got.get(k), want.get(k)
            if g and w and g[0] == "file" == w[0] and g[1] != w[1]:
                first = next((i for i in range(min(len(g[1]), len(w[1])))
                              if g[1][i] != w[1][i]), None)
                lines.append("%s: %d bytes, want %d; first difference at %s"
                             % (k, len(g[1]), len(w[1]), first))
            elif g and w and g[0] == w[0] != "link" and g[-1] != w[-1]:
                lines.append("%s: xattrs %s, want %s" % (
                    k, [x[0] for x in g[-1]], [x[0] for x in w[-1]]))
            else:
                lines.append("%s: %s, want %s" % (k, repr(g)[:80], repr(w)[:80]))
    return "; ".join(lines[:6])


# ---- the operations: setup(top) makes the tree, op(top) changes it ----------

def setup_files(t):
    write_file(os.path.join(t, "f10000"), content(1, 10000))
    write_file(os.path.join(t, "f5000"), content(2, 5000))


def pwrite_at(path, data, off):
    fd = os.open(path, os.O_WRONLY)
    try:
        assert os.pwrite(fd, data, off) == len(data)
    finally:
        os.close(fd)


def fallocate(path, off, length):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.posix_fallocate(fd, off, length)
    finally:
        os.close(fd)


def fallocate_at(path, mode, off, length):
    fd = os.open(path, os.O_RDWR)
    try:
        fallocate_mode(fd, mode, off, length)
    finally:
        os.close(fd)


def setup_joined(t):
    """a last unit joined of a sector and an 8-byte tail (speck128: bs 16)"""
    write_file(os.path.join(t, "f8200"), content(13, 8200))


def setup_names(t):
    os.mkdir(os.path.join(t, "a"))
    os.mkdir(os.path.join(t, "b"))
    write_file(os.path.join(t, "a", LONG1), content(3, 3000))
    write_file(os.path.join(t, "b", LONG2), content(4, 100))
    os.mkdir(os.path.join(t, "a", "full"))
    write_file(os.path.join(t, "a", "full", "in"), b"inside")
    os.mkdir(os.path.join(t, "a", "empty"))


def setup_empty(t):
    write_file(os.path.join(t, "empty"), b"")


def setup_links(t):
    os.mkdir(os.path.join(t, "a"))
    os.mkdir(os.path.join(t, "b"))
    os.symlink("../target/of/s", os.path.join(t, "a", "s"))
    os.symlink("other-target", os.path.join(t, "b", "o"))
    write_file(os.path.join(t, "b", "f"), content(12, 50))


def setup_xattr(t):
    write_file(os.path.join(t, "x"), content(5, 700))
    os.setxattr(os.path.join(t, "x"), "user.old", content(6, 300))


OPS = {
    "truncate-shrink": (setup_files, lambda t: os.truncate(os.path.join(t, "f10000"), 5000)),
    "truncate-shrink-tiny": (setup_files, lambda t: os.truncate(os.path.join(t, "f10000"), 7)),
    "truncate-grow": (setup_files, lambda t: os.truncate(os.path.join(t, "f5000"), 20000)),
    "fallocate-grow": (setup_files, lambda t: fallocate(os.path.join(t, "f5000"), 0, 20000)),
    "write-partial-units": (setup_files,
                            lambda t: pwrite_at(os.path.join(t, "f10000"), content(7, 100), 4000)),
    "write-reshaping-tail": (setup_files,
                             lambda t: pwrite_at(os.path.join(t, "f5000"), content(8, 3000), 4990)),
    # the partial units at both edges re-encrypted, the whole one punched
    "punch-partial-units": (setup_files, lambda t: fallocate_at(
        os.path.join(t, "f10000"), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 100, 8900)),
    # the edge re-encrypted inside the old size, the size grown, the rest
    # punched (a failing punch cuts the file back)
    "zero-range-grow": (setup_files, lambda t: fallocate_at(
        os.path.join(t, "f10000"), FALLOC_FL_ZERO_RANGE, 100, 19900)),
    # and the old joined last unit re-encrypted as a whole sector
    "zero-range-reshaping": (setup_joined, lambda t: fallocate_at(
        os.path.join(t, "f8200"), FALLOC_FL_ZERO_RANGE, 8195, 10000)),
    "truncate-grow-empty": (setup_empty, lambda t: os.truncate(os.path.join(t, "empty"), 5000)),
    "write-first-sparse": (setup_empty,
                           lambda t: pwrite_at(os.path.join(t, "empty"), content(11, 10), 20000)),
    "rename-long-replacing": (setup_names, lambda t: os.rename(
        os.path.join(t, "a", LONG1), os.path.join(t, "b", LONG2))),
    "rename-long-to-short": (setup_names, lambda t: os.rename(
        os.path.join(t, "a", LONG1), os.path.join(t, "b", "short"))),
    "rename-exchange-long": (setup_names, lambda t: renameat2(
        os.path.join(t, "a", LONG1), os.path.join(t, "b", LONG2), 2)),
    "rename-dir-over-empty": (setup_names, lambda t: os.rename(
        os.path.join(t, "a", "full"), os.path.join(t, "a", "empty"))),
    "link-long": (setup_names, lambda t: os.link(
        os.path.join(t, "a", LONG1), os.path.join(t, "b", LONG3))),
    "rmdir": (setup_names, lambda t: os.rmdir(os.path.join(t, "a", "empty"))),
    "unlink-long": (setup_names, lambda t: os.unlink(os.path.join(t, "a", LONG1))),
    "mkdir-long": (setup_names, lambda t: os.mkdir(os.path.join(t, "b", LONG3))),
    "symlink-long": (setup_names, lambda t: os.symlink("target-" + "t" * 300,
                                                        os.path.join(t, "b", LONG3))),
    "setxattr-new": (setup_xattr, lambda t: os.setxattr(
        os.path.join(t, "x"), "user.new", content(9, 200))),
    "setxattr-replace": (setup_xattr, lambda t: os.setxattr(
        os.path.join(t, "x"), "user.old", content(10, 50))),
}

# on a version-1 volume a symlink's target is keyed by its directory: one
# moving to another directory is made anew there (volume/respell.h)
V1_OPS = {
    "v1-rename-symlink": (setup_links, lambda t: os.rename(
        os.path.join(t, "a", "s"), os.path.join(t, "b", "s"))),
    "v1-rename-symlink-replacing": (setup_links, lambda t: os.rename(
        os.path.join(t, "a", "s"), os.path.join(t, "b", "f"))),
    "v1-exchange-symlinks": (setup_links, lambda t: renameat2(
        os.path.join(t, "a", "s"), os.path.join(t, "b", "o"), 2)),
    "v1-exchange-symlink-file": (setup_links, lambda t: renameat2(
        os.path.join(t, "a", "s"), os.path.join(t, "b", "f"), 2)),
    "v1-exchange-file-symlink": (setup_links, lambda t: renameat2(
        os.path.join(t, "b", "f"), os.path.join(t, "a", "s"), 2)),
}
OPS.update(V1_OPS)


def make_volume(volume_factory, name):
    if name in V1_OPS:
        return volume_factory("speck128-xts", version=1, mount=False)
    return volume_factory("speck128-xts", mount=False)


class Walk:
    """a mounted volume under the shim, a tree t/ in it, and the shim's control"""

    def __init__(self, v, mount):
        self.v = v
        self.ctl = os.path.join(v.top, "eio.ctl")
        self.env = preload_env(EIO_PRELOAD, CLOAKFS_EIO_CTL=self.ctl)
        self.mount = mount
        self.runs = 0

    @property
    def top(self):
        return self.v.path("t")

    def fresh(self, setup):
        shutil.rmtree(self.top, ignore_errors=True)
        os.mkdir(self.top)
        setup(self.top)

    def arm(self, kind, n):
        self.runs += 1
        with open(self.ctl + ".tmp", "w") as f:
            f.write("%s:run%d:%d:%s/\n" % (kind, self.runs, n, self.v.cipherdir))
        os.rename(self.ctl + ".tmp", self.ctl)

    def disarm(self):
        """the rule off; whether its N-th call came (the count reached n)"""
        os.unlink(self.ctl)
        try:
            with open(self.ctl + ".steps") as f:
                return int(f.read())
        except FileNotFoundError:
            return 0
        finally:
            if os.path.exists(self.ctl + ".steps"):
                os.unlink(self.ctl + ".steps")

    def remount_checked(self, cleanup_failed=False):
        """remount; fsck finds the volume clean. cleanup_failed: the call
        succeeded but a step after its change failed, which cannot be
        undone and is only reported: the removal of a long name's old
        sidecar (sidecar-orphan) or of what a version-1 symlink's copy
        replaced (temp-entry), which --repair removes or moves into
        lost+found.cloakfs, or the copy of a new directory's nonce
        (dirnonce-copy-missing, a warning: the copy is a safety net,
        volume/names/dirnonce.h) may be left. What the first fsck found."""
        found = set()
        self.v.umount()
        if cleanup_failed and FSCK:
            r = subprocess.run([FSCK, "--json", "--passfile", self.v.passfile, self.v.cipherdir],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            found = {f["class"] for f in json.loads(r.stdout)["findings"]}
            assert found <= LEFTOVERS, "fsck exit %d:\n%s" % (r.returncode, r.stdout)
            if found & {"sidecar-orphan", "temp-entry"}:
                r = subprocess.run([FSCK, "--repair", "--passfile", self.v.passfile,
                                    self.v.cipherdir], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
                assert r.returncode in (0, 1), r.stdout
        fsck_clean(self.v)
        self.mount(self)
        return found

    def new_state(self, setup, op):
        self.fresh(setup)
        old = snapshot(self.top)
        op(self.top)
        new = snapshot(self.top)
        assert new != old, "the operation changes nothing"
        return old, new

    def check(self, name, n, ok, err, old, new, want_errno):
        got = snapshot(self.top)
        where = "%s, step %d" % (name, n)
        if ok:
            assert got == new, "%s: succeeded, but the tree is not the new one: %s" % (
                where, differs(got, new))
        else:
            assert err.errno == want_errno, "%s: %s" % (where, err)
            assert got == old, "%s: failed (%s), the tree is not the old one: %s%s" % (
                where, err.strerror, differs(got, old),
                " (it is the new one)" if got == new else "")


def mount_with(env):
    def mount(w):
        w.v.mount(env=env)
    return mount


def walk_eio(w, name):
    setup, op = OPS[name]
    old, new = w.new_state(setup, op)
    for n in range(1, 60):
        w.fresh(setup)
        w.arm("step", n)
        ok, err = True, None
        try:
            op(w.top)
        except OSError as e:
            ok, err = False, e
        reached = w.disarm() >= n
        w.remount_checked(ok and reached)
        w.check(name, n, ok, err, old, new, errno.EIO)
        # a leftover symlink quarantined holds a target the tree had
        for q, target in quarantined_links(w).items():
            assert target in link_targets(old, new), \
                "%s, step %d: /%s/%s reads %r" % (name, n, LF, q, target)
        if ok and not reached:
            return n - 1
    raise AssertionError("%s: still failing after 60 steps" % name)


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_step_failing(volume_factory, name):
    v = make_volume(volume_factory, name)
    w = Walk(v, None)
    w.mount = mount_with(w.env)
    w.mount(w)
    steps = walk_eio(w, name)
    assert steps >= 1, "%s: no step reached the backing store" % name
    print("%s: %d steps walked" % (name, steps))


@pytest.mark.skipif(not FSCK, reason="built without cloakfs-fsck")
def test_v1_exchange_leftover_keeps_target(volume_factory):
    """a version-1 exchange of two symlinks in two directories whose
    removal of a replaced entry fails: the call succeeded and a temporary
    entry stays. fsck --repair moves it into lost+found.cloakfs, where its
    target reads as the symlink it was (the temporary is spelled for the
    directory it is in, volume/respell.c, and re-spelled on the move), and
    a second fsck finds the volume clean (remount_checked). Each of the
    two symlinks leaves one such entry, whatever the temporary names."""
    name = "v1-exchange-symlinks"
    setup, op = OPS[name]
    w = Walk(make_volume(volume_factory, name), None)
    w.mount = mount_with(w.env)
    w.mount(w)
    old, new = w.new_state(setup, op)
    left = []
    for n in range(1, 60):
        w.fresh(setup)
        before = quarantined_links(w)
        w.arm("step", n)
        try:
            op(w.top)
            ok = True
        except OSError:
            ok = False
        reached = w.disarm() >= n
        if not reached:
            break
        found = w.remount_checked(ok)
        got = quarantined_links(w)
        added = {q: t for q, t in got.items() if before.get(q) != t}
        if ok:
            assert found == {"temp-entry"}, "step %d: %s" % (n, found)
            assert len(added) == 1, "step %d: quarantined %s" % (n, added)
            left += added.values()
        else:
            assert not added, "step %d: failed, yet quarantined %s" % (n, added)
        assert snapshot(w.top) == (new if ok else old), "step %d" % n
    assert sorted(left) == sorted(link_targets(old)), \
        "the leftovers read %s, want one of each of %s" % (left, link_targets(old))


def walk_lock(w, name, denv):
    setup, op = OPS[name]
    old, new = w.new_state(setup, op)
    for n in range(1, 60):
        w.fresh(setup)
        paused = w.ctl + ".paused"
        w.arm("pause", n)
        result = {}

        def run():
            try:
                op(w.top)
                result["ok"] = True
            except OSError as e:
                result["err"] = e
        t = threading.Thread(target=run)
        t.start()
        while t.is_alive() and not os.path.exists(paused):
            t.join(0.02)
        locked = os.path.exists(paused)
        if locked:
            keytool(denv, "lock", w.v.cipherdir)
            wait_state(denv, w.v.mnt, "locked")
            os.unlink(paused)
        t.join(60)
        assert not t.is_alive(), "%s, step %d: the operation hangs" % (name, n)
        w.disarm()
        if locked:
            keytool(denv, "unlock", "--passfile", w.v.passfile, w.v.cipherdir)
        w.remount_checked()
        w.check(name, n, "ok" in result, result.get("err"), old, new, errno.EACCES)
        if not locked:
            return n - 1
    raise AssertionError("%s: still pausing after 60 steps" % name)


@pytest.mark.skipif(not CLOAKFSD or not KEYTOOL, reason="built without cloakfsd / cloakfs-keytool")
@pytest.mark.parametrize("name", sorted(OPS))
def test_keys_locked_between_steps(volume_factory, env, name):
    daemon_env = env
    v = make_volume(volume_factory, name)
    keytool(daemon_env, "unlock", "--passfile", v.passfile, v.cipherdir)
    w = Walk(v, None)
    menv = dict(daemon_env, **{k: w.env[k] for k in ("LD_PRELOAD", "CLOAKFS_EIO_CTL",
                                                     "ASAN_OPTIONS")})

    def mount(w):
        mount_from_daemon(w.v, menv)
    w.mount = mount
    w.mount(w)
    v.allowed_stderr = [r"locked", r"key daemon"]
    steps = walk_lock(w, name, daemon_env)
    assert steps >= 1, "%s: no step reached the backing store" % name
    print("%s: locked before each of %d steps" % (name, steps))
