# SPDX-License-Identifier: MIT
"""What the ciphertext directory shows: no plaintext name, content,
symlink target or xattr; sizes as docs/format.md says; fresh nonces, so
equal contents and equal names in different directories look different."""
import os

import pytest

from conftest import HEADER, read_file, write_file

MARK = b"PLAINTEXT-MARKER"
NAME = "NAMEMARKER"


def cipher_regular_files(v):
    return [c for c in v.cipher_files()
            if os.path.isfile(c) and not os.path.islink(c)
            and os.path.basename(c) not in (".cloakfs.dir", "cloakfs.conf")
            and not c.endswith(".name")]


def test_nothing_in_the_clear(cvol, tmp_path):
    base = cvol.path("clear")
    os.makedirs(os.path.join(base, NAME + "-dir", NAME + "-sub"))
    write_file(os.path.join(base, NAME + "-file"), MARK * 1000)
    write_file(os.path.join(base, NAME + "-dir", NAME + "-sub", NAME + "-" + "x" * 200), MARK * 3)
    write_file(os.path.join(base, NAME + "-tiny"), MARK[:5])
    os.symlink(NAME + "-target/" + MARK.decode(), os.path.join(base, NAME + "-link"))
    os.setxattr(os.path.join(base, NAME + "-file"), "user." + NAME, MARK)
    os.mkfifo(os.path.join(base, NAME + "-fifo"))
    for c in cvol.cipher_files():
        rel = os.path.relpath(c, cvol.cipherdir)
        assert NAME not in rel and "clear" not in rel.split(os.sep)
        if os.path.islink(c):
            assert NAME not in os.readlink(c) and MARK.decode() not in os.readlink(c)
            continue
        if os.path.isfile(c):
            data = read_file(c)
            assert MARK not in data and MARK[:5] not in data, rel
            assert NAME.encode() not in data, rel
        for x in os.listxattr(c):
            assert NAME not in x
            assert MARK not in os.getxattr(c, x)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 100, 4095, 4096, 4097,
                               4103, 4111, 4112, 8192, 8200, 100000])
def test_cipher_sizes(cvol, n):
    p = cvol.path("size-%d" % n)
    write_file(p, os.urandom(n))
    ino = os.stat(p).st_ino
    [c] = [c for c in cipher_regular_files(cvol) if os.stat(c).st_ino == ino]
    bs = cvol.block
    want = 0 if n == 0 else HEADER + bs if n <= bs else HEADER + n
    if cvol.sealed():  # 32 bytes more per sector: nonce field and tag
        want = 0 if n == 0 else HEADER + n + 32 * (-(-n // cvol.sector))
    assert os.path.getsize(c) == want
    assert os.stat(p).st_size == n
    if n:
        assert read_file(c)[:4] == b"CLKF"


def test_equal_content_differs(cvol):
    data = b"the same sixty-four bytes in both files, block after block....."
    a, b = cvol.path("same-a"), cvol.path("same-b")
    write_file(a, data * 100)
    write_file(b, data * 100)
    ca, cb = [next(c for c in cipher_regular_files(cvol) if os.stat(c).st_ino == os.stat(p).st_ino)
              for p in (a, b)]
    ra, rb = read_file(ca), read_file(cb)
    n = len(data) * 100
    want = HEADER + n + (32 * (-(-n // cvol.sector)) if cvol.sealed() else 0)
    assert len(ra) == len(rb) == want
    assert ra[16:32] != rb[16:32]  # nonces
    assert ra[HEADER:] != rb[HEADER:]
    # no two 16-byte blocks of ciphertext repeat (XTS, per-file key)
    blocks = [ra[i:i + 16] for i in range(HEADER, len(ra) - 16, 16)]
    assert len(set(blocks)) == len(blocks)
    # emptied and rewritten: a new nonce
    os.truncate(a, 0)
    assert os.path.getsize(ca) == 0
    write_file(a, data * 100)
    assert read_file(ca)[16:32] != ra[16:32]


def test_equal_names_differ(cvol):
    os.makedirs(cvol.path("names1"))
    os.makedirs(cvol.path("names2"))
    write_file(cvol.path("names1", "same"), b"")
    write_file(cvol.path("names2", "same"), b"")
    c1 = next(c for c in cvol.cipher_files() if os.stat(c).st_ino == os.stat(cvol.path("names1", "same")).st_ino)
    c2 = next(c for c in cvol.cipher_files() if os.stat(c).st_ino == os.stat(cvol.path("names2", "same")).st_ino)
    assert os.path.basename(c1) != os.path.basename(c2)


def test_rename_keeps_ciphertext(cvol):
    p = cvol.path("keep")
    write_file(p, os.urandom(10000))
    ino = os.stat(p).st_ino
    before = read_file(next(c for c in cipher_regular_files(cvol) if os.stat(c).st_ino == ino))
    os.makedirs(cvol.path("keepdir"), exist_ok=True)
    os.rename(p, cvol.path("keepdir", "moved"))
    after = read_file(next(c for c in cipher_regular_files(cvol) if os.stat(c).st_ino == ino))
    assert before == after


def test_foreign_and_damaged_entries(volume_factory):
    """names that do not decrypt are left out (logged once); foreign files
    with a '.' are hidden silently; a damaged file reads as EIO"""
    import errno
    v = volume_factory("speck128-xts")
    write_file(v.path("good"), b"x" * 5000)
    write_file(v.path("victim"), b"y" * 5000)
    ino = os.stat(v.path("victim")).st_ino
    v.umount()
    # base64url of the right length, but not canonical: cannot decrypt
    with open(os.path.join(v.cipherdir, "A" * 42 + "B"), "w"):
        pass
    with open(os.path.join(v.cipherdir, "notes.txt"), "w"):
        pass
    [victim] = [c for c in cipher_regular_files(v) if os.stat(c).st_ino == ino]
    with open(victim, "r+b") as f:
        f.write(b"XXXX")  # the magic
    v.allowed_stderr = [r"undecodable entry", r"is damaged"]
    v.mount()
    assert sorted(os.listdir(v.mnt)) == ["good", "victim"]
    assert os.listdir(v.mnt) == os.listdir(v.mnt)
    assert read_file(v.path("good")) == b"x" * 5000
    try:
        read_file(v.path("victim"))
        raise AssertionError("damaged file read")
    except OSError as e:
        assert e.errno == errno.EIO
    v.umount()
    log = v.stderr()
    assert log.count("undecodable entry") == 1 and log.count("is damaged") == 1


def _lister(paths, go, count):
    go.wait()
    for _ in range(count):
        for p in paths:
            os.listdir(p)


def test_undecodable_logged_once_by_concurrent_listers(volume_factory):
    """several processes list directories with an undecodable entry at
    once: the warning is still logged once per directory (the flag that
    says so is the directory's, under its lock; the ThreadSanitizer run
    watches it)"""
    import multiprocessing
    v = volume_factory("speck128-xts")
    dirs = [v.path("dir%02d" % i) for i in range(24)]
    for d in dirs:
        os.mkdir(d)
        write_file(os.path.join(d, "good"), b"x")
    v.umount()
    cdirs = [c for c in v.cipher_files() if os.path.isdir(c)]
    assert len(cdirs) == len(dirs)
    for c in cdirs:
        for i in range(3):
            with open(os.path.join(c, "A" * 42 + "BCD"[i]), "w"):
                pass
    v.allowed_stderr = [r"skipping undecodable entry"]
    v.mount()
    go = multiprocessing.Event()
    procs = [multiprocessing.Process(target=_lister, args=(dirs, go, 3)) for _ in range(4)]
    for p in procs:
        p.start()
    go.set()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    assert all(os.listdir(d) == ["good"] for d in dirs)
    v.umount()
    assert v.stderr().count("undecodable entry") == len(dirs), v.stderr()


def test_log_names_paths(volume_factory):
    """the mount's warnings name what is damaged by its ciphertext path
    and, where the mount can tell, its plaintext path (not an inode
    number, not the ciphertext root): a damaged file, an undecodable
    entry and a long name with a damaged sidecar, each in a subdirectory,
    and a file whose ciphertext size no file has"""
    import errno
    v = volume_factory("speck128-xts")
    os.makedirs(v.path("sub", "deeper"))
    os.makedirs(v.path("sub", "side"))
    long = "L" * 200
    write_file(v.path("sub", "deeper", "victim"), b"y" * 5000)
    write_file(v.path("sub", "odd"), b"z" * 100)
    write_file(v.path("sub", "side", long), b"l")
    by_ino = {}
    for c in v.cipher_files():
        by_ino[os.lstat(c).st_ino] = os.path.realpath(c)
    cpath = {p: by_ino[os.lstat(v.path(*p.split("/"))).st_ino]
             for p in ["sub/deeper", "sub/deeper/victim", "sub/odd", "sub/side"]}
    v.umount()
    with open(cpath["sub/deeper/victim"], "r+b") as f:
        f.write(b"XXXX")  # the magic
    os.truncate(cpath["sub/odd"], 40)  # 33 to 47 bytes: no file has that size
    with open(os.path.join(cpath["sub/deeper"], "A" * 42 + "B"), "w"):
        pass  # base64url of a name's length that is not canonical
    [side] = [n for n in os.listdir(cpath["sub/side"]) if n.endswith(".name")]
    os.chmod(os.path.join(cpath["sub/side"], side), 0o600)
    write_file(os.path.join(cpath["sub/side"], side), b"A" * 300)
    v.allowed_stderr = [r"undecodable entry", r"is damaged", r"does not decode"]
    v.mount()
    try:
        read_file(v.path("sub", "deeper", "victim"))
        raise AssertionError("damaged file read")
    except OSError as e:
        assert e.errno == errno.EIO
    assert os.listdir(v.path("sub", "deeper")) == ["victim"]
    assert os.listdir(v.path("sub", "side")) == []
    os.stat(v.path("sub", "odd"))
    v.umount()
    log = v.stderr()
    want = [
        "%s (plaintext /sub/deeper/victim) is damaged (read gave EIO" % cpath["sub/deeper/victim"],
        "%s (plaintext /sub/deeper): skipping undecodable entry %s " % (cpath["sub/deeper"], "A" * 42 + "B"),
        "%s (plaintext /sub/side): skipping undecodable entry cloakfs.long." % cpath["sub/side"],
        "%s: size 40 does not decode" % cpath["sub/odd"],
    ]
    for w in want:
        assert w in log, (w, log)
    assert "inode" not in log, log
