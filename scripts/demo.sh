#!/bin/bash
# The main job on a fresh Debian 12 machine: install what is missing,
# build, create a cloakfs volume, mount it, copy sample files in, show the
# plaintext beside the ciphertext, check the volume, unmount.
#   scripts/demo.sh [WORKDIR]
# WORKDIR (default: a new temporary directory, removed at the end) gets
# the ciphertext directory and the mountpoint. The passphrase is
# $CLOAKFS_DEMO_PASSPHRASE, or a generated one that is printed. Needs
# /dev/fuse (root, or a user allowed to use FUSE).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
. scripts/deps.sh
cloakfs_install_deps "${cloakfs_demo_deps[@]}"
builddir=build
if [ -f "$builddir/build.ninja" ]; then
	meson setup --reconfigure "$builddir" >/dev/null
else
	meson setup "$builddir" --buildtype=release >/dev/null
fi
ninja -C "$builddir" >/dev/null
b=$top/$builddir
cloakfs=$b/fs/cloakfs
keytool=$b/tools/cloakfs-keytool
fsck=$b/tools/cloakfs-fsck
[ -x "$cloakfs" ] || { echo "demo: cloakfs was not built (libfuse3 missing?)" >&2; exit 1; }

if [ $# -ge 1 ]; then
	work=$(realpath -- "$1")
	mkdir -p "$work"
	keep=1
else
	work=$(mktemp -d /tmp/cloakfs-demo.XXXXXX)
	keep=0
fi
cipher=$work/cipher
mnt=$work/plain
pass=$work/passphrase
if [ -e "$cipher" ]; then
	echo "demo: $cipher exists already; give an empty WORKDIR" >&2
	exit 1
fi
mkdir -p "$cipher" "$mnt"
cleanup() {
	if mountpoint -q "$mnt" 2>/dev/null; then
		fusermount3 -u "$mnt" 2>/dev/null || umount "$mnt" 2>/dev/null || true
	fi
	[ "$keep" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT

umask 077
if [ -n "${CLOAKFS_DEMO_PASSPHRASE:-}" ]; then
	printf '%s\n' "$CLOAKFS_DEMO_PASSPHRASE" >"$pass"
	echo "== passphrase: from \$CLOAKFS_DEMO_PASSPHRASE"
else
	printf 'demo-%s\n' "$(head -c 12 /dev/urandom | xxd -p)" >"$pass"
	echo "== passphrase (generated): $(cat "$pass")"
fi
umask 022

echo "== creating a volume in $cipher"
if [ -x "$keytool" ]; then
	"$keytool" init --kdf-time 0.5 --kdf-memory 64 --passfile "$pass" "$cipher"
else
	"$b/tests/fs/fs_mkvol" speck128-xts "$cipher" "$pass"
fi
sed -n 's/^\(version\|cipher\|names\|sector_size\|key_id\) = /   \1 = /p' "$cipher/cloakfs.conf"

echo "== mounting it at $mnt"
"$cloakfs" --no-cloakfsd --passfile "$pass" "$cipher" "$mnt"
grep " $mnt " /proc/mounts

echo "== copying sample files in"
cp README.md "$mnt/"
cp -r docs "$mnt/docs"
printf 'tiny\n' >"$mnt/tiny.txt"
marker="marker-$(head -c 8 /dev/urandom | xxd -p)"
printf 'this run is %s\n' "$marker" >"$mnt/$marker.txt"
head -c 100000 /dev/urandom >"$mnt/random.bin"
mkdir -p "$mnt/Ünïcødé folder"
echo "a file with a name that is much longer than most" >"$mnt/Ünïcødé folder/$(printf 'long-name-%.0s' {1..20})end.txt"
ln -s README.md "$mnt/link-to-readme"
ln "$mnt/tiny.txt" "$mnt/hardlink-to-tiny"
setfattr_ok=0
if command -v setfattr >/dev/null; then
	setfattr -n user.comment -v "encrypted too" "$mnt/tiny.txt" && setfattr_ok=1
fi

echo
echo "== what you see (plaintext, $mnt)"
(cd "$mnt" && ls -la && echo && find . -mindepth 1 | sort | head -20)
echo
echo "== what is stored (ciphertext, $cipher)"
(cd "$cipher" && ls -la && echo && find . -mindepth 1 | sort | head -20)
echo
echo "== sizes: plaintext vs ciphertext (32-byte header per file)"
for f in README.md tiny.txt random.bin; do
	ino=$(stat -c %i "$mnt/$f")
	c=$(find "$cipher" -inum "$ino" -print -quit)
	printf '   %-12s %7s bytes -> %-45s %7s bytes\n' "$f" "$(stat -c %s "$mnt/$f")" \
		"${c#"$cipher"/}" "$(stat -c %s "$c")"
done
echo
echo "== the first bytes of README.md as stored"
c=$(find "$cipher" -inum "$(stat -c %i "$mnt/README.md")" -print -quit)
xxd "$c" | head -4
echo "   (CLKF header, file nonce, then XTS-encrypted sectors)"
# What must not show in the ciphertext: a marker of this run's own (in a
# file and in a name), the sample files' names, and a word of README.md
# outside the volume's own format files (cloakfs.conf and cloakfs.volume
# name the program by design: they say what the directory is).
leaks=$( (grep -rlaF -e "$marker" -e "long-name-" -e "tiny.txt" "$cipher"
	grep -rla --exclude=cloakfs.conf --exclude=cloakfs.volume "cloakfs" "$cipher"
	find "$cipher" \( -name "*$marker*" -o -name "*tiny*" -o -name "*README*" \
		-o -name "*random*" -o -name "*long-name*" \) -print) | sort -u)
if [ -n "$leaks" ]; then
	echo "demo: plaintext found in the ciphertext directory:" >&2
	printf '   %s\n' $leaks >&2
	exit 1
fi
echo "   no plaintext word or name of the files appears in $cipher"
echo
echo "== reading back"
cmp README.md "$mnt/README.md" && echo "   README.md identical"
diff -r docs "$mnt/docs" >/dev/null && echo "   docs/ identical"
echo "   link-to-readme -> $(readlink "$mnt/link-to-readme")"
echo "   hard link count of tiny.txt: $(stat -c %h "$mnt/tiny.txt")"
[ "$setfattr_ok" = 1 ] && echo "   user.comment: $(getfattr --only-values -n user.comment "$mnt/tiny.txt")"

echo
echo "== unmounting"
fusermount3 -u "$mnt"
echo "   $(ls -A "$mnt" | wc -l) entries visible at $mnt now"
if [ -x "$fsck" ]; then
	echo
	echo "== checking the volume (cloakfs-fsck)"
	"$fsck" --passfile "$pass" "$cipher" || { echo "demo: cloakfs-fsck found problems (exit status $?)" >&2; exit 1; }
fi
echo
echo "== mounting again: the files are still there"
"$cloakfs" --no-cloakfsd --passfile "$pass" "$cipher" "$mnt"
sha256sum "$mnt/random.bin" | sed 's/^/   /'
fusermount3 -u "$mnt"
if [ "$keep" = 1 ]; then
	echo
	echo "kept: $cipher (mount it again with: $cloakfs --passfile $pass $cipher $mnt)"
fi
echo "demo: done. The programs are built in $builddir/ (fs/, tools/, daemon/);"
echo "      to use them by name: sudo meson install -C $builddir (README.md, Install)"
