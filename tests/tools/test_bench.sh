#!/bin/sh
# SPDX-License-Identifier: MIT
# Command-line checks of cloakfs-bench: options, exit codes, --list, the
# table and the JSON output. Checks correctness only, never timing.
# Usage: test_bench.sh PATH/TO/cloakfs-bench
# shellcheck disable=SC2016 # the single-quoted $n are awk fields
set -u

bench=${1:?usage: test_bench.sh PATH/TO/cloakfs-bench}
checks=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# check DESCRIPTION COMMAND...: one check, failed when COMMAND fails
check() {
	desc=$1
	shift
	checks=$((checks + 1))
	if ! "$@"; then
		failed=$((failed + 1))
		echo "FAIL: $desc" >&2
	fi
}

# run ARGS...: the bench's stdout in $tmp/out, stderr in $tmp/err, status in $rc
run() {
	"$bench" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# short measurements: the test must stay quick on 2 shared cores
run_quick() {
	run "$@" --seconds 0.01 --runs 1
}

# --help and --version
run --help
check "--help exits 0 (got $rc)" test "$rc" -eq 0
check "--help mentions --alg" grep -q -e '--alg' "$tmp/out"
run --version
check "--version exits 0 (got $rc)" test "$rc" -eq 0
check "--version prints the program name" grep -q '^cloakfs-bench ' "$tmp/out"

# bad usage: exit 3, exactly one error line, nothing on stdout
for bad in --no-such-option -Z --size "--size 0" "--size abc" \
	   "--seconds -1" "--runs 0" "--ghz x" "--keysize 0" extra-arg; do
	# shellcheck disable=SC2086 # split "--size 0" into two arguments
	run $bad
	check "'$bad' exits 3 (got $rc)" test "$rc" -eq 3
	lines=$(wc -l <"$tmp/err")
	check "'$bad' prints one error line (got $lines)" test "$lines" -eq 1
	check "'$bad' prints nothing on stdout" test ! -s "$tmp/out"
done

# --list: "ALG DRIVER PRIORITY ..." per line
run --list
check "--list exits 0 (got $rc)" test "$rc" -eq 0
check "--list prints lines" test -s "$tmp/out"
check "--list lines are ALG DRIVER PRIORITY ..." awk '
	NF < 3 || $3 !~ /^-?[0-9]+$/ { bad = 1 } END { exit bad }' "$tmp/out"
check "--list shows xts-speck128-generic under xts(speck128)" awk '
	$1 == "xts(speck128)" && $2 == "xts-speck128-generic" { found = 1 }
	END { exit !found }' "$tmp/out"

# one algorithm, one size: rows for the generic driver, one auto driver
run_quick --alg 'xts(speck128)' --size 4096
check "xts(speck128) run exits 0 (got $rc)" test "$rc" -eq 0
check "header names the core clock method" \
	grep -q '^# core clock: [0-9.]* GHz (measured: ' "$tmp/out"
check "row for xts-speck128-generic encrypt 4096" awk '
	$1 == "xts(speck128)" && $2 == "xts-speck128-generic" &&
	/ encrypt +4096 / { found = 1 } END { exit !found }' "$tmp/out"
check "row for decrypt 4096" awk '
	$1 == "xts(speck128)" && / decrypt +4096 / { found = 1 }
	END { exit !found }' "$tmp/out"
n=$(grep -v '^#' "$tmp/out" | grep -c ' \* ')
check "one auto driver per op (got $n rows marked)" test "$n" -eq 2
check "only xts(speck128) rows" awk '
	!/^#/ && $1 != "alg" && $1 != "xts(speck128)" { bad = 1 }
	END { exit bad }' "$tmp/out"

# a size the mode cannot take is n/a, not an error; --ghz skips measuring
run_quick --driver ecb-speck128-generic --size 1420,64 --ghz 2
check "ecb 1420 exits 0 (got $rc)" test "$rc" -eq 0
check "ecb 1420 is n/a" grep -q ' 1420 .*n/a' "$tmp/out"
check "ecb 64 is measured" grep -q ' 64 *[0-9][0-9.]* ' "$tmp/out"
check "--ghz shown in the header" \
	grep -q '^# core clock: 2.00 GHz (--ghz)' "$tmp/out"
check "wall clock is the default timer" \
	grep -q '^# timer: wall clock (CLOCK_MONOTONIC)' "$tmp/out"

# --cpu-time: the thread CPU time clock, named in the header
run_quick --cpu-time --driver ecb-speck128-generic --size 64 --ghz 2
check "--cpu-time exits 0 (got $rc)" test "$rc" -eq 0
check "--cpu-time shown in the header" \
	grep -q '^# timer: thread CPU time (CLOCK_THREAD_CPUTIME_ID)' "$tmp/out"
check "--cpu-time measures" grep -q ' 64 *[0-9][0-9.]* ' "$tmp/out"

# --json: parses, has the keys, a row for the generic driver
run_quick --json --alg 'xts(speck128),sha512' --size 16,4096
check "--json exits 0 (got $rc)" test "$rc" -eq 0
check "--json output parses" \
	python3 -c 'import json, sys; json.load(sys.stdin)' <"$tmp/out"
check "--json rows have the expected keys and values" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
keys = {"alg", "driver", "priority", "auto", "const_time", "key_bits", "op",
        "size", "status", "mb_per_s", "cycles_per_byte", "core_ghz",
        "clock_method", "timer"}
assert isinstance(rows, list) and rows, "no rows"
for r in rows:
    assert keys <= set(r), "missing keys: %s" % (keys - set(r))
    assert r["status"] in ("ok", "n/a")
    if r["status"] == "ok":
        assert r["mb_per_s"] > 0 and r["cycles_per_byte"] > 0
assert any(r["driver"] == "xts-speck128-generic" and r["size"] == 4096
           and r["op"] == "encrypt" and r["key_bits"] == 512 for r in rows)
assert any(r["alg"] == "sha512" and r["op"] == "digest" for r in rows)
for alg in {r["alg"] for r in rows}:
    autos = {r["driver"] for r in rows if r["alg"] == alg and r["auto"]}
    assert len(autos) == 1, "auto drivers for %s: %s" % (alg, autos)
' "$tmp/out"

# Adiantum at the two sector sizes (512 B and 4 KiB), both directions,
# 256-bit key, measured ("ok"), through the generic instance
run_quick --json --driver adiantum-xchacha12-generic-aes-generic-nhpoly1305-generic --size 512,4096
check "adiantum bench exits 0 (got $rc)" test "$rc" -eq 0
check "adiantum: 512 and 4096 bytes, encrypt and decrypt, measured" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
got = {(r["size"], r["op"]) for r in rows if r["status"] == "ok"
       and r["alg"] == "adiantum(xchacha12,aes)" and r["key_bits"] == 256
       and r["mb_per_s"] > 0}
want = {(n, op) for n in (512, 4096) for op in ("encrypt", "decrypt")}
assert got == want, "got %s" % sorted(got)
' "$tmp/out"

# unknown names: exit 1 with a message naming them
run_quick --driver no-such-driver
check "unknown --driver exits 1 (got $rc)" test "$rc" -eq 1
check "unknown --driver is named in the error" grep -q no-such-driver "$tmp/err"
run_quick --alg 'xts(nosuch)'
check "unknown --alg exits 1 (got $rc)" test "$rc" -eq 1

# --cipher: a volume cipher's contents algorithm, an unknown one is usage
run_quick --cipher adiantum --size 4096
check "--cipher adiantum exits 0 (got $rc)" test "$rc" -eq 0
check "--cipher adiantum measures adiantum(xchacha12,aes) alone" awk '
	!/^#/ && $1 != "alg" { rows++; if ($1 != "adiantum(xchacha12,aes)") bad = 1 }
	END { exit bad || !rows }' "$tmp/out"
run_quick --cipher nosuch-xts
check "unknown --cipher exits 3 (got $rc)" test "$rc" -eq 3
check "unknown --cipher is named in the error" grep -q "nosuch-xts" "$tmp/err"

# no progress line when stderr is not a terminal
run_quick --driver xts-speck128-generic --size 16
check "driver run exits 0 (got $rc)" test "$rc" -eq 0
check "non-tty stderr stays empty" test ! -s "$tmp/err"

echo "test_bench: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
