#!/bin/bash
# SPDX-License-Identifier: MIT
# The qemu-insncount plugin (bench/qemu-insncount) counts exactly: an
# AArch64 program of known length (insncount-loop.S) gives the same total
# on every run, 2 more instructions per loop iteration, its own function's
# count under sym=, and an unknown argument makes QEMU refuse the plugin.
#
#   test_qemu_insncount.sh PLUGIN LOOP_SOURCE
#
# Skips (77) without qemu-aarch64 or aarch64-linux-gnu-gcc.
set -u
plugin=$1 src=$2
for t in qemu-aarch64 aarch64-linux-gnu-gcc; do
	command -v "$t" >/dev/null || { echo "SKIP: no $t"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/insncount-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail=0

aarch64-linux-gnu-gcc -nostdlib -static -o "$work/loop" "$src" ||
	{ echo "FAIL: cannot build $src"; exit 1; }

# count ARGS...: the log lines of one run of the loop with ARGS
count() {
	: >"$work/log"
	qemu-aarch64 -plugin "$plugin,sym=_start" -d plugin -D "$work/log" \
		"$work/loop" "$@" || { echo "FAIL: qemu-aarch64 exited $?"; return 1; }
	tr '\n' ' ' <"$work/log"
}

# expect WHAT GOT WANT
expect() {
	if [ "$2" = "$3" ]; then
		echo "ok: $1: $2"
	else
		echo "FAIL: $1: got '$2', want '$3'"
		fail=1
	fi
}

one=$(count) || exit 1
again=$(count) || exit 1
two=$(count x) || exit 1
# 2 + 2 * 65536 + 3 and 2 + 2 * 131072 + 3
expect "argc 1" "$one" "insns total 131077 insns sym _start 131077 "
expect "argc 1, again" "$again" "$one"
expect "argc 2" "$two" "insns total 262149 insns sym _start 262149 "

if qemu-aarch64 -plugin "$plugin,bogus=1" -d plugin -D "$work/log" \
	"$work/loop" 2>"$work/err"; then
	echo "FAIL: an unknown plugin argument was accepted"
	fail=1
elif ! grep -q "unknown argument 'bogus=1'" "$work/err"; then
	echo "FAIL: no message naming the unknown argument: $(cat "$work/err")"
	fail=1
else
	echo "ok: unknown argument refused"
fi
exit $fail
