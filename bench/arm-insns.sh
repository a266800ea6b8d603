#!/bin/bash
# SPDX-License-Identifier: MIT
# Instructions per byte of every ARM SIMD driver and of the generic C
# driver of the same algorithm, on AArch64 and AArch32, counted exactly
# under qemu-user with the qemu-insncount TCG plugin (bench/qemu-insncount,
# built by meson). We have no ARM hardware, so these counts stand in for
# cycles/byte (docs/performance.md, "Instruction counts").
#
#   bench/arm-insns.sh [-s SIZE] [-a ALG] [-c CPU64,CPU32] [AARCH64_BUILDDIR [ARMHF_BUILDDIR]]
#
# -c names the qemu CPU models of the AArch64 and the AArch32 runs (default
# max,max), e.g. -c cortex-a53,cortex-a7: drivers the model lacks the
# features of are not listed as usable and not measured.
# -a ALG measures only the drivers of algorithm ALG (e.g. sha512,
# 'xts(sm4)'); short names stand for a set: -a hctr2 is hctr2(aes) and its
# counter mode xctr(aes), -a xctr is xctr(aes) (docs/performance.md,
# "HCTR2 (issue 22)"), -a gcm is gcm(aes).
# Build dirs default to build-aarch64 and build-armhf (as scripts/test.sh
# makes them); missing ones are set up with cross/*.ini. Each driver runs
# bench/insn-loop (COUNT requests of SIZE bytes, default 4096) twice with
# different COUNTs under `-cpu max` (or -c's models); the difference of the totals over
# the difference of the bytes is instructions/byte, start-up and self-tests
# cancelled. "ARM drivers" are those CLOAKFS_CRYPTO=generic-only disables.
# The plugin is the one the AArch64 build dir builds for this machine;
# QEMU_INSNCOUNT=FILE loads another built plugin instead.
# Needs gcc, gcc-aarch64-linux-gnu, gcc-arm-linux-gnueabihf, qemu-user.
# Exit status 1 if a target of issue 4 is missed: Speck128-XTS NEON <= 9
# insns/B on both (on AArch32 also at least 3x fewer than the generic C
# driver); SM4-XTS with the SM4 extension (xts-sm4-ce) <= 4 insns/B;
# xts-aes-neonbs fewer instructions/byte than xts-aes-generic; or of
# issue 22: xts-camellia-ce at least 2x fewer instructions/byte than
# xts-camellia-generic, both directions; sha512-neon (AArch32) at least 2x
# fewer than sha512-generic; or of issues 30 and 31: chacha20-neon at
# least 3x fewer than chacha20-generic (chacha12-neon, xchacha12-neon,
# xchacha20-neon, nhpoly1305-neon likewise than their generic drivers),
# poly1305-neon at least 1.5x fewer than poly1305-generic (the condition
# it is registered on); or of issue 31: Adiantum without AES instructions
# (adiantum-xchacha12-neon-aes-neon-nhpoly1305-neon) at most 0.7x the
# instructions/byte of xts-speck128-neon; or of issue 30: gcm(aes) with the AES and PMULL
# instructions (gcm-aes-ce-pmull, the fused driver the registry picks) at
# least 5x fewer than gcm-aes-generic-ghash-generic.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
size=4096
only_alg=""
cpu64=max cpu32=max
while [ "${1:-}" = "-s" ] || [ "${1:-}" = "-a" ] || [ "${1:-}" = "-c" ]; do
	case $1 in
	-s) size=${2:?-s needs a size} ;;
	-a) only_alg=${2:?-a needs an algorithm} ;;
	-c) cpu64=${2%%,*} cpu32=${2#*,}
	    [ -n "$cpu64" ] && [ -n "$cpu32" ] && [ "$cpu64" != "$2" ] ||
		{ echo "arm-insns: -c needs CPU64,CPU32" >&2; exit 2; } ;;
	esac
	shift 2
done
case $only_alg in
hctr2) only_algs=("hctr2(aes)" "xctr(aes)") ;;
xctr) only_algs=("xctr(aes)") ;;
gcm) only_algs=("gcm(aes)") ;;
"") only_algs=() ;;
*) only_algs=("$only_alg") ;;
esac
a64_dir=${1:-build-aarch64}
a32_dir=${2:-build-armhf}
work=$(mktemp -d "${TMPDIR:-/tmp}/arm-insns.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export CLOAKFS_CRYPTO_CONFIG=""
unset CLOAKFS_CRYPTO QEMU_CPU
counts_lo=2 counts_hi=10

die() { echo "arm-insns: $*" >&2; exit 2; }
# env -i below drops PATH
qemu_a64=$(command -v qemu-aarch64) && qemu_a32=$(command -v qemu-arm) ||
	die "needs qemu-user (qemu-aarch64, qemu-arm)"

# setup ARCH BUILDDIR CROSSFILE TRIPLE: cross build of the crypto library
# and of insn-loop linked against it
setup() {
	local arch=$1 dir=$2 cross=$3 triple=$4
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" --cross-file "$cross" -Dfs=disabled \
			-Ddaemon=disabled -Doracle_tests=disabled >/dev/null ||
			die "meson setup $dir failed"
	fi
	ninja -C "$dir" crypto/libcloakfs_crypto.a base/libcloakfs_base.a >/dev/null ||
		die "build of $dir failed"
	# the crypto library logs through the base library's logger
	"$triple-gcc" -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I"$top" \
		bench/insn-loop.c "$dir/crypto/libcloakfs_crypto.a" \
		"$dir/base/libcloakfs_base.a" -lpthread \
		-o "$work/insn-loop-$arch" || die "cannot build insn-loop for $arch"
}

# the qemu CPU model of ARCH's runs
cpu_of() { if [ "$1" = aarch64 ]; then echo "$cpu64"; else echo "$cpu32"; fi; }

# insns QEMU SYSROOT ARCH DRIVER enc|dec: instructions per byte (2 decimals)
insns() {
	local qemu=$1 root=$2 arch=$3 drv=$4 dir=$5 n total=() cpu
	cpu=$(cpu_of "$arch")
	for n in $counts_lo $counts_hi; do
		# the guest's stack starts with its environment and path, and
		# their length moves its buffers' alignment (a few % of the
		# counts): an empty environment and a relative path keep the
		# counts the same on every machine
		(cd "$work" && env -i CLOAKFS_CRYPTO_CONFIG= "$qemu" -L "$root" \
			-cpu "$cpu" -plugin "$plugin" -d plugin -D "$work/log" \
			"./insn-loop-$arch" "$drv" "$size" "$n" "$dir") \
			>/dev/null 2>"$work/err" || {
			echo "arm-insns: $arch $drv: $(cat "$work/err")" >&2
			echo "-"
			return
		}
		total+=("$(awk '/^insns total/ { print $3 }' "$work/log")")
	done
	awk -v a="${total[0]}" -v b="${total[1]}" -v bytes=$(( (counts_hi - counts_lo) * size )) \
		'BEGIN { printf "%.2f", (b - a) / bytes }'
}

missed=0
# selected ALG: measured under -a (every algorithm without it)
selected() {
	local a
	[ ${#only_algs[@]} -eq 0 ] && return 0
	for a in "${only_algs[@]}"; do
		[ "$1" = "$a" ] && return 0
	done
	return 1
}

# measure ARCH QEMU SYSROOT LABEL
measure() {
	local arch=$1 qemu=$2 root=$3 label=$4
	local type alg drv state gen enc dec genc ratio cpu
	cpu=$(cpu_of "$arch")
	"$qemu" -L "$root" -cpu "$cpu" "$work/insn-loop-$arch" --list >"$work/all" ||
		die "$arch: insn-loop --list failed"
	CLOAKFS_CRYPTO=generic-only "$qemu" -L "$root" -cpu "$cpu" \
		"$work/insn-loop-$arch" --list >"$work/generic"
	echo
	echo "$label, qemu -cpu $cpu, $size-byte requests, instructions/byte"
	printf '%-20s %-34s %7s %7s   %-34s %7s %6s\n' ALG DRIVER ENC DEC \
		"GENERIC C" ENC "RATIO"
	while read -r type alg drv state; do
		[ "$state" = usable ] || continue
		selected "$alg" || continue
		grep -qx "$type $alg $drv disabled" "$work/generic" || continue
		# the generic C driver: of those named *-generic, the one that
		# says generic most often (an instance over several children,
		# hctr2-aes-generic-polyval-generic, names each child's driver)
		gen=$(awk -v a="$alg" '$2 == a && $3 ~ /-generic$/ && $4 == "usable" {
			n = gsub(/generic/, "&", $3)
			if (n > best) { best = n; name = $3 } }
			END { if (name != "") print name }' "$work/all")
		enc=$(insns "$qemu" "$root" "$arch" "$drv" enc)
		dec=-
		[ "$type" = skcipher ] || [ "$type" = cipher ] &&
			dec=$(insns "$qemu" "$root" "$arch" "$drv" dec)
		genc=- ratio=-
		if [ -n "$gen" ]; then
			genc=$(insns "$qemu" "$root" "$arch" "$gen" enc)
			ratio=$(awk -v g="$genc" -v s="$enc" 'BEGIN { if (s > 0) printf "%.1fx", g / s; else print "-" }')
		fi
		printf '%-20s %-34s %7s %7s   %-34s %7s %6s\n' "$alg" "$drv" \
			"$enc" "$dec" "${gen:--}" "$genc" "$ratio"
		if [ "$drv" = xts-speck128-neon ]; then
			check_speck "$arch" "$enc" "$dec" "$genc"
		fi
		if [ "$drv" = xts-aes-neonbs ]; then
			check_aes_neonbs "$qemu" "$root" "$arch" "$enc" "$dec" "$gen" "$genc"
		elif [ "$drv" = xts-sm4-ce ]; then
			check_sm4_ce "$enc" "$dec"
		elif [ "$drv" = xts-camellia-ce ]; then
			check_camellia_ce "$qemu" "$root" "$arch" "$enc" "$dec" "$gen" "$genc"
		elif [ "$drv" = sha512-neon ]; then
			check_ratio "$drv" "$enc" "$genc" 2
		elif [ "$drv" = chacha20-neon ] || [ "$drv" = chacha12-neon ] ||
		     [ "$drv" = xchacha12-neon ] || [ "$drv" = xchacha20-neon ]; then
			check_ratio "$drv" "$enc" "$genc" 3
		elif [ "$drv" = gcm-aes-ce-pmull ]; then
			check_ratio "$drv" "$enc" "$genc" 5
		elif [ "$drv" = nhpoly1305-neon ]; then
			check_ratio "$drv" "$enc" "$genc" 3
		elif [ "$drv" = poly1305-neon ]; then
			check_ratio "$drv" "$enc" "$genc" 1.5
		elif [ "$drv" = adiantum-xchacha12-neon-aes-neon-nhpoly1305-neon ]; then
			check_adiantum "$qemu" "$root" "$arch" "$enc" "$dec"
		fi
	done <"$work/all"
}

# the targets of issue 4 for Speck128/256-XTS
check_speck() {
	local arch=$1 enc=$2 dec=$3 genc=$4 ok
	ok=$(awk -v e="$enc" -v d="$dec" -v g="$genc" -v arch="$arch" 'BEGIN {
		ok = e != "-" && d != "-" && e <= 9 && d <= 9
		if (arch == "arm") ok = ok && g != "-" && g >= 3 * e
		print ok ? "met" : "MISSED" }')
	[ "$ok" = met ] || missed=1
	if [ "$arch" = arm ]; then
		echo "  target xts-speck128-neon <= 9 insns/B and >= 3x fewer than generic C: $ok"
	else
		echo "  target xts-speck128-neon <= 9 insns/B: $ok"
	fi
}

# issue 4's target for the bitsliced NEON AES: fewer instructions per byte
# than the generic constant-time C AES-XTS, both directions
check_aes_neonbs() {
	local qemu=$1 root=$2 arch=$3 enc=$4 dec=$5 gen=$6 genc=$7 gdec ok
	gdec=$(insns "$qemu" "$root" "$arch" "$gen" dec)
	ok=$(awk -v e="$enc" -v d="$dec" -v ge="$genc" -v gd="$gdec" 'BEGIN {
		ok = e != "-" && d != "-" && ge != "-" && gd != "-" && e < ge && d < gd
		print ok ? "met" : "MISSED" }')
	[ "$ok" = met ] || missed=1
	echo "  target xts-aes-neonbs fewer insns/B than $gen (dec: $gdec): $ok"
}

# the SM4 extension target of issue 4 (AArch64 only)
check_sm4_ce() {
	local ok
	ok=$(awk -v e="$1" -v d="$2" 'BEGIN {
		print (e != "-" && d != "-" && e <= 4 && d <= 4) ? "met" : "MISSED" }')
	[ "$ok" = met ] || missed=1
	echo "  target xts-sm4-ce <= 4 insns/B: $ok"
}

# issue 22's target for Camellia with the AES instructions (AArch64): at
# least 2x fewer instructions/byte than the generic constant-time C, both
# directions
check_camellia_ce() {
	local qemu=$1 root=$2 arch=$3 enc=$4 dec=$5 gen=$6 genc=$7 gdec ok
	gdec=$(insns "$qemu" "$root" "$arch" "$gen" dec)
	ok=$(awk -v e="$enc" -v d="$dec" -v ge="$genc" -v gd="$gdec" 'BEGIN {
		ok = e != "-" && d != "-" && ge != "-" && gd != "-" &&
		     ge >= 2 * e && gd >= 2 * d
		print ok ? "met" : "MISSED" }')
	[ "$ok" = met ] || missed=1
	echo "  target xts-camellia-ce >= 2x fewer insns/B than $gen (dec: $gdec): $ok"
}

# issue 31's target for Adiantum on NEON without AES instructions (the
# aes-neon instance, the pick there): at most 0.7x the instructions/byte
# of xts-speck128-neon, both directions
check_adiantum() {
	local qemu=$1 root=$2 arch=$3 enc=$4 dec=$5 se sd ok
	se=$(insns "$qemu" "$root" "$arch" xts-speck128-neon enc)
	sd=$(insns "$qemu" "$root" "$arch" xts-speck128-neon dec)
	ok=$(awk -v e="$enc" -v d="$dec" -v se="$se" -v sd="$sd" 'BEGIN {
		ok = e != "-" && d != "-" && se != "-" && sd != "-" &&
		     e <= 0.7 * se && d <= 0.7 * sd
		print ok ? "met" : "MISSED" }')
	[ "$ok" = met ] || missed=1
	echo "  target adiantum (aes-neon) <= 0.7x xts-speck128-neon's insns/B ($se, dec $sd): $ok"
}

# check_ratio DRIVER INSNS GENERIC_INSNS N: at least N times fewer
check_ratio() {
	local ok
	ok=$(awk -v s="$2" -v g="$3" -v n="$4" 'BEGIN {
		print (s != "-" && g != "-" && g >= n * s) ? "met" : "MISSED" }')
	[ "$ok" = met ] || missed=1
	echo "  target $1 >= ${4}x fewer insns/B than the generic C: $ok"
}

setup aarch64 "$a64_dir" cross/aarch64-linux-gnu.ini aarch64-linux-gnu
# the plugin: native code loaded by qemu-user, built by any build dir
if [ -n "${QEMU_INSNCOUNT:-}" ]; then
	plugin=$(realpath -e "$QEMU_INSNCOUNT") || die "no plugin $QEMU_INSNCOUNT"
else
	ninja -C "$a64_dir" bench/qemu-insncount/libqemu-insncount.so >/dev/null ||
		die "cannot build the qemu-insncount plugin in $a64_dir"
	plugin=$(realpath -e "$a64_dir/bench/qemu-insncount/libqemu-insncount.so") ||
		die "no plugin in $a64_dir"
fi
setup arm "$a32_dir" cross/arm-linux-gnueabihf.ini arm-linux-gnueabihf
measure aarch64 "$qemu_a64" /usr/aarch64-linux-gnu "AArch64"
measure arm "$qemu_a32" /usr/arm-linux-gnueabihf "AArch32 (ARMv7 NEON)"
exit $missed
