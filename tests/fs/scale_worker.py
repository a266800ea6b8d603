# SPDX-License-Identifier: MIT
"""The workload of test_scale.py, run as the user who owns the mount (the
mount has no allow_other, so only that user may enter it):

  scale_worker.py make ROOT NFILES MANIFEST   a tree of NFILES files
  scale_worker.py shuffle ROOT MANIFEST       rename directories with their
                                              contents, hard-link files
                                              across directories
  scale_worker.py check ROOT MANIFEST         every file and its hash, every
                                              hard-link group one inode
  scale_worker.py renamed MNT                 a directory and a hard link
                                              renamed while open, then used
                                              through their open descriptors
                                              after the mount's descriptor
                                              cache (CLOAKFS_FD_CACHE=2) had
                                              to evict them

MANIFEST (JSON) maps each path below ROOT to the SHA-256 of its content,
and lists the groups of paths that must be one inode. Exit 0 when all
holds, 1 with the differences on stderr."""
import hashlib
import json
import os
import sys

TOP, SUB = 20, 10  # directories: ROOT/dNN/eMM/fNNNNN


def content(i):
    seed = hashlib.sha256(b"%d" % i).digest()
    size = (i * 7919) % 9001
    return (seed * (size // len(seed) + 1))[:size]


def load(path):
    with open(path) as f:
        return json.load(f)


def save(path, m):
    with open(path + ".tmp", "w") as f:
        json.dump(m, f)
    os.rename(path + ".tmp", path)


def make(root, n, manifest):
    files = {}
    per_dir = (n + TOP * SUB - 1) // (TOP * SUB)
    for i in range(n):
        d, rest = divmod(i // per_dir, SUB)
        rel = "d%02d/e%02d/f%05d" % (d, rest, i)
        path = os.path.join(root, rel)
        if not os.path.isdir(os.path.dirname(path)):
            os.makedirs(os.path.dirname(path))
        data = content(i)
        with open(path, "wb") as f:
            f.write(data)
        files[rel] = hashlib.sha256(data).hexdigest()
    save(manifest, {"files": files, "links": []})


def shuffle(root, manifest):
    m = load(manifest)
    files = m["files"]
    moves = []
    # whole top-level directories into others, and subdirectories across
    for d in range(0, TOP, 4):
        moves.append(("d%02d" % d, "d%02d/moved%02d" % ((d + 1) % TOP, d)))
    for d in range(2, TOP, 4):
        moves.append(("d%02d/e03" % d, "d%02d/e03-from%02d" % ((d + 5) % TOP, d)))
    for old, new in moves:
        os.rename(os.path.join(root, old), os.path.join(root, new))
        files = {(new + k[len(old):] if k.startswith(old + "/") else k): v
                 for k, v in files.items()}
        m["links"] = [[new + p[len(old):] if p.startswith(old + "/") else p
                       for p in g] for g in m["links"]]
    # hard links: into a directory of their own, and beside the original
    os.mkdir(os.path.join(root, "links"))
    for n, rel in enumerate(sorted(files)[::20]):
        group = [rel, "links/l%05d" % n]
        if n % 3 == 0:
            group.append(rel + ".again")
        for extra in group[1:]:
            os.link(os.path.join(root, rel), os.path.join(root, extra))
            files[extra] = files[rel]
        m["links"].append(group)
    m["files"] = files
    save(manifest, m)


def check(root, manifest):
    m = load(manifest)
    want, bad, seen = m["files"], [], {}
    for dirpath, dirs, names in os.walk(root):
        for name in names:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            with open(full, "rb") as f:
                seen[rel] = hashlib.sha256(f.read()).hexdigest()
    for rel in sorted(set(want) | set(seen)):
        if want.get(rel) != seen.get(rel):
            bad.append("%s: want %s, have %s" % (rel, want.get(rel), seen.get(rel)))
    for group in m["links"]:
        st = [os.lstat(os.path.join(root, p)) for p in group]
        if len({s.st_ino for s in st}) != 1 or any(s.st_nlink != len(group) for s in st):
            bad.append("hard links %s: inodes %s, link counts %s" % (
                group, [s.st_ino for s in st], [s.st_nlink for s in st]))
    if bad:
        sys.stderr.write("%d differences, first ones:\n%s\n" % (len(bad), "\n".join(bad[:20])))
        return 1
    print("%d files and %d hard-link groups as expected" % (len(seen), len(m["links"])))
    return 0


def renamed(mnt):
    import stat
    import time
    os.mkdir(os.path.join(mnt, "A"))
    with open(os.path.join(mnt, "A", "f"), "wb") as f:
        f.write(b"0123456789")
    os.link(os.path.join(mnt, "A", "f"), os.path.join(mnt, "h"))
    dfd = os.open(os.path.join(mnt, "A"), os.O_RDONLY | os.O_DIRECTORY)
    ffd = os.open(os.path.join(mnt, "h"), os.O_PATH)
    os.rename(os.path.join(mnt, "A"), os.path.join(mnt, "B"))
    os.rename(os.path.join(mnt, "h"), os.path.join(mnt, "B", "h2"))
    for i in range(16):  # other inodes take the cache's two descriptors
        open(os.path.join(mnt, "pad%d" % i), "w").close()
    time.sleep(1.5)  # past the entry and attribute caches: the kernel asks
    st = os.fstat(dfd)  # GETATTR of the renamed directory
    assert stat.S_ISDIR(st.st_mode), st
    st = os.stat("f", dir_fd=dfd)  # LOOKUP in it, by its nodeid
    assert st.st_size == 10 and st.st_nlink == 2, st
    st = os.fstat(ffd)  # the renamed hard link
    assert st.st_size == 10 and st.st_nlink == 2, st
    with open(os.open("h2", os.O_RDONLY, dir_fd=dfd), "rb") as f:
        assert f.read() == b"0123456789"
    print("renamed directory and hard link found after eviction")
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "make":
        make(argv[2], int(argv[3]), argv[4])
        return 0
    if len(argv) == 4 and argv[1] == "shuffle":
        shuffle(argv[2], argv[3])
        return 0
    if len(argv) == 3 and argv[1] == "renamed":
        return renamed(argv[2])
    if len(argv) == 4 and argv[1] == "check":
        return check(argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
