#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/count_tests.py over a meson log written here: the counts, and
each skipped C test's reason as the test gave it."""
import json
import os
import subprocess
import sys
import tempfile

script = os.path.join(sys.argv[1], "scripts", "count_tests.py")
entries = [
    {"name": "cloakfs:crypto / test_ok", "result": "OK", "stdout": "fine\n"},
    # a skip after which the test utilities print their seed
    {"name": "cloakfs:crypto / test_nh_neon", "result": "SKIP",
     "stdout": "skip: CPU lacks neon\n", "stderr": "TEST_SEED=27985248325953139\n"},
    {"name": "cloakfs:crypto / test_quiet_skip", "result": "SKIP",
     "stdout": "nothing to do here\n"},
    {"name": "cloakfs:crypto / test_bad", "result": "FAIL", "stdout": "boom\n"},
]
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as log:
    log.write("".join(json.dumps(e) + "\n" for e in entries))
try:
    r = subprocess.run([sys.executable, script, log.name], stdout=subprocess.PIPE, text=True)
finally:
    os.unlink(log.name)
want = ["skip: test_nh_neon: CPU lacks neon",
        "skip: test_quiet_skip: nothing to do here",
        "fail: test_bad (FAIL)",
        "1 passed, 1 failed, 2 skipped"]
got = r.stdout.splitlines()
if got != want or r.returncode != 1:
    print("count_tests.py printed (exit %d):\n%s\nwanted:\n%s"
          % (r.returncode, r.stdout, "\n".join(want)))
    sys.exit(1)
print("count_tests.py: counts and skip reasons as given")
