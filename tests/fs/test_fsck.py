# SPDX-License-Identifier: MIT
"""cloakfs-fsck: a volume is written through a real mount, unmounted, and
damaged from the ciphertext side, one damage class per test; fsck must
report the class with the right exit status, --repair must fix or
quarantine it (nothing lost: quarantined data is read back through a
mount), and a second check must be clean. Plus a clean volume with
thousands of entries, the mounted-volume rules, usage and key errors,
a keytool-made volume and the key from cloakfsd."""
import hashlib
import base64
import errno
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import time

import pytest

from conftest import (CIPHERS, CONTENT_CIPHERS, CLOAKFSD, KEYTOOL, PASSPHRASE, Volume,
                      fusermount_u, preload_env, read_file, run_on_pty,
                      scratch_base, scratch_for_all, write_file)

FSCK = os.environ.get("CLOAKFS_FSCK", "")
FORGE = os.environ.get("CLOAKFS_FSCK_FORGE", "")
LF = "lost+found.cloakfs"

pytestmark = pytest.mark.skipif(not FSCK or not FORGE, reason="built without cloakfs-fsck")

DATA = {
    "docs/report.txt": os.urandom(5000),
    "docs/tiny": b"abc",
    "docs/" + "L" * 200: os.urandom(3000),
    "docs/sub/deep.bin": os.urandom(20000),
    "hard1": os.urandom(700),
    "empty": b"",
}
LONG = "docs/" + "L" * 200


def run_fsck(cipherdir, *args, passfile=None, env=None, json_out=True):
    cmd = [FSCK] + (["--passfile", passfile] if passfile else []) + \
          (["--json"] if json_out else []) + list(args) + [cipherdir]
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, timeout=120)
    out = r.stdout.decode(errors="replace")
    if json_out:
        try:
            return r.returncode, json.loads(out), r.stderr.decode(errors="replace")
        except ValueError:
            raise AssertionError("not JSON (exit %d):\n%s\n%s" % (r.returncode, out, r.stderr.decode()))
    return r.returncode, out, r.stderr.decode(errors="replace")


def classes(report):
    return [x["class"] for x in report["findings"]]


class Damaged:
    """a copy of the template volume, damaged by a test"""

    def __init__(self, template, base=None):
        self.t = template
        self.top = tempfile.mkdtemp(prefix="cloakfs-fsck-", dir=base or scratch_base())
        self.cipherdir = os.path.join(self.top, "cipher")
        self.mnt = os.path.join(self.top, "mnt")
        os.mkdir(self.mnt)
        # cp -a keeps hard links (a plain copy would make nonce reuse)
        subprocess.run(["cp", "-a", template.cipherdir, self.cipherdir], check=True)
        self.passfile = template.passfile
        self.proc = None

    def c(self, plain):
        """ciphertext path of a plaintext path"""
        return os.path.join(self.cipherdir, self.t.cmap[plain])

    def fsck(self, *args, **kw):
        return run_fsck(self.cipherdir, *args, passfile=self.passfile, **kw)

    def forge(self, *args):
        r = subprocess.run([FORGE, args[0], self.cipherdir, self.passfile] + list(args[1:]),
                           stdout=subprocess.PIPE, check=True)
        return r.stdout.decode().strip()

    def mount(self, env=None):
        v = Volume.__new__(Volume)
        v.cipherdir, v.mnt, v.passfile = self.cipherdir, self.mnt, self.passfile
        v.proc, v.stderr_path, v.stderr_seen = None, os.path.join(self.top, "stderr"), 0
        # quarantined damage is still damage: the mount may say so
        v.allowed_stderr = [r"undecodable", r"damaged", r"is missing", r"does not decode"]
        # a loaded CI machine can take long to start a mount
        v.wait_for_mount = lambda: Volume.wait_for_mount(v, timeout=60)
        v.mount(env=env)
        self.vol = v
        return v

    def destroy(self):
        try:
            if getattr(self, "vol", None) and self.vol.proc:
                self.vol.umount()
        finally:
            if os.path.ismount(self.mnt):
                fusermount_u(self.mnt, lazy=True)
            shutil.rmtree(self.top, ignore_errors=True)


@pytest.fixture(scope="module")
def template():
    v = Volume("speck128-xts", tag="fsck")
    v.mount()
    try:
        for p, data in DATA.items():
            os.makedirs(os.path.dirname(v.path(p)) or v.mnt, exist_ok=True)
            write_file(v.path(p), data)
        os.link(v.path("hard1"), v.path("docs", "hard2"))
        os.symlink("report.txt", v.path("docs", "link"))
        os.mkfifo(v.path("fifo"))
        # plaintext path -> ciphertext path, by inode
        by_ino = {}
        for root, dirs, files in os.walk(v.cipherdir):
            for n in dirs + files:
                c = os.path.join(root, n)
                by_ino.setdefault(os.lstat(c).st_ino, []).append(os.path.relpath(c, v.cipherdir))
        v.cmap = {"": ""}
        paths = list(DATA) + ["docs", "docs/sub", "docs/link", "docs/hard2", "fifo"]
        for p in sorted(paths, key=lambda p: p.count("/")):
            cands = [c for c in by_ino[os.lstat(v.path(p)).st_ino]
                     if os.path.dirname(c) == v.cmap[os.path.dirname(p)]]
            v.cmap[p] = cands[0]
        v.umount()
        yield v
    finally:
        v.destroy()


def damaged_copy(template):
    d = Damaged(template)
    yield d
    d.destroy()


@pytest.fixture
def dmg(template):
    yield from damaged_copy(template)


def b64(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def long_name(enc):
    return "cloakfs.long." + b64(hashlib.sha512(enc.encode()).digest()[:32])


def poke(path, off, data):
    """write data at off; it must change the file (damage that is no
    damage would make the test pass or fail by luck)"""
    with open(path, "r+b") as f:
        f.seek(off)
        assert f.read(len(data)) != data, "%s: poke at %d changes nothing" % (path, off)
        f.seek(off)
        f.write(data)


def flip(path, off):
    """invert every bit of the byte at off (a change whatever it was)"""
    with open(path, "r+b") as f:
        f.seek(off)
        old = f.read(1)
        f.seek(off)
        f.write(bytes([old[0] ^ 0xFF]))


def lf_contents(d):
    """{name: bytes or 'dir' or 'link'} of lost+found through a mount;
    the repair notes (fsck-repair-*.txt) go to d.notes, joined"""
    v = d.mount()
    out = {}
    top = v.path(LF)
    for n in os.listdir(top):
        p = os.path.join(top, n)
        if os.path.islink(p):
            try:
                out[n] = "link:" + os.readlink(p)
            except OSError:
                out[n] = "link:EIO"  # a target that does not decode
        elif os.path.isdir(p):
            out[n] = "dir"
        elif not os.path.isfile(p):
            out[n] = "special"
        else:
            try:
                out[n] = read_file(p)
            except OSError:
                out[n] = "EIO"
    notes = sorted(n for n in out if n.startswith("fsck-repair-"))
    d.notes = b"".join(out.pop(n) for n in notes).decode(errors="replace")
    return out


def check_repair(d, cls, *, check_rc=4, repair_rc=1, after_rc=0, extra=()):
    rc, rep, err = d.fsck(*extra)
    assert cls in classes(rep), rep
    assert rc == check_rc, (rc, rep, err)
    assert rep["summary"]["classes"][cls] >= 1
    rc, rep, err = d.fsck("--repair", *extra)
    assert cls in classes(rep), rep
    assert rc == repair_rc, (rc, rep, err)
    assert "repair note" not in err, err  # every repair is written down
    rc, rep2, err = d.fsck(*extra)
    assert rc == after_rc, (rc, rep2, err)
    if after_rc == 0:
        assert all(x["severity"] != "error" for x in rep2["findings"]), rep2
    return rep


# ---- the config -----------------------------------------------------------

def edit_config(d, fn):
    p = os.path.join(d.cipherdir, "cloakfs.conf")
    text = open(p).read()
    os.chmod(p, 0o600)
    with open(p, "w") as f:
        f.write(fn(text))


@pytest.mark.parametrize("cls,edit", [
    ("config-syntax", lambda t: re.sub(r"\nversion = \d;", "\nversion = ;", t)),
    ("config-version", lambda t: re.sub(r"\nversion = \d;", "\nversion = 3;", t)),
    ("config-feature", lambda t: t.replace("features = [ ];", 'features = [ "compress" ];')),
    ("config-field", lambda t: t.replace("sector_size = 4096;", "sector_size = 4000;")),
])
def test_config(dmg, cls, edit):
    edit_config(dmg, edit)
    rep = check_repair(dmg, cls, check_rc=4, repair_rc=4, after_rc=4)
    assert rep["findings"][0]["ciphertext"] == "cloakfs.conf"


def test_keyslot_unopened(dmg):
    # a second slot: slot 0 with one character of its sealed key changed
    def add_slot(t):
        m = re.search(r"keyslots = \(\s*(\{.*?\})\s*\);", t, re.S)
        slot = m.group(1)
        sealed = re.search(r'sealed = "(.)', slot)
        other = "B" if sealed.group(1) != "B" else "C"
        bad = slot[:sealed.start(1)] + other + slot[sealed.start(1) + 1:]
        return t[:m.end(1)] + ",\n  " + bad + t[m.end(1):]
    edit_config(dmg, add_slot)
    rep = check_repair(dmg, "keyslot-unopened", check_rc=0, repair_rc=0, after_rc=0)
    [f] = [x for x in rep["findings"] if x["class"] == "keyslot-unopened"]
    assert "keyslot 1" in f["detail"] and "keyslot 0 does" in f["detail"]
    assert f["severity"] == "warning"


def test_keyslot_gap(dmg):
    # slot 0 free (removed), the passphrase's slot is slot 1: fsck tries
    # every used slot by its number, not the first N
    edit_config(dmg, lambda t: t.replace("keyslots = (\n", "keyslots = (\n  { },\n", 1))
    rc, rep, err = dmg.fsck()
    assert rc == 0, err
    assert rep["findings"] == [], rep


def test_external_config(dmg, tmp_path):
    # the config kept outside the cipherdir (--config), as the mount takes it
    conf = str(tmp_path / "ext.conf")
    shutil.move(os.path.join(dmg.cipherdir, "cloakfs.conf"), conf)
    rc, rep, err = dmg.fsck()
    assert rc == 8 and "not a cloakfs volume" in err
    rc, rep, err = dmg.fsck("--config", str(tmp_path / "missing.conf"))
    assert rc == 8 and "missing.conf: no such file" in err
    rc, rep, err = dmg.fsck("--config", conf)
    assert rc == 0, err
    assert rep["findings"] == [] and rep["summary"]["files"] > 0, rep


def test_key_id_mismatch(dmg):
    dmg.forge("keyid")
    # the volume record would call it another volume's config (below):
    # without one, as in a volume made before records, the key id tells
    os.unlink(os.path.join(dmg.cipherdir, "cloakfs.volume"))
    check_repair(dmg, "key-id-mismatch", check_rc=4, repair_rc=4, after_rc=4)


def test_config_of_another_volume(dmg):
    other = Volume("speck128-xts", tag="other")
    try:
        # replaced, not written through: the config is read-only (0400)
        os.unlink(os.path.join(dmg.cipherdir, "cloakfs.conf"))
        shutil.copy(os.path.join(other.cipherdir, "cloakfs.conf"),
                    os.path.join(dmg.cipherdir, "cloakfs.conf"))
    finally:
        other.destroy()
    rep = check_repair(dmg, "config-other-volume", check_rc=4, repair_rc=4, after_rc=4)
    [f] = rep["findings"]
    assert "belongs to another volume" in f["detail"], f
    assert rep["summary"]["directories"] == 0  # nothing judged with that key


def test_edited_config_named(dmg):
    conf = open(os.path.join(dmg.cipherdir, "cloakfs.conf")).read()
    cipher = re.search(r'cipher = "([^"]+)";', conf).group(1)
    other = "sm4-xts" if cipher != "sm4-xts" else "aes256-xts"
    edit_config(dmg, lambda t: t.replace('cipher = "%s";' % cipher, 'cipher = "%s";' % other))
    rc, rep, err = dmg.fsck()
    assert rc != 0
    assert ('edited: cipher is "%s" in the config, "%s" in cloakfs.volume' % (other, cipher)
            in err), err
    assert "wrong passphrase" not in err


def test_volume_record_missing(dmg):
    rec = os.path.join(dmg.cipherdir, "cloakfs.volume")
    os.unlink(rec)  # a volume made before records existed
    rep = check_repair(dmg, "volume-record", check_rc=0, repair_rc=0, after_rc=0)
    assert os.path.exists(rec)
    rc, rep, err = dmg.fsck()
    assert rep["findings"] == [], rep
    # repaired before the walk has the root's name key: noted all the same
    assert lf_contents(dmg) == {}
    assert "volume-record" in dmg.notes, dmg.notes


# ---- directories and names ------------------------------------------------

@pytest.mark.parametrize("how", ["missing", "bad"])
def test_dirnonce(dmg, how):
    """the nonce and its copy lost (test_hostile.py: one of them lost)"""
    nonce = os.path.join(dmg.c("docs"), ".cloakfs.dir")
    os.removexattr(dmg.c("docs"), "user.cloakfs.dir")
    if how == "missing":
        os.unlink(nonce)
    else:
        os.chmod(nonce, 0o640)  # (0440: only root writes it as it is)
        os.truncate(nonce, 15)
    rep = check_repair(dmg, "dirnonce-" + how)
    assert "name-undecodable" in classes(rep)
    got = lf_contents(dmg)
    # every file, the subdirectory and the long-named file are in lost+found
    values = list(got.values())
    assert DATA["docs/report.txt"] in values and DATA[LONG] in values
    assert DATA["docs/tiny"] in values
    assert values.count("dir") == 1
    sub = [n for n, x in got.items() if x == "dir"][0]
    assert read_file(dmg.vol.path(LF, sub, "deep.bin")) == DATA["docs/sub/deep.bin"]
    assert os.listdir(dmg.vol.path("docs")) == []


def test_root_dirnonce_missing(dmg):
    os.unlink(os.path.join(dmg.cipherdir, ".cloakfs.dir"))
    os.removexattr(dmg.cipherdir, "user.cloakfs.dir")
    check_repair(dmg, "dirnonce-missing")
    got = lf_contents(dmg)
    assert DATA["hard1"] in got.values() and "dir" in got.values()
    assert sorted(os.listdir(dmg.vol.mnt)) == [LF]


def test_name_undecodable(dmg):
    # base64url of the right length, not canonical: decodes to nothing
    os.rename(dmg.c("docs/report.txt"), os.path.join(dmg.c("docs"), "A" * 42 + "B"))
    rep = check_repair(dmg, "name-undecodable")
    f = [x for x in rep["findings"] if x["class"] == "name-undecodable"][0]
    assert f["path"] is None and f["ciphertext"].endswith("A" * 42 + "B")
    assert lf_contents(dmg) == {"name-undecodable-1": DATA["docs/report.txt"]}


@pytest.mark.parametrize("plain", [b"..", b".", b"a/b", b"a\0b"])
def test_name_invalid(dmg, plain):
    enc = dmg.forge("name", dmg.t.cmap["docs"], plain.hex())
    os.rename(dmg.c("docs/report.txt"), os.path.join(dmg.c("docs"), enc))
    check_repair(dmg, "name-invalid")
    assert lf_contents(dmg) == {"name-invalid-1": DATA["docs/report.txt"]}


def test_name_duplicate(dmg):
    # the long form of report.txt's name, as a hard link of tiny
    enc = os.path.basename(dmg.c("docs/report.txt"))
    ln = os.path.join(dmg.c("docs"), long_name(enc))
    os.link(dmg.c("docs/tiny"), ln)
    write_file(ln + ".name", enc.encode())
    rep = check_repair(dmg, "name-duplicate")
    f = [x for x in rep["findings"] if x["class"] == "name-duplicate"][0]
    assert f["path"] == "/docs/report.txt"
    assert lf_contents(dmg) == {"report.txt": DATA["docs/tiny"]}
    assert read_file(dmg.vol.path("docs/report.txt")) == DATA["docs/report.txt"]


def test_name_wrong_form(dmg):
    enc = os.path.basename(dmg.c("docs/report.txt"))
    ln = os.path.join(dmg.c("docs"), long_name(enc))
    os.rename(dmg.c("docs/report.txt"), ln)
    write_file(ln + ".name", enc.encode())
    check_repair(dmg, "name-wrong-form")
    v = dmg.mount()
    assert read_file(v.path("docs/report.txt")) == DATA["docs/report.txt"]
    assert not os.path.exists(ln + ".name")


def test_sidecar_missing(dmg):
    os.unlink(dmg.c(LONG) + ".name")
    check_repair(dmg, "sidecar-missing")
    assert lf_contents(dmg) == {"sidecar-missing-1": DATA[LONG]}


def test_sidecar_orphan(dmg):
    side = os.path.join(dmg.c("docs"), "cloakfs.long." + "Q" * 43 + ".name")
    write_file(side, b"whatever")
    check_repair(dmg, "sidecar-orphan")
    assert not os.path.exists(side)
    assert os.path.exists(dmg.c(LONG) + ".name")  # the good one stays


def test_sidecar_mismatch(dmg):
    side = dmg.c(LONG) + ".name"
    os.chmod(side, 0o600)
    # another name's encoding: does not hash to the file's name
    write_file(side, os.path.basename(dmg.c("docs/report.txt")).encode())
    rep = check_repair(dmg, "sidecar-mismatch")
    f = [x for x in rep["findings"] if x["class"] == "sidecar-mismatch"][0]
    assert "report.txt" in f["detail"]
    # quarantined under the name the damaged sidecar still holds
    assert lf_contents(dmg) == {"report.txt": DATA[LONG]}


def test_unexpected_type(dmg):
    side = dmg.c(LONG) + ".name"
    os.unlink(side)
    os.mkdir(side)
    rep = check_repair(dmg, "unexpected-type")
    assert "sidecar-mismatch" in classes(rep)
    got = lf_contents(dmg)
    assert DATA[LONG] in got.values() and "dir" in got.values()


def test_foreign_and_temp_entries(dmg):
    write_file(os.path.join(dmg.cipherdir, "notes.txt"), b"mine")
    os.mkdir(os.path.join(dmg.c("docs"), "cloakfs.tmp.00112233445566778899"))
    rep = check_repair(dmg, "foreign-entry")
    assert "temp-entry" in classes(rep)
    got = lf_contents(dmg)
    assert set(got) == {"foreign-entry-1", "temp-entry-1"}


def test_config_temp(dmg):
    tmp = os.path.join(dmg.cipherdir, "cloakfs.conf.tmp.Ab12Cd")
    shutil.copy(os.path.join(dmg.cipherdir, "cloakfs.conf"), tmp)
    check_repair(dmg, "config-temp", check_rc=0, repair_rc=0, after_rc=0)
    assert not os.path.exists(tmp)


# ---- regular files --------------------------------------------------------

@pytest.mark.parametrize("cls,damage", [
    ("header-truncated", lambda p: os.truncate(p, 20)),
    ("content-truncated", lambda p: os.truncate(p, 40)),
    ("header-magic", lambda p: poke(p, 0, b"XXXX")),
    ("header-version", lambda p: poke(p, 4, b"\x02\x00")),
    ("header-damaged", lambda p: poke(p, 12, b"\x01")),
    ("nonce-zero", lambda p: poke(p, 16, bytes(16))),
])
def test_file_header(dmg, cls, damage):
    damage(dmg.c("docs/report.txt"))
    rep = check_repair(dmg, cls)
    f = [x for x in rep["findings"] if x["class"] == cls][0]
    assert f["path"] == "/docs/report.txt" and f["repair"] == "quarantined"
    got = lf_contents(dmg)
    assert list(got) == ["report.txt"]
    assert not os.path.exists(dmg.vol.path("docs/report.txt"))


def test_nonce_reuse(dmg):
    # two files, one key: reported, never "repaired" by guessing
    with open(dmg.c("docs/report.txt"), "rb") as f:
        hdr = f.read(32)
    poke(dmg.c("docs/sub/deep.bin"), 0, hdr)
    rep = check_repair(dmg, "nonce-reuse", check_rc=4, repair_rc=4, after_rc=4)
    [f] = [x for x in rep["findings"] if x["class"] == "nonce-reuse"]
    assert {f["path"], f["detail"].split(" with ")[1].split(" ")[0]} == \
        {"/docs/report.txt", "/docs/sub/deep.bin"}


def test_hard_links_share_a_nonce(dmg):
    rc, rep, _ = dmg.fsck()
    assert rc == 0 and rep["findings"] == [], rep


def test_deep(dmg):
    # a tiny file's padding no longer decrypts to zeros: only --deep sees it
    flip(dmg.c("docs/tiny"), 40)
    rc, rep, _ = dmg.fsck()
    assert rc == 0, rep
    check_repair(dmg, "content-unreadable", check_rc=4, repair_rc=4, after_rc=4,
                 extra=("--deep",))


def set_xattrs_clean(dmg, on_file, on_dir):
    """set the attributes (name: value) on docs/report.txt and docs
    through a mount; fsck then finds nothing"""
    v = dmg.mount()
    for rel, attrs in (("docs/report.txt", on_file), ("docs", on_dir)):
        for name, value in attrs.items():
            os.setxattr(v.path(rel), name, value)
    v.umount()
    dmg.vol = None
    rc, rep, err = dmg.fsck()
    assert rc == 0 and rep["findings"] == [], (rc, rep, err)


def test_xattr_damaged(dmg):
    """values and names of extended attributes, checked through
    volume/names/xattr.h: clean before, one damaged value found after"""
    set_xattrs_clean(dmg, {"user.note": b"v" * 40, "user.tag": b"t"}, {"user.dir": b"kept"})
    f = dmg.c("docs/report.txt")
    stored = [n for n in os.listxattr(f) if n.startswith("user.")]
    assert len(stored) == 2, stored
    # the first byte after the 16-byte nonce: the block holding the
    # length (XTS authenticates nothing; a value is judged by its length
    # and padding, docs/fsck.md)
    sealed = bytearray(os.getxattr(f, stored[0]))
    sealed[16] ^= 0xFF
    os.setxattr(f, stored[0], bytes(sealed))
    # a name this volume did not write: hidden by the mount, a warning
    os.setxattr(dmg.c("docs"), "user.foreign", b"x")
    rep = check_repair(dmg, "xattr-damaged", check_rc=4, repair_rc=4, after_rc=4)
    [x] = [x for x in rep["findings"] if x["class"] == "xattr-damaged"]
    assert x["path"] == "/docs/report.txt", x
    assert "user.note" in x["detail"] or "user.tag" in x["detail"], x
    assert [y["severity"] for y in rep["findings"] if y["class"] == "xattr-foreign"] == ["warning"]
    assert sorted(classes(rep)) == ["xattr-damaged", "xattr-foreign"], rep


def test_xattr_long_form(dmg):
    """the long form (docs/format.md 7.5): a long user.* name and a
    trusted.* one are clean; a value copied onto another long name, and
    a name whose value lost its encrypted name, are damage"""
    if os.geteuid() != 0:
        pytest.skip("trusted.* takes CAP_SYS_ADMIN")
    set_xattrs_clean(dmg, {"user." + "l" * 200: b"long", "trusted.t": b"root only"},
                     {"security.s": b"label"})
    f = dmg.c("docs/report.txt")
    stored = sorted(n for n in os.listxattr(f) if n.startswith("user.cloakfs.long."))
    assert len(stored) == 2, os.listxattr(f)
    a, b = (bytes(os.getxattr(f, n)) for n in stored)
    os.setxattr(f, stored[0], b)      # b's name under a's hash
    os.setxattr(f, stored[1], b[b.index(b"\0") + 1:])  # its name cut off
    rep = check_repair(dmg, "xattr-damaged", check_rc=4, repair_rc=4, after_rc=4)
    found = [x for x in rep["findings"] if x["class"] == "xattr-damaged"]
    assert sorted(x["path"] for x in found) == ["/docs/report.txt"] * 2, found
    assert all("user.cloakfs.long." in x["detail"] for x in found), found
    assert set(classes(rep)) == {"xattr-damaged"}, rep


def test_symlink_undecodable(dmg):
    link = dmg.c("docs/link")
    os.unlink(link)
    os.symlink("not-an-encrypted-target!", link)
    check_repair(dmg, "symlink-undecodable")
    assert lf_contents(dmg) == {"link": "link:EIO"}
    # the target moved as it was, out of docs
    links = [os.path.join(r, n) for r, ds, fs in os.walk(dmg.cipherdir) for n in fs + ds
             if os.path.islink(os.path.join(r, n))]
    targets = [os.readlink(l) for l in links]
    assert os.path.dirname(links[0]) != dmg.c("docs")
    assert targets == ["not-an-encrypted-target!"]


def test_symlink_moved_keeps_target(dmg):
    # a decodable symlink quarantined for its name gets its target
    # re-encrypted for lost+found
    enc = os.path.basename(dmg.c("docs/link"))
    ln = os.path.join(dmg.c("docs"), long_name(enc))
    os.symlink(dmg.forge("symlink", dmg.t.cmap["docs"], "elsewhere"), ln)
    write_file(ln + ".name", enc.encode())
    check_repair(dmg, "name-duplicate")
    assert lf_contents(dmg) == {"link": "link:elsewhere"}


# ---- the symlink target store (docs/format.md 7.4) -------------------------

STORE = "cloakfs.targets"
LONG_TARGETS = {"docs/long": "L/" * 2000, "long2": "M" * 3500}


@pytest.fixture(scope="module")
def store_template():
    """a volume with two symlinks whose targets sit in the store (one
    hard-linked into another directory) and one whose target does not"""
    v = Volume("speck128-xts", tag="fsck-store")
    v.mount()
    try:
        os.mkdir(v.path("docs"))
        for p, target in LONG_TARGETS.items():
            os.symlink(target, v.path(p))
        os.link(v.path("docs", "long"), v.path("hard"), follow_symlinks=False)
        os.symlink("short", v.path("docs", "short"))
        v.umount()
        yield v
    finally:
        v.destroy()


@pytest.fixture
def sdmg(store_template):
    yield from damaged_copy(store_template)


def references(d):
    """{ciphertext path of a symlink: the stored target it refers to}"""
    out = {}
    for root, dirs, files in os.walk(d.cipherdir):
        for n in dirs + files:
            p = os.path.join(root, n)
            if os.path.islink(p) and os.readlink(p).startswith("cloakfs.target."):
                out[p] = os.readlink(p)[len("cloakfs.target."):]
    return out


def stored(d):
    return sorted(os.listdir(os.path.join(d.cipherdir, STORE)))


def link_of(d, plain):
    """the ciphertext symlink of long2 (one link) or docs/long (two)"""
    nlink = {"long2": 1, "docs/long": 2}[plain]
    links = [p for p in references(d) if os.lstat(p).st_nlink == nlink]
    assert len(links) == nlink, links
    return links[0]


def test_target_store_clean(sdmg):
    rc, rep, err = sdmg.fsck()
    assert rc == 0 and rep["findings"] == [], (rep, err)
    assert len(stored(sdmg)) == 2 and len(references(sdmg)) == 3


@pytest.mark.parametrize("how", ["crash", "unlink-race"])
def test_target_orphan(sdmg, how):
    if how == "crash":
        # the mount killed between writing a long target into the store
        # and making the symlink that refers to it
        if not os.environ.get("CLOAKFS_EIO_PRELOAD"):
            pytest.skip("no fault-injecting preload")
        ctl = os.path.join(sdmg.top, "faults")
        v = sdmg.mount(env=preload_env(os.environ["CLOAKFS_EIO_PRELOAD"],
                                       CLOAKFS_EIO_CTL=ctl))
        before = stored(sdmg)
        write_file(ctl, b"crash:symlinkat\n")
        with pytest.raises(OSError):
            os.symlink("C" * 3500, v.path("crashed"))
        assert v.proc.wait(timeout=60) == -signal.SIGKILL
        v.proc = None
        fusermount_u(v.mnt, lazy=True)
        orphans = sorted(set(stored(sdmg)) - set(before))
        assert len(orphans) == 1, (before, stored(sdmg))
        orphan = orphans[0]
    else:
        # what an unlink that lost a race to a link(2) leaves: the last
        # name gone, the stored target kept
        link = link_of(sdmg, "long2")
        orphan = references(sdmg)[link]
        os.unlink(link)
    rep = check_repair(sdmg, "target-orphan", check_rc=0, repair_rc=0, after_rc=0)
    assert classes(rep) == ["target-orphan"], rep  # and nothing else left
    f = rep["findings"]
    assert f[0]["severity"] == "warning", rep
    assert f[0]["ciphertext"] == STORE + "/" + orphan and f[0]["repair"] == "removed", f
    assert stored(sdmg) == sorted(set(references(sdmg).values()))
    assert orphan not in stored(sdmg)
    rc, rep, err = sdmg.fsck()
    assert rc == 0 and rep["findings"] == [], rep
    # the other symlinks read as before
    v = sdmg.mount()
    assert os.readlink(v.path("docs", "long")) == os.readlink(v.path("hard")) == \
        LONG_TARGETS["docs/long"]
    assert os.path.lexists(v.path("long2")) == (how == "crash")
    assert not os.path.lexists(v.path("crashed"))


def test_dangling_reference(sdmg):
    link = link_of(sdmg, "long2")
    os.unlink(os.path.join(sdmg.cipherdir, STORE, references(sdmg)[link]))
    rep = check_repair(sdmg, "symlink-target-missing")
    f = [x for x in rep["findings"] if x["class"] == "symlink-target-missing"]
    assert len(f) == 1 and f[0]["path"] == "/long2", rep
    assert "is not there" in f[0]["detail"]
    assert lf_contents(sdmg) == {"long2": "link:EIO"}
    assert os.readlink(sdmg.vol.path("docs", "long")) == LONG_TARGETS["docs/long"]


def test_damaged_reference_keeps_the_orphan(sdmg):
    # one character of a reference changed: its symlink refers to nothing,
    # and its stored target, which no symlink names now, may be the one it
    # meant: repair moves the symlink and keeps the stored target
    link = link_of(sdmg, "long2")
    old = references(sdmg)[link]
    new = ("A" if old[0] != "A" else "B") + old[1:]
    os.unlink(link)
    os.symlink("cloakfs.target." + new, link)
    rc, rep, err = sdmg.fsck("--repair")
    assert rc == 1, (rep, err)
    assert sorted(classes(rep)) == ["symlink-target-missing", "target-orphan"], rep
    f = [x for x in rep["findings"] if x["class"] == "target-orphan"][0]
    assert f["repair"] is None and "not removed" in f["detail"], f
    assert old in stored(sdmg)


@pytest.mark.parametrize("where", ["referenced", "unreferenced", "store"])
def test_fifo_in_the_store_does_not_hang(sdmg, where):
    store = os.path.join(sdmg.cipherdir, STORE)
    link = link_of(sdmg, "long2")
    if where == "referenced":  # a symlink's stored target replaced by a FIFO
        fifo = os.path.join(store, references(sdmg)[link])
        os.unlink(fifo)
    elif where == "unreferenced":  # a FIFO and a directory planted in the store
        fifo = os.path.join(store, "planted")
        os.mkdir(os.path.join(store, "Q" * 43))
    else:  # the store itself
        fifo = store
        shutil.rmtree(store)
    os.mkfifo(fifo)
    # a hang would be a timeout of run_fsck, never an answer
    rc, rep, err = sdmg.fsck()
    assert rc == 4, (rep, err)
    foreign = [x for x in rep["findings"] if x["class"] == "target-foreign"]
    assert foreign and all(x["path"] is None for x in foreign), rep
    assert any("a FIFO" in x["detail"] for x in foreign), foreign
    damaged = [x for x in rep["findings"] if x["class"] == "symlink-target-damaged"]
    if where == "unreferenced":
        assert len(foreign) == 2 and not damaged, rep
    else:  # both long symlinks refer into the store; one name each
        want = 1 if where == "referenced" else 3
        assert len(damaged) == want and all("FIFO" in x["detail"] for x in damaged), rep
    check_repair(sdmg, "target-foreign")
    got = lf_contents(sdmg)
    assert "target-foreign-1" in got and got["target-foreign-1"] in ("special", "dir"), got


def test_every_class_is_documented():
    """each class fsck-report.c names is in docs/fsck.md's table and in
    the man page"""
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    src = open(os.path.join(top, "tools", "fsck-report.c")).read()
    names = re.findall(r'\] = \{ "([a-z-]+)", FSCK_', src)
    assert "target-orphan" in names and len(names) > 30, names
    md = open(os.path.join(top, "docs", "fsck.md")).read()
    man = open(os.path.join(top, "docs", "man", "cloakfs-fsck.8")).read().replace("\\-", "-")
    # the first cell of the table's rows: "| `a`, `b` | what | ..."
    table = [n for line in md.splitlines() if line.startswith("| `")
             for n in re.findall(r"`([a-z-]+)`", line.split("|")[1])]
    assert [n for n in names if n not in table] == []
    assert [n for n in names if not re.search(r"^\.B[R]? .*\b%s\b" % re.escape(n), man, re.M)] == []


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root: a device node (CAP_MKNOD)")
def test_special_file(dmg):
    enc = dmg.forge("name", dmg.t.cmap["docs"], b"null".hex())
    os.mknod(os.path.join(dmg.c("docs"), enc), stat.S_IFCHR | 0o600, os.makedev(1, 3))
    rep = check_repair(dmg, "special-file", check_rc=0, repair_rc=0, after_rc=0)
    f = [x for x in rep["findings"] if x["class"] == "special-file"][0]
    assert f["path"] == "/docs/null" and f["severity"] == "warning"


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="needs root and setpriv to check as another user")
def test_unreadable(template, copy_for_others):
    # fsck runs as uid 65534: its copy, on a volume that uid can reach
    fsck = copy_for_others(FSCK)
    dmg = Damaged(template, base=scratch_for_all())
    try:
        dmg.passfile = os.path.join(dmg.top, "pass")
        write_file(dmg.passfile, (PASSPHRASE + "\n").encode())
        os.chmod(dmg.passfile, 0o600)
        subprocess.run(["chown", "-R", "65534:65534", dmg.top], check=True)
        os.chmod(dmg.c("docs/sub"), 0)
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", fsck,
               "--json", "--no-cloakfsd", "--passfile", dmg.passfile, dmg.cipherdir]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        rep = json.loads(r.stdout)
        assert r.returncode == 4 and "unreadable" in classes(rep), (rep, r.stderr)
        os.chmod(dmg.c("docs/sub"), 0o700)
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert r.returncode == 0, r.stdout
    finally:
        dmg.destroy()


def test_several_classes_at_once_and_text_output(dmg):
    os.truncate(dmg.c("docs/report.txt"), 10)
    os.unlink(dmg.c(LONG) + ".name")
    write_file(os.path.join(dmg.cipherdir, "stray"), b"x")
    rc, out, _ = dmg.fsck(json_out=False)
    assert rc == 4
    assert "error header-truncated: /docs/report.txt" in out
    assert re.search(r"error sidecar-missing: ciphertext \S+/cloakfs\.long\.", out)
    last = out.strip().splitlines()[-1]
    assert "3 errors (0 corrected, 3 uncorrected)" in last
    assert "header-truncated 1" in last and "foreign-entry 1" in last
    rc, out, _ = dmg.fsck("--repair", json_out=False)
    assert rc == 1 and "[quarantined: moved to /%s/report.txt]" % LF in out
    rc, out, _ = dmg.fsck(json_out=False)
    # the truncated file and the stray one are noted, not errors
    assert rc == 0 and "2 quarantined" in out.splitlines()[-1]
    # a second repair leaves lost+found alone
    rc, out, _ = dmg.fsck("--repair", json_out=False)
    assert rc == 0
    assert len(lf_contents(dmg)) == 3


# ---- mounted volumes, usage, keys ----------------------------------------

def test_mounted(dmg):
    v = dmg.mount()
    rc, rep, err = dmg.fsck()
    assert rc == 0 and "is mounted at" in err
    rc, rep, err = dmg.fsck("--repair")
    assert rc == 8 and "refusing to repair a mounted volume" in err
    assert os.listdir(v.path("docs"))


def test_usage_and_operational_errors(dmg, tmp_path):
    r = subprocess.run([FSCK], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert r.returncode == 16
    r = subprocess.run([FSCK, "--bogus", dmg.cipherdir], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    assert r.returncode == 16
    r = subprocess.run([FSCK, "--help"], stdout=subprocess.PIPE)
    assert r.returncode == 0 and b"--repair" in r.stdout
    wrong = tmp_path / "wrong"
    wrong.write_text("not it\n")
    rc, rep, err = run_fsck(dmg.cipherdir, passfile=str(wrong))
    assert rc == 8 and "wrong passphrase" in err and rep["summary"]["operational_error"]
    rc, rep, err = run_fsck(str(tmp_path), passfile=dmg.passfile)
    assert rc == 8 and "not a cloakfs volume" in err


PROGRESS = re.compile(r"(\d+) entries, ([\d.]+ (?:B|KiB|MiB|GiB))(?: of ([\d.]+ \w+) \((\d+)%\))?, "
                      r"(\d+) findings: ([^\s\x1b]*)")


@pytest.mark.skipif(not os.environ.get("CLOAKFS_EIO_PRELOAD"), reason="no read-slowing preload")
def test_progress_on_a_terminal(volume_factory, tmp_path):
    """--deep on one large file whose reads are slowed down (LD_PRELOAD):
    the line on the terminal advances in bytes inside that file, with a
    percentage of the total; redirected stderr gets no progress at all"""
    v = volume_factory("aes256-xts")
    for i in range(20):
        write_file(v.path("small%02d" % i), b"s" * 1000)
    with open(v.path("big.bin"), "wb") as f:
        for _ in range(32):
            f.write(os.urandom(1 << 20))
    v.umount()
    big = max((os.path.getsize(os.path.join(v.cipherdir, n)), n) for n in os.listdir(v.cipherdir))[1]
    ctl = tmp_path / "ctl"
    ctl.write_text("slow:%s\n" % big)
    env = dict(os.environ, LD_PRELOAD=os.environ["CLOAKFS_EIO_PRELOAD"], CLOAKFS_EIO_CTL=str(ctl))
    cmd = [FSCK, "--deep", "--progress", "--passfile", v.passfile, v.cipherdir]
    rc, out, tty = run_on_pty(cmd, env)
    assert rc == 0, (out, tty)
    assert "0 errors" in out
    lines = [m for m in PROGRESS.finditer(tty)]
    assert lines, repr(tty[-2000:])
    # within the one large file: several redraws with growing bytes
    in_big = [m for m in lines if big.startswith(m.group(6)) and m.group(6)]
    assert len({m.group(2) for m in in_big}) >= 3, repr(tty[-3000:])
    # the total is known with --deep: a percentage that grows
    pcts = [int(m.group(4)) for m in lines if m.group(4)]
    assert pcts and pcts == sorted(pcts) and pcts[-1] > pcts[0], pcts
    assert lines[-1].group(3) == "32.0 MiB", lines[-1].group(0)  # 32 MiB and 20 small files
    assert tty.endswith("\r\x1b[K") or "\x1b[K" in tty.rsplit("\r", 1)[-1]
    # not a terminal: nothing but the summary, even with --progress
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, timeout=120)
    assert r.returncode == 0 and r.stderr == b"", r.stderr[-500:]


def test_large_clean_volume(volume_factory):
    """thousands of entries: long names, hard links, symlinks, subdirs"""
    v = volume_factory("aes256-xts")
    n = 0
    for d in range(10):
        dd = v.path("d%02d" % d)
        os.mkdir(dd)
        for i in range(200):
            write_file(os.path.join(dd, "f%04d" % i), b"%d" % i * (i % 50))
            n += 1
        for i in range(10):
            write_file(os.path.join(dd, ("long-%d-" % i) + "x" * 180), b"long")
            os.link(os.path.join(dd, "f%04d" % i), os.path.join(dd, "hl%d" % i))
            os.symlink("f%04d" % i, os.path.join(dd, "sl%d" % i))
            n += 3
    v.umount()
    rc, rep, err = run_fsck(v.cipherdir, passfile=v.passfile)
    assert rc == 0 and rep["findings"] == [], (rep, err)
    s = rep["summary"]
    assert s["symlinks"] == 100 and s["directories"] == 11
    assert s["files"] == 2000 + 100 + 100
    rc, rep, err = run_fsck(v.cipherdir, "--repair", passfile=v.passfile)
    assert rc == 0 and not os.path.exists(os.path.join(v.cipherdir, LF))


@pytest.mark.skipif(not KEYTOOL or not CLOAKFSD, reason="built without keytool / cloakfsd")
def test_keytool_volume_and_key_from_cloakfsd(tmp_path):
    """init with the keytool, write through a mount, damage, repair with
    the key the keytool handed to a private cloakfsd"""
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(run), XDG_CONFIG_HOME=str(tmp_path),
               CLOAKFSD_SOCKET=str(run / "sock"), CLOAKFSD_PROGRAM=CLOAKFSD)
    cdir, mnt, pf = tmp_path / "c", tmp_path / "m", tmp_path / "pass"
    mnt.mkdir()
    pf.write_text(PASSPHRASE + "\n")
    pf.chmod(0o600)
    kt = lambda *a: subprocess.run([KEYTOOL] + list(a), env=env, check=True,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    kt("init", "--kdf-time", "0.05", "--kdf-memory", "8", "--new-passfile", str(pf),
       str(cdir))
    v = Volume.__new__(Volume)
    v.cipherdir, v.mnt, v.passfile = str(cdir), str(mnt), str(pf)
    v.proc, v.stderr_path, v.stderr_seen, v.allowed_stderr = None, str(tmp_path / "err"), 0, []
    v.mount()
    try:
        write_file(v.path("kept"), b"k" * 100)
        write_file(v.path("broken"), b"b" * 100)
        ino = os.stat(v.path("broken")).st_ino
    finally:
        v.umount()
    [victim] = [os.path.join(cdir, n) for n in os.listdir(cdir)
                if os.lstat(os.path.join(cdir, n)).st_ino == ino]
    poke(victim, 0, b"XXXX")
    try:
        kt("unlock", "--passfile", str(pf), str(cdir))
        rc, rep, err = run_fsck(str(cdir), "--repair", env=env)
        assert "key from cloakfsd" in err
        assert rc == 1 and classes(rep) == ["header-magic"], (rep, err)
        rc, rep, err = run_fsck(str(cdir), env=env)
        assert rc == 0, rep
    finally:
        subprocess.run([KEYTOOL, "lock", "--all"], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        out = subprocess.run([KEYTOOL, "status"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode()
        m = re.search(r"cloakfsd pid (\d+)", out)
        if m:
            os.kill(int(m.group(1)), 15)


def test_odd_names_in_output(volume_factory):
    """names are any bytes: JSON stays JSON (latin-1 escapes for bytes
    that are not UTF-8), text shows control bytes as \\xNN"""
    v = volume_factory("sm4-xts")
    name = b"caf\xe9-\x01-\xc3\xa9"
    p = os.path.join(os.fsencode(v.mnt), name)
    write_file(p, b"x" * 100)
    ino = os.stat(p).st_ino
    v.umount()
    [c] = [os.path.join(v.cipherdir, n) for n in os.listdir(v.cipherdir)
           if os.lstat(os.path.join(v.cipherdir, n)).st_ino == ino]
    os.truncate(c, 5)
    rc, rep, _ = run_fsck(v.cipherdir, passfile=v.passfile)
    assert rc == 4 and rep["findings"][0]["path"] == "/caf\u00e9-\u0001-\u00e9"
    rc, out, _ = run_fsck(v.cipherdir, passfile=v.passfile, json_out=False)
    assert "error header-truncated: /caf\ufffd-\\x01-\u00e9" in out, out


# ---- what repair must never destroy ----------------------------------------
# fsck never destroys the only good copy of anything: when it cannot tell
# which copy is right it keeps both and does not call the volume clean.

XATTR = "user.cloakfs.dir"


def cipher_of(v, plain):
    """the ciphertext path of a (mounted) plaintext path, by inode"""
    ino = os.lstat(v.path(plain)).st_ino
    for root, dirs, files in os.walk(v.cipherdir):
        for n in dirs + files:
            if os.lstat(os.path.join(root, n)).st_ino == ino:
                return os.path.join(root, n)
    raise AssertionError(plain)


def unpadded_volume(volume_factory):
    """directory t whose names carry no padding (exactly 32 and 64
    bytes, and a long one of 192), and a directory u beside it"""
    v = volume_factory("speck128-xts")
    os.mkdir(v.path("t"))
    os.mkdir(v.path("u"))
    files = {"t/" + ("file%d-" % i).ljust(32, "x"): os.urandom(100 + i) for i in range(3)}
    files["t/" + "L" * 192] = b"long"
    for p, data in files.items():
        write_file(v.path(p), data)
    os.mkdir(v.path("t", "D" * 64))
    write_file(v.path("u", "other"), b"u")
    ct, cu = cipher_of(v, "t"), cipher_of(v, "u")
    v.umount()
    assert any(n.startswith("cloakfs.long.") for n in os.listdir(ct))
    return v, files, ct, cu


def put_nonce(cdir, nonce):
    nf = os.path.join(cdir, ".cloakfs.dir")
    os.unlink(nf)
    write_file(nf, nonce)


def names_back(v, files):
    """every name of t reads back through a mount"""
    v.allowed_stderr = [r"size 1[67] does not decode"]  # a kept nonce file
    v.mount()
    assert sorted(os.listdir(v.path("t"))) == sorted(
        [p[2:] for p in files] + ["D" * 64])
    for p, data in files.items():
        assert read_file(v.path(p)) == data
    return v


def test_dirnonce_vote_without_padding(volume_factory):
    """another directory's .cloakfs.dir over t's own, t's names all
    without padding: the names still tell the copy is right (they read
    as text under it, as random bytes under the file), so repair puts
    the file right from the copy and keeps the file in lost+found"""
    v, files, ct, cu = unpadded_volume(volume_factory)
    good = read_file(os.path.join(ct, ".cloakfs.dir"))
    put_nonce(ct, read_file(os.path.join(cu, ".cloakfs.dir")))
    rc, rep, err = run_fsck(v.cipherdir, passfile=v.passfile)
    assert rc == 4 and classes(rep) == ["dirnonce-differ"], (rc, rep, err)
    assert "read with the copy (5 of 5 names" in rep["findings"][0]["detail"], rep
    rc, rep, err = run_fsck(v.cipherdir, "--repair", passfile=v.passfile)
    assert rc == 1 and classes(rep) == ["dirnonce-differ"], (rc, rep, err)
    rc, rep, err = run_fsck(v.cipherdir, passfile=v.passfile)
    # (the kept file is a note in lost+found: not a volume file)
    assert rc == 0 and classes(rep) == ["header-truncated"], (rc, rep, err)
    assert rep["findings"][0]["path"] == "/%s/dirnonce-bad-1" % LF
    assert read_file(os.path.join(ct, ".cloakfs.dir")) == good
    assert os.getxattr(ct, XATTR) == good
    names_back(v, files)
    assert "dirnonce-bad-1" in os.listdir(v.path(LF))


def test_dirnonce_tie_keeps_both(volume_factory):
    """the file and the copy both wrong for t's names: nothing tells
    which is right, so --repair changes neither and moves no entry, and
    every check says so (exit 4) until the right nonce is put back"""
    v, files, ct, cu = unpadded_volume(volume_factory)
    nf = os.path.join(ct, ".cloakfs.dir")
    good = read_file(nf)
    other = read_file(os.path.join(cu, ".cloakfs.dir"))
    put_nonce(ct, other)
    wrong = os.urandom(16)
    os.setxattr(ct, XATTR, wrong)
    listing, top = sorted(os.listdir(ct)), sorted(os.listdir(v.cipherdir))
    for args in (("--repair",), ()):
        rc, rep, err = run_fsck(v.cipherdir, *args, passfile=v.passfile)
        assert rc == 4, (rc, rep, err)
        [f] = [x for x in rep["findings"] if x["class"] == "dirnonce-differ"]
        assert "cannot tell which is right" in f["detail"] and "both are kept" in f["detail"], f
        assert f["repair"] is None, f
        assert all(x["repair"] is None for x in rep["findings"]), rep
        assert sorted(os.listdir(ct)) == listing  # nothing moved or renamed
        assert sorted(os.listdir(v.cipherdir)) == top  # no lost+found either
        assert read_file(nf) == other and os.getxattr(ct, XATTR) == wrong
    # the right nonce put back by hand: every name is there again
    put_nonce(ct, good)
    os.setxattr(ct, XATTR, good)
    rc, rep, err = run_fsck(v.cipherdir, passfile=v.passfile)
    assert rc == 0 and rep["findings"] == [], (rc, rep, err)
    names_back(v, files)


@pytest.mark.skipif(not KEYTOOL, reason="built without cloakfs-keytool")
def test_stored_targets_under_a_version_1_config(volume_factory):
    """an upgraded volume whose config was set back to version 1 (its
    slots still open, docs/format.md 4) keeps reading its stored
    targets: fsck accepts cloakfs.targets/ and --repair leaves it"""
    v = volume_factory("speck128-xts", version=1, mount=False)
    r = subprocess.run([KEYTOOL, "upgrade", "--passfile", v.passfile, v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    assert r.returncode == 0, r.stderr
    v.mount()
    targets = {"d/long": "L/" * 2000, "long2": "M" * 3500}
    os.mkdir(v.path("d"))
    for p, t in targets.items():
        os.symlink(t, v.path(p))
    v.umount()
    store = os.path.join(v.cipherdir, STORE)
    held = sorted(os.listdir(store))
    assert len(held) == 2
    edit_config(v, lambda t: re.sub(r"\n *aad_version = 1;", "",
                                    t.replace("\nversion = 2;", "\nversion = 1;")))
    for args in ((), ("--repair",), ()):
        rc, rep, err = run_fsck(v.cipherdir, *args, passfile=v.passfile)
        # the volume record names version 2 until repair rewrites it
        assert rc == 0 and set(classes(rep)) <= {"volume-record"}, (args, rc, rep, err)
    assert sorted(os.listdir(store)) == held
    v.mount()
    for p, t in targets.items():
        assert os.readlink(v.path(p)) == t


# ---- --deep on every cipher -------------------------------------------------

DEEP_SIZES = (1, 15, 16, 17, 4095, 4096, 4097, 4111, 4112, 3 * 4096 + 20)


@pytest.mark.parametrize("cipher", CONTENT_CIPHERS)
def test_deep_clean_per_cipher(volume_factory, cipher):
    """--deep decrypts (or verifies) every unit of a clean volume of each
    contents cipher (XTS, adiantum's wide-block units, authenticated
    sectors), its extended attributes decrypt, and its record agrees with
    its config: nothing found, files at
    tiny and tail sizes, a sparse one, a symlink, a long name"""
    v = volume_factory(cipher, tag="deep-" + cipher)
    for n in DEEP_SIZES:
        write_file(v.path("f%d" % n), os.urandom(n))
    with open(v.path("sparse"), "wb") as f:
        f.write(os.urandom(100))
        f.truncate(5 * 4096 + 7)
        f.seek(3 * 4096 + 9)
        f.write(os.urandom(50))
    os.symlink("target/" + "t" * 100, v.path("link"))
    write_file(v.path("L" * 200), os.urandom(300))
    # extended attributes: a short name, a long one, an empty value
    os.setxattr(v.path("f1"), "user.a", b"y")
    os.setxattr(v.path("f1"), "user." + "x" * 200, os.urandom(1000))
    os.setxattr(v.path("f15"), "user.empty", b"")
    v.umount()
    rc, rep, err = run_fsck(v.cipherdir, "--deep", passfile=v.passfile)
    assert rc == 0 and rep["findings"] == [], (rc, rep, err)
    assert rep["summary"]["files"] == len(DEEP_SIZES) + 2, rep["summary"]
    assert rep["summary"]["symlinks"] == 1, rep["summary"]


# ---- --deep over holes ------------------------------------------------------

def test_deep_skips_holes(volume_factory):
    """a 1 TiB sparse file with data at its start, middle and end: --deep
    reads the units that hold data and skips the holes (SEEK_DATA), so it
    ends in seconds (reading every byte takes many minutes)"""
    v = volume_factory("speck128-xts")
    size = 1 << 40
    try:
        with open(v.path("sparse"), "wb") as f:
            f.write(b"head" * 1000)
            f.truncate(size)
            f.seek(size // 2 + 100)
            f.write(os.urandom(9000))
            f.seek(size - 5000)
            f.write(os.urandom(5000))
    except OSError as e:
        if e.errno not in (errno.EFBIG, errno.ENOSPC):
            raise
        pytest.skip("the scratch filesystem takes no 1 TiB file: %s" % e)
    c = cipher_of(v, "sparse")
    v.umount()
    st = os.stat(c)
    assert st.st_size == size + 32
    if st.st_blocks * 512 > 1 << 30:
        pytest.skip("the scratch filesystem keeps no holes")
    t0 = time.monotonic()
    rc, rep, err = run_fsck(v.cipherdir, "--deep", passfile=v.passfile)
    took = time.monotonic() - t0
    assert rc == 0 and rep["findings"] == [], (rc, rep, err)
    assert took < 100, took
    # skipping holes must not skip data: a bad place in the middle or at
    # the end of the ciphertext (the shim fails a read that covers it)
    # is met, so --deep reads those units
    if not os.environ.get("CLOAKFS_EIO_PRELOAD"):
        return
    ctl = os.path.join(v.top, "eio.ctl")
    env = preload_env(os.environ["CLOAKFS_EIO_PRELOAD"], CLOAKFS_EIO_CTL=ctl)
    name = os.path.basename(c)
    for plain_off in (size // 2 + 5000, size - 10):
        with open(ctl, "w") as f:
            f.write("at:%d:%s\n" % (32 + plain_off, name))
        rc, rep, err = run_fsck(v.cipherdir, "--deep", passfile=v.passfile, env=env)
        assert rc != 0 and "content-unreadable" in classes(rep), (plain_off, rc, rep, err)
