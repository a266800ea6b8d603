# SPDX-License-Identifier: MIT
# Sourced by the benchmarks that time a cloakfs build (fs-peers.sh,
# gluster-peers.sh): bench_build DIR TARGET... sets DIR up (meson,
# release) when it has no build.ninja and always brings TARGETs up to
# date through ninja, so that a build left from an older checkout is never
# timed under this checkout's name. 0, or 1 with the reason on stderr.
bench_build() {
	local dir=$1
	shift
	echo "building cloakfs in $dir" >&2
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" --buildtype=release -Dwerror=false >/dev/null ||
			{ echo "meson setup of $dir failed" >&2; return 1; }
	fi
	ninja -C "$dir" "$@" >/dev/null ||
		{ echo "building cloakfs in $dir failed" >&2; return 1; }
}
