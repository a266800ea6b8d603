# SPDX-License-Identifier: MIT
"""Old or new, never half, for the tools that change a volume in more
than one step (test_steps.py walks the mount's operations): the upgrade
of a version-1 volume (cloakfs-keytool upgrade) and cloakfs-fsck
--repair.

The walk: for N = 1, 2, ... the EIO shim (eio_preload.c, "step:") is
preloaded into the tool and fails the N-th call that changes the
ciphertext directory, until the tool runs with no fault reached. After
each failed run the volume must mount and read as before (the upgrade
changes no plaintext; a repair moves entries into lost+found and loses
none), and a rerun without faults must finish the job, leaving what a
run that never failed leaves. The keys-locked variant of test_steps.py
does not apply: each tool holds keys of its own (from --passfile), which
cloakfsd's lock does not take away."""
import json
import os
import shutil
import stat
import subprocess

import pytest

from conftest import KEYTOOL, preload_env, write_file
from test_faults import FSCK, content
from test_steps import differs, snapshot

EIO_PRELOAD = os.environ.get("CLOAKFS_EIO_PRELOAD", "")
pytestmark = pytest.mark.skipif(not EIO_PRELOAD or not FSCK or not KEYTOOL,
                                reason="built without the EIO shim, cloakfs-fsck or the keytool")

MAX_STEPS = 200
LONG_NAME = "long-name-" + "n" * 190   # a name stored with a sidecar
V1_MAX_TARGET = "t" * 3040             # the longest target version 1 holds


class Walker:
    """runs a tool under the shim, failing its n-th change of the cipherdir"""

    def __init__(self, top, cipherdir):
        self.ctl = os.path.join(top, "eio.ctl")
        self.cipherdir = cipherdir
        self.runs = 0

    def run(self, argv, n=None):
        """(completed process, whether the n-th change came)"""
        env = dict(os.environ)
        if n:
            self.runs += 1
            write_file(self.ctl, ("step:run%d:%d:%s/\n" % (self.runs, n, self.cipherdir)).encode())
            env = preload_env(EIO_PRELOAD, CLOAKFS_EIO_CTL=self.ctl)
        r = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=120)
        reached = False
        if n:
            os.unlink(self.ctl)
            steps = self.ctl + ".steps"
            if os.path.exists(steps):
                with open(steps) as f:
                    reached = int(f.read()) >= n
                os.unlink(steps)
        return r, reached


def fsck_json(v, *args):
    r = subprocess.run([FSCK, "--json", "--passfile", v.passfile] + list(args) + [v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    try:
        return r.returncode, json.loads(r.stdout), r.stderr
    except ValueError:
        raise AssertionError("fsck: not JSON (exit %d):\n%s\n%s" % (r.returncode, r.stdout, r.stderr))


def restore(v, pristine):
    shutil.rmtree(v.cipherdir)
    # cp -a keeps hard links and xattrs
    subprocess.run(["cp", "-a", pristine, v.cipherdir], check=True)


def read_tree(v):
    v.mount()
    try:
        return snapshot(v.mnt)
    finally:
        v.umount()


def version_of(v):
    with open(os.path.join(v.cipherdir, "cloakfs.conf")) as f:
        for line in f:
            if line.startswith("version = "):
                return int(line.split("=")[1].strip(" ;\n"))
    raise AssertionError("no version in cloakfs.conf")


def temp_names(v):
    return sorted(os.path.relpath(os.path.join(r, n), v.cipherdir)
                  for r, ds, fs in os.walk(v.cipherdir) for n in ds + fs
                  if n.startswith("cloakfs.tmp."))


# ---- cloakfs-keytool upgrade -----------------------------------------------

def fill_v1(t):
    """a version-1 tree: every kind of symlink the upgrade converts, and
    what it must leave alone"""
    os.mkdir(os.path.join(t, "a"))
    os.makedirs(os.path.join(t, "b", "deep"))
    write_file(os.path.join(t, "a", "file"), content(1, 5000))
    os.setxattr(os.path.join(t, "a", "file"), "user.note", content(2, 100))
    os.setxattr(os.path.join(t, "b"), "user.dir", b"on a directory")
    write_file(os.path.join(t, "b", LONG_NAME), content(3, 700))
    os.symlink("../b/" + LONG_NAME, os.path.join(t, "a", "short"))
    os.symlink(V1_MAX_TARGET, os.path.join(t, "a", "max"))
    os.symlink("under a long name", os.path.join(t, "b", LONG_NAME + "-link"))
    os.symlink("hard-linked", os.path.join(t, "b", "h1"))
    os.link(os.path.join(t, "b", "h1"), os.path.join(t, "b", "h2"), follow_symlinks=False)
    os.symlink("x" * 700, os.path.join(t, "b", "deep", "s"))
    os.symlink("at the root", os.path.join(t, "root-link"))


# what an upgrade that stopped may leave: its temporary names, which the
# mount skips and fsck reports as temp-entry; the rerun removes them
# (docs/format.md section 10), and so must not be left to --repair
UPGRADE_LEFTOVERS = {"temp-entry"}
# after the config: the volume record not rewritten, a warning of the
# upgrade (which has finished) and of fsck; the next mount rewrites it
RECORD_LEFTOVERS = {"volume-record"}


def test_upgrade_every_step_failing(volume_factory):
    v = volume_factory("speck128-xts", version=1)
    fill_v1(v.mnt)
    v.umount()
    assert version_of(v) == 1
    want = read_tree(v)
    pristine = os.path.join(v.top, "pristine")
    subprocess.run(["cp", "-a", v.cipherdir, pristine], check=True)
    w = Walker(v.top, v.cipherdir)
    argv = [KEYTOOL, "upgrade", "--passfile", v.passfile, v.cipherdir]
    stopped = 0
    for n in range(1, MAX_STEPS):
        restore(v, pristine)
        r, reached = w.run(argv, n)
        where = "upgrade, step %d (exit %d: %s)" % (n, r.returncode, r.stderr.strip())
        if not reached:
            assert r.returncode == 0, where
            break
        if r.returncode != 0:
            stopped += 1
            assert "run it again" in r.stderr, where
        # the volume as the failed run left it: fsck finds nothing but
        # the upgrade's own temporary names, and it reads as before, in
        # either version
        rc, rep, err = fsck_json(v)
        found = {f["class"] for f in rep["findings"]}
        if r.returncode == 0:
            assert "cloakfs.volume: cannot write" in r.stderr, where
            assert found <= RECORD_LEFTOVERS and rc == 0, (where, rep["findings"])
        else:
            assert found <= UPGRADE_LEFTOVERS, "%s: fsck exit %d: %s" % (
                where, rc, rep["findings"])
            assert all(f["ciphertext"].split("/")[-1].startswith("cloakfs.tmp.up-")
                       for f in rep["findings"]), (where, rep["findings"])
        got = read_tree(v)
        assert got == want, "%s: version %d reads %s" % (where, version_of(v), differs(got, want))
        # a rerun finishes it: version 2, no temporary name, fsck clean,
        # the same tree, and the hard-linked symlink one inode again
        r2, _ = w.run(argv)
        assert r2.returncode == 0, "%s: the rerun: %s" % (where, r2.stderr)
        assert version_of(v) == 2, where
        assert temp_names(v) == [], (where, temp_names(v))
        rc, rep, err = fsck_json(v)
        assert rc == 0 and rep["findings"] == [], (where, rep["findings"], err)
        v.mount()
        try:
            got = snapshot(v.mnt)
            assert got == want, "%s, rerun: %s" % (where, differs(got, want))
            assert os.lstat(v.path("b", "h1")).st_ino == os.lstat(v.path("b", "h2")).st_ino, where
        finally:
            v.umount()
    else:
        raise AssertionError("upgrade: still failing after %d steps" % MAX_STEPS)
    assert stopped >= 10, "only %d steps failed the upgrade" % stopped
    # the run with no fault reached: done in one go
    assert version_of(v) == 2 and temp_names(v) == []
    assert not os.path.exists(os.path.join(v.cipherdir, "cloakfs.targets"))  # v1 max fits inline
    print("upgrade: %d steps walked, %d of them stopped it" % (n - 1, stopped))
