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
count_log() { # count_log FILE: prints "passed failed skipped"
	python3 - "$1" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"): p += 1
    elif r == "SKIP": s += 1
    else: f += 1
print(p, f, s)
PY
}
read -r passed failed skipped < <(count_log "$builddir/meson-logs/testlog.json")
[ -n "${passed:-}" ] || { passed=0; failed=1; skipped=0; }
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1

# ---- ARM cross builds under qemu-user ------------------------------------
# Both ARM targets build next to the native build dir (BUILDDIR-aarch64,
# BUILDDIR-armhf) from cross/*.ini and run under several emulated CPUs
# (QEMU_CPU picks qemu-user's model), so every CPU path of the ARM drivers
# and their fallbacks is tested; each run counts in the final line.
# TEST_QUICK=1 lightens the heavy tests under emulation (fewer random
# lengths and iterations, the same code paths). CLOAKFS_TEST_CROSS=0
# skips this section.
#   target  QEMU_CPU    CLOAKFS_CRYPTO          suites
cross_runs=(
	"aarch64 max        -                       crypto,tools" # AES PMULL SM4 SHA-512
	"aarch64 cortex-a53 -                       crypto"       # no SM4, no SHA-512
	"aarch64 cortex-a53 nocpu:aes,nocpu:pmull   crypto"       # no crypto extension
	"arm     max        -                       crypto,tools" # NEON + AES
	"arm     cortex-a7  -                       crypto"       # NEON, no AES
	"arm     cortex-r5f -                       crypto"       # no NEON
)
cross_failed_build() { # cross_failed_build WHAT: one failure, logged
	echo "test.sh: $1 failed"
	failed=$((failed + 1))
}
if [ "${CLOAKFS_TEST_CROSS:-1}" != 0 ]; then
	for target in aarch64 arm; do
		case $target in
		aarch64) cross=cross/aarch64-linux-gnu.ini xdir=$builddir-aarch64 ;;
		arm) cross=cross/arm-linux-gnueabihf.ini xdir=$builddir-armhf ;;
		esac
		if [ -f "$xdir/build.ninja" ]; then
			meson setup --reconfigure "$xdir" -Dwerror=true >/dev/null
		else
			meson setup "$xdir" --cross-file "$cross" -Dwerror=true \
				--buildtype=debugoptimized -Dfs=disabled -Ddaemon=disabled \
				-Doracle_tests=disabled >/dev/null
		fi || { cross_failed_build "meson setup of $xdir"; continue; }
		ninja -C "$xdir" >/dev/null || { ninja -C "$xdir" | tail -20; cross_failed_build "build of $xdir"; continue; }
		for run in "${cross_runs[@]}"; do
			read -r t cpu policy suites <<<"$run"
			[ "$t" = "$target" ] || continue
			[ "$policy" = - ] && policy=
			log="cross-$cpu${policy:+-${policy//[:,]/-}}"
			echo "== $target, QEMU_CPU=$cpu${policy:+, CLOAKFS_CRYPTO=$policy}: ${suites/,/ + }"
			suite_args=()
			for s in ${suites//,/ }; do suite_args+=(--suite "$s"); done
			env QEMU_CPU="$cpu" ${policy:+CLOAKFS_CRYPTO=$policy} TEST_QUICK=1 \
				meson test -C "$xdir" --print-errorlogs --num-processes 2 \
				--logbase "$log" "${suite_args[@]}"
			xstatus=$?
			read -r p f s < <(count_log "$xdir/meson-logs/$log.json")
			[ -n "${p:-}" ] || { p=0; f=1; s=0; }
			[ "$xstatus" -ne 0 ] && [ "$f" -eq 0 ] && f=1
			passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		done
	done
fi

# ---- extra sections: scripts/ci-*.sh BUILDDIR --------------------------
# Each script (fuzzing, sanitizer builds, valgrind, ...) runs its own checks
# and ends with a line "N passed, N failed"; that line counts here. A
# script that exits non-zero without such a line counts as one failure.
# CLOAKFS_TEST_EXTRA=0 skips this section.
if [ "${CLOAKFS_TEST_EXTRA:-1}" != 0 ]; then
	for script in scripts/ci-*.sh; do
		[ -f "$script" ] || continue
		echo "== $script"
		out=$(mktemp)
		bash "$script" "$builddir" 2>&1 | tee "$out"
		xstatus=${PIPESTATUS[0]}
		line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -1)
		rm -f "$out"
		if [ -n "$line" ]; then
			read -r p _ f _ <<<"$line"
			f=${f%,}
			[ "$xstatus" -ne 0 ] && [ "$f" -eq 0 ] && f=1
		else
			p=0 f=1
		fi
		passed=$((passed + p)) failed=$((failed + f))
	done
fi

echo "test.sh: $(( $(date +%s) - start )) s"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
