#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every hctr2(sm4), hctr2(camellia) and hctr2(aes) driver against
hctr2_oracle.py, an HCTR2 written from the paper over python3-cryptography.

First the oracle must reproduce the RFC 8452 POLYVAL vector and the
published hctr2(aes) vectors (crypto/aes/aes-testvec.c), then the
checked-in hctr2(sm4) and hctr2(camellia) tables it printed; then each
driver cloakfs-enc lists encrypts and decrypts messages of 16 to 4096
bytes (whole and partial last blocks) under the tweaks names use and
arbitrary ones, compared with the oracle both ways.

usage: test_hctr2_oracle.py CRYPTO_SRC_DIR CLOAKFS_ENC
Exit 77 (skipped) without python3-cryptography's SM4 and Camellia.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hctr2_oracle import block_decryptor, det_bytes, hctr2, polyval  # noqa: E402

SKIP = 77
LENGTHS = [16, 17, 31, 32, 33, 47, 64, 100, 255, 256, 511, 4095, 4096]
KEYS = {"aes": [16, 24, 32], "sm4": [16], "camellia": [16, 24, 32]}
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def c_vectors(path, array):
    """(key, iv, ptext, ctext) of one cipher_testvec array in a C file."""
    src = open(path).read()
    m = re.search(r"cipher_testvec %s\[\] = \{(.*?)\n\};" % array, src, re.S)
    if not m:
        sys.exit("%s: no array %s" % (path, array))
    out = []
    for entry in re.findall(r"\{ /\*.*?\n\t\},", m.group(1), re.S):
        f = {}
        for name, strs in re.findall(r"\.(\w+) = ((?:\"[0-9a-f]*\"\s*)+)", entry):
            f[name] = bytes.fromhex("".join(re.findall(r"\"([0-9a-f]*)\"", strs)))
        out.append((f["key"], f["iv"], f["ptext"], f["ctext"]))
    if not out:
        sys.exit("%s: %s has no vectors" % (path, array))
    return out


def check_oracle(srcdir):
    """The oracle against published vectors, then the tables it made."""
    h = bytes.fromhex("25629347589242761d31f826ba4b757b")
    x = bytes.fromhex("4f4f95668c83dfb6401762bb2d01a262"
                      "d1a24ddd2721d006bbe45f20d3c9f362")
    if polyval(h, x).hex() != "f7a3b47b846119fae5b7866cf5e5b77e":
        fail("oracle: POLYVAL differs from RFC 8452 Appendix A")
    sets = [("aes", "aes/aes-testvec.c", a) for a in
            ("aes128_hctr2_tv", "aes192_hctr2_tv", "aes256_hctr2_tv")]
    sets += [("sm4", "sm4/sm4-testvecs.c", "sm4_hctr2_tv"),
             ("camellia", "camellia/camellia-testvecs.c", "camellia_hctr2_tv")]
    n = 0
    for cipher, path, array in sets:
        for i, (key, iv, p, c) in enumerate(c_vectors(os.path.join(srcdir, path), array)):
            got = hctr2(cipher, key).encrypt(iv, p)
            if got != c:
                fail("oracle: %s vector %d (%d bytes) differs from %s" %
                     (array, i, len(p), path))
            n += 1
    print("oracle reproduces %d checked-in hctr2 vectors (aes published)" % n)


def drivers(enc):
    out = subprocess.run([enc, "--list"], capture_output=True, text=True,
                         check=True).stdout
    d = {}
    for line in out.splitlines():
        f = line.split()
        m = re.fullmatch(r"hctr2\((\w+)\)", f[0]) if f else None
        # a driver this CPU cannot run ("missing=pmull" under qemu's
        # cortex-a7, say) is not one cloakfs-enc may run here
        if m and not any(x.startswith("missing=") for x in f[2:]):
            d.setdefault(m.group(1), []).append(f[1])
    return d


def run(enc, alg, drv, key, iv, data, way):
    r = subprocess.run([enc, "--alg", alg, "--driver", drv, "--key", key.hex(),
                        "--iv", iv.hex(), way], input=data, capture_output=True)
    if r.returncode:
        fail("%s %s %s: exit %d: %s" % (drv, way, len(data), r.returncode,
                                        r.stderr.decode().strip()))
        return None
    return r.stdout


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    srcdir, enc = sys.argv[1:]
    try:
        for c in KEYS:
            hctr2(c, bytes(16))
    except Exception as e:  # ImportError, or OpenSSL without SM4/Camellia
        print("SKIP: no python3-cryptography with AES, SM4 and Camellia "
              "(scripts/deps.sh installs it): %s" % e)
        return SKIP
    check_oracle(srcdir)
    found = drivers(enc)
    for c in KEYS:
        if "%s-generic-polyval-generic" % ("hctr2-" + c) not in found.get(c, []):
            fail("cloakfs-enc lists no hctr2-%s-generic-polyval-generic" % c)
    runs = 0
    for c, klens in KEYS.items():
        for i, n in enumerate(LENGTHS):
            label = "test/hctr2(%s)/%d" % (c, n)
            key = det_bytes(label + "/key", klens[i % len(klens)])
            iv = [bytes(32), det_bytes(label + "/iv", 16) + bytes(16),
                  det_bytes(label + "/tweak", 32)][i % 3]
            p = det_bytes(label + "/p", n)
            o = hctr2(c, key)
            want = o.encrypt(iv, p)
            if o.decrypt(iv, want, block_decryptor(c, key)) != p:
                fail("oracle: %s %d bytes does not decrypt" % (c, n))
            for drv in found.get(c, []):
                got = run(enc, "hctr2(%s)" % c, drv, key, iv, p, "--encrypt")
                if got is not None and got != want:
                    fail("%s: %d bytes, %d-byte key: ciphertext differs from "
                         "the oracle's" % (drv, n, len(key)))
                back = run(enc, "hctr2(%s)" % c, drv, key, iv, want, "--decrypt")
                if back is not None and back != p:
                    fail("%s: %d bytes: the oracle's ciphertext does not "
                         "decrypt" % (drv, n))
                runs += 1
    print("%d driver x length cases (%s drivers), %d failures" %
          (runs, ", ".join("%s %d" % (c, len(found.get(c, []))) for c in KEYS),
           failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
