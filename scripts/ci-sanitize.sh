#!/bin/bash
# CI section (scripts/test.sh runs every scripts/ci-*.sh BUILDDIR): the
# unit and FUSE tests on an AddressSanitizer + UndefinedBehaviorSanitizer
# build, with leaks at exit as errors. Ends with "N passed, N failed, N
# skipped" (scripts/count_tests.py) and exits non-zero on failure.
#   scripts/ci-sanitize.sh [BUILDDIR]   (builds in BUILDDIR-asan)
#
# - LeakSanitizer checks every process that exits normally: the test
#   programs, the tools (cloakfs-enc, -bench, -keytool), cloakfsd (SIGTERM
#   is a clean exit) and the cloakfs mount (the fs tests fail on its
#   non-zero exit or an "ERROR" on its stderr).
# - UBSan stops at the first report (halt_on_error=1) with a stack trace.
# Cut to fit the CI budget (4.5 minutes with scripts/ci-valgrind.sh, on 2
# cores; the build is most of it): the portable C drivers only (-Dsimd=false:
# sanitized intrinsics files take minutes each to compile; the SIMD cores
# run under memcheck in the constant-time check instead), TEST_QUICK=1 (every driver and path,
# fewer random lengths and SM4 iterations) and CLOAKFS_FSX_OPS=20000 per
# cipher instead of 200000. The constant-time check (suite ct) needs
# valgrind and runs on the plain build, not here.
set -u
cd "$(dirname "$0")/.."
builddir=${1:-build-test}
asan=$builddir-asan
. scripts/deps.sh

start=$(date +%s)
fail() { echo "ci-sanitize.sh: $1"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
cloakfs_install_deps "${cloakfs_demo_deps[@]}" "${cloakfs_test_deps[@]}" || fail "installing dependencies failed"
export CLOAKFS_CRYPTO_CONFIG=""
unset CLOAKFS_CRYPTO

if [ -f "$asan/build.ninja" ]; then
	meson setup --reconfigure "$asan" >/dev/null
else
	meson setup "$asan" -Dwerror=true --buildtype=debugoptimized \
		-Db_sanitize=address,undefined -Db_lundef=false -Dsimd=false >/dev/null
fi || fail "meson setup of $asan failed"
ninja -C "$asan" >/dev/null || { ninja -C "$asan" | tail -30; fail "build of $asan failed"; }
echo "ci-sanitize.sh: built $asan in $(($(date +%s) - start)) s"

# meson sets its own sanitizer options only when these are unset
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# third-party leaks only (libconfig 1.5), each with its reason
export LSAN_OPTIONS=suppressions=$PWD/tests/suppressions/lsan.supp:print_suppressions=0
# Not run here (both run in the plain suite): test_daemon_memory looks at
# the daemon's memory from outside, and ASan makes mlock a no-op (VmLck
# stays 0) and maps terabytes of shadow; the oracle tests (OpenSSL,
# libgcrypt) take two minutes under ASan and add nothing test_drivers
# does not check in our code.
# fs-secrets scans whole address spaces (ASan's shadow is terabytes) and
# fs-workloads is the slowest FUSE module; the other FUSE modules cover
# the same code paths here.
skip=" test_daemon_memory test_oracle_openssl_aes test_oracle_openssl_camellia test_oracle_openssl_chacha_sha test_oracle_openssl_ghash test_oracle_gcrypt_sm4 fs-secrets fs-workloads "
tests=()
while read -r t; do
	t=${t##* / }
	[[ $skip == *" $t "* ]] && continue
	tests+=("$t")
done < <(meson test -C "$asan" --list --no-rebuild --suite crypto --suite volume \
	--suite daemon --suite keytool --suite tools --suite fs 2>/dev/null)
[ ${#tests[@]} -gt 0 ] || fail "no tests in $asan"
rm -f "$asan/meson-logs/asan.json"
# Lightened here, every path still run: test_scale's tree and its fsx
# under a tiny descriptor cache a tenth as large, fs-namespace's random
# sequences a third as long, and test_hostile's 100,000-deep chain (three
# minutes under ASan) left to the plain build. The per-cipher FUSE cases
# run with Speck128, Speck64 (the 8-byte block) and AES: the bitsliced
# SM4 and Camellia C is what ASan slows most, and test_drivers runs those
# ciphers here on their own.
TEST_QUICK=1 CLOAKFS_FSX_OPS=${CLOAKFS_FSX_OPS:-20000} \
	CLOAKFS_TEST_CIPHERS=${CLOAKFS_TEST_CIPHERS-speck128-xts,speck64-xts,aes256-xts} \
	CLOAKFS_SCALE_FILES=2000 CLOAKFS_FSX_OPS_TINY=3000 CLOAKFS_NS_OPS=500 \
	PYTEST_ADDOPTS="-k 'not test_deep_chain'" \
	meson test -C "$asan" --print-errorlogs --num-processes 2 \
	--timeout-multiplier 3 --logbase asan --no-rebuild "${tests[@]}"
status=$?

echo "ci-sanitize.sh: $(($(date +%s) - start)) s"
python3 scripts/count_tests.py --prefix "asan: " "$asan/meson-logs/asan.json"
counted=$?
[ "$status" -eq 0 ] && [ "$counted" -eq 0 ]
