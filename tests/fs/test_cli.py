# SPDX-License-Identifier: MIT
"""The cloakfs mount command: errors reach the terminal and the exit status
before it goes to the background, -o options (ro, allow_other), --idle,
signals, and /etc/fstab through mount(8) and mount.fuse3."""
import errno
import fcntl
import os
import shutil
import signal
import stat
import subprocess
import time

import pytest

from conftest import (CLOAKFS, Volume, expect_errno, fusermount_u, read_file, run_on_pty,
                      scratch_for_all, write_file)

EXIT_WRONG_PASS, EXIT_USAGE, EXIT_BAD_VOLUME, EXIT_NO_PASS, EXIT_MOUNT = 2, 3, 4, 6, 9


def run(*args, timeout=60, **kw):
    return subprocess.run([CLOAKFS] + list(args), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, **kw)


def pids_of(cipherdir):
    """cloakfs processes serving cipherdir"""
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open("/proc/%s/cmdline" % p, "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if argv and os.path.basename(argv[0]) == b"cloakfs" and cipherdir.encode() in argv:
                out.append(int(p))
    return out


def wait_gone(cipherdir, timeout=10):
    deadline = time.monotonic() + timeout
    while pids_of(cipherdir) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not pids_of(cipherdir)


@pytest.fixture
def vol():
    v = Volume("speck128-xts", tag="cli")
    yield v
    if os.path.ismount(v.mnt):
        fusermount_u(v.mnt, lazy=True)
    v.destroy()


def test_usage_and_help(vol):
    r = run()
    assert r.returncode == EXIT_USAGE and b"CIPHERDIR" in r.stderr
    r = run("--bogus", vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_USAGE and b"--bogus" in r.stderr
    r = run("--passfile", "a", "--extpass", "b", vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_USAGE
    r = run("--idle", "soon", vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_USAGE
    for bad in ("--readahead=99999", "--readahead=-1", "-oreadahead=4k"):
        r = run(bad, vol.cipherdir, vol.mnt)
        assert r.returncode == EXIT_USAGE and b"readahead" in r.stderr, bad
    r = run("--help")
    assert r.returncode == 0 and b"usage: cloakfs" in r.stdout
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith(b"cloakfs ")


def test_errors_reach_the_terminal(vol, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run("--passfile", vol.passfile, str(empty), vol.mnt)
    assert r.returncode == EXIT_BAD_VOLUME and b"not a cloakfs volume" in r.stderr
    wrong = tmp_path / "wrong"
    wrong.write_text("not the passphrase\n")
    r = run("--no-cloakfsd", "--passfile", str(wrong), vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_WRONG_PASS and b"wrong passphrase" in r.stderr
    nopass = tmp_path / "nopass"
    nopass.write_text("")
    r = run("--no-cloakfsd", "--passfile", str(nopass), vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_NO_PASS
    r = run("--no-cloakfsd", "--extpass", "exit 3", vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_NO_PASS
    r = run("--no-cloakfsd", "--passfile", vol.passfile, vol.cipherdir, str(tmp_path / "nomnt"))
    assert r.returncode == EXIT_MOUNT and b"nomnt" in r.stderr
    r = run("--no-cloakfsd", "--passfile", vol.passfile, vol.cipherdir, vol.passfile)
    assert r.returncode == EXIT_MOUNT and b"not a directory" in r.stderr
    vol.mount()
    r = run("--no-cloakfsd", "--passfile", vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_MOUNT and b"busy" in r.stderr
    vol.umount()
    # a tampered config is refused, with the file and line named
    conf = os.path.join(vol.cipherdir, "cloakfs.conf")
    text = open(conf).read()
    os.chmod(conf, 0o600)
    with open(conf, "w") as f:
        f.write(text.replace("sector_size = 4096", "sector_size = 4000"))
    r = run("--no-cloakfsd", "--passfile", vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_BAD_VOLUME and b"sector_size" in r.stderr
    assert not os.path.ismount(vol.mnt)


def test_deriving_the_key_is_said_on_a_terminal(vol):
    cmd = [CLOAKFS, "--no-cloakfsd", "--passfile", vol.passfile, vol.cipherdir, vol.mnt]
    rc, _, tty = run_on_pty(cmd, None)
    assert rc == 0, tty
    assert "deriving the key from the passphrase (Argon2id" in tty and "done" in tty, tty
    assert fusermount_u(vol.mnt) == 0 and wait_gone(vol.cipherdir)
    # not a terminal: not a word
    r = run(*cmd[1:])
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    assert fusermount_u(vol.mnt) == 0 and wait_gone(vol.cipherdir)


NOBODY = [shutil.which("setpriv") or "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("setpriv"),
                    reason="needs root, unshare and setpriv (a private mount namespace)")
@pytest.mark.parametrize("cause,setup,want", [
    # no device at all: an empty /dev
    ("missing", "mkdir $T/shm && mount --bind /dev/shm $T/shm && mount -t tmpfs tmpfs /dev && "
     "mkdir /dev/shm && mount --move $T/shm /dev/shm",
     [b"/dev/fuse does not exist", b"modprobe fuse"]),
    # a device the user may not open
    ("permission", "touch $T/fuse && chmod 600 $T/fuse && mount --bind $T/fuse /dev/fuse",
     [b"/dev/fuse: permission denied", b"ls -l /dev/fuse"]),
    # no fusermount3 for a user who is not root
    ("no fusermount3", "touch $T/fuse && chmod 666 $T/fuse && mount --bind $T/fuse /dev/fuse && "
     "touch $T/fm && chmod 644 $T/fm && "
     "for f in /usr/bin/fusermount3 /bin/fusermount3; do [ -e $f ] && mount --bind $T/fm $f; done; "
     "export PATH=/nonexistent",
     [b"fusermount3", b"install the fuse3 package"]),
])
def test_fuse_unavailable_says_why(vol, tmp_path, cause, setup, want):
    # the ordinary user owns the volume and the mountpoint
    os.chmod(vol.top, 0o755)
    os.chmod(vol.passfile, 0o644)
    subprocess.run(["chown", "-R", "65534:65534", vol.cipherdir, vol.mnt], check=True)
    t = tmp_path / "t"
    t.mkdir()
    os.chmod(tmp_path, 0o755)
    script = "set -e; T=%s; %s; exec %s %s --no-cloakfsd --passfile %s %s %s" % (
        t, setup, " ".join(NOBODY), CLOAKFS, vol.passfile, vol.cipherdir, vol.mnt)
    r = subprocess.run(["unshare", "-m", "sh", "-c", script], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert r.returncode == EXIT_MOUNT, (cause, r.returncode, r.stderr)
    assert r.stderr.count(b"\n") == 1, r.stderr
    for w in want:
        assert w in r.stderr, (cause, r.stderr)


def test_background_and_extpass(vol):
    r = run("--no-cloakfsd", "--extpass", "cat " + vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == 0, r.stderr
    assert os.path.ismount(vol.mnt)  # mounted before the command returned
    write_file(os.path.join(vol.mnt, "f"), b"in the background")
    assert read_file(os.path.join(vol.mnt, "f")) == b"in the background"
    assert len(pids_of(vol.cipherdir)) == 1
    assert fusermount_u(vol.mnt) == 0
    assert wait_gone(vol.cipherdir)
    with open("/proc/mounts") as f:
        assert vol.mnt not in f.read()


def locked(path, mode):
    """a descriptor of directory path holding flock mode, or None when
    another process holds a lock that conflicts"""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def test_mount_waits_for_the_volume_lock(vol):
    """a mount does not read the volume while cloakfs-keytool holds its
    lock (an upgrade converting it): it says so and waits; once mounted
    it lets go of the lock, in the background too (docs/design.md)"""
    fd = locked(vol.cipherdir, fcntl.LOCK_EX)  # as cloakfs-keytool holds it
    assert fd is not None
    try:
        err = open(vol.stderr_path, "a")
        vol.proc = subprocess.Popen([CLOAKFS, "-f", "--no-cloakfsd", "--passfile",
                                     vol.passfile, vol.cipherdir, vol.mnt],
                                    stdin=subprocess.DEVNULL, stdout=err, stderr=err)
        err.close()
        deadline = time.monotonic() + 60
        while "waiting for cloakfs-keytool working on %s" % vol.cipherdir not in vol.stderr():
            assert vol.proc.poll() is None, vol.stderr()
            assert time.monotonic() < deadline, vol.stderr()
            time.sleep(0.02)
        assert not os.path.ismount(vol.mnt) and vol.proc.poll() is None
    finally:
        os.close(fd)  # the keytool is done
    vol.wait_for_mount()
    write_file(os.path.join(vol.mnt, "f"), b"after the wait")
    # mounted: the lock is free for the next keytool (which then finds
    # the mount in mountinfo)
    fd = locked(vol.cipherdir, fcntl.LOCK_EX)
    assert fd is not None
    os.close(fd)
    vol.umount()
    # nothing to wait for: not a word about it; in the background the
    # lock is not kept by the child either
    r = run("--no-cloakfsd", "--passfile", vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == 0 and b"waiting" not in r.stderr, r.stderr
    assert read_file(os.path.join(vol.mnt, "f")) == b"after the wait"
    fd = locked(vol.cipherdir, fcntl.LOCK_EX)
    assert fd is not None
    os.close(fd)
    assert fusermount_u(vol.mnt) == 0
    assert wait_gone(vol.cipherdir)


def test_stdin_passphrase_and_sigterm(vol):
    with open(vol.passfile) as pf:
        proc = subprocess.Popen([CLOAKFS, "-f", "--no-cloakfsd", vol.cipherdir, vol.mnt],
                                stdin=pf, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while not os.path.ismount(vol.mnt) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.02)
    assert os.path.ismount(vol.mnt)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0
    assert not os.path.ismount(vol.mnt)


def test_sigterm_with_open_directories(vol):
    """a mount stopped while directories are open (their RELEASEDIR never
    comes) exits cleanly and frees their handles: the sanitizer build's
    leak check sees the mount's exit"""
    vol.mount()
    os.mkdir(os.path.join(vol.mnt, "d"))
    fds = [os.open(p, os.O_RDONLY | os.O_DIRECTORY)
           for p in (vol.mnt, os.path.join(vol.mnt, "d"))]
    try:
        assert os.listdir("/proc/self/fd/%d" % fds[1]) == []
        vol.proc.send_signal(signal.SIGTERM)
        assert vol.proc.wait(timeout=20) == 0, vol.stderr()
        vol.proc = None
        vol.check_stderr()
    finally:
        for fd in fds:
            os.close(fd)
    assert not os.path.ismount(vol.mnt)


def test_fsname_in_mounts(vol):
    vol.mount()
    with open("/proc/mounts") as f:
        line = [l for l in f if " %s " % vol.mnt in l][0]
    assert line.split()[0] == vol.cipherdir and line.split()[2] == "fuse.cloakfs"
    vol.umount()


def test_read_only(vol):
    vol.mount()
    write_file(os.path.join(vol.mnt, "f"), b"data")
    vol.remount("-o", "ro")
    assert read_file(os.path.join(vol.mnt, "f")) == b"data"
    expect_errno(errno.EROFS, os.open, os.path.join(vol.mnt, "f"), os.O_WRONLY)
    expect_errno(errno.EROFS, os.mkdir, os.path.join(vol.mnt, "d"))
    vol.umount()


def bdi_readahead_kb(mnt):
    """read_ahead_kb of the mount's own backing device info"""
    with open("/proc/self/mountinfo") as f:
        dev = [l.split()[2] for l in f if l.split()[4] == mnt][-1]
    with open("/sys/class/bdi/%s/read_ahead_kb" % dev) as f:
        return int(f.read())


@pytest.mark.skipif(os.geteuid() != 0, reason="sysfs read_ahead_kb needs root")
def test_readahead_window(vol):
    # set on the first open: the INIT reply would lower an earlier setting
    for extra, want in (((), 4096), (("-o", "readahead=512"), 512),
                        (("--readahead", "0"), None)):
        vol.mount(*extra)
        before = bdi_readahead_kb(vol.mnt)
        write_file(os.path.join(vol.mnt, "f"), b"data")
        assert read_file(os.path.join(vol.mnt, "f")) == b"data"
        assert bdi_readahead_kb(vol.mnt) == (want or before), extra
        vol.umount()


def mounted(mnt):
    """from /proc/mounts: a stat of the mountpoint would count as use"""
    with open("/proc/mounts") as f:
        return any(l.split()[1] == mnt for l in f)


def wait_idle_unmount(vol, timeout=20):
    """the mount goes by itself, and its process exits 0"""
    deadline = time.monotonic() + timeout
    while mounted(vol.mnt) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not mounted(vol.mnt)
    assert vol.proc.wait(timeout=10) == 0
    vol.proc = None


def test_idle_units(vol):
    for bad in ("10x", "-5m", "5 m", "1e3", "2h30m", "m", "366d"):
        r = run("--idle", bad, vol.cipherdir, vol.mnt)
        assert r.returncode == EXIT_USAGE and b"--idle" in r.stderr and b"10m" in r.stderr, bad
        r = run("-o", "idle=" + bad, vol.cipherdir, vol.mnt)
        assert r.returncode == EXIT_USAGE and b"idle" in r.stderr, bad
    # 3s, with a unit: unmounted when unused
    vol.mount("--idle", "3s")
    write_file(os.path.join(vol.mnt, "f"), b"x")
    wait_idle_unmount(vol)
    # 10m: still mounted a few seconds later
    vol.mount("-o", "idle=10m")
    time.sleep(4)
    assert mounted(vol.mnt)
    vol.umount()


def test_shared_options(vol):
    """-o shared and shared_timeout=: bad values and a timeout without
    shared refused by name; a shared mount (fstab order, options after
    the directories) reads back what it wrote, appends and truncates"""
    for bad in ("shared,shared_timeout=soon", "shared,shared_timeout=-1",
                "shared,shared_timeout=3601", "shared_timeout=2"):
        r = run(vol.cipherdir, vol.mnt, "-o", bad)
        assert r.returncode == EXIT_USAGE and b"shared_timeout" in r.stderr, bad
        assert not mounted(vol.mnt)
    r = run("--help")
    assert b"shared_timeout=" in r.stdout
    vol.mount("-o", "shared,shared_timeout=0.5")
    p = os.path.join(vol.mnt, "f")
    write_file(p, b"x" * 5000)
    with open(p, "ab") as f:
        f.write(b"tail")
    os.truncate(p, 4098)
    assert read_file(p) == b"x" * 4096 + b"xx"
    vol.umount()


def test_ro_flag(vol):
    vol.mount()
    write_file(os.path.join(vol.mnt, "kept"), b"before")
    vol.umount()
    for opt in (["--ro"], ["-o", "ro"]):
        vol.mount(*opt)
        assert read_file(os.path.join(vol.mnt, "kept")) == b"before"
        expect_errno(errno.EROFS, write_file, os.path.join(vol.mnt, "new"), b"x")
        expect_errno(errno.EROFS, os.unlink, os.path.join(vol.mnt, "kept"))
        with open("/proc/mounts") as f:
            [opts] = [l.split()[3] for l in f if l.split()[1] == vol.mnt]
        assert opts.split(",")[0] == "ro", opts
        vol.umount()


def test_external_config(vol, tmp_path):
    vol.mount()
    write_file(os.path.join(vol.mnt, "doc"), b"synced ciphertext")
    vol.umount()
    # the config moves out of the (synced) ciphertext directory
    conf = str(tmp_path / "vol.conf")
    shutil.move(os.path.join(vol.cipherdir, "cloakfs.conf"), conf)
    r = run("--no-cloakfsd", "--passfile", vol.passfile, vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_BAD_VOLUME and b"not a cloakfs volume" in r.stderr
    r = run("--no-cloakfsd", "--passfile", vol.passfile, "--config",
            str(tmp_path / "missing.conf"), vol.cipherdir, vol.mnt)
    assert r.returncode == EXIT_BAD_VOLUME and b"missing.conf: no such file" in r.stderr
    for opt in (["--config", conf], ["-o", "config=" + conf]):
        vol.mount(*opt)
        assert read_file(os.path.join(vol.mnt, "doc")) == b"synced ciphertext"
        write_file(os.path.join(vol.mnt, "new"), b"written")
        vol.umount()
    assert "cloakfs.conf" not in os.listdir(vol.cipherdir)
    # in the background too (the config is read before it detaches)
    r = run("--no-cloakfsd", "--passfile", vol.passfile, "--config", conf,
            vol.cipherdir, vol.mnt)
    assert r.returncode == 0, r.stderr
    assert read_file(os.path.join(vol.mnt, "new")) == b"written"
    assert fusermount_u(vol.mnt) == 0
    assert wait_gone(vol.cipherdir)


def test_idle_unmount(vol):
    vol.mount("--idle", "0.04")  # 2.4 seconds
    p = os.path.join(vol.mnt, "f")
    write_file(p, b"x")
    fd = os.open(p, os.O_RDONLY)
    time.sleep(5)
    assert mounted(vol.mnt)  # an open file keeps it mounted
    os.close(fd)
    wait_idle_unmount(vol)


@pytest.mark.skipif(os.geteuid() != 0,
                    reason="needs root: mounts with allow_other and works in it as uid 1000")
def test_allow_other_ownership_and_permissions():
    # uid 1000 works in the mount: the volume sits where it can get to
    vol = Volume("speck128-xts", tag="cli", base=scratch_for_all())
    try:
        allow_other_ownership_and_permissions(vol)
    finally:
        vol.destroy()


def allow_other_ownership_and_permissions(vol):
    os.chmod(vol.top, 0o755)
    vol.mount("-o", "allow_other")
    os.chmod(vol.mnt, 0o777)
    secret = os.path.join(vol.mnt, "root-only")
    write_file(secret, b"root")
    os.chmod(secret, 0o600)
    suid = os.path.join(vol.mnt, "suid")
    write_file(suid, b"x")
    os.chown(suid, 1000, 1000)
    os.chmod(suid, 0o4755)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setgid(1000)
            os.setuid(1000)
            try:
                open(secret, "rb")
                code = 2  # default_permissions must apply
            except PermissionError:
                with open(os.path.join(vol.mnt, "mine"), "wb") as f:
                    f.write(b"made by uid 1000")
                with open(suid, "ab") as f:
                    f.write(b"y")
                code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    st = os.stat(os.path.join(vol.mnt, "mine"))
    assert (st.st_uid, st.st_gid) == (1000, 1000)
    assert not os.stat(suid).st_mode & stat.S_ISUID  # the kernel killed it
    vol.umount()


# mount.fuse3 lives in /sbin, outside an ordinary user's PATH
MOUNT_FUSE3 = shutil.which("mount.fuse3", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")


def mount_fuse3_env():
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(CLOAKFS) + ":" + env.get("PATH", "/usr/bin:/bin")
    return env


@pytest.mark.skipif(MOUNT_FUSE3 is None, reason="mount.fuse3 missing")
def test_mount_fuse3(vol):
    """what mount(8) runs for an fstab line of type fuse.cloakfs"""
    r = subprocess.run([MOUNT_FUSE3, vol.cipherdir, vol.mnt, "-t", "cloakfs", "-o",
                        "passfile=%s,nocloakfsd,noauto,nofail,_netdev,x-systemd.automount"
                        % vol.passfile], env=mount_fuse3_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert r.returncode == 0, r.stderr
    try:
        write_file(os.path.join(vol.mnt, "via-mount.fuse3"), b"ok")
        assert read_file(os.path.join(vol.mnt, "via-mount.fuse3")) == b"ok"
    finally:
        assert fusermount_u(vol.mnt) == 0
    assert wait_gone(vol.cipherdir)


@pytest.mark.skipif(shutil.which("mount") is None or MOUNT_FUSE3 is None,
                    reason="mount(8) or mount.fuse3 missing")
@pytest.mark.skipif(os.geteuid() != 0,
                    reason="needs root: mount(8) takes another fstab (-T) from root only")
def test_fstab(vol, tmp_path):
    """a real fstab line through mount(8), which finds cloakfs on the
    standard PATH only: a link in /usr/local/bin stands in for the install"""
    link = "/usr/local/bin/cloakfs"
    made = False
    if not os.path.lexists(link):
        if not os.access("/usr/local/bin", os.W_OK):
            pytest.skip("cannot put cloakfs on mount(8)'s PATH")
        os.symlink(CLOAKFS, link)
        made = True
    elif os.path.realpath(link) != os.path.realpath(CLOAKFS):
        pytest.skip("another cloakfs is installed in /usr/local/bin")
    fstab = tmp_path / "fstab"
    fstab.write_text("# cloakfs through mount.fuse3\n"
                     "%s %s fuse.cloakfs passfile=%s,nocloakfsd,noauto 0 0\n"
                     % (vol.cipherdir, vol.mnt, vol.passfile))
    try:
        r = subprocess.run(["mount", "-T", str(fstab), vol.mnt],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        assert r.returncode == 0, r.stderr
        try:
            assert os.path.ismount(vol.mnt)
            write_file(os.path.join(vol.mnt, "via-fstab"), b"ok")
            assert read_file(os.path.join(vol.mnt, "via-fstab")) == b"ok"
        finally:
            subprocess.run(["umount", vol.mnt], check=True)
        assert wait_gone(vol.cipherdir)
    finally:
        if made:
            os.unlink(link)
