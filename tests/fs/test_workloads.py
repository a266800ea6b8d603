# SPDX-License-Identifier: MIT
"""Real programs on a cloakfs mount: untar a large tree and compare every
file (on authenticated volumes a smaller one, to bound the suite's time),
SQLite with transactions, DELETE, VACUUM and integrity_check, git
init/add/commit/gc/fsck, a C program built and run inside the mount, long
and UTF-8 names, hard links, symlinks and directory renames; then a
remount, after which everything is checked again."""
import hashlib
import os
import random
import shutil
import sqlite3
import stat
import subprocess
import tarfile

import pytest

from conftest import AEAD_CIPHERS, CONTENT_CIPHERS, Volume

TREE_SOURCES = ["/usr/share/doc", "/usr/include"]
# the smaller tree of the authenticated volumes: a few hundred files
SMALL_TREE_SOURCES = ["/usr/include/linux", "/usr/share/doc"]


def tree_digest(root):
    """path -> (kind, mode, size, sha256 or link target) for a whole tree"""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for n in dirs + files:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("l", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("d", stat.S_IMODE(st.st_mode))
            else:
                h = hashlib.sha256()
                with open(p, "rb") as f:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        h.update(chunk)
                out[rel] = ("f", stat.S_IMODE(st.st_mode), st.st_size, h.hexdigest(),
                            st.st_mtime_ns // 1_000_000_000)
    return out


def make_tarball(path, small=False):
    """a large real tree if the machine has one, else a generated one;
    small: one of a few hundred files"""
    least, most = (300, 3000) if small else (2000, None)
    for src in SMALL_TREE_SOURCES if small else TREE_SOURCES:
        n = sum(len(f) for _, _, f in os.walk(src)) if os.path.isdir(src) else 0
        if n > least and (most is None or n < most):
            subprocess.run(["tar", "-C", os.path.dirname(src), "-cf", path,
                            os.path.basename(src)], check=True,
                           stderr=subprocess.DEVNULL)
            return
    rng = random.Random(7)
    gen = os.path.join(os.path.dirname(path), "gen")
    for i in range(500 if small else 3000):
        d = os.path.join(gen, "d%d" % (i % 50), "e%d" % (i % 7))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "f%d" % i), "wb") as f:
            f.write(rng.randbytes(rng.choice([0, 1, 15, 100, 4096, 5000, 70000])))
    subprocess.run(["tar", "-C", os.path.dirname(path), "-cf", path, "gen"], check=True)


def sqlite_workload(db):
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, blob BLOB)")
    rng = random.Random(3)
    for batch in range(20):
        with con:
            con.executemany("INSERT INTO t (name, blob) VALUES (?, ?)",
                            [("row %d/%d" % (batch, i), rng.randbytes(rng.randrange(1, 3000)))
                             for i in range(200)])
    with con:
        con.execute("DELETE FROM t WHERE id % 3 = 0")
    try:
        with con:
            con.execute("INSERT INTO t (name) VALUES ('rolled back')")
            raise RuntimeError("roll back")
    except RuntimeError:
        pass
    con.execute("VACUUM")
    con.execute("PRAGMA journal_mode=WAL")
    with con:
        con.execute("UPDATE t SET name = name || ' updated' WHERE id % 5 = 0")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def sqlite_check(db):
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    n = con.execute("SELECT count(*) FROM t").fetchone()[0]
    assert n == 4000 - len([i for i in range(1, 4001) if i % 3 == 0])
    assert con.execute("SELECT count(*) FROM t WHERE name = 'rolled back'").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM t WHERE name LIKE '% updated'").fetchone()[0] > 0
    con.close()


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid",
               HOME=repo, GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", "-C", repo] + list(args), check=True, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout


def git_workload(repo):
    os.mkdir(repo)
    git(repo, "init", "-q")
    rng = random.Random(5)
    for c in range(8):
        for i in range(30):
            p = os.path.join(repo, "dir%d" % (i % 4), "file%d.txt" % i)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "a") as f:
                f.write("commit %d line %d %s\n" % (c, i, rng.random()))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "commit %d" % c)
    git(repo, "mv", "dir0", "renamed")
    git(repo, "commit", "-q", "-m", "rename")
    git(repo, "gc", "-q", "--aggressive", "--prune=now")


def git_check(repo):
    git(repo, "fsck", "--full", "--strict")
    assert git(repo, "rev-list", "--count", "HEAD").strip() == b"9"
    assert git(repo, "status", "--porcelain").strip() == b""


C_PROGRAM = r"""
#include <stdio.h>
#include "msg.h"
int main(void) { printf("%s %d\n", MSG, 6 * 7); return 0; }
"""


def build_c(src):
    os.mkdir(src)
    with open(os.path.join(src, "main.c"), "w") as f:
        f.write(C_PROGRAM)
    with open(os.path.join(src, "msg.h"), "w") as f:
        f.write('#define MSG "built inside cloakfs:"\n')
    subprocess.run(["cc", "-O2", "-c", "-o", os.path.join(src, "main.o"),
                    os.path.join(src, "main.c")], check=True)
    subprocess.run(["cc", "-o", os.path.join(src, "hello"), os.path.join(src, "main.o")],
                   check=True)


def run_c(src):
    out = subprocess.run([os.path.join(src, "hello")], check=True, stdout=subprocess.PIPE).stdout
    assert out == b"built inside cloakfs: 42\n"


NAMES = ["n" * 255, "ü" * 127 + "x", "日本語のファイル名", "emoji-🙂-🚀", "mixed é ñ ø 名"]


def names_links_workload(base):
    os.mkdir(base)
    for n in NAMES:
        with open(os.path.join(base, n), "w") as f:
            f.write(n)
    os.makedirs(os.path.join(base, "tree", "a", "b"))
    with open(os.path.join(base, "tree", "a", "b", "data"), "w") as f:
        f.write("deep data")
    os.link(os.path.join(base, "tree", "a", "b", "data"), os.path.join(base, "hardlink"))
    os.symlink("tree/a/b/data", os.path.join(base, "symlink"))
    os.symlink("../" + NAMES[0], os.path.join(base, "tree", "up"))
    os.rename(os.path.join(base, "tree"), os.path.join(base, "ü-tree-" + "z" * 200))


def names_links_check(base):
    assert sorted(os.listdir(base)) == sorted(NAMES + ["hardlink", "symlink", "ü-tree-" + "z" * 200])
    for n in NAMES:
        with open(os.path.join(base, n)) as f:
            assert f.read() == n
    tree = os.path.join(base, "ü-tree-" + "z" * 200)
    data = os.path.join(tree, "a", "b", "data")
    assert os.stat(data).st_ino == os.stat(os.path.join(base, "hardlink")).st_ino
    assert os.stat(data).st_nlink == 2
    assert os.readlink(os.path.join(base, "symlink")) == "tree/a/b/data"
    assert not os.path.exists(os.path.join(base, "symlink"))  # tree was renamed
    with open(os.path.join(tree, "up")) as f:
        assert f.read() == NAMES[0]


# the authenticated ciphers (those $CLOAKFS_TEST_CIPHERS keeps)
WORK_CIPHERS = ["aes256-xts", "speck128-xts"] + [c for c in CONTENT_CIPHERS
                                                 if c in AEAD_CIPHERS]


@pytest.mark.parametrize("cipher", WORK_CIPHERS)
def test_workloads(cipher, tmp_path):
    # the large tree once; a smaller one on each authenticated volume
    heavy = cipher == "aes256-xts" or cipher in AEAD_CIPHERS
    small = cipher in AEAD_CIPHERS
    v = Volume(cipher, tag="work")
    try:
        v.mount()
        if heavy:
            tarball = str(tmp_path / "tree.tar")
            make_tarball(tarball, small)
            plain = tmp_path / "plain"
            plain.mkdir()
            subprocess.run(["tar", "-C", str(plain), "-xf", tarball], check=True)
            os.mkdir(v.path("tree"))
            subprocess.run(["tar", "-C", v.path("tree"), "-xf", tarball], check=True)
            want = tree_digest(str(plain))
            assert len(want) > (300 if small else 1000)
            assert tree_digest(v.path("tree")) == want
        sqlite_workload(v.path("db.sqlite"))
        sqlite_check(v.path("db.sqlite"))
        have_git = shutil.which("git") is not None
        if have_git:
            git_workload(v.path("repo"))
            git_check(v.path("repo"))
        have_cc = shutil.which("cc") is not None
        if have_cc:
            build_c(v.path("src"))
            run_c(v.path("src"))
        names_links_workload(v.path("names"))
        names_links_check(v.path("names"))

        v.remount()
        if heavy:
            assert tree_digest(v.path("tree")) == want
        sqlite_check(v.path("db.sqlite"))
        if have_git:
            git_check(v.path("repo"))
        if have_cc:
            run_c(v.path("src"))
        names_links_check(v.path("names"))
        if heavy:
            shutil.rmtree(v.path("tree"))
            assert "tree" not in os.listdir(v.mnt)
    finally:
        v.destroy()
