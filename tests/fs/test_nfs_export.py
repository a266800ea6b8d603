# SPDX-License-Identifier: MIT
"""A cloakfs mount exported over NFS (docs/design.md, "File handles of the
mount"), with no kernel NFS server or client: nfs-ganesha's VFS FSAL
serves the mount point from user space through name_to_handle_at and
open_by_handle_at, on 127.0.0.1 and a free port, NFSv4 only (no
rpcbind); libnfs's nfs-cat, nfs-ls and nfs-cp are the client. ganesha
keeps the handles it was given, so once cache drops made the kernel
forget cloakfs's inodes, reading through the same server opens them by
handle: the mount's export path (LOOKUP of "."), the way the kernel's
nfsd would use it. Root only (drop_caches, open_by_handle_at); skipped
without ganesha or libnfs (scripts/deps.sh installs them)."""
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

from conftest import Volume, fsck_clean, read_file, scratch_base, write_file
from test_handles import revived

IS_ROOT = os.geteuid() == 0
GANESHA = shutil.which("ganesha.nfsd")
NFS_TOOLS = [shutil.which(t) for t in ("nfs-cat", "nfs-ls", "nfs-cp")]
# an XTS volume and an authenticated one: the export path is the same code
# for every cipher, the sectors under it are not
NFS_CIPHERS = ["aes256-xts", "aes256-gcm"]
CLIENT_TIMEOUT = 60  # one nfs-* command, on a busy runner
# the largest file nfs-cp writes over NFSv4 here (see the write below)
NFS4_WRITE_MAX = 3000

pytestmark = [
    pytest.mark.skipif(not IS_ROOT, reason="drop_caches and open_by_handle_at take root"),
    pytest.mark.skipif(not GANESHA, reason="no ganesha.nfsd (Debian: nfs-ganesha, nfs-ganesha-vfs)"),
    pytest.mark.skipif(not all(NFS_TOOLS), reason="no nfs-cat/nfs-ls/nfs-cp (Debian: libnfs-utils)"),
]

GANESHA_CONF = """\
NFS_CORE_PARAM {
	NFS_Port = %(port)d;
	Bind_addr = 127.0.0.1;
	NFS_Protocols = 4;
	Enable_NLM = false;
	Enable_RQUOTA = false;
	Enable_UDP = false;
}
NFSV4 {
	Graceless = true;
	RecoveryBackend = fs;
	RecoveryRoot = "%(top)s/recovery";
	Only_Numeric_Owners = true;
}
EXPORT {
	Export_Id = 1;
	Path = "%(path)s";
	Pseudo = /cloak;
	Access_Type = RW;
	Squash = No_Root_Squash;
	SecType = sys;
	Protocols = 4;
	Transports = TCP;
	FSAL { Name = VFS; }
}
LOG { Default_Log_Level = INFO; }
"""


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Ganesha:
    """ganesha.nfsd in the foreground exporting path as /cloak, with its
    config, pid file, log and recovery directory in a temporary directory"""

    def __init__(self, path):
        self.top = tempfile.mkdtemp(prefix="cloakfs-ganesha-", dir=scratch_base())
        os.mkdir(os.path.join(self.top, "recovery"))
        self.port = free_port()
        self.conf = os.path.join(self.top, "ganesha.conf")
        self.log = os.path.join(self.top, "ganesha.log")
        with open(self.conf, "w") as f:
            f.write(GANESHA_CONF % {"port": self.port, "top": self.top, "path": path})
        out = open(self.log, "a")
        self.proc = subprocess.Popen(
            [GANESHA, "-F", "-f", self.conf, "-L", self.log,
             "-p", os.path.join(self.top, "ganesha.pid"), "-N", "NIV_EVENT"],
            stdin=subprocess.DEVNULL, stdout=out, stderr=out, cwd=self.top)
        out.close()
        try:
            self.wait_listening()
        except BaseException:
            self.stop()
            raise

    def wait_listening(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("ganesha.nfsd exited with %d:\n%s"
                                     % (self.proc.returncode, self.log_text()))
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        raise AssertionError("ganesha.nfsd does not listen:\n" + self.log_text())

    def log_text(self):
        """ganesha's complaints (its warnings and worse), the last 40"""
        try:
            with open(self.log, errors="replace") as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            return ""
        return "\n".join([l for l in lines
                          if re.search(r":(WARN|MAJ|CRIT|FATAL) :", l)][-40:])

    def url(self, rel):
        return "nfs://127.0.0.1/cloak/%s?version=4&nfsport=%d" % (rel, self.port)

    def run(self, tool, *args):
        """nfs-TOOL on the export: the completed process, stdout as bytes"""
        return subprocess.run(["nfs-" + tool] + list(args), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=CLIENT_TIMEOUT)

    def cat(self, rel):
        r = self.run("cat", self.url(rel))
        assert r.returncode == 0, "nfs-cat %s: exit %d: %s\n%s" % (
            rel, r.returncode, r.stderr.decode(errors="replace"), self.log_text())
        return r.stdout

    def ls(self, rel):
        r = self.run("ls", self.url(rel))
        assert r.returncode == 0, "nfs-ls %s: exit %d: %s" % (
            rel, r.returncode, r.stderr.decode(errors="replace"))
        return sorted(l.split()[-1] for l in r.stdout.decode().splitlines())

    def stop(self):
        """SIGTERM (ganesha shuts down cleanly), SIGKILL if it lingers;
        waited for, its directory removed"""
        try:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(timeout=30)
        finally:
            shutil.rmtree(self.top, ignore_errors=True)


def drop_caches():
    """the kernel forgets the mount's inodes: twice, since the second drop
    frees what the first unpinned"""
    os.sync()
    for _ in range(2):
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")


@pytest.fixture(params=NFS_CIPHERS)
def exported(request):
    """a mounted volume (logging its summary) and ganesha exporting it"""
    v = Volume(request.param, tag="nfs-" + request.param)
    g = None
    try:
        v.mount(env=dict(os.environ, CLOAKFS_LOG="info"))
        g = Ganesha(v.mnt)
        yield v, g
    finally:
        if g is not None:
            g.stop()
        v.destroy()


def test_nfs_export_survives_forgotten_inodes(exported):
    """a tree read through NFS; the kernel forgets every inode of the
    mount; the same server reads it again by the handles it kept (the
    mount brings the inodes back), writes a file the mount reads as
    plaintext, and answers a file removed on the mount's side with an
    error; the volume is clean after"""
    v, g = exported
    os.makedirs(v.path("dir", "sub"))
    files = {"top.txt": b"top\n", "dir/a.txt": b"hello through nfs\n",
             "dir/sub/big.bin": os.urandom(100_000)}  # many sectors
    for rel, data in files.items():
        write_file(v.path(rel), data)
    for rel, data in files.items():
        assert g.cat(rel) == data
    assert g.ls("dir") == ["a.txt", "sub"]

    drop_caches()
    for rel, data in files.items():  # through NFS before any name on the mount
        assert g.cat(rel) == data, rel
    assert g.ls("dir") == ["a.txt", "sub"]
    assert g.ls("dir/sub") == ["big.bin"]

    # files made through NFS in directories the kernel forgot (the server
    # creates by its handle of the directory), read as plaintext by the
    # mount, ciphertext below. (libnfs 4.0's NFSv4 client fails to encode
    # a WRITE of 4,000 bytes or more, on any export, and creates
    # exclusively: nfs-cp copies a file in one WRITE to a new name, so
    # the files written are new and stay below that.)
    for rel in ("dir/sub/new.bin", "dir/new.txt"):
        data = os.urandom(NFS4_WRITE_MAX)
        local = os.path.join(g.top, "local")
        write_file(local, data)
        drop_caches()
        r = g.run("cp", local, g.url(rel))
        assert r.returncode == 0, "nfs-cp %s: exit %d: %s" % (
            rel, r.returncode, r.stderr.decode(errors="replace"))
        drop_caches()
        assert g.cat(rel) == data, rel
        assert read_file(v.path(rel)) == data, rel
        assert not any(os.path.isfile(p) and data[:64] in read_file(p)
                       for p in v.cipher_files()), rel

    # removed on the mount's side: the server's handle of it is stale now
    os.unlink(v.path("dir", "a.txt"))
    drop_caches()
    r = g.run("cat", g.url("dir/a.txt"))
    err = r.stderr.decode(errors="replace")
    assert r.returncode != 0 and r.stdout == b"", \
        "a removed file read through NFS: exit %d, %r" % (r.returncode, r.stdout[:100])
    assert "NFS4ERR_STALE" in err or "NFS4ERR_NOENT" in err, err
    assert g.ls("dir") == ["new.txt", "sub"]
    assert g.cat("dir/sub/big.bin") == files["dir/sub/big.bin"]

    g.stop()
    v.umount()
    # the files read and the directories listed after the drops came back
    # by their handles, not by name
    assert revived(v) >= 3, v.stderr()
    fsck_clean(v)
