# SPDX-License-Identifier: MIT
"""Tabulate bench/fs-peers.sh results as markdown.

    python3 bench/fs-peers-table.py BACKING RESULTS.tsv

RESULTS.tsv has one line per measurement: filesystem, metric, value.
Prints the medians, the speed ratios against the passthrough and
gocryptfs (higher = faster: a time ratio is inverted) and the issue #8
targets for each cloakfs cipher.
"""
import statistics
import sys

# metric, heading, unit, True if higher is better
METRICS = [
    ("write", "write", "MiB/s", True),
    ("rd-cold", "read cold", "MiB/s", True),
    ("rd-warm", "read warm", "MiB/s", True),
    ("rnd-rd", "4K rnd read", "IOPS", True),
    ("rnd-wr", "4K rnd write", "IOPS", True),
    ("create", "create", "s", False),
    ("stat", "stat", "s", False),
    ("delete", "delete", "s", False),
    ("untar", "untar", "s", False),
    ("ls-lR", "ls -lR cold", "s", False),
    ("rm-rf", "rm -rf", "s", False),
    ("cpu-write", "CPU write", "s/GiB", False),
    ("cpu-read", "CPU read", "s/GiB", False),
    ("cpu-small", "CPU small files", "s", False),
    ("cpu-tree", "CPU tree", "s", False),
]
RATIO_METRICS = METRICS

# issue #8 targets: metric, against, minimum speed ratio, wording
TARGETS = [
    ("write", "passthrough", 0.9, "seq write >= 0.9x passthrough"),
    ("rd-cold", "passthrough", 0.9, "seq read (cold) >= 0.9x passthrough"),
    ("rd-cold", "gocryptfs", 2.0, "seq read (cold) >= 2x gocryptfs"),
] + [
    (m, ref, lim, "%s %s" % (m, text))
    for m in ("untar", "ls-lR", "create", "delete", "rm-rf")
    for ref, lim, text in (("passthrough", 1 / 1.2, "time <= 1.2x passthrough"),
                           ("gocryptfs", 2.0, ">= 2x faster than gocryptfs"))
] + [
    ("rnd-rd", "gocryptfs", 1.0, "4K random read IOPS >= gocryptfs"),
    ("rnd-wr", "gocryptfs", 1.0, "4K random write IOPS >= gocryptfs"),
]

# authenticated volumes (issue 30), each against gocryptfs and against
# the same workload on an aes256-xts volume of the same run
AEAD = ("cloakfs-aes256-gcm", "cloakfs-xchacha20-poly1305")
SMALL = ("create", "stat", "delete", "untar", "ls-lR", "rm-rf")
AEAD_TARGETS = [
    ("write", "gocryptfs", 1.5, "seq write >= 1.5x gocryptfs"),
    ("rd-cold", "gocryptfs", 1.5, "seq read (cold) >= 1.5x gocryptfs"),
] + [(m, "gocryptfs", 1.0, "%s >= gocryptfs" % m) for m in SMALL] + [
    (m, "cloakfs-aes256-xts", 0.9, "%s >= 0.9x aes256-xts" % m)
    for m in ("write", "rd-cold", "rd-warm", "rnd-rd", "rnd-wr") + SMALL
]


def load(path):
    order, values = [], {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                continue
            fs, metric, value = parts
            try:
                v = float(value)
            except ValueError:
                continue
            if fs not in order:
                order.append(fs)
            values.setdefault((fs, metric), []).append(v)
    med = {k: statistics.median(v) for k, v in values.items()}
    return order, med


def fmt(v):
    if v is None:
        return "-"
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


def speed_ratio(med, fs, ref, metric, higher):
    a, b = med.get((fs, metric)), med.get((ref, metric))
    if a is None or b is None or a <= 0 or b <= 0:
        return None
    return a / b if higher else b / a


def table(head, rows):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def main():
    backing, path = sys.argv[1], sys.argv[2]
    order, med = load(path)
    print()
    print("### %s backing: medians" % backing)
    print()
    print(table(["filesystem"] + ["%s %s" % (h, u) for _, h, u, _ in METRICS],
                [[fs] + [fmt(med.get((fs, m))) for m, _, _, _ in METRICS]
                 for fs in order]))
    for ref in ("passthrough", "gocryptfs"):
        if ref not in order:
            continue
        print()
        print("### %s backing: speed relative to %s (higher = faster)" % (backing, ref))
        print()
        print(table(["filesystem"] + [h for _, h, _, _ in RATIO_METRICS],
                    [[fs] + [fmt(speed_ratio(med, fs, ref, m, hi))
                             for m, _, _, hi in RATIO_METRICS]
                     for fs in order if fs != "bare"]))
    cloaks = [fs for fs in order if fs.startswith("cloakfs-")]
    targets(backing, "issue #8 targets", TARGETS, med, cloaks)
    targets(backing, "authenticated volumes' targets (issue 30)", AEAD_TARGETS,
            med, [fs for fs in cloaks if fs.split("@")[0] in AEAD])


def targets(backing, title, rows_in, med, cloaks):
    """a table of targets (speed ratio >= minimum) for the columns cloaks"""
    if not cloaks:
        return
    print()
    print("### %s backing: %s (speed ratio, minimum)" % (backing, title))
    print()
    rows = []
    for m, ref, lim, text in rows_in:
        hi = next(h for mm, _, _, h in METRICS if mm == m)
        row = [text, "%.2f" % lim]
        for fs in cloaks:
            r = speed_ratio(med, fs, ref, m, hi)
            row.append("-" if r is None else "%.2f %s" % (r, "ok" if r >= lim else "MISS"))
        rows.append(row)
    print(table(["target", "min"] + cloaks, rows))


if __name__ == "__main__":
    main()
