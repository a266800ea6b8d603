#!/bin/bash
# The main job on a fresh Debian 12 machine: install what is missing,
# build, list the crypto drivers this CPU runs, and encrypt and decrypt a
# file with Speck128/256-XTS and AES-256-XTS through cloakfs-enc, showing
# the ciphertext. (Becomes the filesystem demo once fs/ lands.)
set -eu
cd "$(dirname "$0")/.."
. scripts/deps.sh
cloakfs_install_deps
builddir=build
if [ -f "$builddir/build.ninja" ]; then
	meson setup --reconfigure "$builddir" >/dev/null
else
	meson setup "$builddir" --buildtype=release >/dev/null
fi
ninja -C "$builddir" >/dev/null
enc=$builddir/tools/cloakfs-enc
bench=$builddir/tools/cloakfs-bench

echo "== drivers on this machine (cloakfs-bench --list)"
"$bench" --list

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'Hello from cloakfs. This sector is encrypted with XTS; the last\nbytes are ciphertext-stolen, so the size does not change.\n' >"$tmp/plain.txt"
key=$(head -c 64 /dev/urandom | xxd -p | tr -d '\n')
tweak=00000000000000000000000000000000   # sector 0
for alg in 'xts(speck128)' 'xts(aes)'; do
	echo
	echo "== $alg"
	"$enc" --verbose --alg "$alg" --key "$key" --iv "$tweak" --encrypt <"$tmp/plain.txt" >"$tmp/cipher.bin"
	echo "plaintext  $(stat -c %s "$tmp/plain.txt") bytes, ciphertext $(stat -c %s "$tmp/cipher.bin") bytes:"
	xxd "$tmp/cipher.bin" | head -4
	"$enc" --alg "$alg" --key "$key" --iv "$tweak" --decrypt <"$tmp/cipher.bin" >"$tmp/back.txt"
	if cmp -s "$tmp/plain.txt" "$tmp/back.txt"; then
		echo "decrypted back:"
		sed 's/^/  /' "$tmp/back.txt"
	else
		echo "round trip FAILED for $alg" >&2
		exit 1
	fi
done
echo
echo "== speed of the default Speck128/256-XTS driver at 4 KiB"
"$bench" --alg 'xts(speck128)' --size 4096 --seconds 0.1 --runs 2
