# SPDX-License-Identifier: MIT
"""Wide-block names modes (docs/format.md 7.2): an aes256-xts volume with
hctr2 names and one with adiantum names run the namespace, long-name,
symlink and xattr tests of test_posix, test_namespace and test_xattr; two
names with a common 16- or 32-byte prefix share no ciphertext block there
(and share their first blocks under cts, as docs/security.md says); the
config records the mode; cloakfs-fsck finds such a volume clean and
reports an undecodable name, an over-padded name and an over-padded
symlink target as under cts."""
import base64
import json
import os
import subprocess

import pytest

import test_namespace
import test_posix
import test_xattr
from conftest import FSCK, Volume, fsck_clean, write_file

FORGE = os.environ.get("CLOAKFS_FSCK_FORGE", "")

CIPHER = "aes256-xts"
MODES = ["hctr2", "adiantum"]


@pytest.fixture(scope="module", params=MODES)
def names_mode(request):
    return request.param


@pytest.fixture(scope="module")
def cvol(names_mode):
    """the module's shared volume (test_posix's d fixture uses it)"""
    v = Volume(CIPHER, tag="names-" + names_mode, names=names_mode)
    v.mount()
    yield v
    v.destroy()


@pytest.fixture
def volume_factory(volume_factory, names_mode):
    """conftest's factory, every volume aes256-xts in this names mode"""
    def make(cipher=None, *args, **kw):
        kw.setdefault("names", names_mode)
        return volume_factory(CIPHER, *args, **kw)
    return make


def test_config_records_the_mode(cvol, names_mode):
    text = open(os.path.join(cvol.cipherdir, "cloakfs.conf")).read()
    assert 'names = "%s";' % names_mode in text
    assert 'features = [ "wide-names" ];' in text


# ---- the per-cipher tests of names, symlinks, xattrs, on this mode ----------

def test_names(d):
    test_posix.test_names(d)


def test_long_names_everywhere(d, cvol):
    test_posix.test_long_names_everywhere(d, cvol)


def test_symlinks(d):
    test_posix.test_symlinks(d)


def test_rename_symlink_across_dirs(d, cvol):
    test_posix.test_rename_symlink_across_dirs(d, cvol)


def test_readdir_many(d):
    test_posix.test_readdir_many(d)


def test_xattrs(d, cvol):
    test_posix.test_xattrs(d, cvol)


@test_xattr.needs_root
def test_every_namespace_and_longest_names(volume_factory):
    test_xattr.test_every_namespace_and_longest_names(volume_factory, CIPHER)


@pytest.mark.parametrize("cache", ["tiny-cache", "default-cache"])
def test_namespace_matches_reference(volume_factory, request, cache):
    test_namespace.test_namespace_matches_reference(volume_factory, request, cache)


# ---- no common ciphertext prefix --------------------------------------------

def blocks(enc):
    raw = base64.urlsafe_b64decode(enc + "=" * (-len(enc) % 4))
    return [raw[i:i + 16] for i in range(0, len(raw), 16)]


@pytest.mark.parametrize("common", [16, 32])
@pytest.mark.parametrize("mode", ["cts"] + MODES)
def test_common_prefix(mode, common):
    """two names of one directory, the same first `common` bytes: under
    cts (IV 0) their first common/16 ciphertext blocks are equal, under
    a wide-block mode no block is"""
    v = Volume(CIPHER, tag="prefix", names=mode)
    try:
        v.mount()
        common_prefix(v, mode, common)
    finally:
        v.destroy()


def common_prefix(v, mode, common):
    a = "p" * common + "a" * 20
    b = "p" * common + "b" * 20
    os.mkdir(v.path("dir"))
    write_file(v.path("dir", a), b"A")
    write_file(v.path("dir", b), b"B")
    sub = [n for n in os.listdir(v.cipherdir)
           if os.path.isdir(os.path.join(v.cipherdir, n)) and n != "cloakfs.targets"]
    assert len(sub) == 1
    encs = sorted(n for n in os.listdir(os.path.join(v.cipherdir, sub[0]))
                  if not n.startswith("."))
    assert len(encs) == 2 and all(len(e) == 86 for e in encs), encs  # 64 bytes
    x, y = blocks(encs[0]), blocks(encs[1])
    equal = [i for i in range(4) if x[i] == y[i]]
    if mode == "cts":
        assert equal == list(range(common // 16)), (mode, equal)
    else:
        assert equal == [], (mode, equal)
    assert sorted(os.listdir(v.path("dir"))) == sorted([a, b])


# ---- cloakfs-fsck -----------------------------------------------------------

def run_fsck(v):
    r = subprocess.run([FSCK, "--json", "--passfile", v.passfile, v.cipherdir],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return r.returncode, json.loads(r.stdout.decode())


@pytest.mark.skipif(not FSCK, reason="built without cloakfs-fsck")
def test_fsck_clean_and_damaged(volume_factory):
    v = volume_factory(tag="names-fsck")
    os.makedirs(v.path("docs", "sub"))
    write_file(v.path("docs", "report.txt"), b"report")
    write_file(v.path("docs", "L" * 200), b"long")
    os.symlink("report.txt", v.path("docs", "link"))
    os.symlink("/".join(["t" * 99] * 40), v.path("docs", "longlink"))  # the store
    os.setxattr(v.path("docs", "report.txt"), "user.note", b"x")
    os.setxattr(v.path("docs", "report.txt"), "user." + "n" * 200, b"y")
    v.umount()
    fsck_clean(v)
    docs = [n for n in os.listdir(v.cipherdir)
            if os.path.isdir(os.path.join(v.cipherdir, n)) and n != "cloakfs.targets"][0]
    cdocs = os.path.join(v.cipherdir, docs)
    files = sorted(n for n in os.listdir(cdocs) if len(n) == 43 and
                   os.path.isfile(os.path.join(cdocs, n)) and
                   not os.path.islink(os.path.join(cdocs, n)))
    assert len(files) == 1, files
    cfile = os.path.join(cdocs, files[0])
    # a name that is base64url of whole blocks but no name of this key
    expect_finding(v, cfile, os.path.join(cdocs, "A" * 42 + "B"), "name-undecodable")
    if not FORGE:
        return
    # "report.txt" in two blocks: a second spelling, under this mode's key
    enc = forge(v, "name", docs, b"report.txt".hex() + "00" * 40)
    expect_finding(v, cfile, os.path.join(cdocs, enc), "name-overpadded")
    # a version-2 target padded a block too far, in this mode
    links = [n for n in os.listdir(cdocs) if os.path.islink(os.path.join(cdocs, n))]
    link = [os.path.join(cdocs, n) for n in links
            if not os.readlink(os.path.join(cdocs, n)).startswith("cloakfs.")][0]
    good = os.readlink(link)
    bad = forge(v, "target", "-", b"report.txt".hex() + "00" * 40)
    os.unlink(link)
    os.symlink(bad, link)
    rc, rep = run_fsck(v)
    assert rc == 4 and errors(rep) == ["symlink-undecodable"], rep
    os.unlink(link)
    os.symlink(good, link)
    fsck_clean(v)


def forge(v, what, rel, hexdata):
    r = subprocess.run([FORGE, what, v.cipherdir, v.passfile, rel, hexdata],
                       stdout=subprocess.PIPE, check=True)
    return r.stdout.decode().strip()


def errors(rep):
    return [x["class"] for x in rep["findings"] if x["severity"] == "error"]


def expect_finding(v, good, bad, cls):
    """rename good to bad: fsck reports cls alone (exit 4); rename back:
    clean"""
    os.rename(good, bad)
    rc, rep = run_fsck(v)
    assert rc == 4 and errors(rep) == [cls], rep
    os.rename(bad, good)
    fsck_clean(v)
