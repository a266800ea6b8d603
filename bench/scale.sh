#!/bin/bash
# SPDX-License-Identifier: MIT
#
# NAME
#   scale.sh - cloakfs with a tree of 100,000+ entries under ulimit -n 1024,
#              beside gocryptfs, one run
#
# SYNOPSIS
#   bench/scale.sh [--builddir DIR] [--copies N] [--reps N] [--md FILE]
#
# DESCRIPTION
#   A tree of N copies (default 6) of /usr/include and /usr/share/doc
#   (about 16,000 entries a copy) is extracted from a tar in /dev/shm into
#   each filesystem, then walked with find, ls -lR and du (each after the
#   kernel's dentry and inode caches were dropped, so every entry reaches
#   the filesystem), then removed with rm -rf. Filesystems, each on a fresh
#   tmpfs backing and its daemon started under `ulimit -n 1024` (soft and
#   hard), as an ordinary user's would be:
#     cloakfs        the mount as it is (descriptor cache: half the limit)
#     cloakfs-unlim  the same with every descriptor the machine allows (soft
#                    limit raised to the shell's hard limit, no cache bound:
#                    CLOAKFS_FD_CACHE=1048576): what bounding costs. Valid
#                    only while the tree fits in that limit (a tree bigger
#                    than the hard limit gives EMFILE errors: its ratios
#                    are then not printed; use fewer --copies for them)
#     gocryptfs      Debian's gocryptfs
#   For each: the time of each step (median of --reps, default 1), errors
#   (tar's, find's), the daemon's peak open descriptors (sampled every 50
#   ms from /proc/PID/fd by one process that does not fork) and peak RSS
#   (VmHWM), and the RSS per cached inode: (VmRSS after ls -lR - VmRSS
#   after mounting) / entries.
#   Needs root (drop_caches, tmpfs mounts). Markdown on stdout; --md FILE
#   writes it there too. The CPU and the load are printed first: compare
#   within one run only.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
builddir=$top/build
copies=6
reps=1
md=
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--copies) copies=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--md) md=$2; shift 2 ;;
	-h|--help) sed -n '3,/^set -u/p' "$0" | sed 's/^# \{0,1\}//;/^set -u/d'; exit 0 ;;
	*) echo "scale.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "scale.sh: needs root (drop_caches, tmpfs)" >&2; exit 2; }
cloakfs=$builddir/fs/cloakfs
mkvol=$builddir/tests/fs/fs_mkvol
for x in "$cloakfs" "$mkvol"; do
	[ -x "$x" ] || { echo "scale.sh: $x missing (build first)" >&2; exit 2; }
done
command -v gocryptfs >/dev/null || { echo "scale.sh: apt-get install gocryptfs" >&2; exit 2; }

work=$(mktemp -d /dev/shm/cloakfs-scale.XXXXXX)
cleanup() {
	for m in "$work"/*/mnt; do
		mountpoint -q "$m" 2>/dev/null && { fusermount3 -u "$m" 2>/dev/null || umount -l "$m"; }
	done
	for b in "$work"/*/back; do
		mountpoint -q "$b" 2>/dev/null && umount -l "$b"
	done
	rm -rf "$work"
}
trap cleanup EXIT

# the tree, as one tar in memory
tree=$work/tree
mkdir -p "$tree"
for i in $(seq 1 "$copies"); do
	mkdir "$tree/c$i"
	cp -a /usr/include "$tree/c$i/include"
	cp -a /usr/share/doc "$tree/c$i/doc" 2>/dev/null
done
entries=$(find "$tree" | wc -l)
tar -C "$tree" -cf "$work/tree.tar" .
rm -rf "$tree"
printf 'pw-for-the-benchmark\n' >"$work/pass"
chmod 600 "$work/pass"

drop() { sync; echo 2 >/proc/sys/vm/drop_caches; }
now() { date +%s.%N; }

# watch PID: peak descriptor count into FILE until FILE.stop exists. One
# process that never forks, every 50 ms: a shell loop of `ls | wc` every
# 10 ms took a share of the 2 CPUs that grew with the sampling rate, and
# more from the run with fewer descriptors (its listing is quicker), so
# it slowed the bounded mount most.
watch_fds() {
	python3 - "$1" "$2" <<'PY'
import os, sys, time
pid, out = sys.argv[1], sys.argv[2]
peak = 0
while not os.path.exists(out + ".stop") and os.path.isdir("/proc/" + pid):
    try:
        n = len(os.listdir("/proc/%s/fd" % pid))
    except OSError:
        break
    if n > peak:
        peak = n
        with open(out, "w") as f:
            f.write("%d\n" % peak)
    time.sleep(0.05)
PY
}

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }

# mount_fs NAME DIR: mount, print the daemon's pid
mount_fs() {
	local name=$1 d=$2
	mkdir -p "$d/back" "$d/mnt"
	mount -t tmpfs -o size=8g tmpfs "$d/back"
	case $name in
	cloakfs|cloakfs-unlim)
		"$mkvol" speck128-xts "$d/back" "$work/pass" >/dev/null
		if [ "$name" = cloakfs ]; then
			( ulimit -Sn 1024; ulimit -Hn 1024
			  exec "$cloakfs" -f --no-cloakfsd --passfile "$work/pass" "$d/back" "$d/mnt" ) \
				>"$d/log" 2>&1 &
		else
			( ulimit -Sn "$(ulimit -Hn)"
			  CLOAKFS_FD_CACHE=1048576 exec "$cloakfs" -f --no-cloakfsd \
				--passfile "$work/pass" "$d/back" "$d/mnt" ) >"$d/log" 2>&1 &
		fi ;;
	gocryptfs)
		gocryptfs -q -init -scryptn 10 -passfile "$work/pass" "$d/back" >/dev/null
		( ulimit -Sn 1024; ulimit -Hn 1024
		  exec gocryptfs -q -fg -passfile "$work/pass" "$d/back" "$d/mnt" ) >"$d/log" 2>&1 & ;;
	esac
	local pid=$!
	for _ in $(seq 1 300); do
		mountpoint -q "$d/mnt" && break
		sleep 0.05
	done
	mountpoint -q "$d/mnt" || { echo "scale.sh: $name did not mount" >&2; cat "$d/log" >&2; exit 1; }
	echo "$pid"
}

# one repetition on NAME: "extract find lsR du rmrf errors peakfd hwm_kb rss_per_inode"
run_one() {
	local name=$1 pid t0 t1 e=0 base after
	local d=$work/$name
	rm -rf "$d"
	mkdir -p "$d"
	pid=$(mount_fs "$name" "$d")
	rm -f "$d/peak" "$d/peak.stop"
	echo 0 >"$d/peak"
	watch_fds "$pid" "$d/peak" &
	local wpid=$!
	base=$(rss_kb "$pid")
	t0=$(now); tar -C "$d/mnt" -xf "$work/tree.tar" 2>"$d/tar.err" || e=$((e + 1))
	t1=$(now); local x=$(echo "$t1 - $t0" | bc)
	e=$((e + $(wc -l <"$d/tar.err")))
	drop; t0=$(now); find "$d/mnt" 2>>"$d/find.err" | wc -l >"$d/found"; t1=$(now)
	local f=$(echo "$t1 - $t0" | bc)
	[ "$(cat "$d/found")" -eq "$entries" ] || e=$((e + 1))
	e=$((e + $(wc -l <"$d/find.err")))
	drop; t0=$(now); ls -lR "$d/mnt" >/dev/null 2>>"$d/ls.err"; t1=$(now)
	local l=$(echo "$t1 - $t0" | bc)
	e=$((e + $(wc -l <"$d/ls.err")))
	after=$(rss_kb "$pid")
	drop; t0=$(now); du -s "$d/mnt" >/dev/null 2>>"$d/du.err"; t1=$(now)
	local u=$(echo "$t1 - $t0" | bc)
	e=$((e + $(wc -l <"$d/du.err")))
	t0=$(now); rm -rf "${d:?}/mnt/"* 2>>"$d/rm.err"; t1=$(now)
	local r=$(echo "$t1 - $t0" | bc)
	e=$((e + $(wc -l <"$d/rm.err")))
	touch "$d/peak.stop"
	wait "$wpid" 2>/dev/null
	local hwm=$(hwm_kb "$pid")
	fusermount3 -u "$d/mnt"
	# (not this shell's child: mount_fs ran in a command substitution)
	for _ in $(seq 1 400); do [ -d "/proc/$pid" ] || break; sleep 0.05; done
	umount "$d/back"
	local per=$(echo "scale=0; ($after - $base) * 1024 / $entries" | bc)
	echo "$x $f $l $u $r $e $(cat "$d/peak") $hwm $per"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "scale.sh: $(lscpu | sed -n 's/^Model name: *//p') (family $(lscpu | sed -n 's/^CPU family: *//p'), model $(lscpu | sed -n 's/^Model: *//p')), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "scale.sh: $entries entries ($copies copies of /usr/include and /usr/share/doc), $reps repetition(s)" >&2
fss=(cloakfs cloakfs-unlim gocryptfs)
declare -A res
for rep in $(seq 1 "$reps"); do
	for fs in "${fss[@]}"; do
		echo "scale.sh: $fs, repetition $rep" >&2
		res[$fs,$rep]=$(run_one "$fs")
	done
done

col() { # col FS N: the median of field N over the repetitions
	for rep in $(seq 1 "$reps"); do echo "${res[$1,$rep]}" | cut -d' ' -f"$2"; done | median
}
{
	echo "| filesystem | extract s | find s | ls -lR s | du s | rm -rf s | errors | peak fds | peak RSS MiB | RSS per inode B |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for fs in "${fss[@]}"; do
		printf '| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %d | %.0f | %d |\n' "$fs" \
			"$(col "$fs" 1)" "$(col "$fs" 2)" "$(col "$fs" 3)" "$(col "$fs" 4)" \
			"$(col "$fs" 5)" "$(col "$fs" 6)" "$(col "$fs" 7)" \
			"$(echo "$(col "$fs" 8) / 1024" | bc -l)" "$(col "$fs" 9)"
	done
	echo
	echo "Time ratios, cloakfs (limit 1024) / cloakfs-unlim and / gocryptfs (lower is faster):"
	echo
	echo "| step | / unlimited | / gocryptfs |"
	echo "|---|---:|---:|"
	i=1
	for step in extract find ls-lR du rm-rf; do
		a=$(col cloakfs $i) b=$(col cloakfs-unlim $i) g=$(col gocryptfs $i)
		if [ "$(col cloakfs-unlim 6)" -eq 0 ]; then
			u=$(printf '%.2f' "$(echo "$a / $b" | bc -l)")
		else
			u="n/a (EMFILE: tree above the hard limit $(ulimit -Hn))"
		fi
		printf '| %s | %s | %.2f |\n' "$step" "$u" "$(echo "$a / $g" | bc -l)"
		i=$((i + 1))
	done
} | tee ${md:+"$md"}
