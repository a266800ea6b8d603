#!/bin/bash
# SPDX-License-Identifier: MIT
# After `meson install` with this build's prefix, `mount -t fuse.cloakfs`
# and an fstab line work with no link made by hand. The install goes to a
# destdir and is laid over the system in a private mount namespace
# (unshare -m): its bindir over PREFIX/bin, its mount helper where it was
# installed
# (an overlay; mount.fuse, the fallback that would otherwise hide a
# missing helper, is whited out there). Needs root, FUSE, unshare and overlayfs;
# exits 77 (skipped) without them.
#   test_install_mount.sh BUILDDIR PREFIX BINDIR HELPERDIR
set -u
build=$1 prefix=$2 bindir=$3 helperdir=$4
case $bindir in /*) ;; *) bindir=$prefix/$bindir ;; esac
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root"
[ -c /dev/fuse ] || skip "no /dev/fuse"
command -v unshare >/dev/null || skip "no unshare"
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
	grep -qw overlay /proc/filesystems || skip "no overlayfs"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cloakfs-install-mount.XXXXXX") || exit 1
trap 'umount -l "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
dest=$tmp/dest
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; echo "FAIL: meson install"; exit 1; }
mkdir -p "$tmp/cipher" "$tmp/mnt" "$tmp/upper" "$tmp/work"
printf 'installed\n' >"$tmp/pass"
"$dest$bindir/cloakfs-keytool" init --kdf-time 0.02 --kdf-memory 8 \
	--passfile "$tmp/pass" "$tmp/cipher" >/dev/null || { echo "FAIL: init"; exit 1; }
printf '%s %s fuse.cloakfs passfile=%s,nocloakfsd,noauto 0 0\n' \
	"$tmp/cipher" "$tmp/mnt" "$tmp/pass" >"$tmp/fstab"
sbin=$(readlink -f /sbin)

unshare -m --propagation private bash -s "$tmp" "$dest" "$bindir" "$helperdir" "$sbin" <<'NS'
set -u
tmp=$1 dest=$2 bindir=$3 helperdir=$4 sbin=$5
checks=0 failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# the installed programs where the install put them
mkdir -p "$bindir" 2>/dev/null
mount -t tmpfs tmpfs "$bindir" && cp -a "$dest$bindir/." "$bindir/" || { echo "FAIL: bindir"; exit 1; }
# mount.fuse whited out in /sbin; the helper where the install put it
helper=$(readlink -f "$helperdir")
mknod "$tmp/upper/mount.fuse" c 0 0
if [ "$helper" = "$sbin" ]; then
	cp -a "$dest$helperdir/mount.fuse.cloakfs" "$tmp/upper/" || { echo "FAIL: no helper installed"; exit 1; }
fi
mount -t overlay overlay -o "lowerdir=$sbin,upperdir=$tmp/upper,workdir=$tmp/work" "$sbin" ||
	{ echo "FAIL: overlay"; exit 1; }
if [ "$helper" != "$sbin" ]; then
	mkdir -p "$tmp/upper2" "$tmp/work2" "$helper"
	cp -a "$dest$helperdir/mount.fuse.cloakfs" "$tmp/upper2/" || { echo "FAIL: no helper installed"; exit 1; }
	mount -t overlay overlay -o "lowerdir=$helper,upperdir=$tmp/upper2,workdir=$tmp/work2" "$helper" ||
		{ echo "FAIL: overlay of $helper"; exit 1; }
fi
[ ! -e /sbin/mount.fuse ] || fail "mount.fuse still visible"
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

checks=$((checks + 1))
if mount -t fuse.cloakfs -o "passfile=$tmp/pass,nocloakfsd" "$tmp/cipher" "$tmp/mnt" 2>"$tmp/err"; then
	echo "via mount -t" >"$tmp/mnt/file" && [ "$(cat "$tmp/mnt/file")" = "via mount -t" ] ||
		fail "mount -t fuse.cloakfs: the file did not round-trip"
	umount "$tmp/mnt" || fail "umount"
else
	fail "mount -t fuse.cloakfs: $(cat "$tmp/err")"
fi
checks=$((checks + 1))
if mount -T "$tmp/fstab" "$tmp/mnt" 2>"$tmp/err"; then
	[ "$(cat "$tmp/mnt/file")" = "via mount -t" ] || fail "fstab mount: the file is not there"
	umount "$tmp/mnt" || fail "umount"
else
	fail "fstab line: $(cat "$tmp/err")"
fi
echo "test_install_mount: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
NS
