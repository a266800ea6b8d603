#!/bin/bash
# cloakfs-keytool without the daemon: every subcommand's round trip,
# passphrase sources (--passfile, --extpass, stdin), wrong passphrases
# (exit 2, config untouched), refusals, info output, backup and restore.
# Usage: test_keytool.sh PATH-TO-cloakfs-keytool
set -u
kt=${1:?usage: test_keytool.sh cloakfs-keytool}
kt=$(realpath -- "$kt")   # the tests run in a temp directory
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

printf 'first pass\n' >p1
printf 'second pass\n' >p2
printf 'third pass' >p3          # no trailing newline
printf 'fourth pass\nignored second line\n' >p4
printf 'wrong\n' >bad
: >empty
conf=vol/cloakfs.conf

# ---- command line --------------------------------------------------------
ok "--help" "$kt" --help
out_has "--help lists init" '^  init '
ok "help init" "$kt" help init
out_has "help init synopsis" '^Usage: cloakfs-keytool init '
for c in init info add-passphrase change-passphrase remove-slot test-passphrase \
	 backup-header restore-header unlock lock status; do
	ok "$c --help" "$kt" "$c" --help
	out_has "$c --help" "^Usage: cloakfs-keytool $c"
done
expect 3 "no command" "$kt"
checks=$((checks + 1)); grep -q '^Usage: cloakfs-keytool COMMAND' "$tmp/err" || fail "no command: no usage on stderr"
fails 3 "unknown command 'frobnicate'" "unknown command" "$kt" frobnicate
fails 3 "unknown option '--bogus'" "unknown option" "$kt" info --bogus x
fails 3 'option --slot does not apply' "option of another command" "$kt" info --slot 1 x
fails 3 "missing argument" "missing argument" "$kt" info
fails 3 "unexpected argument 'y'" "extra argument" "$kt" info x y
fails 3 "needs an argument" "option without value" "$kt" init x --cipher
fails 3 "unknown cipher 'rot13'" "bad cipher" "$kt" init --cipher rot13 "${KDF[@]}" --passfile p1 v
fails 3 "sector-size must be a power of two" "bad sector size" "$kt" init --sector-size 1000 --passfile p1 v
fails 3 "sector-size: a number" "sector size not a number" "$kt" init --sector-size 4k --passfile p1 v
fails 3 "name-max must be from 64 to 255" "bad name_max" "$kt" init --name-max 10 --passfile p1 v
fails 3 "kdf-time: seconds" "kdf-time 0" "$kt" init --kdf-time 0 --passfile p1 v
fails 3 "kdf-memory: MiB" "kdf-memory 0" "$kt" init --kdf-memory 0 --passfile p1 v
fails 3 "not both" "--passfile and --extpass" "$kt" init --passfile p1 --extpass 'echo x' v
fails 3 "not both" "--passfile and --new-passfile" "$kt" init --passfile p1 --new-passfile p2 v
check "failed inits created nothing" ! -e v

# ---- init and info -------------------------------------------------------
ok "init" "$kt" init "${KDF[@]}" --passfile p1 vol
out_has "init prints the key id" '^key id: +[0-9a-f]{32}$'
# the default and why: AES instructions, else the faster of the two
out_has "init says why it chose the cipher" \
	'^cipher: +(aes256-xts \(default: AES instructions\)|(adiantum|speck128-xts) \(default: no AES instructions.*\))$'
keyid=$(sed -n 's/^key id: *//p' "$tmp/out")
check "config written" -f "$conf"
check "root directory nonce written" -f vol/.cloakfs.dir
check "config mode 0400" "$(stat -c %a "$conf")" = 400
ok "info" "$kt" info vol
out_has "info format" '^format: +version 2$'
out_has "info uuid" '^uuid: +[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
out_has "info cipher" '^cipher: +(aes256-xts|speck128-xts)$'
out_has "info names" '^names: +cts, name_max 255$'
out_has "info sector size" '^sector size: +4096$'
out_has "info key id as init printed" "^key id: +$keyid\$"
out_has "info features" '^features: +none$'
out_has "info slot count" '^keyslots: +1 of 8$'
out_has "info slot 0 cost" '^  slot 0: +Argon2id, [0-9]+ pass(es)?, 8 MiB$'
out_has "info: no recovery key yet" '^recovery: +none$'
uuid=$(sed -n 's/^uuid: *//p' "$tmp/out")

mkdir emptydir
ok "init in an existing empty directory" "$kt" init "${KDF[@]}" --cipher speck64-xts \
	--sector-size 512 --name-max 100 --new-passfile p1 emptydir
ok "info of it" "$kt" info emptydir
out_has "speck64-xts" '^cipher: +speck64-xts$'
out_has "sector size 512" '^sector size: +512$'
out_has "name_max 100" '^names: +cts, name_max 100$'
for c in speck128-xts aes256-xts sm4-xts camellia256-xts adiantum; do
	ok "init --cipher $c" "$kt" init "${KDF[@]}" --cipher "$c" --sector-size 65536 --passfile p1 "v-$c"
	ok "info $c" "$kt" info "v-$c"
	out_has "cipher $c" "^cipher: +$c\$"
	ok "passphrase opens $c volume" "$kt" test-passphrase --passfile p1 "v-$c"
done
# no AES instructions (x86: hidden by the crypto policy): adiantum or
# speck128-xts, whichever init measured faster, with both figures shown
if [ "$(uname -m)" = x86_64 ]; then
	CLOAKFS_CRYPTO=nocpu:aesni,nocpu:vaes ok "init without AES instructions" \
		"$kt" init "${KDF[@]}" --passfile p1 v-noaes
	out_has "no-AES default names both figures" \
		'^cipher: +(adiantum|speck128-xts) \(default: no AES instructions; 4 KiB sectors: adiantum [0-9]+ MB/s, speck128-xts [0-9]+ MB/s\)$'
	checks=$((checks + 1))
	awk '/^cipher:/ { gsub(/[(),;:]/, " "); for (i = 1; i <= NF; i++) {
		if ($i == "adiantum" && $(i + 1) ~ /^[0-9]+$/) a = $(i + 1)
		if ($i == "speck128-xts" && $(i + 1) ~ /^[0-9]+$/) s = $(i + 1) }
		pick = $2 } END { exit !(a != "" && s != "" &&
		((pick == "adiantum") == (a + 0 > s + 0) || a == s)) }' "$tmp/out" ||
		fail "no-AES default is not the faster one: $(grep '^cipher:' "$tmp/out")"
fi
# names modes (docs/format.md 7.2): recorded in the config with the
# feature older cloakfs refuses; hctr2 over every 128-bit block cipher
for m in hctr2 adiantum; do
	ok "init --names $m" "$kt" init "${KDF[@]}" --cipher aes256-xts --names "$m" --passfile p1 "v-names-$m"
	out_has "init prints names $m" "^names: +$m\$"
	ok "info names $m" "$kt" info "v-names-$m"
	out_has "info names $m" "^names: +$m, name_max 255\$"
	out_has "info features of $m" '^features: +0x2$'
	check "config names $m" "$(grep -c "^names = \"$m\";\$" "v-names-$m/cloakfs.conf")" = 1
	check "config feature wide-names ($m)" "$(grep -c '^features = \[ "wide-names" \];$' "v-names-$m/cloakfs.conf")" = 1
	ok "passphrase opens the $m-names volume" "$kt" test-passphrase --passfile p1 "v-names-$m"
done
ok "init --names adiantum on speck64-xts" "$kt" init "${KDF[@]}" --cipher speck64-xts --names adiantum --passfile p1 v-names-s64
ok "init --names cts" "$kt" init "${KDF[@]}" --names cts --passfile p1 v-names-cts
out_has "names cts" '^names: +cts$'
for c in speck128-xts speck64-xts; do
	fails 3 "--names hctr2 does not fit --cipher $c: hctr2 names are defined over the 128-bit block ciphers AES, SM4 and Camellia" \
		"hctr2 refused with $c" "$kt" init "${KDF[@]}" --cipher "$c" --names hctr2 --passfile p1 v
done
for c in sm4-xts camellia256-xts; do
	ok "init --names hctr2 on $c" "$kt" init "${KDF[@]}" --cipher "$c" --names hctr2 --passfile p1 "v-h-$c"
	out_has "init prints names hctr2 on $c" '^names: +hctr2$'
	check "config names hctr2 on $c" "$(grep -c '^names = "hctr2";$' "v-h-$c/cloakfs.conf")" = 1
	ok "passphrase opens the hctr2-names $c volume" "$kt" test-passphrase --passfile p1 "v-h-$c"
done
fails 3 "unknown names mode 'eme' \(one of cts, hctr2, adiantum\)" "unknown names mode" \
	"$kt" init "${KDF[@]}" --names eme --passfile p1 v
fails 3 "needs an argument" "--names without value" "$kt" init v --names
check "refused names made nothing" ! -e v
ok "help init names" "$kt" help init
out_has "help init lists --names" '^  --names MODE'
mkdir full; touch full/x
fails 5 "full: directory not empty" "init refuses a non-empty directory" "$kt" init "${KDF[@]}" --passfile p1 full
check "non-empty directory untouched" "$(ls -A full)" = x
fails 5 "vol: already a cloakfs volume" "init refuses a volume" "$kt" init "${KDF[@]}" --passfile p1 vol
touch afile
fails 5 "afile: exists and is not a directory" "init refuses a file" "$kt" init "${KDF[@]}" --passfile p1 afile
fails 6 "empty: empty passphrase" "init with an empty passphrase" "$kt" init "${KDF[@]}" --passfile empty v
check "no directory after a failed init" ! -e v
fails 6 "standard input: no passphrase" "init with no input" "$kt" init "${KDF[@]}" v </dev/null
check "no directory after init without input" ! -e v
fails 4 "nothere: No such file" "info of a missing directory" "$kt" info nothere
mkdir emptydir2
fails 4 "emptydir2: not a cloakfs volume \\(no cloakfs.conf\\)" "info of a plain directory" "$kt" info emptydir2

# ---- passphrase sources --------------------------------------------------
ok "--passfile" "$kt" test-passphrase --passfile p1 vol
out_has "slot named" '^vol: the passphrase opens keyslot 0$'
ok "--extpass" "$kt" test-passphrase --extpass "printf 'first pass\n'" vol
ok "--extpass without newline" "$kt" test-passphrase --extpass "printf 'first pass'" vol
# a passphrase file open to others, or owned by another user: used, with a
# warning naming the file (docs/security.md); a private one: no word
ok "--passfile 0600: quiet" "$kt" test-passphrase --passfile p1 vol
check "--passfile 0600: nothing on stderr" ! -s "$tmp/err"
cp p1 open-p1 && chmod 644 open-p1
ok "--passfile 0644: still opens" "$kt" test-passphrase --passfile open-p1 vol
checks=$((checks + 1))
grep -q 'open-p1: passphrase file is open to group or others (mode 0644)' "$tmp/err" ||
	fail "--passfile 0644: no warning naming the file and mode"
ok "--new-passfile 0644 warns too" "$kt" add-passphrase --passfile p1 --new-passfile open-p1 vol
checks=$((checks + 1))
grep -q 'open-p1: passphrase file is open to group or others' "$tmp/err" ||
	fail "--new-passfile 0644: no warning"
ok "remove that slot again" "$kt" remove-slot --passfile p1 vol 1
if [ "$(id -u)" -eq 0 ]; then
	chmod 600 open-p1 && chown 65534 open-p1
	ok "--passfile of another user: still opens" "$kt" test-passphrase --passfile open-p1 vol
	checks=$((checks + 1))
	grep -q 'open-p1: passphrase file belongs to uid 65534, not to you' "$tmp/err" ||
		fail "--passfile of another user: no warning"
fi
ok "stdin" "$kt" test-passphrase vol <p1
ok "stdin without newline" bash -c "printf 'first pass' | '$kt' test-passphrase vol"
fails 2 '^cloakfs-keytool: vol: wrong passphrase \(no keyslot opened\)$' \
	"wrong passphrase" "$kt" test-passphrase --passfile bad vol
fails 2 'wrong passphrase' "only the trailing newline is stripped" \
	bash -c "printf 'first pass\r\n' | '$kt' test-passphrase vol"
fails 2 'wrong passphrase' "leading space kept" \
	bash -c "printf ' first pass\n' | '$kt' test-passphrase vol"
fails 6 'missing: No such file' "missing passfile" "$kt" test-passphrase --passfile missing vol
fails 6 'empty: empty passphrase' "empty passfile" "$kt" test-passphrase --passfile empty vol
fails 6 'extpass command "exit 3": exited with status 3' "extpass failing" \
	"$kt" test-passphrase --extpass 'exit 3' vol
fails 6 'extpass command "echo": empty passphrase' "extpass printing nothing" \
	"$kt" test-passphrase --extpass 'echo' vol
fails 6 'killed by signal' "extpass killed" "$kt" test-passphrase --extpass 'kill -9 $$' vol
fails 6 'standard input: no passphrase \(end of input\)' "stdin at EOF" \
	"$kt" test-passphrase vol </dev/null
fails 6 'longer than 4096 bytes' "overlong passphrase" \
	bash -c "head -c 5000 /dev/zero | tr '\0' a | '$kt' test-passphrase vol"
fails 6 'contains a NUL byte' "NUL in passphrase" \
	bash -c "printf 'a\0b\n' | '$kt' test-passphrase vol"
fails 3 'not both' "--passfile and --extpass" "$kt" test-passphrase --passfile p1 --extpass x vol

# ---- the terminal: prompts with echo off, a new passphrase asked twice ----
# tty_session COMMAND ANSWER...: run COMMAND on a pseudo-terminal (script(1))
# and type each ANSWER once its prompt is shown; $tmp/tty gets the screen
tty_session() {
	local cmd=$1 n=0 i rc; shift
	rm -f "$tmp/fifo" "$tmp/tty"; mkfifo "$tmp/fifo"; : >"$tmp/tty"
	script -qec "$cmd" /dev/null <"$tmp/fifo" >"$tmp/tty" 2>&1 &
	local pid=$!
	exec 9>"$tmp/fifo"
	for answer in "$@"; do
		n=$((n + 1))
		for i in $(seq 200); do
			[ "$(grep -oE 'Passphrase for|New passphrase for|Repeat to confirm|Make a recovery key' "$tmp/tty" | wc -l)" -ge "$n" ] && break
			sleep 0.05
		done
		printf '%s\n' "$answer" >&9
	done
	wait "$pid"; rc=$?
	exec 9>&-
	return $rc
}
if command -v script >/dev/null; then
	checks=$((checks + 1))
	tty_session "'$kt' init ${KDF[*]} ttyvol" 'tty secret' 'tty secret' y ||
		{ fail "init on a terminal"; cat "$tmp/tty"; }
	# on a terminal init offers a recovery key, and shows it when taken
	checks=$((checks + 1))
	grep -q 'Make a recovery key to write down' "$tmp/tty" &&
		grep -A3 'Recovery key for ttyvol:' "$tmp/tty" |
		grep -qE '^    ([0-9A-Z]{5}-){3}[0-9A-Z]{5}' ||
		{ fail "init on a terminal: no recovery key offered and shown"; cat "$tmp/tty"; }
	checks=$((checks + 1))
	grep -q 'New passphrase for ttyvol: ' "$tmp/tty" && grep -q 'Repeat to confirm: ' "$tmp/tty" ||
		fail "init on a terminal: prompts missing"
	checks=$((checks + 1))
	! grep -q 'tty secret' "$tmp/tty" || fail "init on a terminal: the passphrase was echoed"
	ok "terminal passphrase opens" bash -c "echo 'tty secret' | '$kt' test-passphrase ttyvol"
	checks=$((checks + 1))
	tty_session "'$kt' init ${KDF[*]} ttyvol2" 'one' 'two'
	[ $? -eq 6 ] && grep -q 'terminal: passphrases do not match' "$tmp/tty" ||
		{ fail "mismatched terminal passphrases"; cat "$tmp/tty"; }
	check "no volume after a mismatch" ! -e ttyvol2
	checks=$((checks + 1))
	tty_session "'$kt' add-passphrase ttyvol" 'tty secret' 'tty two' 'tty two' ||
		{ fail "add-passphrase on a terminal"; cat "$tmp/tty"; }
	checks=$((checks + 1))
	grep -q 'Passphrase for ttyvol: ' "$tmp/tty" || fail "add-passphrase: no prompt for the existing passphrase"
	checks=$((checks + 1))
	tty_session "'$kt' test-passphrase ttyvol" 'tty two' &&
		grep -q 'opens keyslot 1' "$tmp/tty" || { fail "test-passphrase on a terminal"; cat "$tmp/tty"; }
	checks=$((checks + 1))
	tty_session "'$kt' test-passphrase ttyvol" 'nope'
	[ $? -eq 2 ] || { fail "wrong passphrase on a terminal"; cat "$tmp/tty"; }
else
	echo "script(1) not found: terminal prompts not tested"
fi

# ---- add-passphrase ------------------------------------------------------
cp -f "$conf" before  # -f: the last copy is read-only, as the config
fails 2 'vol: wrong passphrase \(no keyslot opened\)' "add with a wrong passphrase" \
	"$kt" add-passphrase --passfile bad --new-passfile p2 vol
same_file "config untouched after a wrong passphrase" "$conf" before
no_temp "no temp file" vol
fails 6 'empty: empty passphrase' "add with an empty new passphrase" \
	"$kt" add-passphrase --passfile p1 --new-passfile empty vol
same_file "config untouched after an empty new passphrase" "$conf" before
fails 6 'standard input: no passphrase' "add with stdin ending after the first line" \
	"$kt" add-passphrase vol <p1
same_file "config untouched after a missing new passphrase" "$conf" before
ok "add from stdin (existing, then new)" bash -c "cat p1 p2 | '$kt' add-passphrase vol"
out_has "add says which slot" '^vol: added keyslot 1 \(2 in use\)$'
ok "add with --passfile/--new-passfile" "$kt" add-passphrase --passfile p2 --new-passfile p3 vol
ok "add with --extpass/--new-extpass and a new cost" "$kt" add-passphrase \
	--extpass 'cat p3' --new-extpass 'cat p4' --kdf-time 0.02 --kdf-memory 16 vol
ok "info" "$kt" info vol
out_has "4 slots" '^keyslots: +4 of 8$'
out_has "slot 1 reuses the cost" '^  slot 1: +Argon2id, [0-9]+ pass(es)?, 8 MiB$'
out_has "slot 3 has the new cost" '^  slot 3: +Argon2id, [0-9]+ pass(es)?, 16 MiB$'
n=0
for p in p1 p2 p3 p4; do
	ok "$p opens" "$kt" test-passphrase --passfile "$p" vol
	out_has "$p opens slot $n" "keyslot $n\$"
	n=$((n + 1))
done
ok "--slot 2 with its passphrase" "$kt" test-passphrase --slot 2 --passfile p3 vol
fails 2 'wrong passphrase for keyslot 2' "--slot 2 with another slot's passphrase" \
	"$kt" test-passphrase --slot 2 --passfile p1 vol
fails 3 'vol: keyslot 5 is not in use \(used: 0, 1, 2, 3\)' "--slot beyond the slots" \
	"$kt" test-passphrase --slot 5 --passfile p1 vol
fails 3 'slot number from 0 to 7' "--slot 8" "$kt" test-passphrase --slot 8 --passfile p1 vol

# ---- change-passphrase ---------------------------------------------------
cp -f "$conf" before  # -f: the last copy is read-only, as the config
fails 2 'vol: wrong passphrase' "change with a wrong old passphrase" \
	"$kt" change-passphrase --passfile bad --new-passfile p1 vol
same_file "config byte-identical after a failed change" "$conf" before
fails 2 'wrong passphrase for keyslot 1' "change --slot 1 with slot 0's passphrase" \
	"$kt" change-passphrase --slot 1 --passfile p1 --new-passfile bad vol
same_file "config byte-identical after a failed --slot change" "$conf" before
fails 3 'keyslot 6 is not in use' "change --slot 6" "$kt" change-passphrase --slot 6 --passfile p1 --new-passfile bad vol
same_file "config byte-identical after a bad --slot" "$conf" before
no_temp "no temp file after failed changes" vol
printf 'changed pass\n' >pc
ok "change slot 1 (the slot that opens)" "$kt" change-passphrase --passfile p2 --new-passfile pc vol
out_has "change names the slot" '^vol: changed the passphrase of keyslot 1$'
fails 2 'wrong passphrase' "old passphrase no longer opens" "$kt" test-passphrase --passfile p2 vol
ok "new passphrase opens" "$kt" test-passphrase --passfile pc vol
out_has "in the same slot" 'keyslot 1$'
ok "the others still open" "$kt" test-passphrase --passfile p4 vol
out_has "slot 3 kept" 'keyslot 3$'
ok "change --slot 2 from stdin" bash -c "printf 'third pass\nnew third\n' | '$kt' change-passphrase --slot 2 vol"
ok "changed slot 2 opens" bash -c "echo 'new third' | '$kt' test-passphrase vol"
out_has "as slot 2" 'keyslot 2$'
ok "change with a new cost" "$kt" change-passphrase --passfile pc --new-passfile p2 --kdf-memory 16 --kdf-time 0.02 vol
ok "info" "$kt" info vol
out_has "slot 1 has the new cost" '^  slot 1: +Argon2id, [0-9]+ pass(es)?, 16 MiB$'
out_has "still 4 slots" '^keyslots: +4 of 8$'

# ---- remove-slot ---------------------------------------------------------
cp -f "$conf" before  # -f: the last copy is read-only, as the config
fails 2 'vol: wrong passphrase' "remove with a wrong passphrase" "$kt" remove-slot --passfile bad vol 0
same_file "config untouched after a failed remove" "$conf" before
fails 3 "'x' is not a slot number" "remove-slot x" "$kt" remove-slot --passfile p1 vol x
fails 3 'keyslot 4 is not in use' "remove-slot 4 of 4" "$kt" remove-slot --passfile p1 vol 4
same_file "config untouched after bad slot numbers" "$conf" before
ok "remove slot 1 with slot 0's passphrase" "$kt" remove-slot --passfile p1 vol 1
out_has "remove says the others keep their numbers" '^vol: removed keyslot 1 \(3 left; the others keep their numbers\)$'
fails 2 'wrong passphrase' "removed passphrase no longer opens" "$kt" test-passphrase --passfile p2 vol
ok "slot 3 keeps its number" "$kt" test-passphrase --passfile p4 vol
out_has "still slot 3" 'keyslot 3$'
ok "info with a free slot" "$kt" info vol
out_has "three in use" '^keyslots: +3 of 8$'
check "info lists slots 0, 2, 3" "$(grep -oE '^  slot [0-9]+' "$tmp/out" | tr -d ' ' | tr '\n' ,)" = "slot0,slot2,slot3,"
fails 3 'keyslot 1 is not in use \(used: 0, 2, 3\)' "remove the free slot 1 again" \
	"$kt" remove-slot --passfile p1 vol 1
fails 3 'keyslot 1 is not in use' "test --slot on the free slot" \
	"$kt" test-passphrase --slot 1 --passfile p1 vol
# the issue's script: remove slot 0, then slot 2; slot 3 must survive
ok "remove slot 0 with its own passphrase" "$kt" remove-slot --passfile p1 vol 0
ok "remove slot 2 from stdin" bash -c "echo 'new third' | '$kt' remove-slot vol 2"
ok "slot 3's passphrase still opens" "$kt" test-passphrase --passfile p4 vol
out_has "as slot 3" 'keyslot 3$'
ok "info" "$kt" info vol
out_has "one slot left" '^keyslots: +1 of 8$'
out_has "it is slot 3" '^  slot 3: '
check "the config keeps the gap as empty groups" "$(grep -c '^  { },\?$' "$conf")" = 3
cp -f "$conf" before  # -f: the last copy is read-only, as the config
fails 5 'vol: keyslot 3 is the last one' "the last slot is never removed" \
	"$kt" remove-slot --passfile p4 vol 3
fails 5 'vol: keyslot 3 is the last one' "remove-passphrase refuses the last slot" \
	"$kt" remove-passphrase --passfile p4 vol
same_file "config untouched after refusing the last slot" "$conf" before
ok "the last passphrase still opens" "$kt" test-passphrase --passfile p4 vol

# ---- add-passphrase reuses the lowest free slot; remove-passphrase -------
ok "add reuses slot 0" "$kt" add-passphrase --passfile p4 --new-passfile p1 vol
out_has "as slot 0" '^vol: added keyslot 0 \(2 in use\)$'
ok "add reuses slot 1" "$kt" add-passphrase --passfile p4 --new-passfile p2 vol
out_has "as slot 1" '^vol: added keyslot 1 \(3 in use\)$'
cp -f "$conf" before  # -f: the last copy is read-only, as the config
fails 2 'vol: wrong passphrase' "remove-passphrase with a passphrase no slot has" \
	"$kt" remove-passphrase --passfile bad vol
same_file "config untouched after a wrong passphrase" "$conf" before
ok "remove-passphrase p1" "$kt" remove-passphrase --passfile p1 vol
out_has "removes the slot it opens" '^vol: removed keyslot 0 \(2 left; the others keep their numbers\)$'
fails 2 'wrong passphrase' "the removed passphrase no longer opens" "$kt" test-passphrase --passfile p1 vol
ok "slot 1 kept" "$kt" test-passphrase --passfile p2 vol
out_has "as slot 1" 'keyslot 1$'
ok "slot 3 kept" "$kt" test-passphrase --passfile p4 vol
out_has "as slot 3" 'keyslot 3$'
ok "remove-passphrase from stdin" bash -c "echo 'second pass' | '$kt' remove-passphrase vol"
out_has "slot 1 removed" '^vol: removed keyslot 1 '
ok "info" "$kt" info vol
out_has "slot 3 alone" '^keyslots: +1 of 8$'

# ---- eight slots at most -------------------------------------------------
for i in 1 2 3 4 5 6 7; do
	echo "slot $i" >"s$i"
	ok "add slot $i" "$kt" add-passphrase --passfile p4 --new-passfile "s$i" vol
done
ok "info" "$kt" info vol
out_has "eight slots" '^keyslots: +8 of 8$'
cp -f "$conf" before  # -f: the last copy is read-only, as the config
fails 5 'vol: all 8 keyslots are in use' "a ninth slot is refused" \
	"$kt" add-passphrase --passfile p4 --new-passfile p1 vol
same_file "config untouched after refusing a ninth slot" "$conf" before
ok "slot 7 opens" "$kt" test-passphrase --passfile s7 vol
out_has "as slot 7" 'keyslot 7$'

# ---- concurrent rewrites: the volume lock keeps every change -------------
ok "init cvol" "$kt" init "${KDF[@]}" --passfile p1 cvol
pids=()
for i in 1 2 3 4; do
	echo "parallel $i" >"par$i"
	"$kt" add-passphrase --passfile p1 --new-passfile "par$i" cvol >/dev/null 2>&1 &
	pids+=($!)
done
for pid in "${pids[@]}"; do
	checks=$((checks + 1)); wait "$pid" || fail "parallel add-passphrase $pid failed"
done
ok "info cvol" "$kt" info cvol
out_has "all four parallel additions kept" '^keyslots: +5 of 8$'
for i in 1 2 3 4; do
	ok "parallel passphrase $i opens" "$kt" test-passphrase --passfile "par$i" cvol
done

# ---- backup-header / restore-header -------------------------------------
ok "backup" "$kt" backup-header vol vol.bak
out_has "backup names volume and file" "^vol: config backed up to vol.bak \(volume $uuid\)\$"
same_file "backup is the config" vol.bak "$conf"
check "backup mode 0400" "$(stat -c %a vol.bak)" = 400
fails 5 'vol.bak: exists' "backup refuses to overwrite" "$kt" backup-header vol vol.bak
ok "backup --force" "$kt" backup-header --force vol vol.bak
fails 5 'is a directory' "backup onto a directory" "$kt" backup-header --force vol full
fails 4 'full: not a cloakfs volume' "backup of a non-volume" "$kt" backup-header full x.bak
check "no backup of a non-volume" ! -e x.bak
ok "remove slot 7" "$kt" remove-slot --passfile p4 vol 7
ok "change slot 0" "$kt" change-passphrase --passfile p4 --new-passfile p1 vol
fails 2 'wrong passphrase' "changed-away passphrase fails" "$kt" test-passphrase --passfile p4 vol
ok "restore" "$kt" restore-header vol.bak vol
out_has "restore names both" "^vol: config restored from vol.bak \(volume $uuid\)\$"
same_file "restored config is the backup" "$conf" vol.bak
ok "old passphrase opens again" "$kt" test-passphrase --passfile p4 vol
ok "removed slot opens again" "$kt" test-passphrase --passfile s7 vol
fails 2 'wrong passphrase' "passphrase set after the backup no longer opens" \
	"$kt" test-passphrase --passfile p1 vol
cp -f "$conf" before  # -f: the last copy is read-only, as the config
fails 5 "vol.bak: a backup of another volume: the config is of volume $uuid .*, the directory holds volume" \
	"restore of another volume's backup" "$kt" restore-header vol.bak emptydir
ok "other volume's config untouched" "$kt" test-passphrase --passfile p1 emptydir
ok "restore --force" "$kt" restore-header --force vol.bak emptydir
same_file "forced restore wrote the backup" emptydir/cloakfs.conf vol.bak
rm -f "$conf"
fails 4 'not a cloakfs volume' "volume without config" "$kt" info vol
ok "restore over a missing config" "$kt" restore-header vol.bak vol
ok "volume opens again" "$kt" test-passphrase --passfile p4 vol
chmod u+w "$conf"; echo garbage >"$conf"
ok "restore over a garbage config" "$kt" restore-header vol.bak vol
same_file "restored over garbage" "$conf" vol.bak
echo 'version = 1;' >short.bak
fails 4 'short.bak' "restore of an incomplete backup" "$kt" restore-header short.bak vol
fails 1 'missing.bak: No such file' "restore of a missing file" "$kt" restore-header missing.bak vol
fails 1 'nodir: No such file' "restore into a missing directory" "$kt" restore-header vol.bak nodir
same_file "config untouched by failed restores" "$conf" vol.bak
no_temp "no temp file after everything" vol

# ---- --config FILE: the config outside the (synced) cipherdir ------------
mkdir private
ok "init --config" "$kt" init "${KDF[@]}" --passfile p1 --config private/ext.conf evol
check "the config is where --config says" -f private/ext.conf
check "and not in the cipherdir" ! -e evol/cloakfs.conf
check "the cipherdir has the root nonce" -f evol/.cloakfs.dir
fails 4 'evol: not a cloakfs volume' "info without --config" "$kt" info evol
ok "info --config" "$kt" info --config private/ext.conf evol
out_has "info names the config" '^config: +private/ext.conf$'
fails 4 'config missing.conf: no such file' "info --config with a missing file" \
	"$kt" info --config missing.conf evol
ok "add-passphrase --config" "$kt" add-passphrase --config private/ext.conf --passfile p1 --new-passfile p2 evol
ok "test-passphrase --config" "$kt" test-passphrase --config private/ext.conf --passfile p2 evol
out_has "the added slot" 'keyslot 1$'
ok "remove-passphrase --config" "$kt" remove-passphrase --config private/ext.conf --passfile p1 evol
ok "backup-header --config" "$kt" backup-header --config private/ext.conf evol ext.bak
same_file "backup of the external config" ext.bak private/ext.conf
check "still no config in the cipherdir" ! -e evol/cloakfs.conf
fails 5 'private/ext.conf: exists' "init --config over an existing config" \
	"$kt" init "${KDF[@]}" --passfile p1 --config private/ext.conf evol2
check "no volume made beside it" ! -e evol2/.cloakfs.dir
fails 3 'option --config does not apply' "status --config" "$kt" status --config x

finish test_keytool
