# Shared by the tests/keytool scripts (sourced). Each check runs one
# command, compares its exit status and, for failures, wants exactly one
# line on stderr matching a pattern. The caller sets $kt and calls
# finish NAME at the end.
checks=0 failed=0
umask 077   # passphrase files private, as users keep them (or a warning)
tmp=$(mktemp -d)
cleanup_hooks=()
trap 'for h in ${cleanup_hooks[@]+"${cleanup_hooks[@]}"}; do eval "$h"; done; rm -rf "$tmp"' EXIT
export CLOAKFS_CRYPTO_CONFIG=""   # ignore the machine's crypto policy files
unset CLOAKFS_CRYPTO
KDF=(--kdf-time 0.02 --kdf-memory 8)

fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect STATUS DESCRIPTION COMMAND...: exit status must be STATUS;
# stdout in $tmp/out, stderr in $tmp/err
expect() {
	local want=$1 what=$2; shift 2
	checks=$((checks + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$what: exit $rc, want $want"
		sed 's/^/  stderr: /' "$tmp/err"
		return 1
	fi
	return 0
}
ok() { expect 0 "$@"; }

# fails STATUS PATTERN DESCRIPTION COMMAND...: that exit status and one
# stderr line matching PATTERN (grep -E)
fails() {
	local want=$1 pat=$2 what=$3; shift 3
	expect "$want" "$what" "$@" || return 1
	checks=$((checks + 1))
	if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qE -- "$pat" "$tmp/err"; then
		fail "$what: stderr not one line matching /$pat/:"
		sed 's/^/  stderr: /' "$tmp/err"
		return 1
	fi
	return 0
}

# check DESCRIPTION TEST-ARGS...: a [ ] test
check() {
	local what=$1; shift
	checks=$((checks + 1))
	[ "$@" ] || fail "$what"
}

# out_has DESCRIPTION PATTERN: $tmp/out has a line matching (grep -E)
out_has() {
	checks=$((checks + 1))
	grep -qE -- "$2" "$tmp/out" || { fail "$1: no line /$2/ in:"; sed 's/^/  out: /' "$tmp/out"; }
}

# same_file DESCRIPTION A B: byte-identical
same_file() {
	checks=$((checks + 1))
	cmp -s "$2" "$3" || fail "$1: $2 and $3 differ"
}

# no_temp DESCRIPTION DIR: no config temp file left behind
no_temp() {
	checks=$((checks + 1))
	if ls "$2" | grep -q '^cloakfs\.conf\.tmp\.'; then fail "$1: temp file left in $2"; fi
}

finish() {
	echo "$1: $checks checks, $failed failed"
	[ "$failed" -eq 0 ]
}
