#!/bin/bash
# SPDX-License-Identifier: MIT
# What every cloakfs tool shares (cli/exitcodes.h): --version, a --help
# that lists it, and one exit code per cause: a bad option exits 3 from
# every tool but cloakfs-fsck (fsck(8)'s 16), a wrong passphrase or a
# failed authentication 2, an unreadable volume directory 1 (as an
# ordinary user), a missing one 4.
#   test_common_cli.sh CLOAKFS KEYTOOL FSCK CLOAKFSD ENC BENCH
set -u
cloakfs=$1 kt=$2 fsck=$3 cloakfsd=$4 enc=$5 bench=$6
checks=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_common_cli.XXXXXX") || exit 1
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export CLOAKFS_CRYPTO_CONFIG=""
unset CLOAKFS_CRYPTO

fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# status WANT DESCRIPTION COMMAND...: the exit status
status() {
	local want=$1 what=$2; shift 2
	checks=$((checks + 1))
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local rc=$?
	[ "$rc" -eq "$want" ] || { fail "$what: exit $rc, want $want"; sed 's/^/  /' "$tmp/err" | head -5; }
}

for t in "$cloakfs" "$kt" "$fsck" "$cloakfsd" "$enc" "$bench"; do
	name=$(basename "$t")
	status 0 "$name --version" "$t" --version
	checks=$((checks + 1))
	grep -q "^$name [0-9]" "$tmp/out" || fail "$name --version prints '$(head -1 "$tmp/out")'"
	status 0 "$name --help" "$t" --help
	checks=$((checks + 1))
	grep -q -- '--version' "$tmp/out" || fail "$name --help does not list --version"
	want=3
	[ "$name" = cloakfs-fsck ] && want=16
	status $want "$name: a bad option" "$t" --no-such-option
done

# a volume, a wrong passphrase
printf 'right\n' >"$tmp/pass"
printf 'wrong\n' >"$tmp/bad"
mkdir -p "$tmp/home/vol" "$tmp/mnt"
status 0 "init" "$kt" init --kdf-time 0.02 --kdf-memory 8 --passfile "$tmp/pass" "$tmp/home/vol"
status 2 "keytool: wrong passphrase" "$kt" test-passphrase --passfile "$tmp/bad" "$tmp/home/vol"
status 2 "cloakfs: wrong passphrase" "$cloakfs" --no-cloakfsd --passfile "$tmp/bad" "$tmp/home/vol" "$tmp/mnt"
printf '%064d' 0 >"$tmp/key"
printf 'forged ciphertext and tag' >"$tmp/ct"
status 2 "cloakfs-enc: authentication failed" bash -c "'$enc' --alg 'rfc7539(chacha20,poly1305)' \
	--key $(cat "$tmp/key") --iv 000000000000000000000000 --decrypt <'$tmp/ct'"
# a missing volume directory
status 4 "keytool: missing volume" "$kt" info "$tmp/nothing"
status 4 "cloakfs: missing volume" "$cloakfs" --no-cloakfsd --passfile "$tmp/pass" "$tmp/nothing" "$tmp/mnt"

# an unreadable volume directory, as an ordinary user (root reads anything)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	chmod 0755 "$tmp" "$tmp/mnt"
	chmod 0644 "$tmp/pass"
	chmod 0700 "$tmp/home"
	status 1 "keytool: permission denied" "${as_user[@]}" "$kt" info "$tmp/home/vol"
	status 1 "cloakfs: permission denied" "${as_user[@]}" "$cloakfs" --no-cloakfsd \
		--passfile "$tmp/pass" "$tmp/home/vol" "$tmp/mnt"
	checks=$((checks + 1))
	grep -q "Permission denied" "$tmp/err" || fail "cloakfs names the cause: $(cat "$tmp/err")"
else
	echo "SKIP: the permission case needs root (to become another user) and setpriv"
fi

echo "test_common_cli: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
