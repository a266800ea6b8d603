#!/bin/bash
# Fuzzing in CI (tests/fuzz/, docs/security.md "Fuzzing"): build the
# libFuzzer targets with clang, ASan and UBSan in BUILDDIR-fuzz, replay
# every saved crash in tests/fuzz/regressions/<target>/, then fuzz each
# target for CLOAKFS_FUZZ_SECONDS (default 30), two at a time, from its
# seed corpus in tests/fuzz/corpus/<target>/. Prints executions and
# coverage per target and ends with "N passed, N failed, 0 skipped", one per target
# (a failed replay or a crash fails it; the crashing input is saved and
# its path printed). Called by scripts/test.sh with its BUILDDIR.
#   scripts/ci-fuzz.sh BUILDDIR
#   CLOAKFS_FUZZ_TARGETS="fuzz_names fuzz_enc" to run some targets only
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
builddir=${1:?usage: ci-fuzz.sh BUILDDIR}
fuzzdir=$builddir-fuzz
seconds=${CLOAKFS_FUZZ_SECONDS:-30}
targets=(${CLOAKFS_FUZZ_TARGETS:-fuzz_config fuzz_header fuzz_names fuzz_daemon_frame fuzz_enc})
. scripts/deps.sh

give_up() { # give_up WHY: every target counts as failed
	echo "ci-fuzz.sh: $1"
	echo "0 passed, ${#targets[@]} failed, 0 skipped"
	exit 1
}

start=$(date +%s)
# clang 14 and its runtime (libFuzzer, sanitizers), llvm-14 to symbolize
# reports: in cloakfs_test_deps
cloakfs_install_deps "${cloakfs_demo_deps[@]}" "${cloakfs_test_deps[@]}" || give_up "installing dependencies failed"

if [ -f "$fuzzdir/build.ninja" ]; then
	meson setup --reconfigure "$fuzzdir" >/dev/null
else
	# the SIMD cores are left out: their drivers are checked against the
	# generic ones by tests/crypto, and under ASan they double the build
	CC=clang meson setup "$fuzzdir" -Dwerror=true --buildtype=plain \
		-Dc_args='-O1 -gline-tables-only' -Db_sanitize=address,undefined \
		-Db_lundef=false -Dfuzz=true -Dsimd=false -Dtests=false \
		-Dfs=disabled -Doracle_tests=disabled >/dev/null
fi || give_up "meson setup of $fuzzdir failed"
ninja -C "$fuzzdir" fuzz >"$fuzzdir/build.log" 2>&1 ||
	{ tail -30 "$fuzzdir/build.log"; give_up "build of the fuzz targets failed"; }
echo "ci-fuzz.sh: built in $(( $(date +%s) - start )) s"

export LSAN_OPTIONS="suppressions=$top/tests/fuzz/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
logs=$fuzzdir/logs
artifacts=$fuzzdir/artifacts
rm -rf "$logs" "$fuzzdir/work"
mkdir -p "$logs" "$artifacts"

declare -A verdict
# ---- saved crashes: each must run clean now
for t in "${targets[@]}"; do
	inputs=()
	[ -d "tests/fuzz/regressions/$t" ] &&
		mapfile -t inputs < <(find "tests/fuzz/regressions/$t" -type f ! -name '*.md' | sort)
	[ ${#inputs[@]} -eq 0 ] && continue
	mkdir -p "$artifacts/$t"
	if "$fuzzdir/tests/fuzz/$t" -artifact_prefix="$artifacts/$t/" "${inputs[@]}" \
		>"$logs/$t.regressions.log" 2>&1; then
		echo "$t: ${#inputs[@]} regression input(s) ok"
	else
		echo "$t: a regression input fails again:"
		grep -E 'Running:|ERROR|SUMMARY|invariant' "$logs/$t.regressions.log" | tail -8
		verdict[$t]=failed
	fi
done

# ---- fuzz: two targets at a time, one per core
fuzz_one() { # fuzz_one TARGET: libFuzzer's exit status into work/TARGET.status
	local t=$1 max_len=4096 leaks=1
	# libconfig's own leak (tests/fuzz/lsan.supp) would make libFuzzer
	# stop the world for a leak check after most inputs (35 instead of
	# 2700 runs/s): for fuzz_config, LSan checks once, at exit, instead
	[ "$t" = fuzz_config ] && max_len=8192 leaks=0
	mkdir -p "$fuzzdir/work/$t" "$artifacts/$t"
	# new inputs go to the work directory; the seeds stay as they are
	"$fuzzdir/tests/fuzz/$t" -max_total_time="$seconds" -print_final_stats=1 \
		-max_len="$max_len" -detect_leaks="$leaks" -timeout=20 -rss_limit_mb=2048 \
		-artifact_prefix="$artifacts/$t/" \
		"$fuzzdir/work/$t" "tests/fuzz/corpus/$t" >"$logs/$t.log" 2>&1
	echo $? >"$fuzzdir/work/$t.status"
}
for t in "${targets[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 1; done
	fuzz_one "$t" &
done
wait

passed=0 failed=0
for t in "${targets[@]}"; do
	status=$(cat "$fuzzdir/work/$t.status" 2>/dev/null || echo 1)
	log=$logs/$t.log
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	covline=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
	cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$covline")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$covline")
	corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$covline")
	printf '%s: %s executions in %s s, cov: %s, ft: %s, corpus: %s\n' "$t" \
		"${execs:-?}" "$seconds" "${cov:-?}" "${ft:-?}" "${corp:-?}"
	if [ "$status" -ne 0 ]; then
		echo "$t: FAILED (libFuzzer exit $status); log: $log"
		grep -E 'ERROR|SUMMARY|invariant broken' "$log" | head -5
		for a in $(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log"); do
			echo "$t: crashing input saved: $a"
			echo "$t: reproduce: $fuzzdir/tests/fuzz/$t $a; once fixed, add it to" \
				"tests/fuzz/regressions/$t/"
		done
		verdict[$t]=failed
	fi
	if [ "${verdict[$t]:-}" = failed ]; then
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
done
echo "ci-fuzz.sh: $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
