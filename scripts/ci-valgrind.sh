#!/bin/bash
# CI section (scripts/test.sh runs every scripts/ci-*.sh BUILDDIR): the
# crypto and volume tests under valgrind memcheck, on the plain build
# BUILDDIR that test.sh has built (built here if it is not). Any memcheck
# error or leak (definite, indirect or possible) fails the test. Ends with
# "N passed, N failed, N skipped" (scripts/count_tests.py) and exits
# non-zero on failure.
#   scripts/ci-valgrind.sh [BUILDDIR]
#
# Cut to fit the CI budget (valgrind runs 20-50 times slower): the long
# crypto tests (test_drivers, test_sm4_million) and the oracle tests
# (test_oracle_*: OpenSSL, libgcrypt) are not run under memcheck; every driver still runs
# under memcheck in the constant-time check (suite ct), with every key size
# and the SIMD widths and tails. CLOAKFS_MEMCHECK_ALL=1 runs them all.
# The constant-time check (tests/ct, suite ct) is part of the plain meson
# run; it runs here as well when CLOAKFS_CI_CT=1 (for running this script
# alone).
set -u
cd "$(dirname "$0")/.."
builddir=${1:-build-test}
. scripts/deps.sh

start=$(date +%s)
fail() { echo "ci-valgrind.sh: $1"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
cloakfs_install_deps "${cloakfs_demo_deps[@]}" "${cloakfs_test_deps[@]}" || fail "installing dependencies failed"
export CLOAKFS_CRYPTO_CONFIG=""
unset CLOAKFS_CRYPTO

if [ ! -f "$builddir/build.ninja" ]; then
	meson setup "$builddir" -Dwerror=true --buildtype=debugoptimized >/dev/null ||
		fail "meson setup of $builddir failed"
fi
ninja -C "$builddir" >/dev/null || { ninja -C "$builddir" | tail -30; fail "build of $builddir failed"; }

# with --wrapper meson names the log LOGBASE-valgrind
rm -f "$builddir"/meson-logs/memcheck-valgrind.json "$builddir"/meson-logs/memcheck-ct.json
# test_hctr2_oracle is a Python script (memcheck would check the
# interpreter); the drivers it runs are checked in the ct suite
long=" test_drivers test_sm4_million test_hctr2_oracle "
tests=()
while read -r t; do
	t=${t##* / }
	[ "${CLOAKFS_MEMCHECK_ALL:-0}" != 1 ] &&
		{ [[ $long == *" $t "* ]] || [[ $t == test_oracle_* ]]; } && continue
	tests+=("$t")
done < <(meson test -C "$builddir" --list --no-rebuild --suite crypto --suite volume 2>/dev/null)
[ ${#tests[@]} -gt 0 ] || fail "no crypto or volume tests in $builddir"
TEST_QUICK=1 meson test -C "$builddir" --print-errorlogs --num-processes 2 \
	--timeout-multiplier 10 --logbase memcheck --no-rebuild \
	--wrapper "valgrind --quiet --error-exitcode=1 --leak-check=full \
--suppressions=$PWD/tests/suppressions/libconfig-1.5.supp \
--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible" \
	"${tests[@]}"
status=$?
# the ct check runs valgrind itself: not under the wrapper
if [ "${CLOAKFS_CI_CT:-0}" = 1 ]; then
	meson test -C "$builddir" --print-errorlogs --logbase memcheck-ct \
		--no-rebuild --suite ct || status=1
fi

logs=()
for log in memcheck-valgrind memcheck-ct; do
	[ -f "$builddir/meson-logs/$log.json" ] && logs+=("$builddir/meson-logs/$log.json")
done
echo "ci-valgrind.sh: $(($(date +%s) - start)) s"
python3 scripts/count_tests.py --prefix "memcheck: " "${logs[@]}"
counted=$?
[ "$status" -eq 0 ] && [ "$counted" -eq 0 ]
