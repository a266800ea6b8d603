# SPDX-License-Identifier: MIT
"""Sync tools' conflict copies in the ciphertext directory (docs/format.md
7.7): planted in an unmounted volume as Syncthing, Dropbox and Nextcloud
leave them, they must show through the mount under the decrypted name
with the tool's marker, each readable with its own content, removable and
renamable to a plain name; a conflict copy of a directory's nonce file
keeps the names made under it readable. cloakfs-fsck reports each as
sync-conflict (a warning: exit 0) and --repair moves none of them.
"""
import os
import shutil
import subprocess

import pytest

from conftest import FSCK, read_file, write_file

ST = ".sync-conflict-20261204-101010-ABCDEFG"
DROPBOX = " (laptop's conflicted copy 2026-12-04)"
NEXTCLOUD = " (conflicted copy 2026-12-04 101010)"
NONCE = ".cloakfs.dir"
LONG = "L" * 180 + ".txt"


def cname_of(v, plain):
    """the ciphertext entry of a plaintext path, by inode"""
    ino = os.stat(v.path(plain)).st_ino
    cdir = v.cipherdir
    parent = os.path.dirname(plain)
    if parent:
        cdir = cname_of(v, parent)
    for n in os.listdir(cdir):
        p = os.path.join(cdir, n)
        if os.lstat(p).st_ino == ino:
            return p
    raise AssertionError("no ciphertext entry for " + plain)


def copy_entry(src, dst):
    """a sync tool's copy of a ciphertext file: the same bytes"""
    shutil.copyfile(src, dst)
    os.chmod(dst, os.stat(src).st_mode)


def fsck(v, *args):
    r = subprocess.run([FSCK, "--passfile", v.passfile] + list(args) + [v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    return r.returncode, r.stdout


@pytest.fixture
def planted(volume_factory):
    """a volume with conflict copies planted while unmounted: returns the
    volume and {shown name: content} of what the mount must list"""
    v = volume_factory()
    os.mkdir(v.path("d"))
    os.mkdir(v.path("there"))
    write_file(v.path("d", "report.txt"), b"mine" * 1000)
    write_file(v.path("d", "notes"), b"notes here")
    write_file(v.path("d", LONG), b"long one")
    write_file(v.path("there", "theirs.txt"), b"made on the other machine")
    # the other versions, each a file of its own (its own header)
    srcs = {"src1": b"their notes", "src2": b"nextcloud notes",
            "src3": b"their long one"}
    for n, data in srcs.items():
        write_file(v.path("d", n), data)
    enc = {n: cname_of(v, "d/" + n) for n in ["report.txt", "notes", LONG] + list(srcs)}
    theirs = cname_of(v, "there/theirs.txt")
    cd = cname_of(v, "d")
    cthere = cname_of(v, "there")
    v.umount()
    # Syncthing: both versions of one file, so one header, one key
    copy_entry(enc["report.txt"], enc["report.txt"] + ST)
    os.rename(enc["src1"], enc["notes"] + DROPBOX)
    os.rename(enc["src2"], enc["notes"] + NEXTCLOUD)
    # a long name: Dropbox puts its marker before the name's last '.'
    lbase, lhash = os.path.basename(enc[LONG]).rsplit(".", 1)
    os.rename(enc["src3"], os.path.join(cd, lbase + DROPBOX + "." + lhash))
    # directory "d" made on two machines: the other's nonce file kept as a
    # conflict copy, and a name the other made under it
    shutil.copyfile(os.path.join(cthere, NONCE), os.path.join(cd, NONCE + ST))
    os.rename(theirs, os.path.join(cd, os.path.basename(theirs)))
    shutil.rmtree(cthere)  # "there" stood for the other machine only
    v.mount()
    shown = {
        "report.txt": b"mine" * 1000,
        "report.sync-conflict-20261204-101010-ABCDEFG.txt": b"mine" * 1000,
        "notes": b"notes here",
        "notes" + DROPBOX: b"their notes",
        "notes" + NEXTCLOUD: b"nextcloud notes",
        LONG: b"long one",
        LONG[:-4] + DROPBOX + ".txt": b"their long one",
        "theirs.txt": b"made on the other machine",
    }
    return v, shown


def test_listed_and_read(planted):
    """every copy listed under its marked name, each with its content"""
    v, shown = planted
    assert sorted(os.listdir(v.path("d"))) == sorted(shown)
    for name, data in shown.items():
        assert read_file(v.path("d", name)) == data, name
        assert os.stat(v.path("d", name)).st_size == len(data), name


def test_remove_and_rename(planted):
    """a copy is removed or renamed to a plain name by its marked name;
    the original stays"""
    v, shown = planted
    d = v.path("d")
    os.unlink(os.path.join(d, "report.sync-conflict-20261204-101010-ABCDEFG.txt"))
    os.rename(os.path.join(d, "notes" + DROPBOX), os.path.join(d, "notes-theirs"))
    os.rename(os.path.join(d, LONG[:-4] + DROPBOX + ".txt"), os.path.join(d, "long-theirs"))
    os.rename(os.path.join(d, "theirs.txt"), os.path.join(d, "theirs-mine.txt"))
    v.remount()
    want = dict(shown)
    del want["report.sync-conflict-20261204-101010-ABCDEFG.txt"]
    want["notes-theirs"] = want.pop("notes" + DROPBOX)
    want["long-theirs"] = want.pop(LONG[:-4] + DROPBOX + ".txt")
    want["theirs-mine.txt"] = want.pop("theirs.txt")
    assert sorted(os.listdir(d)) == sorted(want)
    for name, data in want.items():
        assert read_file(os.path.join(d, name)) == data, name
    # the long original still reads (its sidecar was the copy's too)
    assert read_file(os.path.join(d, LONG)) == b"long one"


def test_literal_name_wins(planted):
    """a real file whose name looks like a copy's: the name reaches it, and
    a new file of a marker-like name with no copy is an ordinary file"""
    v, shown = planted
    d = v.path("d")
    copy_name = "report.sync-conflict-20261204-101010-ABCDEFG.txt"
    os.rename(os.path.join(d, copy_name), os.path.join(d, "keep"))
    write_file(os.path.join(d, copy_name), b"a real file")
    assert read_file(os.path.join(d, copy_name)) == b"a real file"
    odd = "x.sync-conflict-20200101-000000-ZZZZZZZ.bin"
    write_file(os.path.join(d, odd), b"odd")
    v.remount()
    assert read_file(os.path.join(d, copy_name)) == b"a real file"
    assert read_file(os.path.join(d, "keep")) == shown[copy_name]
    assert read_file(os.path.join(d, odd)) == b"odd"


@pytest.mark.skipif(not FSCK, reason="built without cloakfs-fsck")
def test_fsck(planted):
    """sync-conflict warnings, exit 0, and --repair moves nothing"""
    v, shown = planted
    v.umount()
    before = sorted(os.listdir(os.path.dirname(cname_of_unmounted(v))))
    rc, out = fsck(v)
    assert rc == 0, out
    lines = [l for l in out.splitlines() if l.startswith("warning sync-conflict:")]
    assert "by class: sync-conflict 7\n" in out, out
    # three copies of short names, one of a long name, one nonce file,
    # one name made under it, one copy sharing its original's key
    assert len(lines) == 7, out
    assert "foreign-entry" not in out, out
    assert any("1 names are read under a copy" in l for l in lines), out
    rc, out = fsck(v, "--repair")
    assert rc == 0, out
    assert " 0 quarantined;" in out and "foreign-entry" not in out, out
    assert sorted(os.listdir(os.path.dirname(cname_of_unmounted(v)))) == before
    v.mount()
    assert sorted(os.listdir(v.path("d"))) == sorted(shown)


def cname_of_unmounted(v):
    """a path inside the ciphertext directory of "d" (the only directory)"""
    dirs = [n for n in os.listdir(v.cipherdir)
            if os.path.isdir(os.path.join(v.cipherdir, n))]
    assert len(dirs) == 1, dirs
    return os.path.join(v.cipherdir, dirs[0], NONCE)


def test_long_original_removed(planted):
    """the original of a long name's copy removed: its sidecar stays, so
    the copy still reads, and fsck --repair keeps it too"""
    v, shown = planted
    copy = LONG[:-4] + DROPBOX + ".txt"
    os.unlink(v.path("d", LONG))
    v.remount()
    assert read_file(v.path("d", copy)) == shown[copy]
    v.umount()
    if FSCK:
        rc, out = fsck(v, "--repair")
        assert rc == 0 and "sidecar-orphan" not in out, out
    v.mount()
    assert read_file(v.path("d", copy)) == shown[copy]


def test_literal_and_copy_listed_alike(volume_factory):
    """a real file named as a copy lists: both are listed, the name reaches
    the real file, and once it is renamed the name reaches the copy"""
    v = volume_factory()
    real = "notes" + ST
    write_file(v.path("notes"), b"original")
    write_file(v.path(real), b"a real file")
    enc = cname_of(v, "notes")
    v.umount()
    copy_entry(enc, enc + ST)
    v.mount()
    assert sorted(os.listdir(v.mnt)) == sorted(["notes", real, real])
    assert read_file(v.path(real)) == b"a real file"
    os.rename(v.path(real), v.path("renamed"))
    v.remount()
    assert read_file(v.path(real)) == b"original"
    assert read_file(v.path("renamed")) == b"a real file"
