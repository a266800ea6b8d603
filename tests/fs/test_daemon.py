# SPDX-License-Identifier: MIT
"""The mount and cloakfsd: a volume unlocked in the daemon (keytool unlock)
mounts without a passphrase; when the key leaves the daemon (keytool lock,
expiry, daemon exit) the mount wipes its keys and answers name and content
operations with EACCES; unlocked again, it works again. Runs a private
cloakfsd on a socket in the test's directory."""
import errno
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import (CLOAKFS, CLOAKFSD, KEYTOOL, MKVOL, Volume, expect_errno, preload_env,
                      read_file, scratch_for_all, write_file)

pytestmark = pytest.mark.skipif(not CLOAKFSD or not KEYTOOL,
                                reason="built without cloakfsd / cloakfs-keytool")


@pytest.fixture
def env(tmp_path):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    e = dict(os.environ, XDG_RUNTIME_DIR=str(run), XDG_CONFIG_HOME=str(cfg),
             CLOAKFSD_SOCKET=str(run / "cloakfsd.sock"), CLOAKFSD_PROGRAM=CLOAKFSD)
    yield e
    # stop the private daemon
    subprocess.run([KEYTOOL, "lock", "--all"], env=e, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    out = subprocess.run([KEYTOOL, "status"], env=e, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout.decode()
    for word in out.split():
        if word.rstrip(",").isdigit() and "cloakfsd pid" in out:
            try:
                os.kill(int(word.rstrip(",")), 15)
            except OSError:
                pass
            break


def keytool(env, *args):
    r = subprocess.run([KEYTOOL] + list(args), env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    assert r.returncode == 0, r.stdout.decode()
    return r.stdout.decode()


def eventually(fn, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        try:
            return fn()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def eventually_locked(fd):
    """wait until a read of fd gives EACCES: the mount wiped its keys"""
    def locked():
        try:
            os.pread(fd, 1, 0)
        except PermissionError:
            return
        raise AssertionError("still readable")
    eventually(locked)


def eventually_reads(fd, offset, data):
    """wait until fd reads data at offset again: the mount is unlocked"""
    def unlocked():
        try:
            assert os.pread(fd, len(data), offset) == data
        except PermissionError:
            raise AssertionError("still locked")
    eventually(unlocked)


EIO_PRELOAD = os.environ.get("CLOAKFS_EIO_PRELOAD", "")


def start_daemon(e):
    r = subprocess.run([CLOAKFSD, "--socket", e["CLOAKFSD_SOCKET"]], env=e,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30)
    assert r.returncode == 0, "cloakfsd did not start:\n" + r.stdout.decode()


def mount_from_daemon(v, env, *extra):
    """cloakfs -f with no passphrase source: the key must come from cloakfsd"""
    err = open(v.stderr_path, "a")
    v.proc = subprocess.Popen([CLOAKFS, "-f"] + list(extra) + [v.cipherdir, v.mnt], env=env,
                              stdin=subprocess.DEVNULL, stdout=err, stderr=err)
    err.close()
    v.wait_for_mount()


def status_of(env, mnt):
    """the state cloakfs-keytool status shows for the mount at mnt"""
    out = keytool(env, "status")
    rows = [l.split() for l in out.splitlines() if mnt in l.split()]
    assert len(rows) == 1, out
    return rows[0], out


def wait_state(env, mnt, want):
    def check():
        row, out = status_of(env, mnt)
        assert row[0] == want, out
    eventually(check)


def test_status_lists_mounts_locked_or_not(env):
    a = Volume("aes256-xts", tag="status-a")
    b = Volume("speck128-xts", tag="status-b")
    try:
        keytool(env, "unlock", "--passfile", a.passfile, a.cipherdir)
        mount_from_daemon(a, env)
        b.mount("--idle", "1h")  # with a passphrase: cloakfsd cannot lock it
        row, out = status_of(env, a.mnt)
        assert row == ["unlocked", a.mnt, a.cipherdir], out
        assert "STATE" in out and "MOUNTPOINT" in out and "VOLUME" in out
        row, _ = status_of(env, b.mnt)
        assert row == ["unlocked", b.mnt, b.cipherdir]
        keytool(env, "lock", a.cipherdir)
        wait_state(env, a.mnt, "locked")
        expect_errno(errno.EACCES, os.listdir, a.mnt)  # what "locked" means
        assert status_of(env, b.mnt)[0][0] == "unlocked"
        # the state name is the mount's, not a stored attribute
        expect_errno(errno.EPERM, os.setxattr, b.mnt, "user.cloakfs.state", b"unlocked")
        assert "user.cloakfs.state" not in os.listxattr(b.mnt)
        keytool(env, "unlock", "--passfile", a.passfile, a.cipherdir)
        wait_state(env, a.mnt, "unlocked")
        a.umount()
        b.umount()
        out = keytool(env, "status")
        assert a.mnt not in out and b.mnt not in out
        assert re.search(r"^\d+ cloakfs mounts?$", out, re.M), out
    finally:
        a.destroy()
        b.destroy()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="needs root and setpriv: allow_other, another user")
def test_locked_root_for_another_user(env):
    """locked, the mount still answers the kernel's permission checks on
    the root for a user who does not own it: the check asks for the root's
    POSIX ACL, whose stored name is made at mount, not with keys"""
    v = Volume("speck128-xts", tag="lockacl", base=scratch_for_all())
    try:
        os.chmod(v.top, 0o755)
        os.chmod(v.cipherdir, 0o755)
        keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
        mount_from_daemon(v, env, "-o", "allow_other")
        keytool(env, "lock", v.cipherdir)
        wait_state(env, v.mnt, "locked")
        r = subprocess.run(["setpriv", "--reuid=1001", "--regid=1001", "--clear-groups",
                            "/usr/bin/python3", "-c",
                            "import os, sys; print(os.getxattr(sys.argv[1], 'user.cloakfs.state'))",
                            v.mnt], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert r.returncode == 0 and "locked" in r.stdout, r.stderr
        v.allowed_stderr = [r"locked"]
    finally:
        v.destroy()


def test_key_from_daemon_lock_unlock(env):
    v = Volume("aes256-xts", tag="daemon")
    try:
        keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
        mount_from_daemon(v, env)
        f = v.path("file")
        write_file(f, b"unlocked" * 1000)
        os.mkdir(v.path("dir"))
        fd = os.open(f, os.O_RDONLY)
        try:
            assert os.pread(fd, 8, 0) == b"unlocked"
            keytool(env, "lock", v.cipherdir)
            eventually_locked(fd)
            expect_errno(errno.EACCES, os.listdir, v.mnt)
            expect_errno(errno.EACCES, os.open, v.path("new"), os.O_CREAT | os.O_WRONLY, 0o644)
            expect_errno(errno.EACCES, os.open, v.path("never-looked-up"), os.O_RDONLY)
            # attributes need no key
            assert os.stat(v.mnt).st_mode
            keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
            eventually_reads(fd, 8, b"unlocked")
        finally:
            os.close(fd)
        assert read_file(f) == b"unlocked" * 1000
        assert sorted(os.listdir(v.mnt)) == ["dir", "file"]
        # the daemon going away locks the mount too
        keytool(env, "lock", "--all")

        def gone():
            try:
                os.listdir(v.mnt)
            except PermissionError:
                return
            raise AssertionError("still unlocked")
        eventually(gone)
        v.allowed_stderr = [r"locked", r"key daemon"]
        v.umount()
    finally:
        v.destroy()


def test_expiry_locks(env):
    v = Volume("speck64-xts", tag="daemon")
    try:
        keytool(env, "unlock", "--ttl", "3", "--passfile", v.passfile, v.cipherdir)
        mount_from_daemon(v, env)
        write_file(v.path("f"), b"soon gone")

        def expired():
            try:
                os.listdir(v.mnt)
            except PermissionError:
                return
            raise AssertionError("still unlocked")
        eventually(expired, timeout=15)
        v.umount()
    finally:
        v.destroy()


def test_passphrase_when_daemon_lacks_key(env):
    v = Volume("sm4-xts", tag="daemon")
    try:
        keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
        keytool(env, "lock", v.cipherdir)
        # the daemon runs but holds no key: the passphrase is asked for
        with open(v.passfile) as pf:
            r = subprocess.run([CLOAKFS, v.cipherdir, v.mnt], env=env, stdin=pf,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        assert r.returncode == 0, r.stderr
        assert os.path.ismount(v.mnt)
        write_file(v.path("f"), b"by passphrase")
        assert subprocess.run(["fusermount3", "-u", v.mnt]).returncode == 0
    finally:
        v.destroy()


def timed_keytool(env, *args, timeout=10):
    """run the keytool: (exit code, output, seconds taken); a keytool that
    does not answer in timeout counts as exit code None"""
    t0 = time.monotonic()
    try:
        r = subprocess.run([KEYTOOL] + list(args), env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        return r.returncode, r.stdout.decode(), time.monotonic() - t0
    except subprocess.TimeoutExpired:
        return None, "(no answer in %d s)" % timeout, time.monotonic() - t0


def test_lock_by_path_on_a_stopped_backing_store(env):
    """lock DIR answers within 2 s when DIR lies on a FUSE store whose
    process is stopped (as a hung network store), and the mount on top is
    locked: the key is found by the path unlock and the mount registered,
    DIR is never read. The backing store is a cloakfs mount of its own
    (passphrase, no cloakfsd)."""
    store = Volume("speck128-xts", tag="backing")
    vol = Volume("aes256-xts", tag="on-backing")
    stopped = False
    fd = -1
    try:
        store.mount()
        # vol's ciphertext inside the store; its mountpoint outside it, so
        # that nothing the test does on vol walks through the stopped store
        vol.cipherdir = store.path("cipher")
        os.mkdir(vol.cipherdir)
        subprocess.run([MKVOL, vol.cipher, vol.cipherdir, vol.passfile], check=True)
        os.mkdir(store.path("not-a-volume"))
        keytool(env, "unlock", "--passfile", vol.passfile, vol.cipherdir)
        mount_from_daemon(vol, env)
        write_file(vol.path("f"), b"plaintext" * 500)
        fd = os.open(vol.path("f"), os.O_RDONLY)
        assert os.pread(fd, 9, 0) == b"plaintext"
        # past the store's entry and attribute timeout (1 s), so that the
        # kernel answers nothing about not-a-volume from its caches
        time.sleep(1.5)

        os.kill(store.proc.pid, signal.SIGSTOP)
        stopped = True
        # nothing registered under that path: the config fallback gives up
        # in bounded time, with a message, and locks nothing
        rc, out, took = timed_keytool(env, "lock", store.path("not-a-volume"))
        assert rc == 1 and took < 2.0, (rc, took, out)
        assert "did not answer" in out and "lock --all" in out, out
        rc, out, took = timed_keytool(env, "lock", vol.cipherdir)
        assert rc == 0 and took < 2.0, (rc, took, out)
        assert "locked" in out, out
        os.kill(store.proc.pid, signal.SIGCONT)
        stopped = False
        eventually_locked(fd)
        expect_errno(errno.EACCES, os.listdir, vol.mnt)
        wait_state(env, vol.mnt, "locked")
        vol.allowed_stderr = [r"locked"]
    finally:
        if stopped:
            os.kill(store.proc.pid, signal.SIGCONT)
        if fd >= 0:
            os.close(fd)
        try:
            vol.destroy()
        finally:
            store.destroy()


@pytest.mark.skipif(not EIO_PRELOAD, reason="built without the fault shim")
@pytest.mark.skipif("TSAN_OPTIONS" in os.environ,
                    reason="the fault shim preloaded into a ThreadSanitizer build run "
                    "with ci-tsan.sh's TSAN_OPTIONS crashes it (ThreadSanitizer:"
                    "DEADLYSIGNAL); without them it passes")
def test_lock_by_path_answers_while_the_store_holds_a_request(env):
    """lock DIR answers within 2 s, its output ended, when the store under
    DIR took the request that reads DIR's config and hangs in it (the
    fault shim's stall rule: a FUSE request its server already took cannot
    be killed, so the keytool's child that reads the config outlives its
    SIGKILL): the child holds none of the keytool's output, which a caller
    reading it to its end would otherwise wait on while the store hangs"""
    store = Volume("speck128-xts", tag="holding")
    ctl = os.path.join(store.top, "fault.ctl")
    try:
        start_daemon(env)
        store.mount()
        os.mkdir(store.path("dir"))
        write_file(store.path("dir", "cloakfs.conf"), b"not a config\n")
        store.umount()  # nothing of it cached: the reads reach the store
        cdir = [n for n in os.listdir(store.cipherdir) if "." not in n and
                os.path.isdir(os.path.join(store.cipherdir, n))]
        assert len(cdir) == 1, cdir
        store.mount(env=preload_env(EIO_PRELOAD, CLOAKFS_EIO_CTL=ctl))
        write_file(ctl, ("stall:%s\n" % cdir[0]).encode())
        rc, out, took = timed_keytool(env, "lock", store.path("dir"))
        assert os.path.exists(ctl + ".stalled"), "the store never stalled:\n" + out
        assert rc == 1 and took < 2.0, (rc, took, out)
        assert "did not answer" in out and "lock --all" in out, out
    finally:
        if os.path.exists(ctl):
            os.unlink(ctl)  # the stalled request answers; the child exits
        store.destroy()


def test_lock_by_path_with_a_swapped_config(env):
    """another volume's cloakfs.conf copied into DIR does not turn lock DIR
    against that other volume, nor leave DIR's mount serving plaintext:
    the path decides, the config is not read"""
    a = Volume("aes256-xts", tag="swap-a")
    b = Volume("speck128-xts", tag="swap-b")
    fd = -1
    try:
        for v in (a, b):
            keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
            mount_from_daemon(v, env)
            write_file(v.path("f"), b"secret of " + v.cipher.encode())
        fd = os.open(a.path("f"), os.O_RDONLY)
        # the config is read-only (0400): replaced, as a sync or cp -f does
        os.unlink(os.path.join(a.cipherdir, "cloakfs.conf"))
        shutil.copyfile(os.path.join(b.cipherdir, "cloakfs.conf"),
                        os.path.join(a.cipherdir, "cloakfs.conf"))
        rc, out, took = timed_keytool(env, "lock", a.cipherdir)
        assert rc == 0 and took < 2.0, (rc, took, out)
        eventually_locked(fd)
        expect_errno(errno.EACCES, os.listdir, a.mnt)
        # b, whose config it now is, stays unlocked
        assert read_file(b.path("f")) == b"secret of speck128-xts"
        assert status_of(env, b.mnt)[0][0] == "unlocked"
        a.allowed_stderr = [r"locked"]
    finally:
        if fd >= 0:
            os.close(fd)
        try:
            a.destroy()
        finally:
            b.destroy()


def test_lock_by_relative_path_and_nothing_registered(env, tmp_path):
    """a relative DIR names the same path as the absolute one unlock
    registered; a directory nothing registered fails clearly (exit 8)"""
    v = Volume("speck64-xts", tag="relative")
    try:
        keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
        mount_from_daemon(v, env)
        write_file(v.path("f"), b"x" * 100)
        r = subprocess.run([KEYTOOL, "lock", "cipher/./../cipher"], env=env, cwd=v.top,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=10)
        assert r.returncode == 0, r.stdout.decode()
        assert re.match(r"cipher/\./\.\./cipher: locked \(key id [0-9a-f]{32}\)$",
                        r.stdout.decode()), r.stdout.decode()

        def locked():
            try:
                os.listdir(v.mnt)
            except PermissionError:
                return
            raise AssertionError("still unlocked")
        eventually(locked)
        v.allowed_stderr = [r"locked"]
        v.umount()
        # unmounted and locked: nothing is registered under the path, and
        # the config names a key the daemon does not hold
        rc, out, _ = timed_keytool(env, "lock", v.cipherdir)
        assert rc == 8 and "not unlocked" in out, (rc, out)
        rc, out, _ = timed_keytool(env, "lock", str(tmp_path))
        assert rc != 0 and str(tmp_path) in out, (rc, out)
    finally:
        v.destroy()
