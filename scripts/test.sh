#!/bin/bash
# Run every cloakfs test on a fresh Debian 12 machine: install what is
# missing, configure, build with -Werror, run the suite, and end with one
# line "N passed, N failed, N skipped", the skipped tests (with their
# reasons) and the failed ones listed above it. A pytest module counts per
# test case. Exit status non-zero if anything failed.
#   scripts/test.sh [BUILDDIR]      (default: build-test)
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
builddir=${1:-build-test}
. scripts/deps.sh

start=$(date +%s)
cloakfs_install_deps "${cloakfs_demo_deps[@]}" "${cloakfs_test_deps[@]}" || { echo "test.sh: installing dependencies failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

# the tests must not see the machine's own crypto policy
export CLOAKFS_CRYPTO_CONFIG=""
unset CLOAKFS_CRYPTO

if [ -d "$builddir" ] && [ -f "$builddir/build.ninja" ]; then
	meson setup --reconfigure "$builddir" -Dwerror=true >/dev/null
else
	meson setup "$builddir" -Dwerror=true --buildtype=debugoptimized >/dev/null
fi || { echo "test.sh: meson setup failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
if ! ninja -C "$builddir"; then
	echo "test.sh: build failed"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi

# Every section adds its counts; its skipped and failed tests are listed
# at the end, above the closing line.
passed=0 failed=0 skipped=0
summary=$(mktemp) timings=$(mktemp)
trap 'rm -f "$summary" "$timings"' EXIT
tally() { # tally NAME STATUS FILE: add the counts of FILE's closing line
	local name=$1 status=$2 file=$3 line p f s
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$file" | tail -1)
	if [ -z "$line" ]; then
		echo "fail: $name (exit status $status, no closing line)" >>"$summary"
		failed=$((failed + 1))
		return
	fi
	read -r p _ f _ s _ <<<"${line//,/}"
	grep -E '^(skip|fail): ' "$file" >>"$summary"
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "fail: $name (exit status $status)" >>"$summary"
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
}
# count_log NAME STATUS LOG [PREFIX]: tally a meson JSON log
count_log() {
	local out
	out=$(mktemp)
	python3 scripts/count_tests.py ${4:+--prefix "$4"} "$3" >"$out" 2>&1
	tally "$1" "$2" "$out"
	rm -f "$out"
}

section_start=$(date +%s)
took() { # took NAME: how long the section took (the budget: 20 minutes in all)
	echo "test.sh: $1: $(( $(date +%s) - section_start )) s" | tee -a "$timings"
	section_start=$(date +%s)
}
echo "test.sh: setup and build: $(( section_start - start )) s" >>"$timings"

rm -f "$builddir/meson-logs/testlog.json"
meson test -C "$builddir" --print-errorlogs --num-processes 2
count_log "meson test" $? "$builddir/meson-logs/testlog.json"
took "meson test"

# ---- the README's main command -------------------------------------------
# scripts/demo.sh, run as a user runs it (its own release build in build/,
# a volume in a temporary directory), so the README's first command cannot
# break unseen. It needs /dev/fuse: without it, a skip with the reason.
demo_out=$(mktemp) demo_work=$(mktemp -d)
if [ -r /dev/fuse ] && [ -w /dev/fuse ]; then
	bash scripts/demo.sh "$demo_work/demo" >"$demo_out" 2>&1
	demo_status=$?
	if [ "$demo_status" -eq 0 ] && grep -q '^demo: done' "$demo_out"; then
		echo "1 passed, 0 failed, 0 skipped" >>"$demo_out"
	else
		tail -20 "$demo_out"
		echo "fail: scripts/demo.sh (exit status $demo_status, output above)" >>"$demo_out"
		echo "0 passed, 1 failed, 0 skipped" >>"$demo_out"
	fi
else
	echo "skip: scripts/demo.sh: /dev/fuse is not usable by $(id -un)" >>"$demo_out"
	echo "0 passed, 0 failed, 1 skipped" >>"$demo_out"
fi
tally "scripts/demo.sh" 0 "$demo_out"
rm -rf "$demo_out" "$demo_work"
took "scripts/demo.sh"

# ---- ARM cross builds under qemu-user ------------------------------------
# Both ARM targets build next to the native build dir (BUILDDIR-aarch64,
# BUILDDIR-armhf) from cross/*.ini and run under several emulated CPUs
# (QEMU_CPU picks qemu-user's model), so every CPU path of the ARM drivers
# and their fallbacks is tested; each run counts in the final line.
# TEST_QUICK=1 lightens the heavy tests under emulation (fewer random
# lengths and iterations, the same code paths). CLOAKFS_TEST_CROSS=0
# skips this section. "-long" leaves out suite long (every driver against
# its generic one, the SM4 million chain): a driver runs the same code on
# every CPU that has its features (no driver looks at the CPU after the
# registry picked it), so those run once per target, on -cpu max, where
# every driver of the target runs; the other CPUs run every known answer
# and self-test with the fallbacks their features leave.
#   target  QEMU_CPU    CLOAKFS_CRYPTO          suites
cross_runs=(
	"aarch64 max        -                       crypto,tools" # AES PMULL SM4 SHA-512
	"aarch64 cortex-a53 -                       crypto,-long" # no SM4, no SHA-512
	"aarch64 cortex-a53 nocpu:aes,nocpu:pmull   crypto,-long" # no crypto extension
	"arm     max        -                       crypto,tools" # NEON + AES
	"arm     cortex-a7  -                       crypto,-long" # NEON, no AES
	"arm     cortex-r5f -                       crypto,-long" # no NEON
)
cross_failed_build() { # cross_failed_build WHAT: one failure, logged
	echo "test.sh: $1 failed"
	echo "fail: $1" >>"$summary"
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
			for s in ${suites//,/ }; do
				case $s in
				-*) suite_args+=(--no-suite "${s#-}") ;;
				*) suite_args+=(--suite "$s") ;;
				esac
			done
			rm -f "$xdir/meson-logs/$log.json"
			env QEMU_CPU="$cpu" ${policy:+CLOAKFS_CRYPTO=$policy} TEST_QUICK=1 \
				meson test -C "$xdir" --print-errorlogs --num-processes 2 \
				--logbase "$log" "${suite_args[@]}"
			count_log "$target $log" $? "$xdir/meson-logs/$log.json" "$target $log: "
		done
	done
	took "ARM cross builds and runs"
fi

# ---- extra sections: scripts/ci-*.sh BUILDDIR --------------------------
# Each script (fuzzing, sanitizer builds, valgrind, ...) runs its own checks
# and ends with a line "N passed, N failed[, N skipped]", with "skip: NAME:
# REASON" and "fail: NAME" lines for its tests above it; those count here.
# A script that exits non-zero without such a line counts as one failure.
# CLOAKFS_TEST_EXTRA=0 skips this section.
if [ "${CLOAKFS_TEST_EXTRA:-1}" != 0 ]; then
	for script in scripts/ci-*.sh; do
		echo "== $script"
		out=$(mktemp)
		bash "$script" "$builddir" 2>&1 | tee "$out"
		tally "$script" "${PIPESTATUS[0]}" "$out"
		rm -f "$out"
		took "$script"
	done
fi

cat "$timings"
times >"$timings" # (in this shell: a pipe would run it in a subshell)
echo "test.sh: $(( $(date +%s) - start )) s; CPU time (user, system) of what it ran: $(tail -1 "$timings")"
sed 's/^/  /' "$summary"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
