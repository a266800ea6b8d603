#!/bin/bash
# cloakfs-enc command line and crypto policy: known answers through the
# CLI, every error class with one clear line and a non-zero exit, and
# the policy sources (CLOAKFS_CRYPTO, config file) pinning, disabling and
# allowing drivers. Usage: test_enc.sh PATH-TO-cloakfs-enc
set -u
enc=${1:?usage: test_enc.sh cloakfs-enc}
checks=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CLOAKFS_CRYPTO_CONFIG=""   # ignore the machine's config files
unset CLOAKFS_CRYPTO

ok() { # ok DESCRIPTION COMMAND...: command must succeed
	local what=$1; shift
	checks=$((checks + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -ne 0 ]; then
		failed=$((failed + 1)); echo "FAIL: $what (exit $rc)"; cat "$tmp/err"
	fi
}
fails() { # fails DESCRIPTION PATTERN COMMAND...: non-zero exit, one stderr line matching
	local what=$1 pat=$2; shift 2
	checks=$((checks + 1))
	if "$@" >"$tmp/out" 2>"$tmp/err"; then
		failed=$((failed + 1)); echo "FAIL: $what: succeeded"; return
	fi
	if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qE -- "$pat" "$tmp/err"; then
		failed=$((failed + 1)); echo "FAIL: $what: stderr was:"; cat "$tmp/err"
	fi
}
same() { # same DESCRIPTION EXPECTED-HEX: compare $tmp/out
	checks=$((checks + 1))
	local got; got=$(od -An -tx1 -v "$tmp/out" | tr -d ' \n')
	if [ "$got" != "$2" ]; then
		failed=$((failed + 1)); echo "FAIL: $1: got $got want $2"
	fi
}
hex2bin() { echo -n "$1" | xxd -r -p; }

# --help, --list
ok "--help" "$enc" --help
ok "--list" "$enc" --list
checks=$((checks + 1))
if ! grep -qE '^xts\(speck128\) xts-speck128-generic 100 ct selftest=passed$' "$tmp/out"; then
	failed=$((failed + 1)); echo "FAIL: --list lacks the xts-speck128-generic line"
fi
checks=$((checks + 1))
if awk 'NF < 5 || $3 !~ /^-?[0-9]+$/ || ($4 != "ct" && $4 != "variable-time") { bad=1 } END { exit !bad }' "$tmp/out"; then
	failed=$((failed + 1)); echo "FAIL: --list line not ALG DRIVER PRIORITY flags"
fi

# known answers through the CLI: FIPS-197 C.3 and IEEE 1619 vector 10's key
hex2bin 00112233445566778899aabbccddeeff >"$tmp/pt"
ok "aes-256 ecb" "$enc" --alg 'ecb(aes)' --key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f --encrypt <"$tmp/pt"
same "FIPS-197 C.3" 8ea2b7ca516745bfeafc49904b496089
# SHA-512("abc"), FIPS 180-4 example
printf abc >"$tmp/abc"
ok "sha512" "$enc" --alg sha512 <"$tmp/abc"
same "sha512(abc)" ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f
# GHASH(H, {}, C) of the GCM specification's test case 2 (C, then the
# length block), and POLYVAL of RFC 8452 appendix A; keyed hashes refuse
# to run without a key
hex2bin 0388dace60b6a392f328c2b971b2fe7800000000000000000000000000000080 >"$tmp/gcm2"
ok "ghash" "$enc" --alg ghash --key 66e94bd4ef8a2c3b884cfa59ca342b2e <"$tmp/gcm2"
same "GCM test case 2 GHASH" f38cbb1ad69223dcc3457ae5b6b0f885
hex2bin 4f4f95668c83dfb6401762bb2d01a262d1a24ddd2721d006bbe45f20d3c9f362 >"$tmp/pv"
ok "polyval" "$enc" --alg polyval --key 25629347589242761d31f826ba4b757b <"$tmp/pv"
same "RFC 8452 appendix A POLYVAL" f7a3b47b846119fae5b7866cf5e5b77e
# gcm(aes): the GCM specification's test case 16 (AES-256, 20-byte AAD,
# 60 bytes), ciphertext || tag; listed by --list
hex2bin d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39 >"$tmp/gcmp"
ok "gcm(aes)" "$enc" --alg 'gcm(aes)' --key feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308 \
	--iv cafebabefacedbaddecaf888 --aad feedfacedeadbeeffeedfacedeadbeefabaddad2 --encrypt <"$tmp/gcmp"
same "GCM test case 16" 522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f66276fc6ece0f4e1768cddf8853bb2d551b
"$enc" --list >"$tmp/list"
checks=$((checks + 1))
grep -qE '^gcm\(aes\) gcm-aes-generic-ghash-generic 100 ct selftest=passed$' "$tmp/list" ||
	{ failed=$((failed + 1)); echo "FAIL: --list lacks gcm-aes-generic-ghash-generic"; }
fails "ghash without a key" "needs --key" "$enc" --alg ghash <"$tmp/pv"
fails "ghash with a 15-byte key" "key rejected" "$enc" --alg ghash --key 66e94bd4ef8a2c3b884cfa59ca342b <"$tmp/pv"
# round trips of every mode with odd lengths
head -c 1000 /dev/urandom >"$tmp/rand"
for spec in 'xts(aes):64:16' 'xts(speck128):64:16' 'xts(speck64):32:8' 'xts(sm4):32:16' \
	    'ctr(aes):32:16' 'cfb(sm4):16:16' 'cts(cbc(aes)):16:16' 'chacha20:32:16'; do
	alg=${spec%%:*}; rest=${spec#*:}; klen=${rest%%:*}; ivlen=${rest#*:}
	key=$(head -c "$klen" /dev/urandom | xxd -p | tr -d '\n')
	iv=$(head -c "$ivlen" /dev/urandom | xxd -p | tr -d '\n')
	ok "$alg encrypt" "$enc" --alg "$alg" --key "$key" --iv "$iv" --encrypt <"$tmp/rand"
	mv "$tmp/out" "$tmp/ct"
	ok "$alg decrypt" "$enc" --alg "$alg" --key "$key" --iv "$iv" --decrypt <"$tmp/ct"
	checks=$((checks + 1))
	cmp -s "$tmp/out" "$tmp/rand" || { failed=$((failed + 1)); echo "FAIL: $alg round trip"; }
done
# AEAD: ciphertext || tag, a flipped tag fails with no output
k=$(printf '%064d' 0); n=000000000000000000000001
ok "aead encrypt" "$enc" --alg 'rfc7539(chacha20,poly1305)' --key "$k" --iv "$n" --aad 0102 --encrypt <"$tmp/rand"
mv "$tmp/out" "$tmp/sealed"
checks=$((checks + 1))
[ "$(stat -c %s "$tmp/sealed")" = 1016 ] || { failed=$((failed + 1)); echo "FAIL: aead output not len+16"; }
ok "aead decrypt" "$enc" --alg 'rfc7539(chacha20,poly1305)' --key "$k" --iv "$n" --aad 0102 --decrypt <"$tmp/sealed"
cmp -s "$tmp/out" "$tmp/rand" || { failed=$((failed + 1)); echo "FAIL: aead round trip"; }
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[-1]^=1; open(sys.argv[2],"wb").write(b)' "$tmp/sealed" "$tmp/forged"
fails "forged tag" "authentication failed" "$enc" --alg 'rfc7539(chacha20,poly1305)' --key "$k" --iv "$n" --aad 0102 --decrypt <"$tmp/forged"
checks=$((checks + 1))
[ -s "$tmp/out" ] && { failed=$((failed + 1)); echo "FAIL: forged tag produced output"; }

# errors: one line each, non-zero
k64=$(printf '%0128d' 0); iv16=$(printf '%032d' 0)
fails "unknown alg" "unknown algorithm 'xts\(nope\)'" "$enc" --alg 'xts(nope)' --key 00 --encrypt </dev/null
fails "unknown driver" "unknown driver 'nope-driver'" "$enc" --alg 'xts(aes)' --driver nope-driver --key "$k64" --iv "$iv16" --encrypt </dev/null
fails "driver of another alg" "implements" "$enc" --alg 'xts(aes)' --driver xts-sm4-generic --key "$k64" --iv "$iv16" --encrypt </dev/null
fails "bad key length" "key is 3 bytes; valid: 32, 48, 64 bytes" "$enc" --alg 'xts(aes)' --key 000000 --iv "$iv16" --encrypt </dev/null
fails "bad iv length" "must be 16 bytes" "$enc" --alg 'xts(aes)' --key "$k64" --iv 00 --encrypt </dev/null
fails "bad hex" "not a hex string" "$enc" --alg 'xts(aes)' --key "zz$k64" --iv "$iv16" --encrypt </dev/null
fails "odd hex" "odd number" "$enc" --alg 'xts(aes)' --key 0 --iv "$iv16" --encrypt </dev/null
printf 'short' >"$tmp/short"
fails "xts short input" "needs at least 16" "$enc" --alg 'xts(aes)' --key "$k64" --iv "$iv16" --encrypt <"$tmp/short"
fails "cbc partial block" "multiple of the 16-byte block" "$enc" --alg 'cbc(aes)' --key "${k64:0:64}" --iv "$iv16" --encrypt <"$tmp/short"
fails "no direction" "--encrypt or --decrypt is required" "$enc" --alg 'xts(aes)' --key "$k64" --iv "$iv16" </dev/null
# a single-block cipher is not a mode: a usage error (exit 3), not an abort
# (the crypto layer aborts on an operation of another type; fuzz_enc found it)
usage_error() { # usage_error DESCRIPTION PATTERN COMMAND...: exit 3, one line
	local what=$1 pat=$2; shift 2
	checks=$((checks + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -ne 3 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qE -- "$pat" "$tmp/err"; then
		failed=$((failed + 1)); echo "FAIL: $what: exit $rc (want 3), stderr was:"; cat "$tmp/err"
	fi
}
head -c 32 /dev/zero >"$tmp/zero32"
usage_error "bare block cipher by name" "aes is a single-block cipher, not a mode.*xts\(aes\)" \
	"$enc" -a aes -e -k "${k64:0:64}" <"$tmp/zero32"
usage_error "bare block cipher by driver" "aes is a single-block cipher, not a mode" \
	"$enc" -d aes-generic -e -k "${k64:0:64}" <"$tmp/zero32"
usage_error "bare block cipher, decrypt" "speck128 is a single-block cipher" \
	"$enc" -a speck128 -D -k "${k64:0:64}" <"$tmp/zero32"
fails "bad option" "unknown option '--bogus'" "$enc" --bogus
# policy: variable-time drivers are never picked unless allowed
"$enc" --list >"$tmp/list"
checks=$((checks + 1))
if ! CLOAKFS_CRYPTO=pin:xts-aes-table "$enc" --alg 'xts(aes)' --key "$k64" --iv "$iv16" --encrypt <"$tmp/rand" >"$tmp/a" 2>"$tmp/err"; then
	failed=$((failed + 1)); echo "FAIL: pin of variable-time driver"; cat "$tmp/err"
fi
ok "default xts(aes)" "$enc" --alg 'xts(aes)' --key "$k64" --iv "$iv16" --encrypt <"$tmp/rand"
checks=$((checks + 1)); cmp -s "$tmp/out" "$tmp/a" || { failed=$((failed + 1)); echo "FAIL: table and ct drivers disagree"; }
fails "disabled driver forced" "disabled by the crypto policy" env CLOAKFS_CRYPTO=disable:xts-aes-generic "$enc" --driver xts-aes-generic --key "$k64" --iv "$iv16" --encrypt </dev/null
fails "all disabled" "no usable driver" env CLOAKFS_CRYPTO='disable:xts-aes-*' "$enc" --alg 'xts(aes)' --key "$k64" --iv "$iv16" --encrypt </dev/null
fails "bad env item" "CLOAKFS_CRYPTO: unknown item 'bogus'" env CLOAKFS_CRYPTO=bogus "$enc" --list
fails "bad nocpu" "unknown CPU feature" env CLOAKFS_CRYPTO=nocpu:warp9 "$enc" --list
fails "pin unknown" "pin: unknown driver 'nope'" env CLOAKFS_CRYPTO=pin:nope "$enc" --list
# config file: syntax error and unknown setting name the file and line
# (a build without libconfig, CLOAKFS_TEST_NO_LIBCONFIG=1, refuses files)
if [ -n "${CLOAKFS_TEST_NO_LIBCONFIG:-}" ]; then
	printf 'allow_variable_time = true;\n' >"$tmp/good.conf"
	fails "config without libconfig" "no libconfig to read it" env CLOAKFS_CRYPTO_CONFIG="$tmp/good.conf" "$enc" --list
else
	printf 'allow_variable_time = true;\npin = [ "xts-aes-table" \n' >"$tmp/bad.conf"
	fails "config syntax" "bad.conf:[0-9]+: " env CLOAKFS_CRYPTO_CONFIG="$tmp/bad.conf" "$enc" --list
	printf 'allow_variable_time = true;\n\nfrobnicate = 1;\n' >"$tmp/bad2.conf"
	fails "config unknown" "bad2.conf:3: unknown setting 'frobnicate'" env CLOAKFS_CRYPTO_CONFIG="$tmp/bad2.conf" "$enc" --list
	printf 'generic_only = "yes";\n' >"$tmp/bad3.conf"
	fails "config type" "bad3.conf:1: 'generic_only' must be true or false" env CLOAKFS_CRYPTO_CONFIG="$tmp/bad3.conf" "$enc" --list
	# a good config: allow variable time -> the table driver (higher priority) wins
	printf 'allow_variable_time = true;\ndisable = [ "ecb-sm4-table" ];\npriority = ( { driver = "ecb-aes-table"; priority = 150; } );\n' >"$tmp/good.conf"
	ok "config allow vt" env CLOAKFS_CRYPTO_CONFIG="$tmp/good.conf" "$enc" --list
	checks=$((checks + 1))
	grep -q '^ecb(aes) ecb-aes-table 150 variable-time' "$tmp/out" || { failed=$((failed + 1)); echo "FAIL: priority override not shown"; }
	checks=$((checks + 1))
	grep -q '^ecb(sm4) ecb-sm4-table .* disabled' "$tmp/out" || { failed=$((failed + 1)); echo "FAIL: disable not shown"; }
fi
# generic-only disables everything that needs a CPU feature
ok "generic-only" env CLOAKFS_CRYPTO=generic-only "$enc" --list
checks=$((checks + 1))
if grep -v ' disabled' "$tmp/out" | awk '{print $2}' | grep -Eq -- '-(avx|aesni|vaes|gfni|neon|ce)'; then
	failed=$((failed + 1)); echo "FAIL: generic-only left a SIMD driver enabled"
fi

# --selftest: the Adiantum reference's vectors through the CLI, a line each
ok "--selftest adiantum" "$enc" --selftest 'adiantum(xchacha12,aes)' \
	--driver adiantum-xchacha12-generic-aes-generic-nhpoly1305-generic
checks=$((checks + 1))
if [ "$(grep -c '^ok adiantum(xchacha12,aes): google/adiantum .*, \(16\|31\|128\|512\|1536\|4096\) bytes$' "$tmp/out")" -ne 6 ] ||
   ! grep -q '^adiantum(xchacha12,aes) by adiantum-xchacha12-generic-aes-generic-nhpoly1305-generic: 6 passed, 0 skipped, 0 failed$' "$tmp/out"; then
	failed=$((failed + 1)); echo "FAIL: --selftest adiantum output:"; cat "$tmp/out"
fi
ok "--selftest nhpoly1305 (best driver)" "$enc" --selftest nhpoly1305
fails "--selftest unknown" "unknown algorithm 'nosuch'" "$enc" --selftest nosuch
fails "--selftest wrong driver" "'chacha20-generic' implements chacha20, not xchacha12" \
	"$enc" --selftest xchacha12 --driver chacha20-generic
fails "--selftest unknown driver" "unknown driver 'nosuch-generic'" \
	"$enc" --selftest xchacha12 --driver nosuch-generic
fails "--selftest with a key" "--selftest takes only --driver" "$enc" --selftest xchacha12 --key 00

echo "test_enc: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
