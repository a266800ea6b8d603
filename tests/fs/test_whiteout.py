# SPDX-License-Identifier: MIT
"""renameat2(2) with RENAME_WHITEOUT, as overlayfs uses on its upper
layer: the entry moves and a whiteout (a character device 0/0) stays at
the source's name, stored under its encrypted name (a long one with its
sidecar), never the plaintext one; through a remount, fsck clean, and
removable like any entry. Refused with EXCHANGE (EINVAL); with NOREPLACE
onto a name that exists, EEXIST and nothing changed. Then overlayfs
itself with its upper layer on the mount (it refused a mount without
whiteouts: "upper fs missing required features"). Making a device
takes root (CAP_MKNOD): the module skips otherwise."""
import errno
import os
import stat

import pytest

from conftest import expect_errno, fsck_clean, renameat2, write_file

RENAME_NOREPLACE = 1
RENAME_EXCHANGE = 2
RENAME_WHITEOUT = 4
LONG = "whiteout-long-" + "w" * 200  # stored with a sidecar

pytestmark = pytest.mark.skipif(os.geteuid() != 0,
                                reason="a whiteout is a device: making one takes root")


def is_whiteout(path):
    st = os.lstat(path)
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == 0


def cipher_whiteouts(v):
    """the names of the ciphertext directory's character devices"""
    return sorted(os.path.basename(c) for c in v.cipher_files()
                  if stat.S_ISCHR(os.lstat(c).st_mode))


@pytest.mark.parametrize("src", ["file", LONG, "dir"])
def test_whiteout_left_at_source(cvol, d, src):
    a, b = os.path.join(d, src), os.path.join(d, "moved-" + src[:20])
    if src == "dir":
        os.mkdir(a)
        write_file(os.path.join(a, "in"), b"inside")
    else:
        write_file(a, b"payload of " + src.encode())
    before = cipher_whiteouts(cvol)
    renameat2(a, b, RENAME_WHITEOUT)
    assert is_whiteout(a), oct(os.lstat(a).st_mode)
    assert sorted(os.listdir(d)) == sorted([src, os.path.basename(b)])
    new = [n for n in cipher_whiteouts(cvol) if n not in before]
    assert len(new) == 1 and src not in new[0], new
    cvol.umount()
    fsck_clean(cvol)
    cvol.mount()
    assert is_whiteout(a)
    if src == "dir":
        with open(os.path.join(b, "in"), "rb") as f:
            assert f.read() == b"inside"
    else:
        with open(b, "rb") as f:
            assert f.read() == b"payload of " + src.encode()
    os.unlink(a)
    assert sorted(os.listdir(d)) == [os.path.basename(b)]
    cvol.umount()
    fsck_clean(cvol)  # the long name's sidecar went with the whiteout
    cvol.mount()


def test_whiteout_flags(cvol, d):
    a, b = os.path.join(d, "a"), os.path.join(d, "b")
    write_file(a, b"A")
    write_file(b, b"B")
    expect_errno(errno.EINVAL, renameat2, a, b, RENAME_WHITEOUT | RENAME_EXCHANGE)
    expect_errno(errno.EEXIST, renameat2, a, b, RENAME_WHITEOUT | RENAME_NOREPLACE)
    assert open(a, "rb").read() == b"A" and open(b, "rb").read() == b"B"
    renameat2(a, b, RENAME_WHITEOUT)  # over an existing name
    assert is_whiteout(a) and open(b, "rb").read() == b"A"


def test_overlayfs_upper(cvol, d, tmp_path):
    """overlayfs with its upper and work directories on the mount: a
    lower file removed and one renamed through the overlay are hidden by
    whiteouts in the upper layer, also in a new overlay after a remount"""
    import subprocess
    lower, merged = tmp_path / "lower", tmp_path / "merged"
    lower.mkdir()
    merged.mkdir()
    (lower / "gone").write_bytes(b"removed")
    (lower / "moved").write_bytes(b"renamed")
    up, work = os.path.join(d, "upper"), os.path.join(d, "work")
    os.mkdir(up)
    os.mkdir(work)
    opts = "lowerdir=%s,upperdir=%s,workdir=%s" % (lower, up, work)

    def mount(opts=opts):
        r = subprocess.run(["mount", "-t", "overlay", "overlay", "-o", opts, str(merged)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return r.returncode, r.stdout

    # an overlay with every layer outside the mount tells whether there is
    # overlayfs here at all
    for n in ("u", "w"):
        (tmp_path / n).mkdir()
    rc, out = mount("lowerdir=%s,upperdir=%s,workdir=%s" % (lower, tmp_path / "u",
                                                           tmp_path / "w"))
    if rc != 0:
        pytest.skip("no overlayfs here: %s" % out.strip())
    subprocess.run(["umount", str(merged)], check=True)
    rc, out = mount()
    assert rc == 0, "overlayfs refuses the mount as its upper layer: %s" % out
    try:
        os.unlink(merged / "gone")
        os.rename(merged / "moved", merged / "there")
        assert sorted(os.listdir(merged)) == ["there"]
    finally:
        subprocess.run(["umount", str(merged)], check=True)
    assert is_whiteout(os.path.join(up, "gone")) and is_whiteout(os.path.join(up, "moved"))
    cvol.umount()
    fsck_clean(cvol)  # overlayfs's trusted.overlay.* xattrs decrypt too
    cvol.mount()
    rc, out = mount()
    assert rc == 0, out
    try:
        assert sorted(os.listdir(merged)) == ["there"]
        assert (merged / "there").read_bytes() == b"renamed"
    finally:
        subprocess.run(["umount", str(merged)], check=True)
