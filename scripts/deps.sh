#!/bin/bash
# The Debian packages cloakfs needs, and an installer for those missing.
# Sourced by demo.sh (the demo's packages only), test.sh and the ci-*.sh
# scripts (the rest as well); installing needs root or sudo, checking
# does not, so an ordinary user runs everything once they are installed.

# build the filesystem and tools, and run the demo
cloakfs_demo_deps=(gcc libc6-dev meson ninja-build pkg-config libconfig-dev
	libsodium-dev libfuse3-dev fuse3 xxd)
# the test suite: pytest for the FUSE tests and what they drive (git, tar,
# gdb's gcore, setpriv in util-linux, setfacl in acl), the oracle
# libraries (OpenSSL, libgcrypt), the ARM cross builds under qemu-user,
# valgrind, and clang with its sanitizer runtimes for ci-fuzz.sh
cloakfs_test_deps=(python3 python3-pytest git tar gdb util-linux acl
	libssl-dev openssl libgcrypt20-dev valgrind
	gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-user
	libc6-dev-arm64-cross libc6-dev-armhf-cross
	clang libclang-rt-14-dev llvm-14
	debhelper build-essential bash-completion python3-cryptography-vectors
	python3-cryptography
	glusterfs-server glusterfs-client gocryptfs
	nfs-ganesha nfs-ganesha-vfs libnfs-utils)
# (debhelper, build-essential and bash-completion: scripts/ci-package.sh
# builds the Debian package, and dpkg-checkbuilddeps wants build-essential
# itself, not only the compiler it pulls in; the other build dependencies
# are the rest of these lists;
# python3-cryptography-vectors: NIST's SHA512LongMsg.rsp for test_sha512_cavp;
# python3-cryptography: the SM4, Camellia and AES of test_hctr2_oracle's
# HCTR2 oracle (tests/crypto/hctr2_oracle.py);
# glusterfs-server and -client: a distributed filesystem on loopback for
# the tests of several machines sharing a volume, tests/fs/gluster.py;
# gocryptfs: the peer those tests measure beside cloakfs, tests/fs/test_shared.py;
# nfs-ganesha, nfs-ganesha-vfs and libnfs-utils: an NFS server and client in
# user space (the kernel may have neither) that export a mount and read it
# back by file handle after cache drops, tests/fs/test_nfs_export.py)

# cloakfs_install_deps PKG...: install those of PKG that are missing
cloakfs_install_deps() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "installing: ${missing[*]}"
	local sudo=""
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq || return 1
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || return 1
}
