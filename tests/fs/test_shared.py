# SPDX-License-Identifier: MIT
"""Several machines, one ciphertext directory, on a real distributed
filesystem (tests/fs/gluster.py: GlusterFS, a replica-2 volume on
loopback, two client mounts standing for machines A and B). Every case
runs on the stack under test and on GlusterFS itself: what the storage
gets right without encryption, cloakfs must get right too.

Stacks: "gluster" (the two client mounts as they are) and "cloakfs" (a
cloakfs mount on each client, over one ciphertext directory). As an
ordinary user the module is skipped with the harness's reason.
"""
import errno
import os
import subprocess
import threading
import time

import pytest

from conftest import CLOAKFS, MKVOL, PASSPHRASE, fusermount_u
import gluster

pytestmark = pytest.mark.skipif(gluster.why_not() is not None,
                                reason=str(gluster.why_not()))


@pytest.fixture(scope="module")
def storage():
    g = gluster.Gluster()
    try:
        g.start()
    except BaseException:
        g.stop()
        raise
    yield g
    g.stop()


class CloakfsOnClient:
    """cloakfs mounted on one gluster client over the shared cipherdir"""

    def __init__(self, cipherdir, mnt, passfile):
        self.mnt = mnt
        os.mkdir(mnt)
        self.stderr = open(mnt + ".stderr", "w")
        self.proc = subprocess.Popen(
            [CLOAKFS, "-f", "--no-cloakfsd", "--passfile", passfile, cipherdir, mnt],
            stdin=subprocess.DEVNULL, stdout=self.stderr, stderr=self.stderr)
        deadline = time.monotonic() + 60
        while not os.path.ismount(mnt):
            assert self.proc.poll() is None, "cloakfs exited: %d" % self.proc.returncode
            assert time.monotonic() < deadline, "mount did not appear"
            time.sleep(0.02)

    def close(self):
        if fusermount_u(self.mnt) != 0:
            fusermount_u(self.mnt, lazy=True)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()


@pytest.fixture(params=["gluster", "cloakfs"])
def machines(request, storage):
    """(A, B): two directories that show one shared tree from two machines"""
    n = request.node.name.replace("[", "-").replace("]", "")
    if request.param == "gluster":
        a, b = os.path.join(storage.a, n), os.path.join(storage.b, n)
        os.mkdir(a)
        yield a, b
        return
    cipher_a = os.path.join(storage.a, n)
    os.mkdir(cipher_a)
    passfile = os.path.join(storage.top, n + ".pass")
    with open(passfile, "w") as f:
        f.write(PASSPHRASE + "\n")
    os.chmod(passfile, 0o600)
    subprocess.run([MKVOL, "aes256-xts", cipher_a, passfile], check=True)
    mounts = []
    try:
        for side, client in (("a", storage.a), ("b", storage.b)):
            mounts.append(CloakfsOnClient(os.path.join(client, n),
                                          os.path.join(storage.top, n + "-" + side),
                                          passfile))
        yield mounts[0].mnt, mounts[1].mnt
    finally:
        for m in mounts:
            m.close()


def wait_for(what, cond, timeout=10):
    """attributes and entries may be a timeout old (1 s by default)"""
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_directory_made_on_a_is_usable_from_b(machines):
    a, b = machines
    os.mkdir(os.path.join(a, "dir"))
    wait_for("the directory shows on B", lambda: os.path.isdir(os.path.join(b, "dir")))
    with open(os.path.join(b, "dir", "from-b"), "wb") as f:
        f.write(b"written on B\n")
    wait_for("B's file shows on A", lambda: os.listdir(os.path.join(a, "dir")) == ["from-b"])

    def content():
        with open(os.path.join(a, "dir", "from-b"), "rb") as f:
            return f.read()
    # A may have seen the file while it was empty: its size is cached
    # for the attribute timeout (the default mount is not close-to-open)
    wait_for("A reads what B wrote", lambda: content() == b"written on B\n")


def test_inode_numbers_agree(machines):
    a, b = machines
    os.mkdir(os.path.join(a, "d"))
    with open(os.path.join(a, "d", "f"), "wb") as f:
        f.write(b"x" * 5000)
    wait_for("the file shows on B", lambda: os.path.exists(os.path.join(b, "d", "f")))
    for rel in ("d", "d/f"):
        assert os.stat(os.path.join(a, rel)).st_ino == os.stat(os.path.join(b, rel)).st_ino, rel


def test_hard_link_made_on_a_reads_on_b(machines):
    a, b = machines
    with open(os.path.join(a, "orig"), "wb") as f:
        f.write(b"linked data " * 1000)
    os.link(os.path.join(a, "orig"), os.path.join(a, "other"))
    wait_for("the link shows on B", lambda: os.path.exists(os.path.join(b, "other")))
    wait_for("B sees two links", lambda: os.stat(os.path.join(b, "orig")).st_nlink == 2)
    with open(os.path.join(b, "other"), "rb") as f:
        assert f.read() == b"linked data " * 1000
    assert os.stat(os.path.join(b, "other")).st_ino == os.stat(os.path.join(b, "orig")).st_ino


def test_concurrent_mkdir_of_one_name(machines, request):
    """both machines make the same directory at once, ten times: one wins,
    the other gets EEXIST, and both then list the same entries"""
    if request.node.callspec.params["machines"] == "cloakfs":
        pytest.skip("cloakfs's default mount: the loser of two mkdir may get "
                    "ENOTEMPTY (gluster lacks RENAME_NOREPLACE and the fallback "
                    "is check-then-rename); the shared-storage mode's case")
    a, b = machines
    for i in range(10):
        name = "race%d" % i
        results = {}
        start = threading.Barrier(2)

        def mk(side, top):
            start.wait()
            try:
                os.mkdir(os.path.join(top, name))
                results[side] = 0
            except OSError as e:
                results[side] = e.errno

        threads = [threading.Thread(target=mk, args=s) for s in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results.values()) == [0, errno.EEXIST], (name, results)
    wait_for("both list the same", lambda: sorted(os.listdir(a)) == sorted(os.listdir(b)))
    assert sorted(os.listdir(a)) == ["race%d" % i for i in range(10)]
