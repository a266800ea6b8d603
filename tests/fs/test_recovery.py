# SPDX-License-Identifier: MIT
"""Recovery and the volume record (issue 21): a volume whose config is
lost is mounted with its recovery key and rebuilt with cloakfs-keytool
recover, every file readable afterwards; a mistyped recovery key is
caught by its check characters; the mount refuses another volume's
config and names an edited field; --show-undecodable lists entries whose
names do not decode, and they can be renamed and deleted."""
import base64
import hashlib
import os
import re
import shutil
import subprocess

import pytest

from conftest import CLOAKFS, KEYTOOL, PASSPHRASE, Volume, fusermount_u, read_file, write_file

EXIT_WRONG_PASS, EXIT_BAD_VOLUME = 2, 4
KDF = ["--kdf-time", "0.02", "--kdf-memory", "8"]
ENV = dict(os.environ, CLOAKFS_CRYPTO_CONFIG="")

pytestmark = pytest.mark.skipif(not KEYTOOL, reason="no cloakfs-keytool in this build")


def keytool(*args, stdin=None):
    return subprocess.run([KEYTOOL] + list(args), input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=ENV, timeout=120)


def mount_run(*args, stdin=None):
    """cloakfs in the background (no -f): returns once mounted or failed"""
    return subprocess.run([CLOAKFS, "--no-cloakfsd"] + list(args), input=stdin,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
                          timeout=120)


def make_recovery_key(v):
    r = keytool("recovery-key", "--print-key", "--passfile", v.passfile, v.cipherdir)
    assert r.returncode == 0, r.stderr
    groups = re.findall(r"\b[0-9A-Z]{5}\b", r.stdout.decode())
    assert len(groups) == 8, r.stdout
    info = keytool("info", v.cipherdir)
    assert info.returncode == 0 and re.search(
        rb"^recovery: +a recovery key \(in cloakfs.volume\)$", info.stdout, re.M), info.stdout
    return "-".join(groups)


def fill(v):
    """a small tree; returns {relative path: sha256 of its content}"""
    tree = {}
    os.makedirs(v.path("docs", "deep"))
    for rel, size in [("a.txt", 5), ("docs/b.bin", 70000), ("docs/deep/c", 1),
                      ("empty", 0), ("x" * 200, 4097)]:
        data = os.urandom(size)
        write_file(v.path(rel), data)
        tree[rel] = hashlib.sha256(data).hexdigest()
    return tree


def check_tree(mnt, tree):
    for rel, digest in tree.items():
        assert hashlib.sha256(read_file(os.path.join(mnt, rel))).hexdigest() == digest, rel
    found = set()
    for root, dirs, files in os.walk(mnt):
        found |= {os.path.relpath(os.path.join(root, n), mnt) for n in files}
    assert found == set(tree)


@pytest.fixture
def vol():
    v = Volume("aes256-xts", tag="recovery")
    yield v
    if os.path.ismount(v.mnt):
        fusermount_u(v.mnt, lazy=True)
    v.destroy()


def test_lost_config_recovered(vol):
    vol.mount()
    tree = fill(vol)
    vol.umount()
    key = make_recovery_key(vol)
    conf = os.path.join(vol.cipherdir, "cloakfs.conf")
    os.unlink(conf)  # lost, and no backup

    # a passphrase cannot mount it any more; the recovery key can, from stdin
    r = mount_run("--passfile", vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_BAD_VOLUME and not os.path.ismount(vol.mnt)
    r = mount_run("--recovery-key", vol.cipherdir, vol.mnt, stdin=(key + "\n").encode())
    assert r.returncode == 0, r.stderr
    try:
        check_tree(vol.mnt, tree)
    finally:
        assert fusermount_u(vol.mnt) == 0
    # the key saved as keytool prints it: two indented lines in a file
    saved = os.path.join(vol.top, "recovery-key.txt")
    groups = key.split("-")
    write_file(saved, ("\n    %s\n    %s\n" % ("-".join(groups[:4]),
                                             "-".join(groups[4:]))).encode())
    os.chmod(saved, 0o600)
    r = mount_run("--recovery-key", "--passfile", saved, vol.cipherdir, vol.mnt)
    assert r.returncode == 0, r.stderr
    try:
        check_tree(vol.mnt, tree)
    finally:
        assert fusermount_u(vol.mnt) == 0

    # recover writes a fresh config with a new passphrase (lower case and
    # without dashes, as someone may type it)
    newpass = os.path.join(vol.top, "newpass")
    write_file(newpass, b"a brand new passphrase\n")
    os.chmod(newpass, 0o600)
    typed = key.replace("-", " ").lower()
    r = keytool("recover", "--new-passfile", newpass, *KDF, vol.cipherdir,
                stdin=(typed + "\n").encode())
    assert r.returncode == 0, r.stderr
    assert os.path.exists(conf)
    vol.mount(passfile=newpass)
    check_tree(vol.mnt, tree)
    vol.umount()
    # the old passphrase went with the old config
    r = mount_run("--passfile", vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_WRONG_PASS, r.stderr


def typos(key):
    """one wrong character in group 3, and two neighbours swapped in group 6"""
    g = key.split("-")
    c = g[2][1]
    g3 = g[2][:1] + ("7" if c != "7" else "8") + g[2][2:]
    a = g[5]
    i = next(i for i in range(4) if a[i] != a[i + 1])
    g6 = a[:i] + a[i + 1] + a[i] + a[i + 2:]
    return ["-".join(g[:2] + [g3] + g[3:]), "-".join(g[:5] + [g6] + g[6:])], [3, 6]


def test_mistyped_recovery_key_is_caught(vol):
    key = make_recovery_key(vol)
    os.unlink(os.path.join(vol.cipherdir, "cloakfs.conf"))
    for bad, group in zip(*typos(key)):
        r = keytool("recover", "--new-passfile", vol.passfile, *KDF, vol.cipherdir,
                    stdin=(bad + "\n").encode())
        assert r.returncode == EXIT_WRONG_PASS, r.stderr
        assert ("group %d " % group).encode() in r.stderr and b"typo" in r.stderr, r.stderr
        assert not os.path.exists(os.path.join(vol.cipherdir, "cloakfs.conf"))
        r = mount_run("--recovery-key", vol.cipherdir, vol.mnt, stdin=(bad + "\n").encode())
        assert r.returncode == EXIT_WRONG_PASS and b"typo" in r.stderr, r.stderr
        assert not os.path.ismount(vol.mnt)


def test_foreign_config_refused_by_mount_and_restore(vol):
    other = Volume("aes256-xts", tag="other")
    try:
        conf = os.path.join(vol.cipherdir, "cloakfs.conf")
        backup = os.path.join(vol.top, "mine.conf")
        assert keytool("backup-header", vol.cipherdir, backup).returncode == 0
        os.unlink(conf)
        # the other volume's backup: refused by restore-header
        theirs = os.path.join(other.cipherdir, "cloakfs.conf")
        r = keytool("restore-header", theirs, vol.cipherdir)
        assert r.returncode == 5 and b"another volume" in r.stderr, r.stderr
        assert not os.path.exists(conf)
        # put there by hand: refused by the mount, before the passphrase,
        # though the passphrase is the same
        shutil.copy(theirs, conf)
        r = mount_run("--passfile", vol.passfile, vol.cipherdir, vol.mnt)
        assert r.returncode == EXIT_BAD_VOLUME, r.stderr
        assert b"belongs to another volume" in r.stderr, r.stderr
        assert not os.path.ismount(vol.mnt)
        # the right backup goes back over it without --force
        r = keytool("restore-header", backup, vol.cipherdir)
        assert r.returncode == 0, r.stderr
        vol.mount()
        vol.umount()
    finally:
        other.destroy()


@pytest.mark.parametrize("field,old,new", [
    ("cipher", '"aes256-xts"', '"sm4-xts"'),
    ("sector_size", "4096", "1024"),
    ("name_max", "255", "200"),
])
def test_edited_field_named_by_mount(vol, field, old, new):
    conf = os.path.join(vol.cipherdir, "cloakfs.conf")
    text = read_file(conf).decode()
    os.chmod(conf, 0o600)
    edited = text.replace("%s = %s;" % (field, old), "%s = %s;" % (field, new))
    assert edited != text
    write_file(conf, edited.encode())
    r = mount_run("--passfile", vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_BAD_VOLUME, r.stderr
    assert re.search(rb"edited: %s is %s in the config, %s in cloakfs.volume"
                     % (field.encode(), re.escape(new.encode()), re.escape(old.encode())),
                     r.stderr), r.stderr
    assert b"wrong passphrase" not in r.stderr


def test_kdf_cost_edit_named_by_mount(vol):
    conf = os.path.join(vol.cipherdir, "cloakfs.conf")
    text = read_file(conf).decode()
    os.chmod(conf, 0o600)
    edited, n = re.subn(r"opslimit = (\d+);", lambda m: "opslimit = %d;" % (int(m.group(1)) + 1),
                        text)
    assert n == 1
    write_file(conf, edited.encode())
    r = mount_run("--passfile", vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_BAD_VOLUME, r.stderr
    assert b"keyslot 0: opslimit is" in r.stderr, r.stderr


def test_old_volume_gets_a_record(vol):
    rec = os.path.join(vol.cipherdir, "cloakfs.volume")
    os.unlink(rec)  # as a volume made before records existed
    vol.mount()
    vol.umount()
    assert os.path.exists(rec)
    # a read-only mount writes nothing
    os.unlink(rec)
    vol.mount("--ro")
    vol.umount()
    assert not os.path.exists(rec)


def test_show_undecodable(vol):
    vol.mount()
    write_file(vol.path("good"), b"fine\n")
    os.mkdir(vol.path("gooddir"))
    vol.umount()
    # long-name entries whose sidecar is gone: their names cannot be read
    junk = []
    for i in range(3):
        name = "cloakfs.long." + base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
        path = os.path.join(vol.cipherdir, name)
        if i == 2:
            os.mkdir(path)
            os.mkdir(os.path.join(path, "x"))  # not empty: rmdir must refuse
        else:
            write_file(path, b"")
        junk.append(name)

    vol.allowed_stderr.append("undecodable entry")
    vol.mount()
    assert sorted(os.listdir(vol.mnt)) == ["good", "gooddir"]  # hidden by default
    vol.umount()

    vol.mount("--show-undecodable")
    listed = sorted(p for p in os.listdir(vol.mnt) if p.endswith(".undecodable"))
    assert listed == sorted(n + ".undecodable" for n in junk)
    assert {"good", "gooddir"} <= set(os.listdir(vol.mnt))
    # rename one to a proper name; delete a file; a directory too, once empty
    os.rename(vol.path(junk[0] + ".undecodable"), vol.path("rescued"))
    assert os.path.exists(vol.path("rescued"))
    os.unlink(vol.path(junk[1] + ".undecodable"))
    with pytest.raises(OSError):
        os.rmdir(vol.path(junk[2] + ".undecodable"))
    os.rmdir(os.path.join(vol.cipherdir, junk[2], "x"))
    os.rmdir(vol.path(junk[2] + ".undecodable"))
    assert not [p for p in os.listdir(vol.mnt) if p.endswith(".undecodable")]
    assert not [n for n in os.listdir(vol.cipherdir) if n in junk]
    # a name that decodes gets no second way in through its ciphertext name
    for c in os.listdir(vol.cipherdir):
        if "." not in c:
            assert not os.path.exists(vol.path(c + ".undecodable")), c
    vol.umount()

    vol.mount("-o", "badname")
    assert sorted(os.listdir(vol.mnt)) == ["good", "gooddir", "rescued"]
    vol.umount()
