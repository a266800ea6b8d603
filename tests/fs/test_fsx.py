# SPDX-License-Identifier: MIT
"""The fsx-style differential test (fsx.c) on every cipher at once: one
mount per cipher, the same seeded random operations on the mount and on a
plain directory, then a remount and a byte comparison of every file.

CLOAKFS_FSX_OPS sets the operations per cipher (default below, chosen so
the whole suite stays within CI time on two cores); CLOAKFS_FSX_SEED the
first seed (cipher i uses seed + i). A failure prints the seed and the
last operations; fs_fsx --seed N --ops M replays it."""
import filecmp
import os
import subprocess
import time

from conftest import CONTENT_CIPHERS, FSX, Volume

DEFAULT_OPS = 200000


def test_fsx_every_cipher():
    ops = int(os.environ.get("CLOAKFS_FSX_OPS", DEFAULT_OPS))
    seed = int(os.environ.get("CLOAKFS_FSX_SEED", 1))
    vols, procs = [], []
    try:
        for i, c in enumerate(CONTENT_CIPHERS):
            # one volume with the smallest sector, where rules change most
            v = Volume(c, sector=512 if c == "speck64-xts" else None, tag="fsx")
            vols.append(v)
            v.mount()
            test, ref = v.path("fsx"), os.path.join(v.top, "ref")
            os.mkdir(test)
            os.mkdir(ref)
            out = open(os.path.join(v.top, "fsx.out"), "w")
            procs.append(subprocess.Popen(
                [FSX, "--seed", str(seed + i), "--ops", str(ops), test, ref],
                stdout=out, stderr=subprocess.STDOUT))
            out.close()
        t0 = time.monotonic()
        results = [p.wait() for p in procs]
        took = time.monotonic() - t0
        report = []
        for v, rc in zip(vols, results):
            with open(os.path.join(v.top, "fsx.out")) as f:
                text = f.read()
            report.append("%s (sector %d): %s" % (v.cipher, v.sector, text.strip()))
        print("\n".join(report) + "\nall ciphers in %.1f s" % took)
        assert all(rc == 0 for rc in results), "\n".join(report)
        for v in vols:
            v.remount()
            ref, test = os.path.join(v.top, "ref"), v.path("fsx")
            for sub in sorted(os.listdir(ref)):
                names = sorted(os.listdir(os.path.join(ref, sub)))
                assert sorted(os.listdir(os.path.join(test, sub))) == names
                match, mismatch, errors = filecmp.cmpfiles(
                    os.path.join(ref, sub), os.path.join(test, sub), names, shallow=False)
                assert not mismatch and not errors, (v.cipher, mismatch, errors)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        for v in vols:
            v.destroy()
