# SPDX-License-Identifier: MIT
"""The driver of bench/gluster-peers.sh (read its header): starts the
GlusterFS harness of the tests (tests/fs/gluster.py), times untar, a
sequential write and a cold read through each stack on client A, prints
medians and ratios in markdown, and stops everything it started.

Arguments: CLOAKFS KEYTOOL TREETAR WRITE_MIB REPS WORKDIR [STACK...]
"""
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "tests", "fs"))
import gluster  # noqa: E402

STACKS = ["gluster", "cloakfs", "cloakfs-shared", "gocryptfs", "gocryptfs-shared"]
TITLES = {"gluster": "GlusterFS directly", "cloakfs": "cloakfs default",
          "cloakfs-shared": "cloakfs -o shared", "gocryptfs": "gocryptfs",
          "gocryptfs-shared": "gocryptfs -sharedstorage"}
METRICS = [("untar", "untar (s)", False), ("write", "write (MiB/s)", True),
           ("rd-cold", "cold read (MiB/s)", True)]


def note(msg):
    sys.stderr.write("gluster-peers: %s\n" % msg)
    sys.stderr.flush()


def sh(*args, **kw):
    return subprocess.run(list(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kw)


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


class Bench:
    def __init__(self, argv):
        (self.cloakfs, self.keytool, self.treetar, mib, reps, self.work) = argv[:6]
        self.mib, self.reps = int(mib), int(reps)
        self.stacks = argv[6:] or STACKS
        self.passfile = os.path.join(self.work, "password")
        with open(self.passfile, "w") as f:
            f.write("gluster-peers-bench-password\n")
        os.chmod(self.passfile, 0o600)
        self.g = None
        self.proc = None
        self.results = {}  # (stack, metric) -> [values]
        self.notes = []

    # -- a stack on client A --------------------------------------------
    def make(self, stack, vol):
        """a new volume of stack in vol (on client A); False if it cannot be"""
        if stack == "gluster":
            os.mkdir(vol)
            return True
        os.mkdir(vol)
        if stack.startswith("cloakfs"):
            r = sh(self.keytool, "init", "--cipher", "aes256-xts", "--kdf-time", "0.1",
                   "--kdf-memory", "8", "--passfile", self.passfile, vol)
        else:
            r = sh("gocryptfs", "-q", "-init", "-scryptn", "10", "-passfile",
                   self.passfile, vol)
        if r.returncode != 0:
            raise RuntimeError("%s: making a volume failed: %s" % (stack, r.stdout))
        return True

    def mount(self, stack, vol):
        """the directory to work in; None when the stack's mount is refused"""
        if stack == "gluster":
            return vol
        mnt = os.path.join(self.work, "mnt")
        os.makedirs(mnt, exist_ok=True)
        if stack.startswith("cloakfs"):
            args = [self.cloakfs, "-f", "--no-cloakfsd", "--passfile", self.passfile]
            args += ["-o", "shared"] if stack == "cloakfs-shared" else []
        else:
            args = ["gocryptfs", "-q", "-fg", "-nosyslog", "-passfile", self.passfile]
            args += ["-sharedstorage"] if stack == "gocryptfs-shared" else []
        log = open(os.path.join(self.work, "log-" + stack), "a")
        self.proc = subprocess.Popen(args + [vol, mnt], stdin=subprocess.DEVNULL,
                                     stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + 60
        while not os.path.ismount(mnt):
            if self.proc.poll() is not None:
                self.proc = None
                with open(os.path.join(self.work, "log-" + stack)) as f:
                    return None, f.read().strip().splitlines()[-1:]
            if time.monotonic() > deadline:
                raise RuntimeError("%s did not mount" % stack)
            time.sleep(0.05)
        return mnt, None

    def umount(self):
        if self.proc is None:
            return
        mnt = os.path.join(self.work, "mnt")
        for _ in range(100):
            if sh("fusermount3", "-u", mnt).returncode == 0:
                break
            time.sleep(0.2)
        else:
            sh("fusermount3", "-u", "-z", mnt)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def remount_client(self):
        """gluster's client A afresh: its caches go with the mount"""
        sh("umount", self.g.a)
        gluster.run("mount", "-t", "glusterfs", "%s:/%s" % (self.g.host, self.g.name), self.g.a)

    # -- one repetition of one stack ----------------------------------
    def run_one(self, stack, rep):
        vol = os.path.join(self.g.a, "%s-%d" % (stack, rep))
        self.make(stack, vol)
        where, why = self.mount(stack, vol) if stack != "gluster" else (vol, None)
        if where is None:
            return "mount refused: %s" % " ".join(why)
        t0 = time.monotonic()
        r = sh("tar", "-C", where, "-xf", self.treetar)
        os.sync()
        t1 = time.monotonic()
        if r.returncode != 0:
            raise RuntimeError("%s: untar failed: %s" % (stack, r.stdout[-500:]))
        self.add(stack, "untar", t1 - t0)
        f = os.path.join(where, "seq.bin")
        t0 = time.monotonic()
        r = sh("dd", "if=/dev/zero", "of=" + f, "bs=1M", "count=%d" % self.mib,
               "conv=fdatasync", "status=none")
        t1 = time.monotonic()
        if r.returncode != 0:
            raise RuntimeError("%s: write failed: %s" % (stack, r.stdout))
        self.add(stack, "write", self.mib / (t1 - t0))
        # cold: the stack and gluster's client mounted afresh, caches dropped
        self.umount()
        self.remount_client()
        drop_caches()
        where, why = self.mount(stack, vol) if stack != "gluster" else (vol, None)
        if where is None:
            raise RuntimeError("%s: did not mount again: %s" % (stack, why))
        t0 = time.monotonic()
        r = sh("dd", "if=" + os.path.join(where, "seq.bin"), "of=/dev/null", "bs=1M",
               "status=none")
        t1 = time.monotonic()
        if r.returncode != 0:
            raise RuntimeError("%s: read failed: %s" % (stack, r.stdout))
        self.add(stack, "rd-cold", self.mib / (t1 - t0))
        self.umount()
        return None

    def add(self, stack, metric, value):
        self.results.setdefault((stack, metric), []).append(value)

    def run(self):
        self.g = gluster.Gluster(self.work)
        try:
            self.g.start()
            active = list(self.stacks)
            for rep in range(1, self.reps + 1):
                for stack in list(active):
                    note("rep %d: %s" % (rep, stack))
                    why = self.run_one(stack, rep)
                    if why:
                        self.notes.append("%s: left out (%s)" % (TITLES[stack], why))
                        active.remove(stack)
        finally:
            self.umount()
            self.g.stop()

    # -- the report -----------------------------------------------------
    def median(self, stack, metric):
        v = self.results.get((stack, metric))
        return statistics.median(v) if v else None

    def report(self):
        ran = [s for s in self.stacks if self.median(s, "untar") is not None]
        out = ["#### Medians of %d (untar: seconds, lower is better; MiB/s: higher)" % self.reps,
               "", "| stack | " + " | ".join(t for _, t, _ in METRICS) + " |",
               "|---" * (len(METRICS) + 1) + "|"]
        for s in ran:
            out.append("| %s | %s |" % (TITLES[s], " | ".join(
                "%.1f" % self.median(s, m) for m, _, _ in METRICS)))
        for base in ("gluster", "gocryptfs-shared"):
            if base not in ran:
                continue
            out += ["", "#### Speed relative to %s (higher = faster)" % TITLES[base], "",
                    "| stack | " + " | ".join(t.split(" (")[0] for _, t, _ in METRICS) + " |",
                    "|---" * (len(METRICS) + 1) + "|"]
            for s in ran:
                cells = []
                for m, _, higher in METRICS:
                    a, b = self.median(s, m), self.median(base, m)
                    cells.append("%.2f" % (a / b if higher else b / a))
                out.append("| %s | %s |" % (TITLES[s], " | ".join(cells)))
        if self.notes:
            out += [""] + ["- " + n for n in self.notes]
        return "\n".join(out) + "\n"


def main(argv):
    b = Bench(argv[1:])
    b.run()
    sys.stdout.write(b.report())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
