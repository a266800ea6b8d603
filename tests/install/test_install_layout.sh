#!/bin/bash
# SPDX-License-Identifier: MIT
# `meson install --destdir` of this build has every file a package needs,
# where the system looks for it: the programs, a man page for each (whose
# cited documents are installed beside them), the documentation and
# LICENSE, bash completion for every command, the systemd user unit
# pointing at the installed cloakfsd, and the mount helper where mount(8)
# looks (/sbin, or the sbindir of a /usr prefix).
#   test_install_layout.sh BUILDDIR PREFIX BINDIR DATADIR MANDIR HELPERDIR COMPLETIONDIR UNITDIR
set -u
build=$1 prefix=$2 bindir=$3 datadir=$4 mandir=$5 helperdir=$6 compdir=$7 unitdir=$8
checks=0 failed=0
dest=$(mktemp -d "${TMPDIR:-/tmp}/cloakfs-install.XXXXXX") || exit 1
trap 'rm -rf "$dest"' EXIT
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
has() { # has PATH DESCRIPTION: a file (or symlink) under the destdir
	checks=$((checks + 1))
	[ -e "$dest$1" ] || [ -L "$dest$1" ] || fail "${2:-$1}: $1 not installed"
}
abs() { case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac; }
bindir=$(abs "$bindir") datadir=$(abs "$datadir") mandir=$(abs "$mandir")

if ! meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$dest.log" 2>&1; then
	cat "$dest.log"; rm -f "$dest.log"
	echo "FAIL: meson install"; exit 1
fi
rm -f "$dest.log"

progs=(cloakfs cloakfs-keytool cloakfs-fsck cloakfsd cloakfs-enc cloakfs-bench)
for p in "${progs[@]}"; do
	has "$bindir/$p" "program $p"
	checks=$((checks + 1))
	[ -x "$dest$bindir/$p" ] || fail "$p is not executable"
	has "$compdir/$p" "bash completion for $p"
done
for m in man1/cloakfs.1 man1/cloakfs-keytool.1 man8/cloakfs-fsck.8 man1/cloakfsd.1 \
	 man1/cloakfs-enc.1 man1/cloakfs-bench.1 man5/cloakfs-crypto.conf.5; do
	has "$mandir/$m" "man page $m"
done
docdir=$datadir/doc/cloakfs
for d in LICENSE README.md format.md security.md crypto.md fsck.md daemon-protocol.md design.md; do
	has "$docdir/$d" "document $d"
done
has "$unitdir/cloakfsd.service" "systemd user unit"
has "$helperdir/mount.fuse.cloakfs" "mount helper"
checks=$((checks + 1))
case $helperdir in
/sbin | /usr/sbin) ;; # where libmount looks (/sbin is /usr/sbin on merged-/usr)
*) fail "mount helper in $helperdir: mount(8) looks in /sbin only" ;;
esac
checks=$((checks + 1))
[ "$(readlink "$dest$helperdir/mount.fuse.cloakfs")" = "$(command -v mount.fuse3 || echo /usr/sbin/mount.fuse3)" ] ||
	[ -x "$(readlink "$dest$helperdir/mount.fuse.cloakfs")" ] ||
	fail "mount.fuse.cloakfs points at '$(readlink "$dest$helperdir/mount.fuse.cloakfs")'"

# the unit starts the installed daemon
checks=$((checks + 1))
grep -qx "ExecStart=$bindir/cloakfsd --foreground" "$dest$unitdir/cloakfsd.service" ||
	fail "cloakfsd.service: $(grep ExecStart "$dest$unitdir/cloakfsd.service")"

# every document a man page cites is installed; no template is left
for page in $(find "$dest$mandir" -type f); do
	checks=$((checks + 1))
	grep -q '@[A-Z]*@' "$page" && fail "$page: unsubstituted $(grep -o '@[A-Z]*@' "$page" | head -1)"
	for cited in $(grep -oE "$docdir/[a-z.-]+\.md" "$page" | sort -u); do
		has "$cited" "$(basename "$page") cites $cited"
	done
	checks=$((checks + 1))
	if grep -qE '(^|[^/a-z])docs/[a-z-]+\.md' "$page" &&
	   ! grep -qE 'docs/ in the sources|\(docs/[a-z.-]+ in the sources\)' "$page"; then
		fail "$(basename "$page") cites a docs/ path that is not installed"
	fi
done

# the completion file loads and completes a keytool subcommand
checks=$((checks + 1))
out=$(PATH="$dest$bindir:$PATH" bash -c '
	source "$1" || exit 1
	COMP_WORDS=(cloakfs-keytool remove-p); COMP_CWORD=1
	_cloakfs_complete; echo "${COMPREPLY[*]}"' _ "$dest$compdir/cloakfs-keytool" 2>&1)
[ "$out" = remove-passphrase ] || fail "completion of 'cloakfs-keytool remove-p': '$out'"

echo "test_install_layout: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
