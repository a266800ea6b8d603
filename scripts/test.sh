#!/bin/bash
# Run every cloakfs test on a fresh Debian 12 machine: install what is
# missing, configure, build with -Werror, run the suite, and end with one
# line "N passed, N failed". Exit status non-zero if anything failed.
#   scripts/test.sh [BUILDDIR]      (default: build-test)
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
builddir=${1:-build-test}
. scripts/deps.sh

start=$(date +%s)
cloakfs_install_deps || { echo "test.sh: installing dependencies failed"; echo "0 passed, 1 failed"; exit 1; }

# the tests must not see the machine's own crypto policy
export CLOAKFS_CRYPTO_CONFIG=""
unset CLOAKFS_CRYPTO

if [ -d "$builddir" ] && [ -f "$builddir/build.ninja" ]; then
	meson setup --reconfigure "$builddir" -Dwerror=true >/dev/null
else
	meson setup "$builddir" -Dwerror=true --buildtype=debugoptimized >/dev/null
fi || { echo "test.sh: meson setup failed"; echo "0 passed, 1 failed"; exit 1; }
if ! ninja -C "$builddir"; then
	echo "test.sh: build failed"
	echo "0 passed, 1 failed"
	exit 1
fi

meson test -C "$builddir" --print-errorlogs --num-processes 2
status=$?

# count from meson's JSON log: one result per test
read -r passed failed skipped < <(python3 - "$builddir/meson-logs/testlog.json" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"): p += 1
    elif r == "SKIP": s += 1
    else: f += 1
print(p, f, s)
PY
)
[ -n "${passed:-}" ] || { passed=0; failed=1; skipped=0; }
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "test.sh: $(( $(date +%s) - start )) s"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
