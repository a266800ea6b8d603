#!/bin/bash
# Install the Debian packages cloakfs needs to build and test, only those
# missing. Sourced by test.sh and demo.sh; run as root or with sudo.
# debhelper and bash-completion: scripts/ci-package.sh builds the Debian
# package (its build dependencies are the rest of this list).
cloakfs_install_deps() {
	local pkgs=(gcc libc6-dev meson ninja-build pkg-config libconfig-dev
		libsodium-dev libfuse3-dev fuse3 libssl-dev openssl libgcrypt20-dev
		xxd python3 gdb gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-user
		libc6-dev-arm64-cross libc6-dev-armhf-cross
		python3-pytest git tar valgrind
		debhelper bash-completion
		"$@")
	local missing=() p
	for p in "${pkgs[@]}"; do
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
