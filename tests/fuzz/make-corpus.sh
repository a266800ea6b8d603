#!/bin/bash
# Remake the fuzz targets' seed corpora in tests/fuzz/corpus/<target>/
# from real outputs:
#   fuzz_config        cloakfs-keytool init / add-passphrase at the lowest
#                      cost (1 MiB) with the target's passphrase, and
#                      configs at Argon2id's minimum cost (8 KiB) that the
#                      target writes itself (CLOAKFS_FUZZ_WRITE_SEEDS)
#   fuzz_header/names  the targets themselves write real files and
#                      encodings under their own keys
#   fuzz_daemon_frame  request streams built per docs/daemon-protocol.md
#   fuzz_enc           typical command lines, AEAD inputs made by cloakfs-enc
# Usage: tests/fuzz/make-corpus.sh NATIVE_BUILDDIR FUZZ_BUILDDIR
# (a normal build for the tools, the -Dfuzz=true build for the targets).
set -eu
cd "$(dirname "$0")/../.."
native=${1:?usage: make-corpus.sh NATIVE_BUILDDIR FUZZ_BUILDDIR}
fuzz=${2:?usage: make-corpus.sh NATIVE_BUILDDIR FUZZ_BUILDDIR}
corpus=tests/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kt="$native/tools/cloakfs-keytool"
enc="$native/tools/cloakfs-enc"

# ---- fuzz_config: the passphrase is FUZZ_PASS in fuzz_config.c
rm -rf "$corpus/fuzz_config"
mkdir -p "$corpus/fuzz_config"
echo "fuzz passphrase" >"$tmp/pass"
echo "second" >"$tmp/pass2"
for spec in "speck128-xts 4096 255" "speck64-xts 512 64" "aes256-xts 65536 128" "sm4-xts 1024 200" "camellia256-xts 4096 64"; do
	read -r cipher sector name_max <<<"$spec"
	"$kt" init --cipher "$cipher" --sector-size "$sector" --name-max "$name_max" \
		--kdf-time 0.001 --kdf-memory 1 --passfile "$tmp/pass" "$tmp/$cipher" >/dev/null
	cp "$tmp/$cipher/cloakfs.conf" "$corpus/fuzz_config/$cipher.conf"
done
"$kt" add-passphrase --kdf-time 0.001 --kdf-memory 1 --passfile "$tmp/pass" \
	--new-passfile "$tmp/pass2" "$tmp/speck128-xts" >/dev/null
cp "$tmp/speck128-xts/cloakfs.conf" "$corpus/fuzz_config/two-slots.conf"
# a free slot below a used one: written as { }
"$kt" remove-slot --passfile "$tmp/pass" "$tmp/speck128-xts" 0 >/dev/null
cp "$tmp/speck128-xts/cloakfs.conf" "$corpus/fuzz_config/slot-gap.conf"

# ---- fuzz_config (cheap configs), fuzz_header, fuzz_names: by the targets
# -runs=0: a target without the hook must not start fuzzing here
CLOAKFS_FUZZ_WRITE_SEEDS="$PWD/$corpus/fuzz_config" "$fuzz/tests/fuzz/fuzz_config" -runs=0 >/dev/null 2>&1
for t in fuzz_header fuzz_names; do
	rm -rf "${corpus:?}/$t"
	mkdir -p "$corpus/$t"
	CLOAKFS_FUZZ_WRITE_SEEDS="$PWD/$corpus/$t" "$fuzz/tests/fuzz/$t" -runs=0 >/dev/null 2>&1
done

# ---- fuzz_daemon_frame
rm -rf "$corpus/fuzz_daemon_frame"
mkdir -p "$corpus/fuzz_daemon_frame"
python3 - "$corpus/fuzz_daemon_frame" <<'PY'
import struct, sys
out = sys.argv[1]
def frame(t, payload=b"", version=1):
    body = bytes([version, t]) + payload
    return struct.pack(">I", len(body)) + body
ID = bytes(range(0x00, 0x100, 0x11))            # 00 11 22 ... ff
ID2 = bytes(range(16))
def add(id_, key, path, ttl=0):
    return frame(1, id_ + struct.pack(">IB", ttl, len(key)) + key +
                 struct.pack(">H", len(path)) + path)
def p2(path):
    return struct.pack(">H", len(path)) + path
def add2(id_, key, path, alias, ttl=0):
    return frame(1, id_ + struct.pack(">IB", ttl, len(key)) + key + p2(path) +
                 p2(alias), version=2)
seeds = {
    "get-example": frame(2, ID),                  # docs/daemon-protocol.md
    "add-get-list-remove": add(ID, bytes(32), b"/home/u/vol") + frame(2, ID) +
        frame(4) + frame(3, ID) + frame(5),
    "add-expiring-subscribe": add(ID2, b"\x01" * 64, b"/v" * 200, ttl=1) +
        frame(6, ID2) + add(ID, b"k", b"", ttl=0xffffffff) + frame(4),
    "add-replace-lock": add(ID, b"a" * 16, b"p") + add(ID, b"b" * 64, b"q") + frame(5),
    "register-remove-lock": frame(7, ID2) + frame(7, ID2) + frame(3, ID2) +
        add(ID2, b"k" * 64, b"/v") + frame(5) + frame(3, ID2),
    "truncated": add(ID, bytes(32), b"/x")[:-3],
    "oversize": struct.pack(">I", 8449) + b"\x02\x02",
    "bad-version": frame(2, ID, version=3),
    # version 2: ADD with an alias, SUBSCRIBE and REGISTER with paths, LOCK_PATH
    "v2-add-subscribe-lock-path": add2(ID, bytes(32), b"/real/vol", b"/home/u/vol") +
        frame(6, ID + p2(b"/m/real") + p2(b"/m/given"), version=2) +
        frame(7, ID2 + p2(b"") + p2(b""), version=2) +
        frame(8, p2(b"/home/u/vol"), version=2) + frame(8, p2(b"rel"), version=2),
    "v2-mixed-version": frame(4, version=2) + frame(4),
    "unknown-type": frame(0x82, b"\x20" + bytes(32) + b"\0\0\x0e\x10"),
}
for name, data in seeds.items():
    open(f"{out}/{name}", "wb").write(data)
PY

# ---- fuzz_enc: count byte, NUL-separated arguments, then stdin
rm -rf "$corpus/fuzz_enc"
mkdir -p "$corpus/fuzz_enc"
enc_seed() { # enc_seed NAME STDIN-FILE ARG...: one seed
	local name=$1 input=$2
	shift 2
	{
		printf "\\x$(printf %02x $#)"
		printf '%s\0' "$@"
		cat "$input"
	} >"$corpus/fuzz_enc/$name"
}
k32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
k64=$k32$k32
iv16=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
printf 'thirty-three bytes of plaintext..' >"$tmp/in33"
printf 'abc' >"$tmp/in3"
: >"$tmp/empty"
enc_seed xts-aes "$tmp/in33" --alg 'xts(aes)' --key "$k64" --iv "$iv16" --encrypt
enc_seed xts-speck64 "$tmp/in33" -a 'xts(speck64)' -k "$k32" -i f0f1f2f3f4f5f6f7 -D
enc_seed cts-sm4 "$tmp/in33" -a 'cts(cbc(sm4))' -k "${k32:0:32}" -i "$iv16" -e
enc_seed ctr-driver "$tmp/in3" -d ctr-aes-generic -k "$k32" -i "$iv16" -e -v
enc_seed table-driver "$tmp/in33" -d cbc-sm4-table -k "${k32:0:32}" -i "$iv16" -D
enc_seed sha512 "$tmp/in3" --alg sha512
enc_seed hmac "$tmp/empty" --alg 'hmac(sha512)' --key "$k32"
enc_seed list "$tmp/empty" --list
enc_seed help "$tmp/empty" --help
enc_seed bad "$tmp/in3" -a 'cbc(nothing)' -e --bogus
"$enc" -a 'rfc7539(chacha20,poly1305)' -k "$k32" -i 000000000000004a00000000 \
	-A 50515253c0c1c2c3c4c5c6c7 -e <"$tmp/in33" >"$tmp/sealed"
enc_seed aead-open "$tmp/sealed" -a 'rfc7539(chacha20,poly1305)' -k "$k32" \
	-i 000000000000004a00000000 -A 50515253c0c1c2c3c4c5c6c7 -D
enc_seed aead-seal "$tmp/in3" -a 'rfc7539(chacha20,poly1305)' -k "$k32" \
	-i 000000000000004a00000000 -e

du -sb "$corpus"/* | sed "s/^/corpus bytes: /"
