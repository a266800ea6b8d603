#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Count the results of meson test runs, one line per test that did not
pass and a closing "N passed, N failed, N skipped" line:

    skip: NAME: REASON
    fail: NAME
    N passed, N failed, N skipped

    scripts/count_tests.py [--prefix TEXT] MESON-JSON-LOG...

A meson test counts once, by its result; its skip reason is its own
"skip: WHY" line when it printed one (a random test's seed may follow),
else the last line it printed. A pytest module that wrote a JUnit XML report
(--junitxml=PATH in its command, written during this run) counts per
test case instead: each passed, failed (or errored) and skipped case with
pytest's reason, and each failed case by name with the first line of
its message. A module that failed while its report shows no failure
(it crashed, or its own checks after the tests failed) counts one more
failure. An unreadable or empty log counts as one failure.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET


def last_line(text):
    lines = [l.strip(" !") for l in (text or "").splitlines() if l.strip(" !")]
    return lines[-1].replace("_pytest.outcomes.Exit: ", "") if lines else "no reason given"


def skip_reason(text):
    """a skipped C test's reason: its own "skip: WHY" line, which other
    output (a random test's seed) may follow; else its last line"""
    said = [l.strip()[5:].strip() for l in (text or "").splitlines()
            if l.strip().startswith("skip:")]
    return said[-1] if said else last_line(text)


def junit_path(cmd):
    for arg in cmd or []:
        if arg.startswith("--junitxml="):
            return arg[len("--junitxml="):]
    return None


def junit_counts(path, since):
    """(passed, failed, [(case, reason)]) from a JUnit report written at
    or after since, or None"""
    try:
        if os.path.getmtime(path) < since - 1:
            return None  # left from an earlier run: this one crashed first
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    passed = failed = 0
    skipped, failures = [], []
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        if bad is not None:
            failed += 1
            failures.append((name, (bad.get("message") or last_line(bad.text)).splitlines()[0][:200]))
        elif case.find("skipped") is not None:
            s = case.find("skipped")
            skipped.append((name, s.get("message") or last_line(s.text)))
        else:
            passed += 1
    return passed, failed, skipped, failures


def count(logs, prefix):
    passed = failed = 0
    skips, fails = [], []
    entries = 0
    for log in logs:
        try:
            lines = open(log).read().splitlines()
        except OSError as e:
            fails.append("%s%s (%s)" % (prefix, log, e.strerror))
            continue
        for line in lines:
            r = json.loads(line)
            entries += 1
            name = prefix + r["name"].split(" / ", 1)[-1]
            result = r["result"]
            out = (r.get("stdout") or "") + (r.get("stderr") or "")
            j = junit_path(r.get("command"))
            jc = junit_counts(j, r.get("starttime", 0)) if j else None
            if jc and result != "SKIP":
                p, f, s, bad = jc
                passed += p
                failed += f
                skips += [("%s::%s" % (name, c), why) for c, why in s]
                if f:
                    fails.append("%s (%d test%s)" % (name, f, "s" if f > 1 else ""))
                    fails += ["%s::%s: %s" % (name, c, why) for c, why in bad]
                elif result not in ("OK", "EXPECTEDFAIL"):
                    failed += 1
                    fails.append("%s (%s after its tests)" % (name, result))
            elif result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif result == "SKIP":
                skips.append((name, skip_reason(out)))
            else:
                failed += 1
                fails.append("%s (%s)" % (name, result))
    if not entries and not fails:
        fails.append(prefix + "no test ran")
    failed = max(failed, len([f for f in fails if "::" not in f]))
    return passed, failed, skips, fails


def main(argv):
    prefix = ""
    if len(argv) > 2 and argv[1] == "--prefix":
        prefix, argv = argv[2], argv[2:]
    passed, failed, skips, fails = count(argv[1:], prefix)
    for name, why in skips:
        print("skip: %s: %s" % (name, why))
    for name in fails:
        print("fail: %s" % name)
    print("%d passed, %d failed, %d skipped" % (passed, failed, len(skips)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
