# SPDX-License-Identifier: MIT
"""A real distributed filesystem on this one machine, for the tests of
several machines sharing one ciphertext directory: GlusterFS (Debian's
glusterfs-server and glusterfs-client), glusterd and a replica-2 volume
whose bricks lie in a temporary directory, mounted twice with gluster's
FUSE client. The two client mounts stand for two machines, A and B: each
has its own caches, and everything one writes reaches the other only
through the bricks.

Gluster refuses 127.0.0.1 as a brick host but takes a host name that
resolves to a loopback address: the machine's own name where it does,
else "localhost". Everything started here is stopped again by stop():
the volume is stopped and deleted, and glusterd (with the brick and
self-heal daemons it started) is ended when this harness started it.
Needs root (glusterd, mount); skip() says why it cannot run.
"""
import ipaddress
import os
import shutil
import socket
import subprocess
import tempfile
import time

# How long gluster's own commands may take (volume create/start, mount);
# a command that takes longer means a broken setup, not a slow one.
COMMAND_TIMEOUT = 120


def why_not():
    """None when the harness can run here, else the reason it cannot"""
    if os.geteuid() != 0:
        return "GlusterFS needs root (glusterd and its mounts)"
    for tool in ("glusterd", "gluster", "mount.glusterfs"):
        if not shutil.which(tool) and not os.path.exists("/sbin/" + tool):
            return "%s is not installed (glusterfs-server, glusterfs-client)" % tool
    if loopback_host() is None:
        return "no host name resolves to a loopback address"
    return None


def loopback_host():
    for name in (socket.gethostname(), "localhost"):
        try:
            addrs = {a[4][0] for a in socket.getaddrinfo(name, None, socket.AF_INET)}
        except OSError:
            continue
        if addrs and all(ipaddress.ip_address(a).is_loopback for a in addrs):
            return name
    return None


def run(*args, timeout=COMMAND_TIMEOUT, check=True):
    r = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode,
                                                 r.stdout.decode(errors="replace")))
    return r


def glusterd_running():
    return subprocess.run(["pgrep", "-x", "glusterd"], stdout=subprocess.DEVNULL).returncode == 0


class Gluster:
    """glusterd, one replica-2 volume and two client mounts (a, b)"""

    def __init__(self, base=None):
        self.top = tempfile.mkdtemp(prefix="cloakfs-gluster-", dir=base)
        self.name = "cloakfs-test-%d" % os.getpid()
        self.host = loopback_host()
        self.bricks = [os.path.join(self.top, "brick%d" % i) for i in (1, 2)]
        self.a = os.path.join(self.top, "client-a")
        self.b = os.path.join(self.top, "client-b")
        self.started_glusterd = False
        self.created = False
        self.mounted = []

    def start(self):
        for d in self.bricks + [self.a, self.b]:
            os.mkdir(d)
        if not glusterd_running():
            run("glusterd")
            self.started_glusterd = True
        # a glusterd that cannot listen exits: say so rather than wait

        deadline = time.monotonic() + COMMAND_TIMEOUT
        while run("gluster", "--mode=script", "pool", "list", check=False).returncode != 0:
            if not glusterd_running():
                raise RuntimeError("glusterd exited at its start (its log: "
                                   "/var/log/glusterfs/glusterd.log)")
            if time.monotonic() > deadline:
                raise RuntimeError("glusterd did not answer within %d s" % COMMAND_TIMEOUT)
            time.sleep(0.2)
        # both bricks on one host: gluster wants "force" for that
        run("gluster", "--mode=script", "volume", "create", self.name, "replica", "2",
            *["%s:%s" % (self.host, b) for b in self.bricks], "force")
        self.created = True
        # quick-read answers reads of a small file from a client-side copy
        # that no lock or sync refreshes (seen: a read-modify-write under
        # an OFD lock read content a second old and lost the other
        # machine's write); docs/design.md "Several machines" asks it off
        # for shared use, so the volume is set up that way
        run("gluster", "--mode=script", "volume", "set", self.name,
            "performance.quick-read", "off")
        run("gluster", "--mode=script", "volume", "start", self.name)
        for m in (self.a, self.b):
            run("mount", "-t", "glusterfs", "%s:/%s" % (self.host, self.name), m)
            self.mounted.append(m)
        return self

    def stop(self):
        errors = []
        for m in reversed(self.mounted):
            if run("umount", m, check=False).returncode != 0:
                run("umount", "-l", m, check=False)
        self.mounted = []
        if self.created:
            for verb in ("stop", "delete"):
                r = run("gluster", "--mode=script", "volume", verb, self.name, check=False)
                if r.returncode != 0:
                    errors.append(r.stdout.decode(errors="replace"))
            self.created = False
        if self.started_glusterd:
            # glusterd and what it started for this volume: the brick
            # daemons (stopped with the volume) and the self-heal daemon
            for proc in ("glusterd", "glustershd", "glusterfsd"):
                subprocess.run(["pkill", "-x", proc], stdout=subprocess.DEVNULL)
            subprocess.run(["pkill", "-f", "glustershd"], stdout=subprocess.DEVNULL)
            # gone before the next start: a glusterd still exiting holds
            # its port, and a new one would fail to listen
            deadline = time.monotonic() + 30
            while glusterd_running() and time.monotonic() < deadline:
                time.sleep(0.1)
            if glusterd_running():
                subprocess.run(["pkill", "-9", "-x", "glusterd"], stdout=subprocess.DEVNULL)
            self.started_glusterd = False
        shutil.rmtree(self.top, ignore_errors=True)
        if errors:
            raise RuntimeError("gluster: " + "; ".join(errors))
