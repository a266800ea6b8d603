#!/bin/bash
# cloakfs-keytool with the key daemon: unlock (starting cloakfsd), status,
# lock, lock --all, TTLs, and that the daemon holds exactly what a mount
# fetches (keycheck). Runs its own cloakfsd on a private socket.
# Usage: test_unlock.sh PATH-TO-cloakfs-keytool PATH-TO-cloakfsd PATH-TO-keycheck
set -u
kt=${1:?usage: test_unlock.sh cloakfs-keytool cloakfsd keycheck}
cloakfsd=${2:?cloakfsd}
keycheck=${3:?keycheck}
# the tests run in a temp directory
kt=$(realpath -- "$kt") cloakfsd=$(realpath -- "$cloakfsd") keycheck=$(realpath -- "$keycheck")
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
mkdir -m 700 run cfg
export XDG_RUNTIME_DIR=$tmp/run XDG_CONFIG_HOME=$tmp/cfg
export CLOAKFSD_SOCKET=$tmp/run/cloakfsd.sock CLOAKFSD_PROGRAM=$cloakfsd
daemon_pid=
stop_daemon() {
	[ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null
	daemon_pid=
}
cleanup_hooks+=(stop_daemon)

printf 'first pass\n' >p1
printf 'second pass\n' >p2
printf 'wrong\n' >bad
ok "init vol" "$kt" init "${KDF[@]}" --passfile p1 vol
keyid=$(sed -n 's/^key id: *//p' "$tmp/out")
ok "init vol2" "$kt" init "${KDF[@]}" --cipher speck64-xts --passfile p2 vol2
keyid2=$(sed -n 's/^key id: *//p' "$tmp/out")

# ---- no daemon running ---------------------------------------------------
ok "status without a daemon" "$kt" status
out_has "says so" '^cloakfsd is not running .*it holds no key$'
out_has "and counts the cloakfs mounts" '^[0-9]+ cloakfs mounts?$'
fails 8 '^cloakfs-keytool: vol: not unlocked \(no key daemon is running\)$' \
	"lock without a daemon" "$kt" lock vol
ok "lock --all without a daemon" "$kt" lock --all
out_has "nothing to lock" 'nothing to lock'
check "no daemon was started by status or lock" ! -S "$CLOAKFSD_SOCKET"

# ---- usage ---------------------------------------------------------------
fails 3 "--ttl takes seconds" "--ttl 0" "$kt" unlock --ttl 0 --passfile p1 vol
fails 3 "--ttl takes seconds" "--ttl abc" "$kt" unlock --ttl abc --passfile p1 vol
fails 3 "--ttl takes seconds" "--ttl 0.5s" "$kt" unlock --ttl 0.5s --passfile p1 vol
fails 3 "--ttl takes seconds" "--ttl 10y" "$kt" unlock --ttl 10y --passfile p1 vol
fails 3 "not both" "lock DIR --all" "$kt" lock --all vol
fails 3 "give CIPHERDIR or --all" "lock without arguments" "$kt" lock
fails 3 "unexpected argument" "status with an argument" "$kt" status vol
fails 4 "nothere" "unlock of a missing volume" "$kt" unlock --passfile p1 nothere

# ---- unlock starts the daemon --------------------------------------------
fails 2 '^cloakfs-keytool: vol: wrong passphrase \(no keyslot opened\)$' \
	"unlock with a wrong passphrase" "$kt" unlock --passfile bad vol
ok "status" "$kt" status
out_has "daemon started by unlock" '^cloakfsd pid [0-9]+, socket '
daemon_pid=$(sed -n 's/^cloakfsd pid \([0-9]*\),.*/\1/p' "$tmp/out")
out_has "no key after a wrong passphrase" '^0 keys held$'
ok "unlock --ttl 100" "$kt" unlock --ttl 100 --passfile p1 vol
out_has "unlock line" "^vol: unlocked with keyslot 0 \\(key id $keyid, expires: (100|[5-9][0-9])s\\)\$"
ok "keycheck: the daemon holds the master key under the key id" "$keycheck" vol
ok "unlock --ttl 2m (a unit)" "$kt" unlock --ttl 2m --passfile p1 vol
out_has "2 minutes" "expires: (120|1[01][0-9])s\\)\$"
ok "unlock --ttl 100" "$kt" unlock --ttl 100 --passfile p1 vol
ok "unlock vol2 --ttl never from stdin" bash -c "'$kt' unlock --ttl never vol2 <p2"
out_has "no expiry" "expires: never\\)\$"
ok "keycheck vol2" "$keycheck" vol2
ok "status" "$kt" status
out_has "header" '^KEY ID +TIME LEFT +VOLUME$'
out_has "vol listed with its absolute path" "^$keyid  (100|[5-9][0-9])s +$tmp/vol\$"
out_has "vol2 listed, never expires" "^$keyid2  never +$tmp/vol2\$"
out_has "two keys" '^2 keys held$'
ok "unlock again replaces the key" "$kt" unlock --passfile p1 vol
ok "status" "$kt" status
out_has "still two keys" '^2 keys held$'
ok "add-passphrase does not disturb the daemon" "$kt" add-passphrase --passfile p1 --new-passfile p2 vol
ok "unlock with the second slot" "$kt" unlock --passfile p2 vol
out_has "slot 1" 'unlocked with keyslot 1 '
ok "keycheck after a slot-1 unlock" "$keycheck" vol

# ---- lock ----------------------------------------------------------------
ok "lock vol" "$kt" lock vol
out_has "lock line" "^vol: locked \\(key id $keyid\\)\$"
expect 2 "keycheck: the key is gone" "$keycheck" vol
fails 8 "^cloakfs-keytool: vol: not unlocked \\(the key daemon holds no key $keyid and no mount registered it\\)\$" \
	"lock twice" "$kt" lock vol
ok "status" "$kt" status
out_has "one key left" '^1 key held$'
ok "unlock vol" "$kt" unlock --passfile p1 vol
ok "lock --all" "$kt" lock --all
out_has "two locked" '^locked 2 keys held by the key daemon, and every mount that registered its own key with it$'
ok "status" "$kt" status
out_has "none held" '^0 keys held$'
expect 2 "keycheck vol2: gone" "$keycheck" vol2

# ---- expiry --------------------------------------------------------------
ok "unlock --ttl 1" "$kt" unlock --ttl 1 --passfile p1 vol
sleep 2.5
ok "status after expiry" "$kt" status
out_has "expired" '^0 keys held$'

# ---- a config that fails to parse is not unlocked or locked --------------
chmod u+w vol/cloakfs.conf; echo garbage >vol/cloakfs.conf
fails 4 'vol/cloakfs.conf' "unlock of a damaged volume" "$kt" unlock --passfile p1 vol
fails 4 'vol/cloakfs.conf' "lock of a damaged volume" "$kt" lock vol

# ---- the daemon went away --------------------------------------------------
stop_daemon
sleep 0.5
ok "status after the daemon exited" "$kt" status
out_has "not running" 'is not running'

finish test_unlock
