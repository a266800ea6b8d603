#!/bin/bash
# SPDX-License-Identifier: MIT
#
# NAME
#   fs-peers.sh - cloakfs beside other encrypted FUSE filesystems, one run
#
# SYNOPSIS
#   bench/fs-peers.sh [--quick] [--tmpfs | --disk | --both] [--only LIST]
#                     [--reps N] [--builddir DIR] [--workdir DIR] [--md FILE]
#                     [--keep] [--variant TAG=BUILDDIR]
#
# DESCRIPTION
#   Runs the same workloads, interleaved (each repetition visits every
#   filesystem in turn, so machine noise hits all alike), on:
#     bare        the backing directory itself
#     passthrough bench/passthrough-ll.c: low-level libfuse3 passthrough,
#                 no crypto, the same FUSE options as cloakfs (the ceiling)
#     cloakfs-C   cloakfs with cipher C (speck128-xts, speck64-xts,
#                 aes256-xts, sm4-xts, camellia256-xts, adiantum; the
#                 authenticated aes256-gcm and xchacha20-poly1305); C+M
#                 with names mode M (aes256-xts+hctr2: HCTR2 names)
#     gocryptfs   Debian's gocryptfs (AES-256-GCM)
#     securefs    Debian's securefs, lite format (format 4)
#     cryfs, encfs  Debian's; slow, so one repetition only
#   Each is created non-interactively from one password file with a cheap
#   KDF (speed of the KDF is not measured), on the same backing directory
#   type: a fresh tmpfs (CPU-bound; the fair comparison) and/or a
#   directory on the disk holding --workdir (default /var/tmp). On the
#   disk only bare, passthrough, cloakfs-aes256-xts, gocryptfs and
#   securefs run unless --only says otherwise.
#
#   Workloads (sizes for --quick in brackets):
#     write      dd bs=1M of 1 GiB [128 MiB], conv=fdatasync      MiB/s
#     rd-cold    dd bs=1M read after drop_caches                   MiB/s
#     rd-warm    the same read again                               MiB/s
#     rnd-rd     fio psync 4 KiB random reads, 256 MiB [32] file   IOPS
#     rnd-wr     fio psync 4 KiB random writes, same file           IOPS
#     create / stat / delete   5000 [1000] files of 1 KiB           s
#     untar      tar -x of a tar of /usr/include [/usr/include/linux] s
#     ls-lR      ls -lR of it after drop_caches                     s
#     rm-rf      rm -rf of it                                       s
#   The daemon's CPU seconds (utime+stime from /proc/PID/stat) per GiB
#   written and read (cold) are the cost figures; also its CPU seconds for
#   the small-file round (create+stat+delete) and the tree round
#   (untar+ls+rm). CPU time suffers less from a busy machine than wall
#   time does.
#
#   Each repetition after the first unmounts every filesystem and mounts
#   it again (the volume stays): how one daemon process happens to run on
#   this machine (its threads, its memory) can last a whole mount and
#   would otherwise weigh on all repetitions alike. Each repetition also
#   starts one filesystem later in the list (rotation), so that none
#   always runs right after the same other one.
#
#   Output: the median of the repetitions (3 [1]) per filesystem, then
#   the same as speed ratios (higher = faster; a time ratio is inverted)
#   against the passthrough and against gocryptfs, then the issue #8
#   targets per cloakfs cipher, and the authenticated volumes' targets
#   (against gocryptfs and cloakfs-aes256-xts). Markdown; --md FILE writes it there too.
#   Raw figures stay in WORKDIR/results-*.tsv when --keep is given.
#
# OPTIONS
#   --quick        small sizes, one repetition (a development check)
#   --tmpfs, --disk, --both   backing (default --both; --quick: --tmpfs)
#   --only LIST    comma-separated filesystem names (as above; "cloakfs"
#                  means every cipher)
#   --reps N       repetitions (default 3, --quick 1)
#   --builddir DIR cloakfs build to use; made (meson, release) if missing
#                  (default: build-bench in the source tree)
#   --workdir DIR  where the disk backing and the scratch files go
#   --keep         keep WORKDIR's raw results
#   --variant TAG=BUILDDIR  also run the cloakfs of another build, as
#                  cloakfs-CIPHER@TAG (to measure a change against its
#                  base in one run; use with --only)
#
# REQUIREMENTS
#   root (drop_caches, tmpfs, apt-get), /dev/fuse, Debian 12. Missing
#   peers and fio are installed with apt-get; a peer that still cannot be
#   set up is left out with a note. Timed on a quiet 2-vCPU Zen 4 VM
#   (2026-12-03): --quick 1.5 minutes (4 filesystems), --tmpfs 11, --both 28.
#
# NOTES
#   Wall times on a shared or busy machine swing by 2x and more; compare
#   ratios from one run, and the CPU columns, which suffer less.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)

quick=0 backing="" only="" reps="" builddir="$top/build-bench" keep=0 md=""
variants=()
workbase=${TMPDIR_DISK:-/var/tmp}
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--tmpfs) backing=tmpfs ;;
	--disk) backing=disk ;;
	--both) backing="tmpfs disk" ;;
	--only) only=${2:?--only needs a list}; shift ;;
	--reps) reps=${2:?--reps needs a number}; shift ;;
	--builddir) builddir=${2:?--builddir needs a directory}; shift ;;
	--workdir) workbase=${2:?--workdir needs a directory}; shift ;;
	--md) md=${2:?--md needs a file}; shift ;;
	--keep) keep=1 ;;
	--variant) variants+=("${2:?--variant needs TAG=BUILDDIR}"); shift ;;
	-h|--help) sed -n '3,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "fs-peers: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
if [ "$quick" = 1 ]; then
	: "${reps:=1}" "${backing:=tmpfs}"
	write_mib=128 rand_mib=32 nsmall=1000 tree_src=/usr/include/linux
	fio_cap=10
else
	: "${reps:=3}" "${backing:=tmpfs disk}"
	write_mib=1024 rand_mib=256 nsmall=5000 tree_src=/usr/include
	fio_cap=15
fi
ciphers="speck128-xts speck64-xts aes256-xts sm4-xts camellia256-xts adiantum
	aes256-gcm xchacha20-poly1305 aes256-xts+hctr2"
all_fs="bare passthrough"
for c in $ciphers; do all_fs="$all_fs cloakfs-$c"; done
for v in "${variants[@]}"; do
	for c in $ciphers; do all_fs="$all_fs cloakfs-$c@${v%%=*}"; done
done
all_fs="$all_fs gocryptfs securefs cryfs encfs"
slow_fs="cryfs encfs" # one repetition: they take minutes per round
disk_fs="bare passthrough cloakfs-aes256-xts gocryptfs securefs"

die() { echo "fs-peers: $*" >&2; exit 1; }
note() { echo "fs-peers: $*" >&2; }
[ "$(id -u)" = 0 ] || die "needs root (drop_caches, tmpfs mounts)"
[ -w /dev/fuse ] || die "no usable /dev/fuse"

want_fs() { # want_fs NAME: in --only (or no --only)
	[ -z "$only" ] && return 0
	local w
	for w in ${only//,/ }; do
		[ "$w" = "$1" ] && return 0
		[ "$w" = cloakfs ] && [ "${1#cloakfs-}" != "$1" ] &&
			[ "${1#*@}" = "$1" ] && return 0
	done
	return 1
}

# ---- tools -------------------------------------------------------------
install_missing() {
	local pkgs=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			pkgs+=("$p")
	done
	[ ${#pkgs[@]} -eq 0 ] && return 0
	note "installing ${pkgs[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${pkgs[@]}" >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends "${pkgs[@]}" >/dev/null 2>&1; } ||
		note "apt-get could not install ${pkgs[*]}"
}
. scripts/deps.sh
cloakfs_install_deps >/dev/null || die "installing the build dependencies failed"
install_missing fio gocryptfs securefs cryfs encfs tar
command -v fio >/dev/null || die "fio is missing"

. bench/build.sh
bench_build "$builddir" fs/cloakfs tools/cloakfs-keytool || die "no cloakfs build"
cloakfs=$builddir/fs/cloakfs
keytool=$builddir/tools/cloakfs-keytool
ptll=$builddir/bench-passthrough-ll
gcc -O2 -Wall -Wextra -I. -o "$ptll" bench/passthrough-ll.c fs/readahead.c \
	base/mountinfo.c \
	$(pkg-config --cflags --libs fuse3) || die "building passthrough-ll failed"

work=$(mktemp -d "$workbase/fs-peers.XXXXXX") || die "no work directory"
pids=() mounts=() treetar=
cleanup() {
	local m p
	for m in "${mounts[@]}"; do
		mountpoint -q "$m" && { umount "$m" 2>/dev/null || umount -l "$m"; }
	done
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	mountpoint -q "$work/tmpfs" && umount "$work/tmpfs"
	[ -n "$treetar" ] && rm -f "$treetar"
	if [ "$keep" = 1 ]; then
		rm -rf "$work/tmpfs" "$work/disk"
		note "raw results kept in $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
pass="$work/password"
printf 'fs-peers-bench-password\n' >"$pass"

# the tree for untar, once, outside the filesystems under test and in
# memory: on the disk every untar would read it back cold after the
# previous workload's drop_caches, timing the disk instead of the mount
treetar=$(mktemp --suffix=.tar /dev/shm/fs-peers-tree.XXXXXX) ||
	die "no room for the tree's tar in /dev/shm"
tar -C "$(dirname "$tree_src")" -cf "$treetar" "$(basename "$tree_src")" ||
	die "cannot tar $tree_src"
tree_name=$(basename "$tree_src")

now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print('%.4f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$2"; }
drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }
cpu_ticks() { # cpu_ticks PID: utime+stime (fields 14, 15)
	[ -n "$1" ] && [ -r "/proc/$1/stat" ] || { echo 0; return; }
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
hz=$(getconf CLK_TCK)

# ---- filesystems -------------------------------------------------------
# setup_fs NAME BACKDIR MNT: creates and mounts; sets fs_pid; non-zero if
# this filesystem cannot be used here
wait_mount() { # wait_mount MNT PID (CryFS derives its key slowly)
	local i
	for i in $(seq 1 1800); do
		mountpoint -q "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

setup_fs() { # setup_fs NAME BACK MNT [again]: create (unless again) and mount
	local name=$1 back=$2 mnt=$3 log=$work/log-$1 again=${4:-} pw
	pw=$(head -n1 "$pass")
	fs_pid=""
	mkdir -p "$back" "$mnt"
	case "$name" in
	bare)
		return 0 ;;
	passthrough)
		"$ptll" -f -o fsname=passthrough-ll "$back" "$mnt" >"$log" 2>&1 & ;;
	cloakfs-*)
		local bin=$cloakfs cipher=${name#cloakfs-} v
		if [ "${cipher#*@}" != "$cipher" ]; then
			for v in "${variants[@]}"; do
				[ "${v%%=*}" = "${cipher#*@}" ] && bin=${v#*=}/fs/cloakfs
			done
			cipher=${cipher%@*}
		fi
		local -a names_opt=()
		if [ "${cipher#*+}" != "$cipher" ]; then
			names_opt=(--names "${cipher#*+}")
			cipher=${cipher%%+*}
		fi
		[ -n "$again" ] || "$keytool" init --cipher "$cipher" "${names_opt[@]}" \
			--kdf-time 0.1 --kdf-memory 8 --passfile "$pass" "$back" \
			>"$log" 2>&1 || return 1
		"$bin" -f --no-cloakfsd --passfile "$pass" "$back" "$mnt" >>"$log" 2>&1 & ;;
	gocryptfs)
		command -v gocryptfs >/dev/null || return 1
		[ -n "$again" ] || gocryptfs -q -init -scryptn 10 -passfile "$pass" "$back" >"$log" 2>&1 || return 1
		gocryptfs -q -fg -nosyslog -passfile "$pass" "$back" "$mnt" >>"$log" 2>&1 & ;;
	securefs)
		command -v securefs >/dev/null || return 1
		[ -n "$again" ] || securefs create --format 4 --pbkdf pkcs5-pbkdf2-hmac-sha256 -r 1000 \
			--pass "$pw" "$back" >"$log" 2>&1 || return 1
		securefs mount --pass "$pw" "$back" "$mnt" >>"$log" 2>&1 & ;;
	cryfs)
		command -v cryfs >/dev/null || return 1
		mkdir -p "$work/cryfs-local"
		printf '%s\n' "$pw" | CRYFS_FRONTEND=noninteractive \
			CRYFS_NO_UPDATE_CHECK=true CRYFS_LOCAL_STATE_DIR="$work/cryfs-local" \
			cryfs -f "$back" "$mnt" >"$log" 2>&1 & ;;
	encfs)
		command -v encfs >/dev/null || return 1
		printf '%s\n' "$pw" | encfs -f --standard --stdinpass "$back" "$mnt" \
			>"$log" 2>&1 & ;;
	*)
		return 1 ;;
	esac
	fs_pid=$!
	pids+=("$fs_pid")
	mounts+=("$mnt")
	wait_mount "$mnt" "$fs_pid" || { note "$name did not mount: $(tail -n2 "$log" | tr '\n' ' ')"; return 1; }
}

teardown_fs() { # teardown_fs MNT PID
	[ -n "$2" ] || return 0
	local i
	for i in $(seq 1 50); do
		umount "$1" 2>/dev/null && break
		sleep 0.2
	done
	mountpoint -q "$1" && umount -l "$1"
	wait "$2" 2>/dev/null
	return 0
}

# ---- workloads -------------------------------------------------------
# each appends "fs<TAB>metric<TAB>value" lines to $results; cpu figures
# are seconds per GiB of the daemon
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$results"; }
mibps() { python3 -c "import sys; print('%.1f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }
cpu_per_gib() { # ticks0 ticks1 mib
	python3 -c "import sys; t=(float(sys.argv[2])-float(sys.argv[1]))/float(sys.argv[4]); print('%.3f' % (t * 1024 / float(sys.argv[3])))" "$1" "$2" "$3" "$hz"
}

run_seq() { # run_seq FS MNT PID
	local f=$2/seq.bin t0 t1 c0 c1
	c0=$(cpu_ticks "$3"); t0=$(now)
	dd if=/dev/zero of="$f" bs=1M count="$write_mib" conv=fdatasync status=none ||
		{ note "$1: write failed"; return 1; }
	t1=$(now); c1=$(cpu_ticks "$3")
	record "$1" write "$(mibps "$write_mib" "$(elapsed "$t0" "$t1")")"
	[ -n "$3" ] && record "$1" cpu-write "$(cpu_per_gib "$c0" "$c1" "$write_mib")"
	drop_caches
	c0=$(cpu_ticks "$3"); t0=$(now)
	dd if="$f" of=/dev/null bs=1M status=none || { note "$1: read failed"; return 1; }
	t1=$(now); c1=$(cpu_ticks "$3")
	record "$1" rd-cold "$(mibps "$write_mib" "$(elapsed "$t0" "$t1")")"
	[ -n "$3" ] && record "$1" cpu-read "$(cpu_per_gib "$c0" "$c1" "$write_mib")"
	t0=$(now)
	dd if="$f" of=/dev/null bs=1M status=none
	t1=$(now)
	record "$1" rd-warm "$(mibps "$write_mib" "$(elapsed "$t0" "$t1")")"
	rm -f "$f"
}

fio_iops() { # fio_iops FS MNT RW: prints IOPS
	fio --name=rnd --filename="$2/rand.bin" --ioengine=psync --rw="$3" \
		--bs=4k --size="${rand_mib}M" --runtime="$fio_cap" --invalidate=1 \
		--randrepeat=1 --end_fsync=1 --output-format=json 2>>"$work/log-fio" |
		python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
print("%.0f" % (j["read"]["iops"] + j["write"]["iops"]))'
}

run_random() { # run_random FS MNT
	local v
	dd if=/dev/urandom of="$2/rand.bin" bs=1M count="$rand_mib" conv=fdatasync status=none ||
		{ note "$1: making the fio file failed"; return 1; }
	drop_caches
	v=$(fio_iops "$1" "$2" randread) && record "$1" rnd-rd "$v"
	drop_caches
	v=$(fio_iops "$1" "$2" randwrite) && record "$1" rnd-wr "$v"
	rm -f "$2/rand.bin"
}

cpu_secs() { # cpu_secs TICKS0 TICKS1
	python3 -c "import sys; print('%.3f' % ((float(sys.argv[2]) - float(sys.argv[1])) / float(sys.argv[3])))" "$1" "$2" "$hz"
}

run_small() { # run_small FS MNT PID: create, stat, delete NSMALL files of 1 KiB
	local out c0 c1
	c0=$(cpu_ticks "$3")
	out=$(python3 - "$2/small" "$nsmall" <<'PY'
import os, sys, time
d, n = sys.argv[1], int(sys.argv[2])
os.mkdir(d)
data = os.urandom(1024)
names = [os.path.join(d, "f%05d" % i) for i in range(n)]
t0 = time.monotonic()
for p in names:
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, data)
    os.close(fd)
t1 = time.monotonic()
os.system("sync; echo 3 > /proc/sys/vm/drop_caches")
t2 = time.monotonic()
for p in names:
    os.stat(p)
t3 = time.monotonic()
for p in names:
    os.unlink(p)
t4 = time.monotonic()
os.rmdir(d)
print("%.4f %.4f %.4f" % (t1 - t0, t3 - t2, t4 - t3))
PY
) || { note "$1: small files failed"; return 1; }
	c1=$(cpu_ticks "$3")
	[ -n "$3" ] && record "$1" cpu-small "$(cpu_secs "$c0" "$c1")"
	set -- "$1" $out
	record "$1" create "$2"
	record "$1" stat "$3"
	record "$1" delete "$4"
}

run_tree() { # run_tree FS MNT PID
	local t0 t1 c0 c1
	c0=$(cpu_ticks "$3")
	t0=$(now)
	tar -C "$2" -xf "$treetar" || { note "$1: untar failed"; return 1; }
	sync
	t1=$(now)
	record "$1" untar "$(elapsed "$t0" "$t1")"
	drop_caches
	t0=$(now)
	ls -lR "$2/$tree_name" >/dev/null || note "$1: ls -lR failed"
	t1=$(now)
	record "$1" ls-lR "$(elapsed "$t0" "$t1")"
	t0=$(now)
	rm -rf "${2:?}/$tree_name" || note "$1: rm -rf failed"
	t1=$(now)
	record "$1" rm-rf "$(elapsed "$t0" "$t1")"
	c1=$(cpu_ticks "$3")
	[ -n "$3" ] && record "$1" cpu-tree "$(cpu_secs "$c0" "$c1")"
}

# ---- one backing -------------------------------------------------------
run_backing() { # run_backing tmpfs|disk
	local kind=$1 base name rep i
	local -a names=() mnts=() fpids=()
	results=$work/results-$kind.tsv
	: >"$results"
	if [ "$kind" = tmpfs ]; then
		base=$work/tmpfs
		mkdir -p "$base"
		mount -t tmpfs -o size=$((write_mib * 4 + 2048))M fs-peers "$base" ||
			die "cannot mount a tmpfs"
	else
		base=$work/disk
		mkdir -p "$base"
	fi
	for name in $all_fs; do
		want_fs "$name" || continue
		if [ "$kind" = disk ] && [ -z "$only" ]; then
			case " $disk_fs " in *" $name "*) ;; *) continue ;; esac
		fi
		if setup_fs "$name" "$base/back-$name" "$base/mnt-$name"; then
			names+=("$name")
			if [ "$name" = bare ]; then
				mnts+=("$base/back-$name")
			else
				mnts+=("$base/mnt-$name")
			fi
			fpids+=("$fs_pid")
		else
			note "$name: left out (cannot be set up here; see $work/log-$name)"
		fi
	done
	[ ${#names[@]} -gt 0 ] || die "no filesystem could be set up"
	note "$kind: ${names[*]}; $reps repetition(s)"
	local n=${#names[@]} j
	for rep in $(seq 1 "$reps"); do
		# each repetition starts one filesystem later: what a workload
		# leaves behind (memory freed, the host reclaiming it) weighs on
		# whoever follows, so no filesystem always follows the same one
		for j in $(seq 0 $((n - 1))); do
			i=$(( (j + rep - 1) % n ))
			name=${names[$i]}
			case " $slow_fs " in *" $name "*) [ "$rep" -gt 1 ] && continue ;; esac
			note "$kind rep $rep: $name"
			if [ "$rep" -gt 1 ] && [ -n "${fpids[$i]}" ]; then
				teardown_fs "${mnts[$i]}" "${fpids[$i]}"
				setup_fs "$name" "$base/back-$name" "${mnts[$i]}" again ||
					die "$name did not mount again for repetition $rep"
				fpids[$i]=$fs_pid
			fi
			run_seq "$name" "${mnts[$i]}" "${fpids[$i]}"
			run_random "$name" "${mnts[$i]}"
			run_small "$name" "${mnts[$i]}" "${fpids[$i]}"
			run_tree "$name" "${mnts[$i]}" "${fpids[$i]}"
		done
	done
	for i in "${!names[@]}"; do
		teardown_fs "${mnts[$i]}" "${fpids[$i]}"
	done
	if [ "$kind" = tmpfs ]; then
		umount "$base" || umount -l "$base"
	fi
	rm -rf "$base"
}

versions() {
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(free -g | awk '/^Mem:/ { print $2 }') GiB RAM, Linux $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- cloakfs $(git -C "$top" describe --always --dirty 2>/dev/null || echo '?'), $(python3 -c 'import json, sys; print([o["value"] for o in json.load(open(sys.argv[1])) if o["name"] == "buildtype"][0])' "$builddir/meson-info/intro-buildoptions.json" 2>/dev/null || echo '?') build; libfuse $(pkg-config --modversion fuse3)"
	echo "- $(gocryptfs --version 2>/dev/null | cut -d';' -f1 || echo 'gocryptfs -'); securefs $(dpkg-query -W -f='${Version}' securefs 2>/dev/null); cryfs $(dpkg-query -W -f='${Version}' cryfs 2>/dev/null); encfs $(dpkg-query -W -f='${Version}' encfs 2>/dev/null); fio $(fio --version)"
	echo "- sizes: write/read $write_mib MiB, random I/O on $rand_mib MiB, $nsmall small files, tree $tree_src ($(tar -tf "$treetar" | wc -l) entries, $(( $(stat -c %s "$treetar") / 1048576 )) MiB); median of $reps (cryfs, encfs: 1)"
}

{
	echo "## cloakfs and its peers (bench/fs-peers.sh$([ "$quick" = 1 ] && echo ' --quick'))"
	echo
	versions
} >"$work/report.md"
for kind in $backing; do
	run_backing "$kind"
	python3 bench/fs-peers-table.py "$kind" "$results" >>"$work/report.md" ||
		die "tabulating failed"
done
cat "$work/report.md"
[ -n "$md" ] && cp "$work/report.md" "$md"
exit 0
