# SPDX-License-Identifier: MIT
"""Secret hygiene of the running mount and daemon (issue: hardening).

The keys a mount holds (the PRK, expanded content and name keys) and the
daemon's volume keys live in locked, MADV_DONTDUMP memory: a core dump
taken with gcore must not contain them, while a scan of the live process
(/proc/PID/mem, as root) must find the PRK, which proves the scan works.
The VMK and the passphrase are wiped once the mount has derived its keys,
and after `cloakfs-keytool lock` the mount's memory holds no PRK.
Keys are computed here from the VMK (fs_keydump) per docs/format.md section 3, Keys."""
import errno
import hashlib
import hmac
import os
import re
import shutil
import subprocess
import threading
import time

import pytest

from conftest import (CLOAKFS, CLOAKFSD, KEYTOOL, PASSPHRASE, Volume, fusermount_u, read_file,
                      preload_env, scratch_for_all, write_file)
from test_daemon import (EIO_PRELOAD, env, eventually, eventually_locked,  # noqa: F401
                         eventually_reads, keytool, mount_from_daemon, start_daemon)

KEYDUMP = os.environ.get("CLOAKFS_KEYDUMP", "")
GCORE = shutil.which("gcore")

pytestmark = [
    pytest.mark.skipif(not KEYDUMP, reason="fs_keydump not built"),
    pytest.mark.skipif(os.geteuid() != 0, reason="reading another process' memory needs root"),
]


def hkdf_expand(prk, info, length):
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha512).digest()
        out += t
        i += 1
    return out[:length]


def volume_secrets(v):
    """{name: bytes} of the secrets of v (the VMK, PRK, root name key and
    the content key of every regular file in the root)"""
    vmk = bytes.fromhex(subprocess.run([KEYDUMP, v.cipherdir, v.passfile], check=True,
                                       stdout=subprocess.PIPE).stdout.decode().strip())
    prk = hmac.new(b"cloakfs v1", vmk, hashlib.sha512).digest()
    s = {"VMK": vmk, "PRK": prk, "passphrase": PASSPHRASE.encode()}
    dirnonce = read_file(os.path.join(v.cipherdir, ".cloakfs.dir"))[:16]
    s["root name key"] = hkdf_expand(prk, b"names\0" + dirnonce, 32)
    for n in os.listdir(v.cipherdir):
        p = os.path.join(v.cipherdir, n)
        if "." in n or not os.path.isfile(p) or os.path.getsize(p) < 32:
            continue
        nonce = read_file(p)[16:32]
        s["content key of " + n] = hkdf_expand(prk, b"contents\0" + nonce, 32)
    return s


def pieces(secret):
    """16-byte windows: an expanded key schedule starts with the raw key,
    so finding any 16 aligned bytes of a secret counts"""
    if len(secret) < 16:
        return [secret]
    return [secret[i:i + 16] for i in range(0, len(secret) - 15, 16)]


def found_in(blob, secrets):
    return sorted(name for name, sec in secrets.items()
                  if any(piece in blob for piece in pieces(sec)))


def live_memory(pid):
    """the readable mappings of a live process, concatenated"""
    out = []
    with open("/proc/%d/maps" % pid) as maps, open("/proc/%d/mem" % pid, "rb", 0) as mem:
        for line in maps:
            m = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+)", line)
            if not m or m.group(3)[0] != "r" or "[vvar]" in line or "[vsyscall]" in line:
                continue
            lo, hi = int(m.group(1), 16), int(m.group(2), 16)
            try:
                mem.seek(lo)
                out.append(mem.read(hi - lo))
            except OSError:
                pass
    return b"".join(out)


def mappings_holding(pid, secrets):
    """[(address range, VmFlags, [secret names])] for every mapping of pid
    that holds a piece of one of the secrets"""
    out = []
    with open("/proc/%d/smaps" % pid) as smaps, open("/proc/%d/mem" % pid, "rb", 0) as mem:
        current = None
        for line in smaps:
            m = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+)", line)
            if m:
                current = m
                continue
            if not line.startswith("VmFlags:") or current is None:
                continue
            flags = line.split()[1:]
            lo, hi, perms = int(current.group(1), 16), int(current.group(2), 16), current.group(3)
            current = None
            if perms[0] != "r" or "io" in flags:
                continue
            try:
                mem.seek(lo)
                blob = mem.read(hi - lo)
            except OSError:
                continue
            names = found_in(blob, secrets)
            if names:
                out.append(("%x-%x" % (lo, hi), flags, names))
    return out


def background_mount(v):
    """mount v without -f (cloakfs forks into the background after its
    keys are made) and return the pid of the process that serves it"""
    r = subprocess.run([CLOAKFS, "--no-cloakfsd", "--passfile", v.passfile, v.cipherdir, v.mnt],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    assert r.returncode == 0, "background mount failed:\n" + r.stdout.decode()
    assert os.path.ismount(v.mnt)
    for d in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if args[0] == CLOAKFS.encode() and v.cipherdir.encode() in args:
            return int(d)
    raise AssertionError("no cloakfs process serves " + v.mnt)


def stop_background_mount(v, pid):
    for _ in range(100):
        if fusermount_u(v.mnt) == 0 or not os.path.ismount(v.mnt):
            break
        time.sleep(0.1)
    for _ in range(200):
        if not os.path.exists("/proc/%d" % pid):
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    raise AssertionError("the background mount did not exit after unmount")


@pytest.mark.parametrize("mode", ["background", "foreground"])
def test_keys_in_locked_memory(volume_factory, mode):
    """every mapping of the mount that holds a copy of a key is mlock'ed
    (VmFlags "lo"), also after fuse_daemonize() forked the mount into the
    background, which mlock does not survive; VmLck alone cannot tell,
    since other locked pages keep it above zero"""
    v = volume_factory("aes256-xts", mount=False)
    if mode == "foreground":
        v.mount()
        pid = v.proc.pid
    else:
        pid = background_mount(v)
    try:
        write_file(v.path("file"), os.urandom(100000))
        os.mkdir(v.path("dir"))
        with open(v.path("file"), "rb") as f:
            assert len(f.read()) == 100000
            secrets = volume_secrets(v)
            held = mappings_holding(pid, secrets)
        found = sorted(set(n for _, _, names in held for n in names))
        assert "PRK" in found, "the scan does not find the mount's PRK"
        assert any(n.startswith("content key") for n in found), \
            "the scan does not find the open file's content key"
        unlocked = [h for h in held if "lo" not in h[1]]
        assert not unlocked, "keys in memory that is not locked: %s" % unlocked
    finally:
        if mode == "background":
            stop_background_mount(v, pid)


def core_dump(pid, where):
    """gcore's image of pid (gdb leaves out MADV_DONTDUMP mappings)"""
    prefix = os.path.join(where, "core")
    r = subprocess.run([GCORE, "-o", prefix, str(pid)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    path = "%s.%d" % (prefix, pid)
    assert r.returncode == 0 and os.path.exists(path), "gcore failed:\n" + r.stdout
    with open(path, "rb") as f:
        data = f.read()
    os.unlink(path)
    assert len(data) > 100000, "implausibly small core dump"
    return data


@pytest.mark.parametrize("cipher", ["aes256-xts", "speck128-xts"])
def test_mount_memory_and_core_dump(volume_factory, cipher):
    v = volume_factory(cipher)
    write_file(v.path("file"), os.urandom(100000))
    os.mkdir(v.path("dir"))
    assert len(read_file(v.path("file"))) == 100000
    secrets = volume_secrets(v)
    live = live_memory(v.proc.pid)
    assert "PRK" in found_in(live, secrets), "the scan does not find the mount's PRK"
    left = [n for n in found_in(live, secrets) if n in ("VMK", "passphrase")]
    assert not left, "still in the mount's memory after unlock: %s" % left
    if not GCORE:
        pytest.skip("gdb (gcore) not installed: core dump not checked")
    core = core_dump(v.proc.pid, v.top)
    assert found_in(core, secrets) == [], "in a core dump of the mount: %s" % found_in(core, secrets)


def daemon_pid(e):
    m = re.search(r"cloakfsd pid (\d+)", keytool(e, "status"))
    assert m, "keytool status names no daemon pid"
    return int(m.group(1))


def test_daemon_and_mount_after_lock(env):  # noqa: F811
    v = Volume("aes256-xts", tag="secrets")
    try:
        keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
        mount_from_daemon(v, env)
        write_file(v.path("file"), b"x" * 70000)
        secrets = volume_secrets(v)
        dpid = daemon_pid(env)
        # the daemon holds the VMK (locked, not dumpable); the mount the PRK
        assert "VMK" in found_in(live_memory(dpid), secrets)
        assert "PRK" in found_in(live_memory(v.proc.pid), secrets)
        if GCORE:
            core = core_dump(dpid, v.top)
            assert found_in(core, secrets) == [], "in a core dump of cloakfsd: %s" % found_in(core, secrets)
        keytool(env, "lock", v.cipherdir)

        def wiped():
            assert found_in(live_memory(v.proc.pid), secrets) == [], \
                "in the mount's memory after lock: %s" % found_in(live_memory(v.proc.pid), secrets)
        eventually(wiped)
        assert found_in(live_memory(dpid), secrets) == [], "in cloakfsd's memory after lock"
    finally:
        v.destroy()


def test_no_plaintext_after_lock(env):  # noqa: F811
    """plaintext that passed through the mount (file contents written and
    read at several sizes and offsets, an extended attribute's value, a
    symlink's target) is gone from the mount's memory once the volume is
    locked: READ, WRITE, xattr and symlink buffers are wiped before they
    are freed or reused (the kernel's page cache is outside the process)"""
    v = Volume("aes256-xts", tag="plain")
    token = os.urandom(8).hex().encode()
    marker = b"<plaintext-marker-" + token + b">"
    try:
        keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
        mount_from_daemon(v, env)
        sizes = {"small": 100, "medium": 5000, "large": 300000, "huge": 1 << 20}
        for name, size in sizes.items():
            write_file(v.path(name), (marker * (size // len(marker) + 1))[:size])
        fd = os.open(v.path("large"), os.O_RDWR)
        try:
            os.pwrite(fd, marker * 10, 4097)  # read-modify-write of two units
        finally:
            os.close(fd)
        os.setxattr(v.path("small"), "user.note", marker * 2)
        assert os.getxattr(v.path("small"), "user.note") == marker * 2
        os.symlink(marker.decode() + "/target", v.path("link"))
        assert os.readlink(v.path("link")).encode().startswith(marker)
        for name, size in sizes.items():
            with open(v.path(name), "rb") as f:
                # drop the kernel's cached pages: the READs reach the mount
                os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
                data = f.read()
            assert len(data) == size and marker in data
        secrets = volume_secrets(v)
        assert "PRK" in found_in(live_memory(v.proc.pid), secrets)
        keytool(env, "lock", v.cipherdir)

        def wiped():
            assert found_in(live_memory(v.proc.pid), secrets) == []
        eventually(wiped)
        copies = live_memory(v.proc.pid).count(token)
        assert copies == 0, "%d copies of the plaintext marker in the mount's memory after lock" % copies
        v.allowed_stderr = [r"locked"]
    finally:
        v.destroy()


def owner_of_proc(pid):
    """the files of /proc/PID (not the directory itself) of a non-dumpable
    process belong to root (proc(5))"""
    return os.stat("/proc/%d/status" % pid).st_uid


def core_limit(pid):
    with open("/proc/%d/limits" % pid) as f:
        for line in f:
            if line.startswith("Max core file size"):
                return line.split()[4]
    return None


def test_keytool_and_mount_not_dumpable(volume_factory, copy_for_others):
    """cloakfs-keytool and the mount make themselves non-dumpable and
    without core files, as cloakfsd does: no same-uid ptrace or
    /proc/PID/mem, no core file with a passphrase or a key in it"""
    v = volume_factory("speck128-xts", mount=False, base=scratch_for_all())
    # keytool as an ordinary user, waiting for its passphrase on stdin:
    # the files of /proc/PID of a non-dumpable process belong to root
    for p in (v.top, v.cipherdir, os.path.join(v.cipherdir, "cloakfs.conf")):
        os.chown(p, 65534, 65534)
    kt = os.environ.get("CLOAKFS_KEYTOOL", "")
    if kt and os.geteuid() == 0:
        kt = copy_for_others(kt)  # uid 65534 cannot run it from a private build
        def as_nobody():
            os.setgid(65534)
            os.setuid(65534)
        p = subprocess.Popen([kt, "test-passphrase", v.cipherdir], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             preexec_fn=as_nobody)
        try:
            deadline = time.monotonic() + 10
            while owner_of_proc(p.pid) != 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert owner_of_proc(p.pid) == 0, "cloakfs-keytool is dumpable"
            assert core_limit(p.pid) == "0", "cloakfs-keytool may write a core file"
        finally:
            p.kill()
            p.wait()
    # the mount runs as root here (/dev/fuse): ask the process itself
    v.mount()
    assert core_limit(v.proc.pid) == "0", "the mount may write a core file"
    gdb = shutil.which("gdb")
    if not gdb:
        pytest.skip("gdb not installed: the mount's dumpable flag not checked")
    r = subprocess.run([gdb, "-nx", "-batch", "-p", str(v.proc.pid),
                        "-ex", "print (int) prctl(3, 0, 0, 0, 0)"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    m = re.search(r"^\$1 = (-?\d+)$", r.stdout, re.M)
    assert m, "gdb could not ask the mount:\n" + r.stdout
    assert m.group(1) == "0", "the mount is dumpable (PR_GET_DUMPABLE = %s)" % m.group(1)


def stop_daemon(e):
    pid = daemon_pid(e)
    os.kill(pid, 15)
    for _ in range(100):
        if not os.path.exists("/proc/%d" % pid):
            return
        time.sleep(0.05)
    raise AssertionError("cloakfsd did not exit on SIGTERM")


def mount_with_passphrase(v, e):
    """cloakfs -f --passfile, cloakfsd allowed: the key is the mount's own"""
    err = open(v.stderr_path, "a")
    v.proc = subprocess.Popen([CLOAKFS, "-f", "--passfile", v.passfile, v.cipherdir, v.mnt],
                              env=e, stdin=subprocess.DEVNULL, stdout=err, stderr=err)
    err.close()
    v.wait_for_mount()


@pytest.mark.skipif(not CLOAKFSD or not KEYTOOL, reason="built without cloakfsd / cloakfs-keytool")
def test_passphrase_mount_obeys_lock(env):  # noqa: F811
    """a mount unlocked with a passphrase registers its key id with a
    running cloakfsd (the key is not handed over): keytool lock and lock
    --all make it wipe its keys (EACCES, no key bytes left in its memory);
    keytool unlock then unlocks it through the daemon; a mount made before
    the daemon started registers once it runs"""
    v = Volume("aes256-xts", tag="passlock")
    try:
        start_daemon(env)
        mount_with_passphrase(v, env)
        write_file(v.path("file"), b"own key" * 1000)
        secrets = volume_secrets(v)
        assert "PRK" in found_in(live_memory(v.proc.pid), secrets)
        assert "0 keys held" in keytool(env, "status"), "the key was handed to the daemon"
        fd = os.open(v.path("file"), os.O_RDONLY)
        try:
            assert os.pread(fd, 7, 0) == b"own key"
            out = keytool(env, "lock", v.cipherdir)
            assert "1 mount unlocked with a passphrase told to wipe its keys" in out, out
            eventually_locked(fd)
            with pytest.raises(PermissionError):
                os.listdir(v.mnt)

            def wiped():
                assert found_in(live_memory(v.proc.pid), secrets) == [], \
                    "in the mount's memory after lock: %s" % found_in(live_memory(v.proc.pid), secrets)
            eventually(wiped)
            # from now on it follows the daemon: unlock brings it back
            keytool(env, "unlock", "--passfile", v.passfile, v.cipherdir)
            eventually_reads(fd, 7, b"own key")
        finally:
            os.close(fd)
        assert read_file(v.path("file")) == b"own key" * 1000
        v.umount()

        # mounted while no daemon runs; lock --all once one does
        keytool(env, "lock", "--all")
        stop_daemon(env)
        mount_with_passphrase(v, env)
        assert os.listdir(v.mnt) == ["file"]
        start_daemon(env)

        def locked_all():
            keytool(env, "lock", "--all")
            try:
                os.listdir(v.mnt)
            except PermissionError:
                return
            raise AssertionError("lock --all did not reach the passphrase mount")
        eventually(locked_all)
        v.allowed_stderr = [r"locked", r"unlocked", r"key daemon"]
    finally:
        v.destroy()


@pytest.mark.skipif(not CLOAKFSD or not KEYTOOL or not EIO_PRELOAD,
                    reason="built without cloakfsd, cloakfs-keytool or the fault shim")
def test_lock_while_a_request_is_stuck(env):  # noqa: F811
    """a READ stuck in the backing store (a hung disk or network
    filesystem, made by the fault shim's stall rule) holds no lock that
    locking needs: keytool lock wipes every key of the mount within a
    second while the READ still hangs; released, the READ answers EACCES"""
    v = Volume("speck128-xts", tag="stuck")
    reader = None
    try:
        ctl = os.path.join(v.top, "fault.ctl")
        start_daemon(env)
        e = preload_env(EIO_PRELOAD, CLOAKFS_EIO_CTL=ctl,
                        **{k: x for k, x in env.items() if k.startswith(("XDG_", "CLOAKFSD"))})
        mount_with_passphrase(v, e)
        write_file(v.path("file"), b"stuck" * 20000)
        write_file(v.path("other"), b"fine" * 1000)
        secrets = volume_secrets(v)
        assert "PRK" in found_in(live_memory(v.proc.pid), secrets)
        cname = [n for n in os.listdir(v.cipherdir) if "." not in n and
                 os.path.getsize(os.path.join(v.cipherdir, n)) == 32 + 100000][0]
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("1\n")  # the READ must reach the mount
        write_file(ctl, ("stall:%s\n" % cname).encode())
        result = {}

        def read_it():
            try:
                result["data"] = read_file(v.path("file"))
            except OSError as ex:
                result["errno"] = ex.errno
        reader = threading.Thread(target=read_it, daemon=True)
        reader.start()
        eventually(lambda: os.path.exists(ctl + ".stalled") or _fail("no stall yet"))
        t0 = time.monotonic()
        out = keytool(env, "lock", v.cipherdir)
        assert "told to wipe" in out, out
        t_lock = time.monotonic() - t0

        # a scan of the mount's memory takes seconds: what counts is when
        # the first scan that finds no key began
        scans = []

        def wiped():
            scans.append(time.monotonic() - t0)
            left = found_in(live_memory(v.proc.pid), secrets)
            assert left == [], "in the mount's memory after lock: %s" % left
        eventually(wiped, timeout=20)
        print("no key in the mount's memory in a scan begun %.2f s after lock "
              "(keytool lock took %.2f s), with a READ stuck" % (scans[-1], t_lock))
        assert scans[-1] < 1.5, scans
        assert reader.is_alive(), "the READ was not stuck while locking"
        os.unlink(ctl)
        reader.join(30)
        assert not reader.is_alive(), "the READ did not come back"
        assert result.get("errno") == errno.EACCES, result
        v.allowed_stderr.append(r"^cloakfs: info: ")
    finally:
        if reader is not None and reader.is_alive() and os.path.exists(v.top):
            try:
                os.unlink(os.path.join(v.top, "fault.ctl"))
            except OSError:
                pass
        v.destroy()


def _fail(msg):
    raise AssertionError(msg)
