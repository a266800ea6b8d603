#!/bin/bash
# SPDX-License-Identifier: MIT
# Extra test section (scripts/test.sh runs scripts/ci-*.sh): build the
# Debian package from this tree (dpkg-buildpackage -us -uc -b, in a copy of
# the tracked files), check what it installs and where, unpack it into a
# throwaway root (dpkg -x) and run its programs from there; lintian's
# errors fail it when lintian is installed. Ends with "N passed, N
# failed"; without debhelper it says why and counts nothing.
#   scripts/ci-package.sh [BUILDDIR]   (BUILDDIR is not used)
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "ci-package: FAIL: $*"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

if ! command -v dpkg-buildpackage >/dev/null || ! dpkg-query -W -f='${Status}' debhelper 2>/dev/null | grep -q "ok installed"; then
	echo "ci-package: skipped: debhelper and dpkg-dev are not installed (apt-get install debhelper)"
	finish
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cloakfs-package.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
src=$tmp/cloakfs-$version
mkdir "$src"
# the tracked files (with the working tree's changes), or everything but builds
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files -z --cached --others --exclude-standard |
		(cd "$top" && xargs -0 cp --parents -a -t "$src" 2>/dev/null)
else
	tar -C "$top" --exclude='./build*' -cf - . | tar -C "$src" -xf -
fi
echo "== dpkg-buildpackage -us -uc -b (in $src)"
if (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
	dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	ok
else
	tail -40 "$tmp/build.log"
	bad "dpkg-buildpackage"
	finish
fi
deb=$(ls "$tmp"/cloakfs_"$version"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] && ok || { bad "no .deb made"; finish; }
echo "== $(basename "$deb")"

# what a package of cloakfs must hold, where Debian expects it
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's,^\./,/,; s,/$,,' >"$tmp/files"
for f in /usr/bin/cloakfs /usr/bin/cloakfs-keytool /usr/bin/cloakfs-fsck /usr/bin/cloakfsd \
	 /usr/bin/cloakfs-enc /usr/bin/cloakfs-bench /usr/sbin/mount.fuse.cloakfs \
	 /usr/share/man/man1/cloakfs.1.gz /usr/share/man/man1/cloakfs-keytool.1.gz \
	 /usr/share/man/man8/cloakfs-fsck.8.gz /usr/share/man/man1/cloakfsd.1.gz \
	 /usr/share/man/man1/cloakfs-enc.1.gz /usr/share/man/man1/cloakfs-bench.1.gz \
	 /usr/share/man/man5/cloakfs-crypto.conf.5.gz \
	 /usr/share/bash-completion/completions/cloakfs \
	 /usr/share/bash-completion/completions/cloakfs-keytool \
	 /usr/share/bash-completion/completions/cloakfs-fsck \
	 /usr/share/bash-completion/completions/cloakfsd \
	 /usr/share/bash-completion/completions/cloakfs-enc \
	 /usr/share/bash-completion/completions/cloakfs-bench \
	 /usr/lib/systemd/user/cloakfsd.service \
	 /usr/share/doc/cloakfs/copyright /usr/share/doc/cloakfs/format.md \
	 /usr/share/doc/cloakfs/security.md /usr/share/doc/cloakfs/fsck.md \
	 /usr/share/man/man8/mount.fuse.cloakfs.8.gz; do
	grep -qx -- "$f" "$tmp/files" && ok || bad "the package lacks $f"
done
for f in $(grep -E '^/usr/local|^/sbin|^/bin|^/lib/' "$tmp/files"); do
	bad "the package installs $f outside Debian's places"
done

# unpacked into a throwaway root, its programs run from there
root=$tmp/root
dpkg -x "$deb" "$root" && ok || bad "dpkg -x"
out=$("$root/usr/bin/cloakfs" --version 2>&1)
[ "$out" = "cloakfs $version" ] && ok || bad "cloakfs --version from the package: '$out'"
for p in cloakfs-keytool cloakfs-fsck cloakfs-enc cloakfs-bench; do
	"$root/usr/bin/$p" --version | grep -q "^$p $version" && ok || bad "$p --version"
done
"$root/usr/bin/cloakfsd" --version | grep -q "^cloakfsd $version" && ok || bad "cloakfsd --version"
grep -qx "ExecStart=/usr/bin/cloakfsd --foreground" "$root/usr/lib/systemd/user/cloakfsd.service" &&
	ok || bad "the unit does not start /usr/bin/cloakfsd"
link=$(readlink "$root/usr/sbin/mount.fuse.cloakfs")
case $link in mount.fuse3 | /usr/sbin/mount.fuse3 | /sbin/mount.fuse3) ok ;; *) bad "mount.fuse.cloakfs -> '$link'" ;; esac
zcat "$root/usr/share/man/man1/cloakfs.1.gz" | grep -q "/usr/share/doc/cloakfs/format.md" &&
	ok || bad "cloakfs(1) does not cite /usr/share/doc/cloakfs/format.md"
# a volume made and checked with the packaged tools
printf 'packaged\n' >"$tmp/pass"
chmod 600 "$tmp/pass"  # else every tool warns (docs/security.md)
if "$root/usr/bin/cloakfs-keytool" init --kdf-time 0.02 --kdf-memory 8 --passfile "$tmp/pass" \
	"$tmp/vol" >/dev/null && "$root/usr/bin/cloakfs-fsck" --no-cloakfsd --passfile "$tmp/pass" \
	"$tmp/vol" >/dev/null; then ok; else bad "init and fsck with the packaged tools"; fi

if command -v lintian >/dev/null; then
	lintian --no-tag-display-limit "$deb" >"$tmp/lintian" 2>&1
	if grep -q '^E:' "$tmp/lintian"; then
		grep '^E:' "$tmp/lintian"
		bad "lintian errors"
	else
		ok
	fi
	grep "^W:" "$tmp/lintian" | sed "s/^/ci-package: lintian: /"
else
	echo "ci-package: lintian not installed: not run"
fi
finish
