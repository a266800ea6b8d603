# SPDX-License-Identifier: MIT
"""Authenticated volumes (aes256-gcm, xchacha20-poly1305; docs/format.md
6.2) through a real mount: each tampering done to the ciphertext of an
unmounted volume (a flipped bit, a sector copied from another file, a
sector moved, whole sectors cut off the end, an old last sector appended
again, a zeroed sector) makes exactly that sector's range read EIO while
the other sectors read their data, the mount logs the file and the
sector's offset, and cloakfs-fsck --deep lists the sector by path and
offset (exit 4). Also: the same data written twice gives other
ciphertext, and a file with a gap has no holes."""
import errno
import os
import shutil
import subprocess

import pytest

from conftest import AEAD_CIPHERS as AEAD, FSCK
S = 4096
UNIT = S + 32  # nonce field and tag per sector
SIZE = 4 * S + S // 2  # five sectors, the last one short
pytestmark = pytest.mark.skipif(not FSCK, reason="built without cloakfs-fsck")


def pos(i):
    return 32 + i * UNIT


def data_files(v):
    """the ciphertext files of regular files (names without a dot)"""
    return {p for p in v.cipher_files()
            if os.path.isfile(p) and "." not in os.path.basename(p)}


def make(volume_factory, cipher, names=("a", "b"), size=SIZE):
    """a volume with files of random data; unmounted. Returns the volume,
    {name: plaintext} and {name: ciphertext path}"""
    v = volume_factory(cipher, tag="auth")
    v.allowed_stderr = [r"is damaged"]
    plain, cpath = {}, {}
    for n in names:
        before = data_files(v)
        plain[n] = os.urandom(size)
        with open(v.path(n), "wb") as f:
            f.write(plain[n])
        v.remount()
        (cpath[n],) = data_files(v) - before
    v.umount()
    return v, plain, cpath


def raw(path, off, n):
    with open(path, "rb") as f:
        f.seek(off)
        return f.read(n)


def poke(path, off, data):
    with open(path, "r+b") as f:
        f.seek(off)
        f.write(data)


def sectors(v, name, size):
    """each sector of name read on its own: its bytes or the errno"""
    out = []
    fd = os.open(v.path(name), os.O_RDONLY)
    try:
        for i in range((size + S - 1) // S):
            try:
                out.append(os.pread(fd, S, i * S))
            except OSError as e:
                out.append(e.errno)
    finally:
        os.close(fd)
    return out


def flip(v, plain, c):
    at = pos(2) + 100
    poke(c["a"], at, bytes([raw(c["a"], at, 1)[0] ^ 0x10]))
    return 2, SIZE


def copy_from_other(v, plain, c):
    poke(c["a"], pos(2), raw(c["b"], pos(2), UNIT))
    return 2, SIZE


def move(v, plain, c):
    poke(c["a"], pos(1), raw(c["a"], pos(2), UNIT))
    return 1, SIZE


def cut(v, plain, c):
    os.truncate(c["a"], pos(4))  # the last sector gone: sector 3 lacks the flag
    return 3, 4 * S


def zero(v, plain, c):
    poke(c["a"], pos(2), bytes(UNIT))
    return 2, SIZE


TAMPER = {"flip": flip, "copy-from-other": copy_from_other, "move": move,
          "cut": cut, "zero": zero}


def check(v, plain, bad, size):
    """through a mount: EIO for sector bad only; the log names it; then
    fsck --deep lists it (exit 4), and --repair leaves it as it is"""
    before = {p: raw(p, 0, 1 << 30) for p in data_files(v)}
    v.mount()
    got = sectors(v, "a", size)
    for i, g in enumerate(got):
        if i == bad:
            assert g == errno.EIO, "sector %d read %r, not EIO" % (i, g)
        else:
            assert g == plain["a"][i * S:(i + 1) * S][:size - i * S], \
                "sector %d: %r" % (i, g if isinstance(g, int) else len(g))
    # a read across the damage: EIO, or (the good sectors cached) the
    # data before the damaged sector, never its range
    fd = os.open(v.path("a"), os.O_RDONLY)
    try:
        got = os.pread(fd, size, 0)
    except OSError as e:
        got = e.errno
    finally:
        os.close(fd)
    assert got == errno.EIO or (len(got) <= bad * S and
                                got == plain["a"][:len(got)]), \
        "read across: %r" % (got if isinstance(got, int) else len(got))
    v.umount()
    log = v.stderr()
    assert "sector at offset %d fails its tag" % (bad * S) in log, log
    r = subprocess.run([FSCK, "--deep", "--passfile", v.passfile, v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert r.returncode == 4, r.stdout
    lines = [l for l in r.stdout.splitlines() if "fails its tag" in l]
    assert len(lines) == 1, r.stdout
    assert "/a" in lines[0] or " a" in lines[0], r.stdout
    assert "sector at offset %d " % (bad * S) in lines[0], r.stdout
    # no silent repair: --repair reports it and changes no file (it may
    # add its own note of what it did)
    r = subprocess.run([FSCK, "--deep", "--repair", "--passfile", v.passfile,
                        v.cipherdir], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert r.returncode != 0 and "fails its tag" in r.stdout, r.stdout
    assert {p: raw(p, 0, 1 << 30) for p in before} == before
    # without --deep the damage is not looked for, and nothing is changed
    r = subprocess.run([FSCK, "--passfile", v.passfile, v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert r.returncode == 0, r.stdout


@pytest.mark.parametrize("cipher", AEAD)
@pytest.mark.parametrize("how", sorted(TAMPER))
def test_tamper(volume_factory, cipher, how):
    v, plain, c = make(volume_factory, cipher)
    bad, size = TAMPER[how](v, plain, c)
    check(v, plain, bad, size)


@pytest.mark.parametrize("cipher", AEAD)
def test_old_last_sector_appended(volume_factory, cipher):
    """a file of 5 whole sectors truncated to 4, its old last sector put
    back: that one verifies (it is its own), sector 3 carries the flag"""
    v, plain, c = make(volume_factory, cipher, names=("a",), size=5 * S)
    old_last = raw(c["a"], pos(4), UNIT)
    v.mount()
    os.truncate(v.path("a"), 4 * S)
    v.umount()
    with open(c["a"], "ab") as f:
        f.write(old_last)
    check(v, plain, 3, 5 * S)


@pytest.mark.parametrize("cipher", AEAD)
def test_fresh_nonces_and_no_holes(volume_factory, cipher):
    v, plain, c = make(volume_factory, cipher, names=("a",), size=2 * S)
    first = raw(c["a"], 0, pos(2))
    v.mount()
    with open(v.path("a"), "r+b") as f:
        f.write(plain["a"])
    # a gap: written as sectors of zeros, never a hole
    with open(v.path("g"), "wb") as f:
        f.seek(3 * S)
        f.write(b"x")
    fd = os.open(v.path("g"), os.O_RDONLY)
    try:
        assert os.lseek(fd, 0, os.SEEK_HOLE) == 3 * S + 1
        assert os.pread(fd, 3 * S + 1, 0) == bytes(3 * S) + b"x"
    finally:
        os.close(fd)
    v.umount()
    again = raw(c["a"], 0, pos(2))
    for i in range(2):
        assert first[pos(i):pos(i) + 16] != again[pos(i):pos(i) + 16]
        assert first[pos(i) + 16:pos(i + 1)] != again[pos(i) + 16:pos(i + 1)]
    v.mount()
    with open(v.path("a"), "rb") as f:
        assert f.read() == plain["a"]
    v.umount()
    r = subprocess.run([FSCK, "--deep", "--passfile", v.passfile, v.cipherdir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout


def hchacha20(key, nonce16):
    """HChaCha20 (draft-irtf-cfrg-xchacha section 2.2), written from the
    draft: the subkey of XChaCha20"""
    import struct

    def rotl(x, n):
        return ((x << n) | (x >> (32 - n))) & 0xffffffff

    def qr(s, a, b, c, d):
        s[a] = (s[a] + s[b]) & 0xffffffff; s[d] = rotl(s[d] ^ s[a], 16)
        s[c] = (s[c] + s[d]) & 0xffffffff; s[b] = rotl(s[b] ^ s[c], 12)
        s[a] = (s[a] + s[b]) & 0xffffffff; s[d] = rotl(s[d] ^ s[a], 8)
        s[c] = (s[c] + s[d]) & 0xffffffff; s[b] = rotl(s[b] ^ s[c], 7)

    s = list(struct.unpack("<4I", b"expand 32-byte k") + struct.unpack("<8I", key) +
             struct.unpack("<4I", nonce16))
    for _ in range(10):
        qr(s, 0, 4, 8, 12); qr(s, 1, 5, 9, 13); qr(s, 2, 6, 10, 14); qr(s, 3, 7, 11, 15)
        qr(s, 0, 5, 10, 15); qr(s, 1, 6, 11, 12); qr(s, 2, 7, 8, 13); qr(s, 3, 4, 9, 14)
    return struct.pack("<8I", *(s[0:4] + s[12:16]))


@pytest.mark.parametrize("cipher", AEAD)
def test_independent_reader(volume_factory, cipher):
    """a file decrypted and verified from docs/format.md (sections 3 and
    6.2) alone, with python3-cryptography's AES-GCM and ChaCha20-Poly1305:
    the VMK from fs_keydump, the rest from the document"""
    import hashlib
    import hmac
    aead = pytest.importorskip("cryptography.hazmat.primitives.ciphers.aead")
    from test_secrets import KEYDUMP, hkdf_expand
    if not KEYDUMP:
        pytest.skip("fs_keydump not built")
    size = 2 * S + 1000
    v, plain, c = make(volume_factory, cipher, names=("a",), size=size)
    vmk = bytes.fromhex(subprocess.run([KEYDUMP, v.cipherdir, v.passfile], check=True,
                                       stdout=subprocess.PIPE).stdout.decode().strip())
    prk = hmac.new(b"cloakfs v1", vmk, hashlib.sha512).digest()
    with open(c["a"], "rb") as f:
        ct = f.read()
    assert ct[:4] == b"CLKF" and len(ct) == 32 + size + 32 * 3
    file_nonce = ct[16:32]
    key = hkdf_expand(prk, b"contents\0" + file_nonce, 32)
    out, units = b"", 3
    for i in range(units):
        unit = ct[pos(i):pos(i + 1)]
        field, body = unit[:16], unit[16:]
        ad = file_nonce + i.to_bytes(8, "little") + bytes([i == units - 1])
        if cipher == "aes256-gcm":
            assert field[12:] == bytes(4)
            out += aead.AESGCM(key).decrypt(field[:12], body, ad)
        else:
            sub = hchacha20(key, field)
            nonce = bytes(4) + i.to_bytes(8, "little")
            out += aead.ChaCha20Poly1305(sub).decrypt(nonce, body, ad)
    assert out == plain["a"]


def keytool_init(v, *args):
    """cloakfs-keytool init of v's (emptied) ciphertext directory with
    v's passphrase: the CompletedProcess"""
    from conftest import KEYTOOL
    shutil.rmtree(v.cipherdir)
    home = os.path.dirname(v.cipherdir)
    return subprocess.run([KEYTOOL, "init", *args, "--kdf-time", "0.05",
                           "--kdf-memory", "8", "--new-passfile", v.passfile,
                           v.cipherdir],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=dict(
                              os.environ, XDG_RUNTIME_DIR=home,
                              XDG_CONFIG_HOME=home))


@pytest.mark.parametrize("how", AEAD + ["--integrity", "--integrity-no-aes"])
def test_keytool_init_makes_authenticated_volumes(volume_factory, how):
    """cloakfs-keytool init --cipher aes256-gcm | xchacha20-poly1305, and
    --integrity (aes256-gcm with AES instructions, xchacha20-poly1305
    without them): the config records the cipher, its wide-block names
    and both features; the mount seals each sector (nonce field and tag
    per sector) and reads back what was written"""
    from conftest import KEYTOOL
    if not KEYTOOL:
        pytest.skip("built without cloakfs-keytool")
    v = volume_factory("aes256-xts", mount=False, tag="init-auth")
    if how in AEAD:
        r, want = keytool_init(v, "--cipher", how), how
    else:
        noaes = how.endswith("no-aes")
        if noaes:
            os.environ["CLOAKFS_CRYPTO"] = "nocpu:aesni,nocpu:vaes,nocpu:pclmul"
        try:
            r = keytool_init(v, "--integrity")
        finally:
            os.environ.pop("CLOAKFS_CRYPTO", None)
        # a hardware constant-time gcm(aes) driver this CPU runs (cloakfs-enc
        # --list, beside the keytool: priority 300 and up, "ct", nothing
        # missing) gives aes256-gcm; none (AES hidden by the policy, a build
        # without SIMD drivers) gives xchacha20-poly1305
        enc = os.path.join(os.path.dirname(KEYTOOL), "cloakfs-enc")
        if not os.access(enc, os.X_OK):
            pytest.skip("no cloakfs-enc beside the keytool to list drivers")
        env = dict(os.environ, CLOAKFS_CRYPTO="nocpu:aesni,nocpu:vaes,nocpu:pclmul") \
            if noaes else None
        listing = subprocess.run([enc, "--list"], stdout=subprocess.PIPE, text=True,
                                 env=env, check=True).stdout.splitlines()
        hw = any(f[0] == "gcm(aes)" and int(f[2]) >= 300 and f[3] == "ct" and
                 not any(x.startswith("missing=") for x in f[4:])
                 for f in (l.split() for l in listing) if len(f) >= 4)
        want = "aes256-gcm" if hw else "xchacha20-poly1305"
    assert r.returncode == 0, r.stdout
    names = "hctr2" if want == "aes256-gcm" else "adiantum"
    conf = open(os.path.join(v.cipherdir, "cloakfs.conf")).read()
    assert 'cipher = "%s";' % want in conf, conf
    assert 'names = "%s";' % names in conf, conf
    assert 'features = [ "authenticated", "wide-names" ];' in conf, conf
    v.mount()
    data = os.urandom(3 * S + 100)
    with open(v.path("f"), "wb") as f:
        f.write(data)
    v.umount()
    (c,) = data_files(v)
    assert os.path.getsize(c) == pos(3) + 32 + 100, os.path.getsize(c)
    v.mount()
    with open(v.path("f"), "rb") as f:
        assert f.read() == data


@pytest.mark.parametrize("args", [["--cipher", "aes256-gcm", "--names", "cts"],
                                  ["--cipher", "xchacha20-poly1305", "--names", "cts"],
                                  ["--integrity", "--cipher", "aes256-gcm"]])
def test_keytool_init_refuses_misfits(volume_factory, args):
    """CTS names on an authenticated volume, --integrity beside --cipher:
    usage errors (exit 3), nothing made"""
    from conftest import KEYTOOL
    if not KEYTOOL:
        pytest.skip("built without cloakfs-keytool")
    v = volume_factory("aes256-xts", mount=False, tag="init-misfit")
    r = keytool_init(v, *args)
    assert r.returncode == 3, r.stdout
    assert ("authenticated volumes take wide-block names" in r.stdout
            if "cts" in args else "--integrity picks the cipher" in r.stdout), r.stdout
    assert not os.path.exists(v.cipherdir) or not os.listdir(v.cipherdir)


@pytest.mark.parametrize("cipher", AEAD)
def test_cut_inside_a_sector(volume_factory, cipher):
    """a cut inside the last sector's nonce or tag leaves a size no file
    has: reads give EIO, fsck names it without --deep (exit 4)"""
    v, plain, c = make(volume_factory, cipher, names=("a",))
    os.truncate(c["a"], pos(4) + 20)
    v.allowed_stderr.append(r"size %d does not decode" % (pos(4) + 20))
    v.mount()
    fd = os.open(v.path("a"), os.O_RDONLY)
    try:
        with pytest.raises(OSError) as e:
            os.pread(fd, S, 0)
        assert e.value.errno == errno.EIO
    finally:
        os.close(fd)
    v.umount()
    r = subprocess.run([FSCK, "--passfile", v.passfile, v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert r.returncode == 4, r.stdout
    assert "last sector is cut inside its nonce or tag" in r.stdout, r.stdout


def stored_xattrs(path):
    """the stored attributes of a ciphertext file (docs/format.md 7.5):
    every user.* one but the directory nonce's copy"""
    return {n: os.getxattr(path, n) for n in os.listxattr(path)
            if n.startswith("user.") and n != "user.cloakfs.dir"}


@pytest.mark.parametrize("cipher", AEAD)
@pytest.mark.parametrize("how", ["flip", "swap", "cut"])
def test_xattr_tamper(volume_factory, cipher, how):
    """extended attribute values are sealed (docs/format.md 7.5): a bit
    flipped anywhere in one stored value, two short-form values swapped
    between their names (only the name in the associated data tells), or
    a value cut short, make getxattr EIO through the mount for exactly
    those names, while listxattr still lists them; the mount logs the
    file and the name once, and cloakfs-fsck reports xattr-damaged"""
    v, plain, c = make(volume_factory, cipher, names=("a",), size=100)
    v.mount()
    values = {"user.x": b"value of x", "user.y": b"value of y"}
    for n, val in values.items():
        os.setxattr(v.path("a"), n, val)
    v.umount()
    stored = stored_xattrs(c["a"])
    assert sorted(len(s) for s in stored.values()) == [16 + 10 + 16] * 2, stored
    (sx, vx), (sy, vy) = sorted(stored.items())  # which is user.x: unknown
    if how == "flip":
        # one byte of the nonce, of the ciphertext, of the tag (the unit
        # test flips every bit position); the last one stays for the rest
        for at in (3, 20, len(vx) - 1):
            bad = bytearray(vx)
            bad[at] ^= 0x10
            os.setxattr(c["a"], sx, bytes(bad))
            v.mount()
            got = []
            for n in values:
                try:
                    os.getxattr(v.path("a"), n)
                except OSError as e:
                    got.append(e.errno)
            v.umount()
            assert got == [errno.EIO], (at, got)
        damaged = 1
    elif how == "swap":
        os.setxattr(c["a"], sx, vy)
        os.setxattr(c["a"], sy, vx)
        damaged = 2
    else:
        os.setxattr(c["a"], sx, vx[:-1])
        damaged = 1
    def logged():
        return [l for l in v.stderr().splitlines() if "extended attribute" in l]
    before = len(logged())  # the flips' mounts logged theirs
    v.mount()
    assert sorted(os.listxattr(v.path("a"))) == sorted(values)
    errs = []
    for n, val in values.items():
        try:
            assert os.getxattr(v.path("a"), n) == val, n
        except OSError as e:
            assert e.errno == errno.EIO, (n, e)
            errs.append(n)
    assert len(errs) == damaged, errs
    v.umount()
    lines = logged()[before:]  # once per file and mount
    assert len(lines) == 1 and "extended attribute %s is damaged" % errs[0] in lines[0] \
        and "/a" in lines[0], lines
    r = subprocess.run([FSCK, "--passfile", v.passfile, v.cipherdir],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    found = [l for l in r.stdout.splitlines() if l.startswith("error xattr-damaged")]
    assert r.returncode == 4 and len(found) == damaged, r.stdout
    assert all("/a" in l and "tag" in l for l in found), r.stdout
    assert sorted(n for n in values if any(n in l for l in found)) == sorted(errs), r.stdout


@pytest.mark.parametrize("cipher", AEAD)
def test_independent_xattr_reader(volume_factory, cipher):
    """extended attribute values opened from docs/format.md (sections 3
    and 7.5) alone, with python3-cryptography: a short-form and a
    long-form name, the whole name the associated data; a fresh nonce
    at every set"""
    import hashlib
    import hmac
    aead = pytest.importorskip("cryptography.hazmat.primitives.ciphers.aead")
    from test_secrets import KEYDUMP, hkdf_expand
    if not KEYDUMP:
        pytest.skip("fs_keydump not built")
    v, plain, c = make(volume_factory, cipher, names=("a",), size=10)
    values = {"user.note": b"a note", "user." + "l" * 200: b"under a long name"}
    v.mount()
    os.setxattr(v.path("a"), "user.note", b"first")
    first = stored_xattrs(c["a"])
    for n, val in values.items():
        os.setxattr(v.path("a"), n, val)
    v.umount()
    stored = stored_xattrs(c["a"])
    assert len(stored) == 2, stored
    vmk = bytes.fromhex(subprocess.run([KEYDUMP, v.cipherdir, v.passfile], check=True,
                                       stdout=subprocess.PIPE).stdout.decode().strip())
    prk = hmac.new(b"cloakfs v1", vmk, hashlib.sha512).digest()
    opened = {}
    for sname, sval in stored.items():
        if sname.startswith("user.cloakfs.long."):
            enc, sval = sval.split(b"\0", 1)
            name = next(n for n in values if len(n) > 100)  # checked by the mount
        else:
            name = "user.note"
            assert sname in first and first[sname][:16] != sval[:16], "nonce reused"
        nonce, body = sval[:16], sval[16:]
        key = hkdf_expand(prk, b"xattr\0" + nonce, 32)
        if cipher == "aes256-gcm":
            opened[name] = aead.AESGCM(key).decrypt(bytes(12), body, name.encode())
        else:
            sub = hchacha20(key, bytes(16))
            opened[name] = aead.ChaCha20Poly1305(sub).decrypt(bytes(12), body,
                                                              name.encode())
    assert opened == values


def fsck_run(v, *args):
    return subprocess.run([FSCK, "--passfile", v.passfile] + list(args) + [v.cipherdir],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120)


@pytest.mark.parametrize("cipher", AEAD)
@pytest.mark.parametrize("how", ["flip", "cut"])
def test_zero_damaged(volume_factory, cipher, how):
    """a sector that fails its tag is changed only when asked: --deep
    lists it, --repair leaves every byte as it was, --zero-damaged alone
    is a usage error, and --repair --zero-damaged first copies the file's
    ciphertext into lost+found.cloakfs/a.ciphertext (whose plaintext is
    those bytes), then seals that sector anew as zeros: the file reads
    with zeros there and its other sectors intact, the other file is
    untouched, and the next --deep is clean"""
    v, plain, c = make(volume_factory, cipher)
    bad, size = TAMPER[how](v, plain, c)
    before = {p: raw(p, 0, 1 << 30) for p in data_files(v)}
    r = fsck_run(v, "--deep")
    assert r.returncode == 4 and "sector at offset %d " % (bad * S) in r.stdout, r.stdout
    r = fsck_run(v, "--deep", "--repair")
    assert r.returncode == 4 and "fails its tag" in r.stdout, r.stdout
    r = fsck_run(v, "--zero-damaged")
    assert r.returncode == 16 and "--repair" in r.stdout, r.stdout
    assert {p: raw(p, 0, 1 << 30) for p in before} == before
    r = fsck_run(v, "--repair", "--zero-damaged")
    lines = [l for l in r.stdout.splitlines() if "fails its tag" in l]
    assert r.returncode == 1 and len(lines) == 1, r.stdout
    assert "sector at offset %d " % (bad * S) in lines[0] and "/a" in lines[0] and \
        "sealed anew as zeros" in lines[0] and "lost+found.cloakfs/a.ciphertext" in lines[0], \
        r.stdout
    after = {p: raw(p, 0, 1 << 30) for p in before}
    assert after[c["b"]] == before[c["b"]]
    assert after[c["a"]] != before[c["a"]] and len(after[c["a"]]) == len(before[c["a"]])
    v.mount()
    with open(v.path("a"), "rb") as f:
        got = f.read()
    want = plain["a"][:size]
    want = want[:bad * S] + bytes(len(want[bad * S:(bad + 1) * S])) + want[(bad + 1) * S:]
    assert got == want
    with open(v.path("b"), "rb") as f:
        assert f.read() == plain["b"]
    with open(v.path("lost+found.cloakfs/a.ciphertext"), "rb") as f:
        assert f.read() == before[c["a"]]
    v.umount()
    r = fsck_run(v, "--deep")
    assert r.returncode == 0, r.stdout
