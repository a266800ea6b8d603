# SPDX-License-Identifier: MIT
"""Extended attributes in every namespace cloakfs stores (user.*,
trusted.*, security.*, the POSIX ACLs), names up to XATTR_NAME_MAX (255
bytes, the long form of docs/format.md 7.5) and POSIX ACLs the kernel
enforces: each through a remount, fsck clean after each."""
import errno
import json
import os
import shutil
import struct
import subprocess

import pytest

from conftest import (CIPHERS, CLOAKFS, CONTENT_CIPHERS, FSCK, delay_until, expect_errno,
                      fusermount_u, scratch_for_all, write_file)

ROOT = os.geteuid() == 0
OTHER = 1001  # the test user cftest on CI; any uid works with setpriv
AS_OTHER = ["setpriv", "--reuid=%d" % OTHER, "--regid=%d" % OTHER, "--clear-groups"]
needs_root = pytest.mark.skipif(not ROOT, reason="needs root: trusted.* and security.* "
                                "take CAP_SYS_ADMIN, and another user's view needs allow_other")
needs_acl_tools = pytest.mark.skipif(not (shutil.which("setfacl") and shutil.which("getfacl")
                                          and shutil.which("setpriv")),
                                     reason="needs setfacl, getfacl (acl) and setpriv")
# the block size matters to the value format: one cipher of each
BLOCK_CIPHERS = [c for c in ["speck128-xts", "speck64-xts"] if c in CIPHERS] or CIPHERS[:1]
# and the kinds of volume this round added: values sealed with an AEAD
# (their plaintext name the associated data), adiantum names
ROUND_CIPHERS = [c for c in ["aes256-gcm", "xchacha20-poly1305", "adiantum"]
                 if c in CONTENT_CIPHERS]
# one volume of each kind for the ACL and trusted.* cases
KIND_CIPHERS = BLOCK_CIPHERS[:1] + [c for c in ["aes256-gcm", "adiantum"]
                                    if c in CONTENT_CIPHERS]


def names(n_rest, prefix="user."):
    return prefix + "".join(chr(ord("a") + i % 26) for i in range(n_rest))


def attrs(p):
    return {k: os.getxattr(p, k) for k in os.listxattr(p)}


def other(*cmd, check=True):
    """cmd as uid OTHER: its CompletedProcess"""
    r = subprocess.run(AS_OTHER + list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if check:
        assert r.returncode == 0, "%s: %s" % (cmd, r.stderr)
    return r


def shared_file(volume_factory, data, mode, cipher="speck128-xts"):
    """a volume of cipher mounted with allow_other where uid OTHER can
    reach it, and its file f holding data with mode: (volume, path of f)"""
    v = volume_factory(cipher, tag="xattr", base=scratch_for_all(), mount=False)
    os.chmod(v.top, 0o755)
    v.mount("-o", "allow_other")
    os.chmod(v.mnt, 0o777)
    f = v.path("f")
    write_file(f, data)
    os.chmod(f, mode)
    return v, f


def fsck_clean(v):
    """cloakfs-fsck on the unmounted volume finds nothing at all: not even
    a warning (an older fsck warns xattr-foreign about the long form)"""
    if not FSCK:
        return
    r = subprocess.run([FSCK, "--json", "--passfile", v.passfile, v.cipherdir],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, "fsck exit %d:\n%s%s" % (r.returncode, r.stdout, r.stderr)
    assert json.loads(r.stdout)["findings"] == [], r.stdout


def other_list(p):
    """the names listxattr gives uid OTHER"""
    r = other("/usr/bin/python3", "-c", "import os, sys; print('\\n'.join(os.listxattr(sys.argv[1])))", p)
    return sorted(r.stdout.split())


def remount_checked(v):
    """unmount, fsck clean, mount again as before"""
    v.umount()
    fsck_clean(v)
    v.mount("-o", "allow_other")


@needs_root
@pytest.mark.parametrize("cipher", BLOCK_CIPHERS + ROUND_CIPHERS)
def test_every_namespace_and_longest_names(volume_factory, cipher):
    v = volume_factory(cipher, tag="xattr")
    f = v.path("f")
    d = v.path("d")
    write_file(f, b"x")
    os.mkdir(d)
    want = {
        "user.short": b"s",
        names(160): b"longest short form",
        names(161): b"shortest long form",
        names(250): b"255 bytes in all",          # XATTR_NAME_MAX
        "trusted.t": b"",
        names(247, "trusted."): os.urandom(3000),
        "security.s": b"label",
        names(246, "security."): b"\0binary\xff",
    }
    assert all(len(k) <= 255 for k in want) and len(names(250)) == 255
    for p in (f, d):
        for k, val in want.items():
            os.setxattr(p, k, val)
        assert attrs(p) == want
    # the kernel refuses a 256-byte name itself; each form replaces in place
    expect_errno(errno.ERANGE, os.setxattr, f, names(251), b"x")
    os.setxattr(f, names(250), b"replaced", os.XATTR_REPLACE)
    expect_errno(errno.EEXIST, os.setxattr, f, "trusted.t", b"x", os.XATTR_CREATE)
    want_f = dict(want, **{names(250): b"replaced"})
    os.removexattr(d, "security.s")
    os.removexattr(d, names(161))
    want_d = {k: val for k, val in want.items() if k not in ("security.s", names(161))}
    expect_errno(errno.ENODATA, os.getxattr, d, names(161))
    expect_errno(errno.EOPNOTSUPP, os.setxattr, f, "system.other", b"x")
    v.umount()
    fsck_clean(v)
    # nothing in the clear on the ciphertext side, and only user.* there;
    # short user.* names keep the form every cloakfs wrote
    longs = 0
    for c in v.cipher_files():
        if os.path.islink(c):
            continue
        for k in os.listxattr(c):
            assert k.startswith("user."), k
            body = os.getxattr(c, k)
            for plain in ["short", "abcdefgh", "label", "longest", "binary"]:
                assert plain not in k and plain.encode() not in body
            longs += k.startswith("user.cloakfs.long.")
    assert longs == 2 * 6 - 2  # six a file, d lost two
    v.mount()
    assert attrs(f) == want_f
    assert attrs(d) == want_d


@needs_root
@pytest.mark.parametrize("cipher", KIND_CIPHERS)
def test_trusted_is_root_only(volume_factory, cipher):
    v, f = shared_file(volume_factory, b"x", 0o666, cipher)
    os.setxattr(f, "user.seen", b"1")
    os.setxattr(f, "trusted.hidden", b"2")
    os.setxattr(f, names(200, "trusted."), b"3")
    # refused by the kernel, hidden from the list by cloakfs
    assert other("setfattr", "-n", "trusted.x", "-v", "1", f, check=False).returncode != 0
    assert other_list(f) == ["user.seen"]
    r = other("getfattr", "--absolute-names", "-n", "trusted.hidden", f, check=False)
    assert r.returncode != 0 and "No such attribute" in r.stderr, r.stderr
    other("setfattr", "-n", "user.by-other", "-v", "4", f)
    remount_checked(v)
    assert attrs(f) == {"user.seen": b"1", "trusted.hidden": b"2",
                        names(200, "trusted."): b"3", "user.by-other": b"4"}


def getfacl(p):
    r = subprocess.run(["getfacl", "-cnpE", p], stdout=subprocess.PIPE, check=True, text=True)
    return sorted(l for l in r.stdout.splitlines() if l)


def can(op, p):
    """can uid OTHER read ("r") or append to ("w") p?"""
    cmd = ["cat", p] if op == "r" else ["sh", "-c", 'echo y >> "$0"', p]
    return other(*cmd, check=False).returncode == 0


@needs_root
@needs_acl_tools
@pytest.mark.parametrize("cipher", KIND_CIPHERS)
def test_posix_acls(volume_factory, cipher):
    v, f = shared_file(volume_factory, b"secret\n", 0o600, cipher)
    assert not can("r", f)
    subprocess.run(["setfacl", "-m", "u:%d:r" % OTHER, f], check=True)
    assert getfacl(f) == sorted(["user::rw-", "user:%d:r--" % OTHER, "group::---",
                                 "mask::r--", "other::---"])
    assert os.stat(f).st_mode & 0o777 == 0o640  # the group bits are the mask
    assert can("r", f) and not can("w", f)
    # chmod moves the mask; the named entry stays, masked
    os.chmod(f, 0o600)
    assert "mask::---" in getfacl(f) and not can("r", f)
    os.chmod(f, 0o660)
    assert "mask::rw-" in getfacl(f) and can("r", f) and not can("w", f)
    # an ACL the mode says all of is not kept: no ACL attribute stored
    g = v.path("g")
    write_file(g, b"g")
    subprocess.run(["setfacl", "-m", "u::rwx,g::r,o::-", g], check=True)
    assert os.stat(g).st_mode & 0o777 == 0o740
    assert "system.posix_acl_access" not in os.listxattr(g)
    # setting an ACL clears setgid unless the setter is in the group
    for who, keeps in ((OTHER, False), (0, True)):
        s = v.path("sgid%d" % who)
        write_file(s, b"s")
        os.chown(s, who, 0)
        os.chmod(s, 0o2750)
        setfacl = ["setfacl", "-m", "u:%d:r" % (OTHER + 1), s]
        if who:
            other(*setfacl)
        else:
            subprocess.run(setfacl, check=True)
        assert bool(os.stat(s).st_mode & 0o2000) == keeps, who
    # default ACLs: inherited by new entries whatever the umask
    d = v.path("shared")
    os.mkdir(d, 0o700)
    subprocess.run(["setfacl", "-m", "u:%d:rwx" % OTHER, "-d", "-m", "u:%d:rwx" % OTHER, d],
                   check=True)
    old = os.umask(0o077)
    try:
        write_file(os.path.join(d, "new"), b"inherited\n")
        os.mkdir(os.path.join(d, "sub"))
    finally:
        os.umask(old)
    new, sub = os.path.join(d, "new"), os.path.join(d, "sub")
    # the create mode (0666) masks the inherited ACL, the umask does not
    assert {"user:%d:rwx" % OTHER, "mask::rw-"} <= set(getfacl(new))
    assert os.stat(new).st_mode & 0o777 == 0o660
    assert {"user:%d:rwx" % OTHER, "default:user:%d:rwx" % OTHER} <= set(getfacl(sub))
    assert can("r", new) and can("w", new)
    other("touch", os.path.join(sub, "by-other"))
    assert "user:%d:rwx" % OTHER in getfacl(os.path.join(sub, "by-other"))
    # only the owner (or root) sets an ACL (xfstests generic/237)
    r = other("setfacl", "-m", "u:%d:rwx" % OTHER, new, check=False)
    assert r.returncode != 0 and "Operation not permitted" in r.stderr, r.stderr
    # a setgid directory with a default ACL: what is made in it takes its
    # group, a directory its setgid bit too, beside the inherited ACL
    # (xfstests generic/444)
    sg = v.path("sgid-shared")
    os.mkdir(sg)
    os.chown(sg, 0, OTHER)
    os.chmod(sg, 0o2775)  # mkdir(2) keeps no setgid bit on Linux
    subprocess.run(["setfacl", "-d", "-m", "u:%d:rwx" % OTHER, sg], check=True)
    os.mkdir(os.path.join(sg, "child"))
    write_file(os.path.join(sg, "file"), b"f")
    for name, setgid in (("child", True), ("file", False)):
        st = os.stat(os.path.join(sg, name))
        assert st.st_gid == OTHER and bool(st.st_mode & 0o2000) == setgid, (name, oct(st.st_mode))
        assert "user:%d:rwx" % OTHER in getfacl(os.path.join(sg, name)), name
    before = {p: getfacl(p) for p in (f, g, d, new, sub, sg, os.path.join(sg, "child"))}
    remount_checked(v)
    assert {p: getfacl(p) for p in before} == before
    assert can("r", f) and can("w", new) and not can("r", g)
    # and the ACL values are not stored in the clear
    for c in v.cipher_files():
        for k in os.listxattr(c, follow_symlinks=False):
            assert b"\x02\x00\x00\x00\x01\x00" not in os.getxattr(c, k, follow_symlinks=False)
    v.umount()
    fsck_clean(v)


def refused_acl(p):
    """is every ACL call on p refused, as on a filesystem mounted noacl?"""
    r = subprocess.run(["setfacl", "-m", "u:%d:r" % OTHER, p], stderr=subprocess.PIPE,
                       text=True)
    expect_errno(errno.EOPNOTSUPP, os.getxattr, p, "system.posix_acl_access")
    return r.returncode != 0 and "Operation not supported" in r.stderr and \
        not any(k.startswith("system.") for k in os.listxattr(p))


@needs_root
@needs_acl_tools
def test_acl_and_noacl(volume_factory):
    """The kernel enforces ACLs (default_permissions, docs/design.md) with
    -o acl, and by default on a mount other users reach (allow_other);
    otherwise they are refused, and an ACL stored earlier is kept, unseen,
    for the next mount that has them"""
    v = volume_factory("speck128-xts", tag="acl", base=scratch_for_all(), mount=False)
    os.chmod(v.top, 0o755)
    v.mount("-o", "acl")
    f = v.path("f")
    write_file(f, b"secret\n")
    os.chmod(f, 0o600)
    subprocess.run(["setfacl", "-m", "u:%d:r" % OTHER, f], check=True)
    assert "user:%d:r--" % OTHER in getfacl(f)
    assert os.stat(f).st_mode & 0o777 == 0o640  # the mode follows the ACL
    v.umount()
    v.mount()  # no allow_other: only the owner reaches the files
    assert refused_acl(f)
    assert os.stat(f).st_mode & 0o777 == 0o640
    v.umount()
    v.mount("-o", "allow_other")
    os.chmod(v.mnt, 0o777)
    assert "user:%d:r--" % OTHER in getfacl(f)
    assert can("r", f) and not can("w", f)
    v.umount()
    v.mount("-o", "allow_other,noacl")
    assert refused_acl(f)
    assert not can("r", f)  # the modes still hold (default_permissions)
    v.umount()
    fsck_clean(v)


# security.capability, VFS_CAP_REVISION_2 (linux/capability.h): magic and
# revision, then permitted and inheritable words, low and high
CAP_V2 = struct.pack("<5I", 0x02000000, 1 << 10, 0, 0, 0)


def has_xattr(p, name):
    try:
        os.getxattr(p, name)
        return True
    except OSError as e:
        assert e.errno == errno.ENODATA, e
        return False


@needs_root
@needs_acl_tools
@pytest.mark.parametrize("shared", [False, True], ids=["default", "shared"])
def test_remembered_absence_is_forgotten(volume_factory, shared):
    """The kernel asks for security.capability before every write and for
    the ACLs on create and access checks; cloakfs remembers that a file has
    none (fs/xattr-absent.h). A set or removal through the mount shows at
    once; with -o shared, one made by another mount of the volume (another
    machine) shows within the attribute timeout, as attributes do"""
    v = volume_factory("speck128-xts", tag="absent", mount=False)
    v.mount("-o", "acl,shared" if shared else "acl")
    f = v.path("f")
    write_file(f, b"x" * 100)
    with open(f, "ab") as h:
        h.write(b"y")  # the kernel asks for security.capability
    assert not has_xattr(f, "security.capability")
    assert getfacl(f) == ["group::r--", "other::r--", "user::rw-"]
    os.setxattr(f, "security.capability", CAP_V2)
    assert os.getxattr(f, "security.capability") == CAP_V2
    os.removexattr(f, "security.capability")
    assert not has_xattr(f, "security.capability")
    subprocess.run(["setfacl", "-m", "u:%d:r" % OTHER, f], check=True)
    assert "user:%d:r--" % OTHER in getfacl(f)
    # a directory's default ACL, found absent by a create in it, then set
    os.mkdir(v.path("d"))
    write_file(v.path("d", "before"), b"")
    subprocess.run(["setfacl", "-d", "-m", "u:%d:r" % OTHER, v.path("d")], check=True)
    write_file(v.path("d", "after"), b"")
    assert "user:%d:r--" % OTHER in getfacl(v.path("d", "after"))
    assert "user:%d:r--" % OTHER not in getfacl(v.path("d", "before"))
    if not shared:
        return
    # machine B: a second -o shared mount of the same ciphertext
    mnt_b = os.path.join(v.top, "mnt-b")
    os.mkdir(mnt_b)
    log = open(os.path.join(v.top, "stderr-b"), "w")
    b = subprocess.Popen([CLOAKFS, "-f", "--no-cloakfsd", "--passfile", v.passfile,
                          "-o", "acl,shared", v.cipherdir, mnt_b],
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        assert delay_until(lambda: os.path.ismount(mnt_b), 60) is not None, "B did not mount"
        g, gb = v.path("g"), os.path.join(mnt_b, "g")
        write_file(g, b"g")
        assert delay_until(lambda: os.path.exists(gb)) is not None
        with open(gb, "ab") as h:
            h.write(b"h")  # B's kernel asks, B remembers
        assert not has_xattr(gb, "security.capability")
        assert not has_xattr(gb, "system.posix_acl_access")
        os.setxattr(g, "security.capability", CAP_V2)
        subprocess.run(["setfacl", "-m", "u:%d:r" % OTHER, g], check=True)
        # within the 1 s attribute timeout, with room for a busy machine
        late = delay_until(lambda: has_xattr(gb, "security.capability"), 5)
        assert late is not None, "B still answers no security.capability 5 s on"
        assert delay_until(lambda: "user:%d:r--" % OTHER in getfacl(gb), 5) is not None, \
            "B still shows no ACL 5 s on"
    finally:
        fusermount_u(mnt_b)
        b.wait(timeout=20)
        log.close()
    v.umount()
    fsck_clean(v)
