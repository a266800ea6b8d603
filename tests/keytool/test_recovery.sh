#!/bin/bash
# cloakfs-keytool recovery-key and recover (docs/security.md, "Recovery
# keys"): the key is printed only to a terminal or with --print-key; a
# new key replaces the old one; recover adds a keyslot to the volume's
# own config (every passphrase forgotten) or writes a fresh one (config
# lost), refuses another volume's config without --force, and tells a
# typo, another volume's key and a volume without a recovery key apart.
# Usage: test_recovery.sh PATH-TO-cloakfs-keytool
set -u
kt=${1:?usage: test_recovery.sh cloakfs-keytool}
kt=$(realpath -- "$kt")
here=$(realpath -- "$(dirname "$0")")
. "$here/lib.sh"
cd "$tmp" || exit 1

printf 'first pass\n' >p1
printf 'second pass\n' >p2
printf 'third pass\n' >p3
# the recovery key printed in $tmp/out, as one line
key_of() { grep -A3 'Recovery key for' "$tmp/out" | grep -E '^    ' | sed 's/^ *//' | paste -sd-; }

fails 3 'standard output is not a terminal.*--print-key' "init --recovery-key into a pipe" \
	"$kt" init "${KDF[@]}" --passfile p1 --recovery-key vol
check "nothing made without --print-key" ! -e vol
ok "init --recovery-key --print-key" "$kt" init "${KDF[@]}" --passfile p1 --recovery-key --print-key vol
k1=$(key_of)
check "a key of 8 groups" "$(echo "$k1" | grep -cE '^([0-9A-Z]{5}-){7}[0-9A-Z]{5}$')" = 1
check "the record exists" -f vol/cloakfs.volume

fails 3 'standard output is not a terminal' "recovery-key into a pipe" \
	"$kt" recovery-key --passfile p1 vol
ok "recovery-key --print-key" "$kt" recovery-key --passfile p1 --print-key vol
out_has "says the old key stops working" 'previous recovery key no longer opens it'
k2=$(key_of)
check "a new key" "$k1" != "$k2"
echo "$k1" >k1; echo "$k2" >k2; chmod 600 k1 k2
# the key exactly as printed: two indented lines, and a blank line first
{ echo; grep -A3 'Recovery key for' "$tmp/out" | grep -E '^    '; } >k2lines
chmod 600 k2lines
check "the printed key has two lines" "$(grep -c . k2lines)" = 2

# every passphrase forgotten: recover adds a slot to the volume's config
fails 2 'does not open this volume' "the replaced key" \
	"$kt" recover --passfile k1 --new-passfile p2 "${KDF[@]}" vol
ok "recover with the new key" "$kt" recover --passfile k2 --new-passfile p2 "${KDF[@]}" vol
out_has "added a slot" 'added to the config with keyslot 1'
ok "the new passphrase opens slot 1" "$kt" test-passphrase --passfile p2 vol
out_has "slot 1" 'opens keyslot 1$'
ok "the old one still opens slot 0" "$kt" test-passphrase --passfile p1 vol

# the key as printed, from a file, stdin, a command and a terminal paste
ok "recover from the two-line file" "$kt" recover --passfile k2lines --new-passfile p3 "${KDF[@]}" vol
ok "its passphrase opens" "$kt" test-passphrase --passfile p3 vol
ok "remove it again" "$kt" remove-passphrase --passfile p3 vol
ok "recover from two lines of stdin, the new passphrase after them" \
	bash -c '{ cat "$1"; echo "stdin pass"; } | "$2" recover "${@:3}" vol' _ \
	k2lines "$kt" "${KDF[@]}"
printf 'stdin pass\n' >p4
ok "the passphrase read after the key opens" "$kt" test-passphrase --passfile p4 vol
ok "recover from an extpass that prints two lines" "$kt" recover --extpass "cat k2lines" \
	--new-passfile p3 "${KDF[@]}" vol
# a pasted two-line key arrives at once on a terminal: the second line
# must not be lost when the echo is changed after the first
ok "recover from a two-line paste on a terminal" \
	python3 "$here/tty_paste.py" "Recovery key for" k2lines \
	"$kt" recover --new-passfile p2 "${KDF[@]}" vol

# config lost: a fresh one, with the volume's uuid and parameters
uuid=$(grep '^uuid' vol/cloakfs.conf)
cipher=$(grep '^cipher' vol/cloakfs.conf)
rm -f vol/cloakfs.conf
ok "recover a lost config" "$kt" recover --passfile k2 --new-passfile p3 "${KDF[@]}" vol
out_has "a new config" 'wrote a new config with keyslot 0'
check "same uuid" "$(grep '^uuid' vol/cloakfs.conf)" = "$uuid"
check "same cipher" "$(grep '^cipher' vol/cloakfs.conf)" = "$cipher"
ok "the new passphrase opens it" "$kt" test-passphrase --passfile p3 vol
fails 2 'wrong passphrase' "the lost config's passphrase does not" \
	"$kt" test-passphrase --passfile p1 vol

# another volume's config in its place: refused, then replaced with --force
ok "another volume" "$kt" init "${KDF[@]}" --passfile p1 --recovery-key --print-key other
ok "a third one, without a recovery key" "$kt" init "${KDF[@]}" --passfile p1 plain
cp -f vol/cloakfs.conf mine.conf
cp -f other/cloakfs.conf vol/cloakfs.conf
fails 4 'belongs to another volume' "test-passphrase on another volume's config" \
	"$kt" test-passphrase --passfile p1 vol
fails 5 'does not match the volume.*--force' "recover over another volume's config" \
	"$kt" recover --passfile k2 --new-passfile p2 "${KDF[@]}" vol
same_file "left alone" vol/cloakfs.conf other/cloakfs.conf
ok "recover --force" "$kt" recover --force --passfile k2 --new-passfile p2 "${KDF[@]}" vol
ok "and it opens" "$kt" test-passphrase --passfile p2 vol

# another volume's key, and a volume that has none
fails 2 'does not open this volume' "this volume's key on another volume" \
	"$kt" recover --passfile k2 --new-passfile p2 "${KDF[@]}" other
fails 4 'has no recovery key.*recovery-key makes one' "a volume without a recovery key" \
	"$kt" recover --passfile k2 --new-passfile p2 "${KDF[@]}" plain
rm -f plain/cloakfs.volume
fails 4 'no cloakfs.volume' "a volume without a record" \
	"$kt" recover --passfile k2 --new-passfile p2 "${KDF[@]}" plain
ok "a volume without a record still opens" "$kt" test-passphrase --passfile p1 plain
ok "and gets one when its config is written" "$kt" add-passphrase --passfile p1 --new-passfile p2 plain
check "record written" -f plain/cloakfs.volume

# typos: one wrong character, two neighbours swapped, a short key
bad=$(echo "$k2" | sed 's/^\(.......\)./\1W/')
[ "$bad" = "$k2" ] && bad=$(echo "$k2" | sed 's/^\(.......\)./\1X/')
echo "$bad" >bad
fails 2 'group 2 \(".*"\) of the recovery key has a typo' "one wrong character" \
	"$kt" recover --passfile bad --new-passfile p2 "${KDF[@]}" vol
g=${k2:12:5}
sw=${g:1:1}${g:0:1}${g:2}
if [ "$sw" != "$g" ]; then
	echo "${k2:0:12}$sw${k2:17}" >bad
	fails 2 'group 3 .* has a typo' "two neighbours swapped" \
		"$kt" recover --passfile bad --new-passfile p2 "${KDF[@]}" vol
fi
echo "${k2:0:40}" >bad
fails 2 'has 40 letters and digits.*this one has 34' "a short key" \
	"$kt" recover --passfile bad --new-passfile p2 "${KDF[@]}" vol

finish test_recovery
