#!/bin/bash
# SPDX-License-Identifier: MIT
#
# NAME
#   gluster-peers.sh - cloakfs on GlusterFS beside gocryptfs and gluster
#                      itself, one run
#
# SYNOPSIS
#   bench/gluster-peers.sh [--quick] [--reps N] [--only LIST]
#                          [--builddir DIR] [--workdir DIR] [--md FILE]
#
# DESCRIPTION
#   Starts the GlusterFS harness of the tests (tests/fs/gluster.py:
#   glusterd, a replica-2 volume whose two bricks lie on loopback under
#   --workdir, its FUSE client mounted), and times, through client A:
#     gluster           the client mount itself
#     cloakfs           cloakfs's default mount (aes256-xts)
#     cloakfs-shared    cloakfs -o shared (left out with a note if the
#                       mount fails)
#     gocryptfs         Debian's gocryptfs
#     gocryptfs-shared  gocryptfs -sharedstorage
#   the workloads (sizes for --quick in brackets):
#     untar    tar -x of a tar of /usr/include [/usr/include/linux], then
#              sync                                                    s
#     write    dd bs=1M of 256 MiB [64], conv=fdatasync            MiB/s
#     rd-cold  dd bs=1M read of it after unmounting the stack and
#              gluster's client A, drop_caches and mounting both again
#                                                                   MiB/s
#   Each repetition visits every stack in turn (machine noise hits all
#   alike) on a new volume of that stack. Output: medians of 3 [1]
#   repetitions per stack, then speed ratios (higher = faster; a time
#   ratio is inverted) against gluster itself and against gocryptfs
#   -sharedstorage. Markdown; --md FILE writes it there too. Everything
#   started (glusterd when it was not running, the volume, the mounts)
#   is stopped at the end, also on failure.
#
# OPTIONS
#   --quick        small sizes, one repetition (a development check)
#   --reps N       repetitions (default 3, --quick 1)
#   --only LIST    comma-separated stacks (names as above)
#   --builddir DIR cloakfs build to use; made (meson, release) if missing
#                  (default: build-bench in the source tree)
#   --workdir DIR  where the bricks and scratch files go (default
#                  /dev/shm: bricks in memory, so that the figures are the
#                  stacks' cost, not a disk's; a directory on a disk
#                  measures what a user would see there)
#   --md FILE      also write the report to FILE
#
# REQUIREMENTS
#   root (glusterd, mounts, drop_caches), /dev/fuse, Debian 12; missing
#   glusterfs-server, glusterfs-client and gocryptfs are installed with
#   apt-get. Took 36 minutes on a busy 2-vCPU Zen 4 VM (2026-12-05,
#   load average 9, other engineers' builds and tests running); --quick
#   4 minutes.
#
# NOTES
#   Wall times on a shared or busy machine swing by 2x and more; compare
#   ratios from one run.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)

quick=0 reps="" only="" builddir="$top/build-bench" md=""
workbase=/dev/shm
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--reps) reps=${2:?--reps needs a number}; shift ;;
	--only) only=${2:?--only needs a list}; shift ;;
	--builddir) builddir=${2:?--builddir needs a directory}; shift ;;
	--workdir) workbase=${2:?--workdir needs a directory}; shift ;;
	--md) md=${2:?--md needs a file}; shift ;;
	-h|--help) sed -n '3,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "gluster-peers: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
if [ "$quick" = 1 ]; then
	: "${reps:=1}"
	write_mib=64 tree_src=/usr/include/linux
else
	: "${reps:=3}"
	write_mib=256 tree_src=/usr/include
fi
case "$reps" in ''|*[!0-9]*|0) echo "gluster-peers: --reps needs a positive number" >&2; exit 2 ;; esac
stacks="gluster cloakfs cloakfs-shared gocryptfs gocryptfs-shared"
if [ -n "$only" ]; then
	for s in ${only//,/ }; do
		case " $stacks " in *" $s "*) ;; *)
			echo "gluster-peers: unknown stack $s (known: $stacks)" >&2; exit 2 ;;
		esac
	done
	stacks=${only//,/ }
fi

die() { echo "gluster-peers: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (glusterd, mounts, drop_caches)"
[ -w /dev/fuse ] || die "no usable /dev/fuse"

. scripts/deps.sh
cloakfs_install_deps glusterfs-server glusterfs-client gocryptfs tar ||
	die "installing glusterfs-server, glusterfs-client, gocryptfs failed"
. bench/build.sh
bench_build "$builddir" fs/cloakfs tools/cloakfs-keytool || die "no cloakfs build"

work=$(mktemp -d "$workbase/gluster-peers.XXXXXX") || die "no work directory in $workbase"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
tar -C "$(dirname "$tree_src")" -cf "$work/tree.tar" "$(basename "$tree_src")" ||
	die "cannot tar $tree_src"

{
	echo "### cloakfs on GlusterFS (bench/gluster-peers.sh$([ "$quick" = 1 ] && echo ' --quick'))"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), Linux $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
	echo "- cloakfs $(git describe --always --dirty 2>/dev/null || echo '?'), $(python3 -c 'import json, sys; print([o["value"] for o in json.load(open(sys.argv[1])) if o["name"] == "buildtype"][0])' "$builddir/meson-info/intro-buildoptions.json" 2>/dev/null || echo '?') build; $(gocryptfs --version 2>/dev/null | cut -d';' -f1); GlusterFS $(dpkg-query -W -f='${Version}' glusterfs-server 2>/dev/null), replica 2, both bricks on loopback under $workbase"
	echo "- sizes: write/read $write_mib MiB, tree $tree_src ($(tar -tf "$work/tree.tar" | wc -l) entries, $(( $(stat -c %s "$work/tree.tar") / 1048576 )) MiB)"
	echo
	# stdout: the tables; stderr: progress
	python3 bench/gluster-peers.py "$builddir/fs/cloakfs" "$builddir/tools/cloakfs-keytool" \
		"$work/tree.tar" "$write_mib" "$reps" "$work" $stacks ||
		die "the benchmark failed (see above)"
} >"$work/report.md" || exit 1
cat "$work/report.md"
[ -n "$md" ] && cp "$work/report.md" "$md"
exit 0
