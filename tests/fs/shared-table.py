#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The table of the shared-storage cases, in markdown, from the JSON that
tests/fs/test_shared.py writes (rows: cases; columns: the stacks).

Usage: shared-table.py TABLE.json
  run as root, for example:
    CLOAKFS_SHARED_TABLE=$PWD/shared.json meson test -C build fs-shared
    tests/fs/shared-table.py shared.json

A cell is what that stack did; "(wrong)" marks a cell that breaks the
shared-storage rules (garbage, a lost write, a silent overwrite, a wrong
errno, staleness past the bound); "(xfail)" marks a known-wrong cell of
cloakfs's default mount, asserted as a strict xfail. A stack that did not
run has one line under the table saying why.
"""
import json
import sys

COLUMNS = [("gluster", "GlusterFS"), ("cloakfs", "cloakfs default"),
           ("cloakfs-shared", "cloakfs -o shared"),
           ("cloakfs-shared-gcm", "cloakfs -o shared, aes256-gcm"), ("gocryptfs", "gocryptfs"),
           ("gocryptfs-shared", "gocryptfs -sharedstorage")]


def cell(c):
    if c is None:
        return "-"
    text = c["cell"].replace("|", "\\|")
    if not c["ok"]:
        text += " (xfail)" if c["rule"] == "xfail" else " (wrong)"
    return text


def table(t):
    out = ["| case | " + " | ".join(title for _, title in COLUMNS) + " |",
           "|---" * (len(COLUMNS) + 1) + "|"]
    for case in t["order"]:
        row = t["cases"][case]
        out.append("| %s | %s |" % (row["title"], " | ".join(
            cell(row["cells"].get(stack)) for stack, _ in COLUMNS)))
    notes = []
    for stack, title in COLUMNS:
        why = t["stacks"].get(stack, {"skipped": "not run"}).get("skipped")
        if why:
            notes.append("- %s: skipped: %s" % (title, why))
    return "\n".join(out + ([""] + notes if notes else [])) + "\n"


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: shared-table.py TABLE.json\n")
        return 2
    try:
        with open(argv[1]) as f:
            t = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write("shared-table.py: %s: %s\n" % (argv[1], e))
        return 1
    if not t.get("order"):
        sys.stderr.write("shared-table.py: %s: no cases recorded\n" % argv[1])
        return 1
    sys.stdout.write(table(t))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
