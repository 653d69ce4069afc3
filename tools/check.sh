#!/bin/bash
# check.sh - what `make check` runs after installing the packages: every stage timed, the
# stages' times and the total printed at the end (and kept in build/check-times.txt).
#
#   plain build, then the plain suite (exhaustive damage sweeps, style, layers) while the
#   ASan+UBSan build compiles beside it at low priority; then the sanitizer suite (the damage
#   sweeps and the trace-cmd option matrix sampled: every TG_SAMPLE-th case, 8 by default;
#   style and layer checks are not run twice) while the Release builds with gcc and clang-14
#   compile beside it.
# On 2 cores a suite keeps both busy most of the time, but not during its long single tests
# (a damage sweep, a live recording), which is where the build beside it runs.
# Every build uses -Werror (TG_WERROR).  The exit status is the first failing stage's.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CMAKE_FLAGS=${CMAKE_FLAGS:-}
PREFIX=${PREFIX:-/usr/local}
mkdir -p build
times=build/check-times.txt
: >"$times"
t_start=$(date +%s.%N)

# stage NAME CMD...: runs CMD, records "NAME<TAB>seconds<TAB>status"
stage() {
    local name=$1 t0 t1 rc
    shift
    echo "=== $name"
    t0=$(date +%s.%N)
    "$@"
    rc=$?
    t1=$(date +%s.%N)
    printf '%s\t%s\t%s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')" \
        "$rc" >>"$times"
    return "$rc"
}

plain_build() {
    cmake -S . -B build -DCMAKE_INSTALL_PREFIX="$PREFIX" -DTG_WERROR=ON $CMAKE_FLAGS &&
        cmake --build build -j "$JOBS"
}
plain_tests() { (cd build && ctest --output-on-failure -j "$JOBS"); }
asan_build() {
    cmake -S . -B build-asan -DTG_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DTG_WERROR=ON \
        $CMAKE_FLAGS >build/check-asan-build.log 2>&1 &&
        nice -n 10 cmake --build build-asan -j 1 >>build/check-asan-build.log 2>&1
    local rc=$?
    [ $rc = 0 ] || tail -30 build/check-asan-build.log
    return $rc
}
asan_tests() {
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j "$JOBS")
}
release_builds() {
    local rc=0 log=build/check-release.log
    : >"$log"
    cmake -S . -B build-release-gcc -DCMAKE_BUILD_TYPE=Release -DTG_WERROR=ON \
        -DCMAKE_C_COMPILER=gcc $CMAKE_FLAGS >>"$log" 2>&1 &&
        nice -n 10 cmake --build build-release-gcc -j 1 >>"$log" 2>&1 || rc=1
    cmake -S . -B build-release-clang -DCMAKE_BUILD_TYPE=Release -DTG_WERROR=ON \
        -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 $CMAKE_FLAGS >>"$log" 2>&1 &&
        nice -n 10 cmake --build build-release-clang -j 1 >>"$log" 2>&1 || rc=1
    [ $rc = 0 ] || tail -30 "$log"
    return $rc
}

status=0
stage "plain build" plain_build || status=1
if [ $status = 0 ]; then
    stage "ASan+UBSan build (beside the plain suite)" asan_build &
    asan_pid=$!
    stage "plain suite" plain_tests || status=1
    wait "$asan_pid" || status=1
fi
if [ $status = 0 ]; then
    stage "Release builds, gcc and clang-14 (beside the sanitizer suite)" release_builds &
    rel_pid=$!
    stage "ASan+UBSan suite (damage sweeps sampled)" asan_tests || status=1
    wait "$rel_pid" || status=1
fi
t_end=$(date +%s.%N)

echo
echo "make check: stage times (seconds; a stage marked 'beside' ran at the same time as the next)"
awk -F'\t' '{ printf "  %6d  %s%s\n", $2, $1, $3 == 0 ? "" : "  (FAILED)" }' "$times"
total=$(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.0f", b - a }')
printf '  %6d  total (%dm%02ds, wall clock)\n' "$total" $((total / 60)) $((total % 60))
printf 'total\t%s\t%s\n' "$total" "$status" >>"$times"
exit $status
