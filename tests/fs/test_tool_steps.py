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

from conftest import KEYTOOL, Volume, preload_env, write_file
from test_faults import FSCK, content
from test_fsck import (LF, LONG, STORE, Damaged, link_of, long_name, references,
                       store_template, template)  # noqa: F401 (fixtures)
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
        # as the shim sees it (a descriptor's path is resolved): the
        # tools are given it too
        self.cipherdir = os.path.realpath(cipherdir)
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
    argv = [KEYTOOL, "upgrade", "--passfile", v.passfile, w.cipherdir]
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
            assert all(f["ciphertext"].split("/")[-1].startswith("cloakfs.tmp.up-") and
                       "run the upgrade again" in f["detail"]
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


# ---- cloakfs-fsck --repair ------------------------------------------------

def read_all(top):
    """snapshot(), but an entry that does not read is "EIO" (quarantined
    damage stays damage)"""
    out = {}
    for root, dirs, files in os.walk(top):
        for n in sorted(dirs + files):
            p = os.path.join(root, n)
            rel = os.path.relpath(p, top)
            try:
                st = os.lstat(p)
                if stat.S_ISLNK(st.st_mode):
                    out[rel] = ("link", os.readlink(p))
                elif stat.S_ISDIR(st.st_mode):
                    out[rel] = ("dir",)
                elif stat.S_ISREG(st.st_mode):
                    with open(p, "rb") as f:
                        out[rel] = ("file", f.read())
                else:
                    out[rel] = ("special", stat.S_IFMT(st.st_mode))
            except OSError as e:
                out[rel] = ("EIO", e.errno)
    return out


def in_lf(rel):
    return rel == LF or rel.startswith(LF + "/")


def is_note(rel):
    return os.path.basename(rel).startswith("fsck-repair-")


def lf_values(tree):
    """what lost+found holds, as a sorted list: names there are numbered
    as they come, so only the values count; and directories not at all:
    a root whose fresh nonce a stopped repair did not write yet has its
    lost+found under that nonce, which the next run moves into the new
    lost+found as it is, one level deeper (docs/fsck.md)"""
    return sorted(repr(v) for k, v in tree.items() if in_lf(k) and v[0] != "dir")


def same_outcome(got, want):
    """the same tree outside lost+found, the same things in it"""
    if got is None:
        return False
    return ({k: v for k, v in got.items() if not in_lf(k)} ==
            {k: v for k, v in want.items() if not in_lf(k)} and
            lf_values(got) == lf_values(want))


def damaged_tree(d, may_fail=False):
    """the tree the mount shows; may_fail: None when it refuses the
    volume (a root whose nonce is lost)"""
    # read-only: a mount writes what it finds missing (the volume
    # record), which would do part of the repair behind fsck's back
    v = Volume.__new__(Volume)
    v.cipherdir, v.mnt, v.passfile = d.cipherdir, d.mnt, d.passfile
    v.proc, v.stderr_path, v.stderr_seen = None, os.path.join(d.top, "stderr"), 0
    v.wait_for_mount = lambda: Volume.wait_for_mount(v, timeout=60)
    d.vol = v
    try:
        v.mount("--ro")
    except AssertionError:
        if not may_fail:
            raise
        d.vol = None
        return None
    v.allowed_stderr = [r"."]  # the mount reports the damage it meets
    try:
        # the notes, named by the time of their run, are no entry compared
        return {k: x for k, x in read_all(v.mnt).items() if not is_note(k)}
    finally:
        v.umount()
        d.vol = None


def check_kept(before, got, where):
    """every file and symlink target readable before is still there: at
    its path, or in lost+found"""
    if before is None:
        return  # nothing was readable
    assert got is not None, "%s: the volume no longer mounts" % where
    kept = {v for k, v in got.items() if in_lf(k)}
    for k, v in before.items():
        if v[0] in ("file", "link") and got.get(k) != v:
            assert v in kept, "%s: %s (%s) is gone: %s" % (where, k, repr(v)[:60],
                                                            differs(got, before))


def walk_repair(d, pristine, after_rc):
    """fail the n-th change of --repair, n = 1, 2, ...: returns (steps, how
    many stopped the repair)"""
    before = damaged_tree(d, may_fail=True)
    w = Walker(d.top, d.cipherdir)
    argv = [FSCK, "--json", "--repair", "--passfile", d.passfile, w.cipherdir]
    r, _ = w.run(argv)
    assert r.returncode in (0, 1, 4), r.stderr
    want = damaged_tree(d)
    rc, rep, err = fsck_json(d)
    assert rc == after_rc, (rc, rep["findings"], err)
    stopped = 0
    for n in range(1, MAX_STEPS):
        restore(d, pristine)
        r, reached = w.run(argv, n)
        where = "repair, step %d (exit %d)" % (n, r.returncode)
        if not reached:
            assert r.returncode in (0, 1, 4), (where, r.stderr)
            got = damaged_tree(d)
            assert got == want, "%s: not as the first run: %s" % (where, differs(got, want))
            return n - 1, stopped
        stopped += r.returncode not in (0, 1)
        got = damaged_tree(d, may_fail=before is None)
        check_kept(before, got, where)
        # what is left undone is reported: never clean before the end
        rc, rep, err = fsck_json(d)
        if rc == 0 and not any(x["severity"] == "error" for x in rep["findings"]):
            assert same_outcome(got, want), "%s: fsck clean, but the repair is not done: %s" % (
                where, differs(got, want))
        # a second run, with no fault, finishes the job
        r2, _ = w.run(argv)
        assert r2.returncode in (0, 1, 4), (where, r2.stderr)
        rc, rep, err = fsck_json(d)
        assert rc == after_rc, (where, rc, rep["findings"], err)
        if after_rc == 0:
            assert all(x["severity"] != "error" for x in rep["findings"]), (where, rep)
        got = damaged_tree(d)
        assert same_outcome(got, want), "%s, rerun: %s" % (where, differs(got, want))
    raise AssertionError("repair: still failing after %d steps" % MAX_STEPS)


def damage_dirnonce(d):
    os.removexattr(d.c("docs"), "user.cloakfs.dir")
    os.unlink(os.path.join(d.c("docs"), ".cloakfs.dir"))


def damage_sidecar(d):
    side = d.c(LONG) + ".name"
    os.chmod(side, 0o600)
    write_file(side, os.path.basename(d.c("docs/report.txt")).encode())


def damage_wrong_form(d):
    enc = os.path.basename(d.c("docs/report.txt"))
    ln = os.path.join(d.c("docs"), long_name(enc))
    os.rename(d.c("docs/report.txt"), ln)
    write_file(ln + ".name", enc.encode())


def damage_symlink_moved(d):
    enc = os.path.basename(d.c("docs/link"))
    ln = os.path.join(d.c("docs"), long_name(enc))
    os.symlink(d.forge("symlink", d.t.cmap["docs"], "elsewhere"), ln)
    write_file(ln + ".name", enc.encode())


def damage_header(d):
    with open(d.c("docs/report.txt"), "r+b") as f:
        f.write(b"XXXX")


def damage_foreign(d):
    write_file(os.path.join(d.cipherdir, "notes.txt"), b"mine")
    os.mkdir(os.path.join(d.c("docs"), "cloakfs.tmp.00112233445566778899"))


def damage_dangling(d):
    link = link_of(d, "long2")
    os.unlink(os.path.join(d.cipherdir, STORE, references(d)[link]))


def damage_dirnonce_bad(d):
    os.removexattr(d.c("docs"), "user.cloakfs.dir")
    nonce = os.path.join(d.c("docs"), ".cloakfs.dir")
    os.chmod(nonce, 0o640)
    os.truncate(nonce, 15)


def damage_record(d):
    os.unlink(os.path.join(d.cipherdir, "cloakfs.volume"))


def damage_sidecar_missing(d):
    os.unlink(d.c(LONG) + ".name")


def damage_unexpected_type(d):
    side = d.c(LONG) + ".name"
    os.unlink(side)
    os.mkdir(side)


def damage_store_foreign(d):
    store = os.path.join(d.cipherdir, STORE)
    os.mkfifo(os.path.join(store, "planted"))
    os.mkdir(os.path.join(store, "Q" * 43))


@pytest.fixture(scope="module")
def v1_template():
    """a version-1 volume: a symlink there is under its directory's key,
    so --repair moving it makes it anew (copy, then remove)"""
    v = Volume("speck128-xts", tag="steps-v1", version=1)
    v.mount()
    try:
        os.mkdir(v.path("docs"))
        os.symlink("report.txt", v.path("docs", "link"))
        write_file(v.path("docs", "report.txt"), content(20, 3000))
        v.cmap = {}
        for p in ("docs", "docs/link"):
            ino = os.lstat(v.path(p)).st_ino
            v.cmap[p] = next(os.path.relpath(os.path.join(r, n), v.cipherdir)
                             for r, ds, fs in os.walk(v.cipherdir) for n in ds + fs
                             if os.lstat(os.path.join(r, n)).st_ino == ino)
        v.umount()
        yield v
    finally:
        v.destroy()


def damage_root_nonce(d):
    os.unlink(os.path.join(d.cipherdir, ".cloakfs.dir"))
    os.removexattr(d.cipherdir, "user.cloakfs.dir")


# the damage classes walked: each way --repair changes a volume in more than
# one step. Of the others test_fsck.py's check_repair exercises, the config
# classes, keyslot-unopened, key-id-mismatch, nonce-reuse, content-unreadable,
# xattr-damaged and special-file are reported, never repaired; sidecar-orphan,
# target-orphan and config-temp are one unlink of what nothing refers to;
# name-undecodable, name-invalid, name-duplicate, symlink-undecodable and the
# file header classes are the quarantine that header-magic walks
REPAIRS = {
    # a fresh nonce, then every entry moved: a file, a long name with its
    # sidecar, a hard link, a directory, a symlink re-encrypted
    "dirnonce-missing": ("template", damage_dirnonce, 0),
    # the root's: lost+found itself made in a directory being repaired
    "root-dirnonce-missing": ("template", damage_root_nonce, 0),
    # quarantined under the name the sidecar holds: a new sidecar there
    "sidecar-mismatch": ("template", damage_sidecar, 0),
    # renamed to the short form, the sidecar removed
    "name-wrong-form": ("template", damage_wrong_form, 0),
    # a symlink made anew in lost+found, then the old one removed
    "name-duplicate-symlink": ("template", damage_symlink_moved, 0),
    # a damaged file quarantined, the repair note written
    "header-magic": ("template", damage_header, 0),
    # entries cloakfs never writes, one a leftover directory
    "foreign-entry": ("template", damage_foreign, 0),
    # a symlink whose stored target is gone (the store, docs/format.md 7.4)
    "symlink-target-missing": ("store_template", damage_dangling, 0),
    # the same on a version-1 volume: the symlink re-encrypted for
    # lost+found, made there before the old one is removed
    "v1-name-duplicate-symlink": ("v1_template", damage_symlink_moved, 0),
    # the damaged nonce moved aside, then quarantined itself
    "dirnonce-bad": ("template", damage_dirnonce_bad, 0),
    # the record written anew (a temporary name, then a rename)
    "volume-record": ("template", damage_record, 0),
    # a long-named file whose name is gone, a directory at a sidecar's name
    "sidecar-missing": ("template", damage_sidecar_missing, 0),
    "unexpected-type": ("template", damage_unexpected_type, 0),
    # what the store never holds, quarantined out of it
    "target-foreign": ("store_template", damage_store_foreign, 0),
}


@pytest.mark.parametrize("name", sorted(REPAIRS))
def test_repair_every_step_failing(request, name):
    which, damage, after_rc = REPAIRS[name]
    d = Damaged(request.getfixturevalue(which))
    try:
        damage(d)
        pristine = os.path.join(d.top, "pristine")
        subprocess.run(["cp", "-a", d.cipherdir, pristine], check=True)
        steps, stopped = walk_repair(d, pristine, after_rc)
        assert steps >= 2, "%s: %d steps" % (name, steps)
        print("%s: %d steps walked, %d stopped the repair" % (name, steps, stopped))
    finally:
        d.destroy()
