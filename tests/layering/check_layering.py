#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layering of cloakfs (docs/design.md, "Layers"): what may include and
link what. Fails, naming each edge, on

- an #include "dir/..." or <dir/...> from a directory that may not use dir
  (or a header of crypto/ beyond its interface from outside crypto/);
- an include with ".." in it, or a slash-less "x.h" that is no file of the
  includer's own folder (it would resolve to another folder by search path);
- a libfuse header (<fuse.h>, <fuse_lowlevel.h>, <fuse3/...>) outside the
  directories that speak FUSE (fs/, bench/);
- a circle of files: the .c and .h of one stem are one node, each include
  of a project file an arrow, and every cycle is named;
- a header of a volume wing's internal/ folder (volume/WING/internal/)
  included from outside that wing and volume/'s own top level (the front
  door): fs/, tools/ and the other wings use a wing's public headers;
- inside crypto/, a header of an architecture's driver folder
  crypto/arch/ARCH/ included from outside that folder, except by
  crypto/drivers.c (the registrar list): the algorithms, templates and
  other architectures never reach into a driver;
- a program linked with a static library of a directory it may not use,
  or a library compiling a source of such a directory (from build.ninja);
  a library of crypto/arch/ARCH/ compiling a source from elsewhere, or a
  source of crypto/arch/ARCH/ compiled by a library outside it and crypto/.
  Without a build.ninja the link edges cannot be read: that fails too.

    check_layering.py SOURCE_ROOT BUILD_ROOT
"""
import os
import re
import sys

# directory -> the directories it may use (its own always)
ALLOWED = {
    "base": set(),
    "crypto": {"base"},
    "volume": {"base", "crypto"},
    "cli": {"base", "crypto"},
    "daemon": {"base", "cli"},
    "fs": {"base", "cli", "crypto", "volume", "daemon"},
    "tools": {"base", "cli", "crypto", "volume", "daemon"},
    "bench": {"base", "crypto", "fs"},
}
LAYERED = set(ALLOWED)
# anything may use these; tests/ may use anything
FREE = {"tests"}
# the interface of crypto/; the rest is crypto's own
CRYPTO_INTERFACE = {"crypto/crypto.h", "crypto/tfm.h", "crypto/secmem.h",
                    "crypto/hex.h", "crypto/cpu.h", "crypto/kdf/hkdf.h"}
CRYPTO_INSIDE = {"crypto"}
# each architecture's drivers (glue, cores, their shared headers, meson.build)
ARCH_DIR = "crypto/arch/"
# the one file outside an architecture's folder that names its registrars
ARCH_REGISTRARS = "crypto/drivers.c"
# a wing of volume/ keeps the headers only it uses in volume/WING/internal/
WING_INTERNAL = re.compile(r"^volume/([^/]+)/internal/")
SOURCE_EXT = (".c", ".h", ".S", ".s")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# the directories that may speak FUSE; nobody else includes libfuse
FUSE_USERS = {"fs", "bench"}
FUSE_HEADER = re.compile(r"^fuse[^/]*\.h$|^fuse3?/")
# how many cycles to print per circle before summarising
MAX_CYCLES = 20


def top(path):
    return path.split("/", 1)[0]


def edge_error(user, used, header):
    """why user may not use header (of directory used), or None"""
    if used == user or user in FREE or used not in LAYERED:
        return None
    if used not in ALLOWED[user]:
        return "%s/ may not use %s/" % (user, used)
    if used == "crypto" and user not in CRYPTO_INSIDE and \
            header is not None and header not in CRYPTO_INTERFACE:
        return "%s is inside crypto/ (its interface: %s)" % (
            header, ", ".join(sorted(CRYPTO_INTERFACE)))
    return None


def arch_of(path):
    """ARCH for a path under crypto/arch/ARCH/, else None"""
    if not path.startswith(ARCH_DIR):
        return None
    return path[len(ARCH_DIR):].split("/", 1)[0]


def arch_include_error(rel, header):
    """why crypto's file rel may not include header, or None"""
    arch = arch_of(header)
    if arch is None or rel == ARCH_REGISTRARS or arch_of(rel) == arch:
        return None
    return "%s%s/ is included only from itself and %s" % (
        ARCH_DIR, arch, ARCH_REGISTRARS)


def wing_internal_error(rel, header):
    """why rel may not include header (a wing's internal one), or None"""
    m = WING_INTERNAL.match(header)
    if m is None:
        return None
    wing = "volume/%s/" % m.group(1)
    if rel.startswith(wing) or os.path.dirname(rel) == "volume":
        return None
    return "%sinternal/ is %s's own: include it only from that wing " \
        "and volume/'s top level" % (wing, wing)


def resolve(src, rel, header, quoted):
    """the project file (relative to src) a header names, or None for a
    system or generated header"""
    if quoted:
        here = os.path.normpath(os.path.join(os.path.dirname(rel), header))
        if os.path.isfile(os.path.join(src, here)):
            return here
    there = os.path.normpath(header)
    if top(there) in LAYERED and os.path.isfile(os.path.join(src, there)):
        return there
    return None


def spelling_error(user, rel, header, quoted, target):
    """why the include spelling itself is wrong, or None"""
    if ".." in header.split("/"):
        return "names a file by \"..\": write dir/name from the top"
    if quoted and "/" not in header and (
            target is None or os.path.dirname(target) != os.path.dirname(rel)):
        return "no file of %s/: write dir/name from the top" % (
            os.path.dirname(rel))
    if FUSE_HEADER.match(header) and user not in FUSE_USERS and \
            user not in FREE:
        return "%s/ knows no FUSE (only %s may include libfuse)" % (
            user, ", ".join(d + "/" for d in sorted(FUSE_USERS)))
    return None


def stem(rel):
    return os.path.splitext(rel)[0]


def check_includes(src):
    """the include errors, the number of project include edges, and the
    graph stem -> {stem: first "file:line" of that arrow}"""
    errors, seen, graph = [], 0, {}
    for d in sorted(LAYERED):
        for root, dirs, files in os.walk(os.path.join(src, d)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, src)
                arrows = graph.setdefault(stem(rel), {})
                with open(path, errors="replace") as f:
                    for no, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        quoted, header = m.group(1) == '"', m.group(2)
                        shown = ('"%s"' if quoted else "<%s>") % header
                        target = resolve(src, rel, header, quoted)
                        why = spelling_error(d, rel, header, quoted, target)
                        # a generated header of a directory is that
                        # directory's too ("crypto/camellia/...-bs.h")
                        used = target or (header if "/" in header and
                                          top(header) in LAYERED else None)
                        if not why and used is not None:
                            seen += 1
                            why = edge_error(d, top(used), used) or \
                                wing_internal_error(rel, used)
                            if not why and d == "crypto":
                                why = arch_include_error(rel, used)
                            if target and stem(target) != stem(rel):
                                arrows.setdefault(stem(target),
                                                  "%s:%d" % (rel, no))
                        if why:
                            errors.append("%s:%d: #include %s: %s"
                                          % (rel, no, shown, why))
    return errors, seen, graph


def circles(graph):
    """the strongly connected parts of more than one node (Tarjan)"""
    index, low, stack, on, parts = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                parts.append(sorted(part))

    sys.setrecursionlimit(max(1000, 4 * len(graph) + 100))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(parts)


def cycles(graph, part, limit):
    """the elementary cycles inside one circle, each once (it starts at
    its least node), at most limit of them"""
    inside, found = set(part), []

    def walk(start, path):
        for w in sorted(graph.get(path[-1], ())):
            if len(found) >= limit:
                return
            if w == start:
                found.append(path + [start])
            elif w in inside and w > start and w not in path:
                walk(start, path + [w])

    for start in part:
        walk(start, [start])
    return found


def check_circles(graph):
    errors = []
    for part in circles(graph):
        found = cycles(graph, part, MAX_CYCLES + 1)
        for cyc in found[:MAX_CYCLES]:
            errors.append("circle: %s" % " -> ".join(
                "%s (%s)" % (a, graph[a][b]) for a, b in zip(cyc, cyc[1:]))
                + " -> " + cyc[-1])
        if len(found) > MAX_CYCLES:
            errors.append("circle: more cycles among %s" % ", ".join(part))
    return errors


def arch_source_error(out, source):
    """why the build output out may not compile source, or None"""
    out_arch, src_arch = arch_of(out), arch_of(source)
    if out_arch is not None and src_arch != out_arch:
        return "a library of %s%s/ compiles only its own sources" % (
            ARCH_DIR, out_arch)
    if src_arch is not None and out_arch is None and \
            os.path.dirname(out.split(".p/", 1)[0]) != "crypto":
        return "%s%s/ is compiled only by its own libraries and crypto/" % (
            ARCH_DIR, src_arch)
    return None


def check_links(build):
    """programs and the static libraries they link; libraries and the
    sources they compile (build.ninja of the ninja backend)"""
    ninja = os.path.join(build, "build.ninja")
    errors, seen = [], 0
    with open(ninja, errors="replace") as f:
        text = f.read().replace("$\n", "")
    for line in text.splitlines():
        m = re.match(r"build (\S+): (c_LINKER\S*|c_COMPILER\S*) (.*)", line)
        if not m:
            continue
        out, rule, rest = m.group(1), m.group(2), m.group(3)
        user = top(out)
        if user not in LAYERED:
            continue
        if rule.startswith("c_LINKER"):
            # implicit dependencies after "|": the static libraries
            deps = rest.split("|", 1)[1].split() if "|" in rest else []
            for lib in deps:
                if lib.startswith("/") or not lib.endswith(".a"):
                    continue
                seen += 1
                why = edge_error(user, top(lib), None)
                if why:
                    errors.append("%s links %s: %s" % (out, lib, why))
        else:
            srcs = rest.split("|", 1)[0].split()
            for s in srcs:
                if not s.startswith("../"):
                    continue
                used = top(os.path.normpath(s[3:]))
                seen += 1
                why = edge_error(user, used, None) or \
                    arch_source_error(out, os.path.normpath(s[3:]))
                if why:
                    errors.append("%s compiles %s: %s" % (out, s[3:], why))
    return errors, seen


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    src, build = sys.argv[1], sys.argv[2]
    errors, nincl, graph = check_includes(src)
    errors += check_circles(graph)
    ninja = os.path.join(build, "build.ninja")
    if not os.path.isfile(ninja):
        # checking half the arrows is not a pass
        errors.append("%s: missing (not the ninja backend?): the link and "
                      "source edges cannot be read" % ninja)
        nlink = None
    else:
        more, nlink = check_links(build)
        errors += more
    for e in errors:
        print(e)
    # a scan that found nothing checked nothing
    if nincl < 100 or nlink == 0 or len(graph) < 100:
        print("too few edges found (%d includes, %s links): wrong roots?"
              % (nincl, nlink))
        return 1
    print("%d include edges, %s link and source edges: %d forbidden "
          "(docs/design.md, Layers)" % (nincl, "no" if nlink is None
                                        else nlink, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
