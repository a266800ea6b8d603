#!/bin/bash
# CI section (scripts/test.sh runs every scripts/ci-*.sh BUILDDIR): the
# daemon and filesystem tests on a ThreadSanitizer build. Any report of
# any process (the mount, cloakfsd, the tools, the test programs) fails
# the run: every process writes its reports to BUILDDIR-tsan/tsan-reports/
# (TSAN_OPTIONS log_path), which must stay empty, and exits 66 after one.
# Ends with "N passed, N failed, N skipped" (scripts/count_tests.py) and
# exits non-zero on failure.
#   scripts/ci-tsan.sh [BUILDDIR]   (builds in BUILDDIR-tsan)
#
# Cut to fit the CI budget (the whole of test.sh in 20 minutes on 2 cores;
# TSan runs the mount 5-15 times slower): only what the tests run is built,
# the portable C drivers only (-Dsimd=false), and the modules that drive
# the mount from several threads and processes at once: fs-posix (its
# concurrency tests), fs-ciphertext (concurrent listers), fs-cli and
# fs-daemon (key changes under a live mount), fs-fsx with
# CLOAKFS_FSX_OPS=5000 per cipher; the daemon tests but
# test_daemon_memory, which reads the daemon's whole address space (TSan's
# shadow is terabytes). The other modules (one process at a time, or a
# shim that serializes the mount's writes) run in the plain and ASan
# builds. CLOAKFS_TSAN_TESTS="fs-posix test_daemon_basic" runs some only.
set -u
cd "$(dirname "$0")/.."
builddir=${1:-build-test}
tsan=$builddir-tsan
. scripts/deps.sh

start=$(date +%s)
fail() { echo "ci-tsan.sh: $1"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
cloakfs_install_deps "${cloakfs_demo_deps[@]}" "${cloakfs_test_deps[@]}" ||
	fail "installing dependencies failed"
export CLOAKFS_CRYPTO_CONFIG=""
unset CLOAKFS_CRYPTO

tests=(${CLOAKFS_TSAN_TESTS:-test_daemon_basic test_daemon_protocol test_daemon_peer
	test_daemon_limits test_daemon_lockpath fs-posix fs-ciphertext fs-cli fs-daemon fs-fsx})
# what those tests run (ninja targets)
targets=(fs/cloakfs daemon/cloakfsd tools/cloakfs-keytool tools/cloakfs-fsck
	tests/fs/fs_mkvol tests/fs/fs_fsx tests/fs/fs_keydump tests/fs/fsck_forge
	tests/fs/libfs_eio_preload.so tests/fs/libfs_crash_preload.so
	tests/daemon/test_daemon_basic tests/daemon/test_daemon_protocol
	tests/daemon/test_daemon_peer tests/daemon/test_daemon_limits
	tests/daemon/test_daemon_lockpath)

if [ -f "$tsan/build.ninja" ]; then
	meson setup --reconfigure "$tsan" >/dev/null
else
	meson setup "$tsan" -Dwerror=true --buildtype=debugoptimized \
		-Db_sanitize=thread -Db_lundef=false -Dsimd=false \
		-Doracle_tests=disabled >/dev/null
fi || fail "meson setup of $tsan failed"
ninja -C "$tsan" "${targets[@]}" >"$tsan/build.log" 2>&1 ||
	{ tail -30 "$tsan/build.log"; fail "build of $tsan failed"; }
echo "ci-tsan.sh: built $tsan in $(($(date +%s) - start)) s"

reports=$PWD/$tsan/tsan-reports
rm -rf "$reports"
mkdir -p "$reports"
# every report to its own file; the mount's also count through its exit
# status (66) and the fs tests' stderr check
export TSAN_OPTIONS="log_path=$reports/tsan exitcode=66 second_deadlock_stack=1 history_size=4"
rm -f "$tsan/meson-logs/tsan.json"
# races are in the fs, daemon and volume code, which is the same for every
# cipher of a block size: the fast generic ciphers only (every cipher runs
# in the plain suite)
TEST_QUICK=1 CLOAKFS_FSX_OPS=${CLOAKFS_FSX_OPS:-5000} \
	CLOAKFS_TEST_CIPHERS=${CLOAKFS_TEST_CIPHERS-speck128-xts,speck64-xts,aes256-xts} \
	meson test -C "$tsan" --print-errorlogs --num-processes 2 \
	--timeout-multiplier 4 --logbase tsan --no-rebuild "${tests[@]}"
status=$?

if [ -n "$(ls -A "$reports")" ]; then
	echo "ci-tsan.sh: ThreadSanitizer reports:"
	for r in "$reports"/*; do
		echo "---- $r"
		head -60 "$r"
	done
	echo "fail: tsan: $(ls "$reports" | wc -l) process(es) with a ThreadSanitizer report"
	status=1
fi
echo "ci-tsan.sh: $(($(date +%s) - start)) s"
python3 scripts/count_tests.py --prefix "tsan: " "$tsan/meson-logs/tsan.json" >"$tsan/count.txt"
counted=$?
if [ "$status" -ne 0 ] && [ "$counted" -eq 0 ]; then
	# a report the tests did not notice still fails the run
	sed -i '$ s/^\([0-9]*\) passed, 0 failed/\1 passed, 1 failed/' "$tsan/count.txt"
fi
cat "$tsan/count.txt"
[ "$status" -eq 0 ] && [ "$counted" -eq 0 ]
