# SPDX-License-Identifier: MIT
"""kill -9 during writes: a writer appends to, overwrites and truncates
several files on a mount while the mount is killed with SIGKILL at a
random moment, several times (a fresh set of files each round). Then
cloakfs-fsck --deep: it either verifies each sector or lists it (exit 0
or 4), and lists exactly the sectors that read EIO through a mount;
--repair changes no file that holds data and deletes nothing (what it
quarantines keeps its bytes). Through a new mount every sector of every
file reads EIO or the bytes that sector held in one of the states the
writer took the file through (its prefix at the end of the file), never
anything else.

On authenticated volumes a sector torn by the kill fails its tag; on an
XTS volume nothing can notice one, so that case only holds while the
backing store writes each sector whole (tmpfs, SIGKILL of the writer of
the ciphertext: the kernel finishes a page it copies)."""
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import AEAD_CIPHERS, CONTENT_CIPHERS, FSCK, fusermount_u

S = 4096
FILES = 4
ROUNDS = 4
MAX_SIZE = 1 << 20
PIECE = 65536  # the writer's pwrite size
pytestmark = pytest.mark.skipif(not FSCK, reason="built without cloakfs-fsck")

# the writer: runs the operations of a JSON list on files below a
# directory, printing each one's index before it starts; stops at the
# first error (the mount is gone)
WRITER = r"""
import json, os, random, sys
top, ops = sys.argv[1], json.load(open(sys.argv[2]))
for i, (kind, name, off, n, seed) in enumerate(ops):
    print(i, flush=True)
    p = os.path.join(top, name)
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            if kind == "truncate":
                os.ftruncate(fd, n)
            else:
                data = random.Random(seed).randbytes(n)
                while data:  # pieces, so the kernel sends several WRITEs
                    done = os.pwrite(fd, data[:%d], off)
                    if done != min(len(data), %d):
                        sys.exit(0)  # the mount died during this one
                    data, off = data[done:], off + done
        finally:
            os.close(fd)
    except OSError:
        sys.exit(0)
"""


def make_ops(rng, prefix, count=20000):
    """a random sequence of appends, overwrites and truncates"""
    sizes = {}
    ops = []
    for i in range(count):
        name = "%s%d" % (prefix, rng.randrange(FILES))
        size = sizes.get(name, 0)
        kind = rng.choice(["append", "append", "overwrite", "truncate"])
        n = rng.choice([1, 100, S - 1, S, S + 1, 3 * S + 7, 70000, 200000])
        if kind == "truncate" or size + n > MAX_SIZE:
            kind = "truncate"
            n = rng.choice([0, rng.randrange(size + 1), size + rng.randrange(3 * S)])
            off = 0
        elif kind == "append":
            off = size
        else:
            off = rng.randrange(size + 1)
        ops.append([kind, name, off, n, rng.randrange(1 << 30)])
        sizes[name] = n if kind == "truncate" else max(size, off + n)
    return ops


class Model:
    """every state each file went through, kept per sector: sector i of
    a file may read as any slice that sector had"""

    def __init__(self):
        self.data = {}  # name -> bytearray (current state)
        self.seen = {}  # name -> {sector: set of bytes}

    def apply(self, op):
        kind, name, off, n, seed = op
        d = self.data.setdefault(name, bytearray())
        self.seen.setdefault(name, {})
        old = len(d)
        if kind == "truncate":
            if n < old:
                del d[n:]
            else:
                d.extend(bytes(n - old))
            self.note(name, min(n, old))
            return
        data = random.Random(seed).randbytes(n)
        for at in range(0, n, PIECE):  # each of the writer's pwrites a state
            piece = data[at:at + PIECE]
            if off + at > len(d):
                d.extend(bytes(off + at - len(d)))
            d[off + at:off + at + len(piece)] = piece
            self.note(name, min(off + at, old))

    def note(self, name, lo):
        """the sectors from offset lo to the end as they are now"""
        d, seen = self.data[name], self.seen[name]
        for i in range(lo // S, (len(d) + S - 1) // S):
            seen.setdefault(i, set()).add(bytes(d[i * S:(i + 1) * S]))


def kill_mount(v):
    v.proc.send_signal(signal.SIGKILL)
    assert v.proc.wait(timeout=30) == -signal.SIGKILL
    v.proc = None
    if fusermount_u(v.mnt) != 0:
        fusermount_u(v.mnt, lazy=True)
    assert not os.path.ismount(v.mnt)


def run_round(v, model, rng, prefix):
    ops = make_ops(rng, prefix)
    opsfile = os.path.join(v.top, "ops.json")
    with open(opsfile, "w") as f:
        json.dump(ops, f)
    v.mount()
    w = subprocess.Popen([sys.executable, "-c", WRITER % (PIECE, PIECE), v.mnt, opsfile],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # the kill: once a random operation has started, after a random delay
    # (the writer runs ahead of this reader by what the pipe holds: many
    # more operations than are ever reached keep it from finishing first)
    at, lines = rng.randrange(50, 1500), []
    while len(lines) <= at:
        line = w.stdout.readline()
        assert line, "the writer stopped early: %s" % "".join(lines[-5:])
        lines.append(line)
    time.sleep(rng.uniform(0, 0.01))
    kill_mount(v)
    out = "".join(lines) + w.communicate(timeout=60)[0]
    started = [int(l) for l in out.split() if l.isdigit()]
    assert w.returncode == 0, out[-2000:]
    assert len(started) > 1 and len(started) < len(ops), \
        "the kill came after %d of %d operations" % (len(started), len(ops))
    # the operation in flight may or may not have happened: both states
    for op in ops[:started[-1] + 1]:
        model.apply(op)
    return len(started)


def fsck(v, *extra):
    r = subprocess.run([FSCK, "--deep", "--json", "--passfile", v.passfile] + list(extra)
                       + [v.cipherdir], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    assert r.returncode in (0, 1, 4), "fsck exit %d:\n%s%s" % (r.returncode, r.stdout, r.stderr)
    rep = json.loads(r.stdout)
    assert rep["exit"] == r.returncode
    return r.returncode, rep


def torn_sectors(rep):
    """{(path, offset)} of the sectors fsck --deep found failing their tag"""
    out = set()
    for f in rep["findings"]:
        m = re.search(r"sector at offset (\d+) .*fails its tag", f["detail"])
        if m:
            out.add((f["path"], int(m.group(1))))
    return out


def cipher_bytes(v):
    """{bytes of each regular ciphertext file}: what repair must keep"""
    out = set()
    for p in v.cipher_files():
        if os.path.isfile(p) and not os.path.islink(p):
            with open(p, "rb") as f:
                out.add(f.read())
    return out


def read_back(v, model):
    """every sector of every file through the mount: its bytes or EIO.
    Returns ({(path, offset) that read EIO}, number of sectors checked)"""
    eio, checked = set(), 0
    names = set(os.listdir(v.mnt)) - {"lost+found.cloakfs"}
    assert names <= set(model.data), "files nobody wrote: %s" % (names - set(model.data))
    for name in sorted(names):
        size = os.stat(v.path(name)).st_size
        seen = model.seen.get(name, {})
        fd = os.open(v.path(name), os.O_RDONLY)
        try:
            for i in range((size + S - 1) // S):
                checked += 1
                try:
                    b = os.pread(fd, S, i * S)
                except OSError as e:
                    assert e.errno == 5, "%s sector %d: %s" % (name, i, e)
                    eio.add(("/" + name, i * S))
                    continue
                assert len(b) == min(S, size - i * S), (name, i, len(b))
                assert any(s[:len(b)] == b for s in seen.get(i, ()) if len(s) >= len(b)), \
                    "%s: sector %d (%d bytes) is no state the writer gave it" % (
                        name, i, len(b))
        finally:
            os.close(fd)
    return eio, checked


@pytest.mark.parametrize("cipher", [c for c in CONTENT_CIPHERS
                                    if c in AEAD_CIPHERS or c == "aes256-xts"])
def test_kill_during_writes(volume_factory, cipher):
    seed = int(os.environ.get("CLOAKFS_KILL_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    v = volume_factory(cipher, tag="kill", mount=False)
    v.allowed_stderr = [r"is damaged", r"fails its tag"]
    model = Model()
    done = [run_round(v, model, rng, "r%d-" % r) for r in range(ROUNDS)]
    print("seed %d: operations started per round %s" % (seed, done))

    rc, rep = fsck(v)
    torn = torn_sectors(rep)
    # what a kill may leave besides torn sectors: a temporary entry
    other = {f["class"] for f in rep["findings"] if f["severity"] == "error"
             and not re.search(r"fails its tag", f["detail"])}
    assert other <= {"temp-entry"}, "seed %d: %s" % (seed, rep["findings"])
    assert rc == (4 if torn or other else 0), "seed %d: exit %d %s" % (seed, rc, rep)
    if cipher not in AEAD_CIPHERS:
        assert not torn, rep
    # a kill cuts into the one change in flight: a sector or two per round
    # (a volume whose every sector fails would pass the rest)
    assert len(torn) <= 2 * ROUNDS, "seed %d: %d torn sectors" % (seed, len(torn))

    # --repair: never a silent change of a file's data, nothing deleted
    before = cipher_bytes(v)
    rc2, rep2 = fsck(v, "--repair")
    assert torn_sectors(rep2) == torn, (rep, rep2)
    assert rc2 == (4 if torn else 1 if other else 0), "seed %d: %s" % (seed, rep2)
    assert before <= cipher_bytes(v), "seed %d: repair lost a file's bytes" % seed

    v.mount()
    eio, checked = read_back(v, model)
    v.umount()
    # the mount and fsck agree on which sectors are damaged
    assert eio == torn, "seed %d: EIO %s, fsck %s" % (seed, sorted(eio), sorted(torn))
    print("%s: %d sectors checked, %d torn" % (cipher, checked, len(torn)))
    assert checked > 0
