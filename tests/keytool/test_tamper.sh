#!/bin/bash
# cloakfs-keytool against a tampered cloakfs.conf: every field changed to
# another valid value (the keyslots' associated data or the slot's own
# KDF input no longer match: "wrong passphrase", exit 2) or to an invalid
# one (refused with file, line and field: exit 4), slots reordered or
# their values swapped, truncated, empty, garbage, oversized, symlinked.
# Nothing that fails ever rewrites the config.
# Usage: test_tamper.sh PATH-TO-cloakfs-keytool
set -u
kt=${1:?usage: test_tamper.sh cloakfs-keytool}
kt=$(realpath -- "$kt")   # the tests run in a temp directory
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

printf 'first pass\n' >p1
printf 'second pass\n' >p2
conf=vol/cloakfs.conf
ok "init" "$kt" init "${KDF[@]}" --cipher aes256-xts --passfile p1 vol
ok "add a second slot" "$kt" add-passphrase --passfile p1 --new-passfile p2 vol
cp "$conf" orig
chmod u+w "$conf"

# value of the N-th (1-based) setting KEY in orig
get() {
	awk -v k="$1" -v n="$2" '$1 == k && $2 == "=" && ++c == n {
		v = $0; sub(/^[^=]*= */, "", v); sub(/;$/, "", v); print v; exit }' orig
}
# orig with the N-th KEY set to VALUE, as the volume's config
put() {
	awk -v k="$1" -v n="$2" -v val="$3" '$1 == k && $2 == "=" && ++c == n {
		sub(/=.*/, "= " val ";") } { print }' orig >"$conf"
}
restore() { cat orig >"$conf"; }

# the config as it is now must be refused by info and by every command
# that reads it, with one line naming the file and matching PATTERN
refused() {
	local what=$1 pat=$2
	cp "$conf" tampered
	fails 4 "$pat" "$what: info" "$kt" info vol
	checks=$((checks + 1)); grep -q 'vol/cloakfs.conf' "$tmp/err" || fail "$what: message does not name the file"
	fails 4 "$pat" "$what: test-passphrase" "$kt" test-passphrase --passfile p1 vol
	fails 4 "$pat" "$what: add-passphrase" "$kt" add-passphrase --passfile p1 --new-passfile p2 vol
	same_file "$what: config not rewritten" "$conf" tampered
	restore
}
# the config parses, but the change is bound into the keyslots: no
# passphrase opens the slots it affects (both unless SLOT-ONLY is 0 or 1).
# The volume record (cloakfs.volume, docs/format.md 8) tells: another
# volume's config, or the edited field by name (exit 4, one line matching
# PATTERN); a volume without a record (made before records existed) says
# "wrong passphrase" (exit 2) as it always did.
# unbound DESCRIPTION SLOT-ONLY PATTERN
unbound() {
	local what=$1 only=$2 pat=$3
	cp "$conf" tampered
	ok "$what: info still reads it" "$kt" info vol
	if [ -z "$only" ]; then
		fails 4 "^cloakfs-keytool: vol.*$pat" "$what: slot 0's passphrase (record)" \
			"$kt" test-passphrase --passfile p1 vol
		fails 4 "$pat" "$what: slot 1's passphrase (record)" \
			"$kt" test-passphrase --passfile p2 vol
		fails 4 "$pat" "$what: add-passphrase (record)" \
			"$kt" add-passphrase --passfile p1 --new-passfile p2 vol
	else
		fails 4 "^cloakfs-keytool: vol/cloakfs.conf: .*$pat" \
			"$what: slot $only's passphrase (record)" \
			"$kt" test-passphrase --slot "$only" --passfile p$((only + 1)) vol
		fails 4 "$pat" "$what: add-passphrase with it (record)" \
			"$kt" add-passphrase --passfile p$((only + 1)) --new-passfile p1 vol
	fi
	mv vol/cloakfs.volume record.saved
	if [ -z "$only" ]; then
		fails 2 '^cloakfs-keytool: vol: wrong passphrase \(no keyslot opened\)$' \
			"$what: slot 0's passphrase" "$kt" test-passphrase --passfile p1 vol
		fails 2 '^cloakfs-keytool: vol: wrong passphrase \(no keyslot opened\)$' \
			"$what: slot 1's passphrase" "$kt" test-passphrase --passfile p2 vol
		fails 2 'vol: wrong passphrase \(no keyslot opened\)' "$what: add-passphrase" \
			"$kt" add-passphrase --passfile p1 --new-passfile p2 vol
		fails 2 'wrong passphrase' "$what: change-passphrase" \
			"$kt" change-passphrase --passfile p2 --new-passfile p1 vol
		fails 2 'wrong passphrase' "$what: remove-slot" "$kt" remove-slot --passfile p1 vol 1
	else
		fails 2 "vol: wrong passphrase for keyslot $only" "$what: slot $only's passphrase" \
			"$kt" test-passphrase --slot "$only" --passfile p$((only + 1)) vol
		ok "$what: the other slot still opens" "$kt" test-passphrase \
			--slot $((1 - only)) --passfile p$((2 - only)) vol
		fails 2 'vol: wrong passphrase \(no keyslot opened\)' "$what: add-passphrase with it" \
			"$kt" add-passphrase --passfile p$((only + 1)) --new-passfile p1 vol
	fi
	mv record.saved vol/cloakfs.volume
	same_file "$what: config not rewritten" "$conf" tampered
	no_temp "$what: no temp file" vol
	restore
}

ok "untampered volume opens" "$kt" test-passphrase --passfile p2 vol

# ---- top-level fields changed to other valid values: bound by the AAD ----
put uuid 1 '"00000000-0000-4000-8000-000000000000"'
unbound "other uuid" "" 'the config belongs to another volume: the config is of volume 00000000-0000-4000-8000-000000000000'
put cipher 1 '"speck128-xts"'
unbound "other cipher" "" 'edited: cipher is "speck128-xts" in the config, "aes256-xts" in cloakfs.volume'
put sector_size 1 8192
unbound "other sector size" "" 'edited: sector_size is 8192 in the config, 4096 in cloakfs.volume'
put name_max 1 200
unbound "other name_max" "" 'edited: name_max is 200 in the config, 255 in cloakfs.volume'
put key_id 1 '"00000000000000000000000000000000"'
unbound "other key_id" "" 'belongs to another volume: .*key id 00000000000000000000000000000000'
# upper-case uuid is the same uuid (accepted, case-insensitive)
put uuid 1 "$(get uuid 1 | tr a-f A-F)"
ok "upper-case uuid: same volume" "$kt" test-passphrase --passfile p1 vol
restore

# ---- top-level fields changed to invalid values --------------------------
put version 1 3; refused "version 3" 'vol/cloakfs.conf.*unsupported format version 3'
put version 1 '"1"'; refused "version as a string" 'version'
put uuid 1 '"not-a-uuid"'; refused "bad uuid" 'uuid'
put uuid 1 '"00000000-0000-1000-8000-000000000000"'; refused "uuid not version 4" 'uuid'
put cipher 1 '"rot13"'; refused "unknown cipher" 'cipher'
put names 1 '"plain"'; refused "unknown names mode" 'names'
put sector_size 1 1000; refused "sector size not a power of two" 'sector_size.*power of two'
put sector_size 1 131072; refused "sector size too big" 'sector_size'
put name_max 1 10; refused "name_max too small" 'name_max'
put key_id 1 '"zz000000000000000000000000000000"'; refused "key_id not hex" 'key_id'
put key_id 1 '"0000"'; refused "key_id too short" 'key_id'
put features 1 '[ "compress" ]'; refused "unknown feature" 'features.*compress'
{ cat orig; echo 'colour = "blue";'; } >"$conf"; refused "unknown setting" 'colour'
grep -v '^uuid' orig >"$conf"; refused "missing uuid" 'uuid'
grep -v '^version' orig >"$conf"; refused "missing version" 'version'
# integers past 32 bits without libconfig's L: read whole, never wrapped
# into range (libconfig 1.5 alone read these as 2, 4096 and 255)
put version 1 4294967298; refused "version 2^32+2" 'vol/cloakfs.conf:[0-9]*: version: unsupported format version 4294967298'
put sector_size 1 4294971392; refused "sector size 2^32+4096" 'vol/cloakfs.conf:[0-9]*: sector_size: .*got 4294971392'
put name_max 1 4294967551; refused "name_max 2^32+255" 'vol/cloakfs.conf:[0-9]*: name_max: .*got 4294967551'

# ---- one keyslot's fields changed to other valid values ------------------
put salt 1 '"AAAAAAAAAAAAAAAAAAAAAA=="'; unbound "slot 0 salt" 0 'keyslot 0: salt differs'
put salt 2 '"AAAAAAAAAAAAAAAAAAAAAA=="'; unbound "slot 1 salt" 1 'keyslot 1: salt differs'
put opslimit 1 $(( $(get opslimit 1) + 1 ))
unbound "slot 0 opslimit" 0 "keyslot 0: opslimit is $(( $(get opslimit 1) + 1 )) in the config, $(get opslimit 1) in"
put memlimit 2 $(( $(get memlimit 2) + 1024 ))
unbound "slot 1 memlimit" 1 "keyslot 1: memlimit is $(( $(get memlimit 2) + 1024 )) in the config, $(get memlimit 2) in"
put nonce 1 '"AAAAAAAAAAAAAAAA"'; unbound "slot 0 nonce" 0 'keyslot 0: nonce differs'
s=$(get sealed 2); first=${s:1:1}; [ "$first" = A ] && new=B || new=A
put sealed 2 "\"$new${s:2}"; unbound "slot 1 sealed, one character" 1 'keyslot 1: sealed differs'


# ---- one keyslot's fields changed to invalid values ----------------------
put salt 1 '"AAAA"'; refused "short salt" 'salt'
put salt 1 '"AAAAAAAAAAAAAAAAAAAAAA=!"'; refused "salt not base64" 'salt'
put opslimit 2 0; refused "opslimit 0" 'opslimit'
put memlimit 1 1000; refused "memlimit not whole KiB" 'memlimit'
put memlimit 1 1024; refused "memlimit too small" 'memlimit'
put opslimit 1 4294967298; refused "opslimit 2^32+2" 'vol/cloakfs.conf:[0-9]*: keyslots\[0\]\.opslimit: .*got 4294967298'
put memlimit 2 4303355904; refused "memlimit 4 GiB + 8 MiB" 'vol/cloakfs.conf:[0-9]*: keyslots\[1\]\.memlimit: .*got 4303355904'
put sealed 1 '"AAAA"'; refused "short sealed" 'sealed'
put nonce 2 '"AAAAAAAAAAAA"'; refused "short nonce" 'nonce'

# ---- a keyslot above the cost ceiling (docs/format.md, Cost ceiling) -----
# opslimit up to 2^32-1 and memlimit up to 4 GiB parse, but a slot above
# the ceiling (memlimit 1 GiB, opslimit x memlimit 8 GiB) is set aside
# before any Argon2id runs, named with its field; the other slot is tried.
# "timeout": without the ceiling slot 0 alone would run for hours.
# aside DESCRIPTION FIELD VALUE: slot 0 is hostile; p2 (slot 1) opens
aside() {
	local what=$1 field=$2 value=$3
	cp "$conf" tampered
	ok "$what: info reads it" "$kt" info vol
	ok "$what: slot 1 still opens" timeout 60 "$kt" test-passphrase --passfile p2 vol
	out_has "$what: slot 1" 'opens keyslot 1$'
	checks=$((checks + 1))
	grep -qE "^cloakfs-keytool: warning: vol/cloakfs.conf: keyslot 0 not tried: $field $value is above the ceiling" "$tmp/err" ||
		{ fail "$what: no warning naming slot 0 and $field"; sed 's/^/  stderr: /' "$tmp/err"; }
	fails 4 "vol/cloakfs.conf: no keyslot opened; keyslot 0 not tried: $field $value is above the ceiling" \
		"$what: slot 0's passphrase" timeout 60 "$kt" test-passphrase --passfile p1 vol
	fails 4 "keyslot 0 not tried: $field $value is above the ceiling" \
		"$what: --slot 0" timeout 60 "$kt" change-passphrase --slot 0 --passfile p1 --new-passfile p2 vol
	same_file "$what: config not rewritten" "$conf" tampered
	restore
}
put opslimit 1 4294967295L; aside "opslimit 2^32-1" opslimit 4294967295
put memlimit 1 4294967296L; aside "memlimit 4 GiB" memlimit 4294967296
# the maxima as a person writes them, without the L, read the same
put opslimit 1 4294967295; aside "opslimit 2^32-1, no L" opslimit 4294967295
put memlimit 1 4294967296; aside "memlimit 4 GiB, no L" memlimit 4294967296
put memlimit 1 1074790400; aside "memlimit 1 GiB + 1 KiB" memlimit 1074790400
# 1025 passes at 8 MiB is 8 GiB + 8 MiB of work; 1024 would be allowed
check "the test volume's slots are 8 MiB" "$(get memlimit 1)" = 8388608
put opslimit 1 1025; aside "work above 8 GiB" opslimit 1025

# ---- keyslots reordered or mixed -----------------------------------------
# whole groups swapped: each slot still opens (slots are independent and
# positional), under the other number; info shows the new order
start1=$(grep -n '^  {' orig | sed -n 1p | cut -d: -f1)
start2=$(grep -n '^  {' orig | sed -n 2p | cut -d: -f1)
end2=$(grep -n '^  }' orig | sed -n 2p | cut -d: -f1)
{
	head -n $((start1 - 1)) orig
	sed -n "${start2},${end2}p" orig | sed 's/^  },*$/  },/'
	sed -n "${start1},$((start2 - 1))p" orig | sed 's/^  },*$/  }/'
	tail -n +$((end2 + 1)) orig
} >"$conf"
cp "$conf" tampered
ok "slots swapped: info" "$kt" info vol
ok "slots swapped: slot 0's passphrase opens" "$kt" test-passphrase --passfile p1 vol
out_has "now as keyslot 1" 'keyslot 1$'
ok "slots swapped: slot 1's passphrase opens" "$kt" test-passphrase --passfile p2 vol
out_has "now as keyslot 0" 'keyslot 0$'
same_file "slots swapped: nothing rewritten" "$conf" tampered
restore
# values swapped between slots: neither opens
for k in sealed salt nonce; do
	put "$k" 1 "$(get "$k" 2)"; cp "$conf" half
	awk -v k="$k" -v val="$(get "$k" 1)" '$1 == k && $2 == "=" && ++c == 2 {
		sub(/=.*/, "= " val ";") } { print }' half >"$conf"
	unbound "slots' $k values swapped" "" "keyslot 0: $k differs from cloakfs.volume; keyslot 1: $k differs"
done
# the same slot twice: opens, and removing one copy keeps the other
{
	head -n $((start2 - 1)) orig
	sed -n "${start1},$((start2 - 1))p" orig
	tail -n +"$start2" orig
} >"$conf"
ok "duplicated slot: info" "$kt" info vol
out_has "three slots" '^keyslots: +3 of 8$'
restore

# ---- broken files --------------------------------------------------------
echo 'keyslots = ( );' | cat <(grep -v '^keyslots' orig | sed '/^  /d;/^);/d') - >"$conf"
refused "no keyslots" 'keyslots'
head -c $(( $(stat -c %s orig) / 2 )) orig >"$conf"; refused "truncated to half" 'vol/cloakfs.conf'
head -c 100 orig >"$conf"; refused "truncated to 100 bytes" 'vol/cloakfs.conf'
: >"$conf"; refused "empty file" 'vol/cloakfs.conf'
printf 'this is not a config at all {{{\n' >"$conf"; refused "text garbage" 'vol/cloakfs.conf'
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR' >"$conf"; refused "binary garbage" 'vol/cloakfs.conf'
head -c 2000 /dev/urandom >"$conf"; refused "random bytes" 'vol/cloakfs.conf'
{ cat orig; head -c 70000 /dev/zero | tr '\0' '#'; echo; } >"$conf"
refused "larger than 64 KiB" 'larger than 65536 bytes'
# nine slots
{
	head -n $((start1 - 1)) orig
	for i in 1 2 3 4 5 6 7 8; do sed -n "${start1},$((start2 - 1))p" orig; done
	tail -n +"$start2" orig
} >"$conf"
refused "nine keyslots" 'keyslots'
rm -f "$conf"; ln -s ../orig "$conf"
fails 4 'vol/cloakfs.conf' "config is a symlink" "$kt" info vol
rm -f "$conf"; cp orig "$conf"; chmod u+w "$conf"
ok "restored config opens" "$kt" test-passphrase --passfile p2 vol

finish test_tamper
