# tests/lib.sh - the one harness every test script sources (`. "$(dirname "$0")/../lib.sh"`).
#
# It gives each script the same frame, so a script holds only what it checks:
#   TG, TG_CORPUS, TG_TEST_DATA, TG_TESTS   the CLI and the data paths (ctest sets them; a
#                                           script run by hand finds the defaults)
#   TG_TMP                                  a temporary folder, removed when the script exits
#   tg_skip REASON                          exit 77 (ctest: skipped) with the reason
#   tg_need_cmd CMD [WHY]                   skip unless CMD is installed
#   tg_need_dir DIR                         skip unless DIR exists (corpus, fixtures)
#   tg_run CMD...                           run CMD with stdout in $TG_TMP/out and stderr in
#                                           $TG_TMP/err; returns CMD's status, or 125 when it
#                                           crashed, hung (timeout, TG_TIMEOUT s; not
#                                           for a shell function) or a sanitizer
#                                           reported (the report is shown)
#   tg_check NAME EXPECTED CMD...           CMD must exit 0 and print EXPECTED's bytes
#   tg_check_status NAME STATUS CMD...      CMD must exit STATUS (and not crash)
#   tg_same NAME EXPECTED ACTUAL            two files must hold the same bytes (a diff shown)
#   tg_pass NAME / tg_fail NAME WHY         count one check
#   tg_done                                 the summary line; exit 0 only when nothing failed
#                                           and something was checked
#   tg_at_exit CMD                          also run CMD at exit (before TG_TMP is removed;
#                                           a script never sets its own EXIT trap)
#   tg_sampled                              true for the damage-sweep cases to run: all of
#                                           them, or every TG_SAMPLE-th one (the sanitizer
#                                           suite samples the sweeps the plain suite runs whole)
#   tg_matrix_sampled FIXTURE_NO CASE_NO    true for the cases of an options matrix to run:
#                                           all, or one fixture in TG_SAMPLE per option, the
#                                           fixtures rotating with the options so that the
#                                           sanitizer suite's sample spreads over both
# Checks count and go on after a failure, so one run shows every difference.  A script that
# does not run the CLI (a layer probe, the style check) sets TG_NO_CLI=1 before sourcing.
set -u
tg_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TG=${TG:-$tg_root/build/traceglot}
TG_CORPUS=${TG_CORPUS:-$tg_root/../shared/corpus}
TG_TEST_DATA=${TG_TEST_DATA:-$tg_root/tests/data}
TG_TESTS=${TG_TESTS:-$tg_root/tests}
TG_TIMEOUT=${TG_TIMEOUT:-120}
[ "${TG_NO_CLI:-0}" = 1 ] || [ -x "$TG" ] ||
    { echo "FAIL: no traceglot binary at $TG (build first, or set TG)"; exit 1; }
TG_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tg-test.XXXXXX")
tg_exit_cmds=""
trap 'eval "$tg_exit_cmds"; rm -rf "$TG_TMP"' EXIT
tg_checked=0
tg_failed=0
TG_SAMPLE=${TG_SAMPLE:-1}
tg_case_no=0

tg_at_exit() {
    tg_exit_cmds="${tg_exit_cmds}$1;"
}

tg_sampled() {
    tg_case_no=$((tg_case_no + 1))
    [ "$TG_SAMPLE" -le 1 ] || [ $((tg_case_no % TG_SAMPLE)) -eq 1 ]
}

tg_matrix_sampled() {
    [ "$TG_SAMPLE" -le 1 ] || [ $((($1 + $2) % TG_SAMPLE)) -eq 0 ]
}

tg_skip() {
    echo "SKIP: $*"
    exit 77
}

tg_need_cmd() {
    command -v "$1" >/dev/null 2>&1 || tg_skip "$1 is not installed${2:+ ($2)}"
}

tg_need_dir() {
    [ -d "$1" ] || tg_skip "no folder $1"
}

tg_pass() {
    tg_checked=$((tg_checked + 1))
    echo "ok   $1"
}

tg_fail() {
    tg_checked=$((tg_checked + 1))
    tg_failed=$((tg_failed + 1))
    echo "FAIL $1${2:+: $2}"
}

# A sanitizer's report or a crash counts whatever the exit status says.
tg_sanitizer_report() {
    grep -q -e 'Sanitizer' -e 'runtime error:' -e 'LeakSanitizer' "$1"
}

tg_run() {
    local rc
    if declare -F "$1" >/dev/null; then # a shell function of the script: no timeout wrapper
        "$@" >"$TG_TMP/out" 2>"$TG_TMP/err"
    else
        timeout "$TG_TIMEOUT" "$@" >"$TG_TMP/out" 2>"$TG_TMP/err"
    fi
    rc=$?
    if [ "$rc" -ge 124 ] || tg_sanitizer_report "$TG_TMP/err"; then
        echo "  crashed, hung or reported by a sanitizer (exit $rc): $*"
        head -20 "$TG_TMP/err" | sed 's/^/  /'
        return 125
    fi
    return "$rc"
}

tg_same() {
    if cmp -s "$2" "$3"; then
        tg_pass "$1"
    else
        tg_fail "$1" "differs from $2"
        diff "$2" "$3" | head -20
    fi
}

tg_check() {
    local name=$1 expected=$2
    shift 2
    tg_run "$@"
    local rc=$?
    if [ "$rc" != 0 ]; then
        tg_fail "$name" "exit status $rc ($(head -c 300 "$TG_TMP/err"))"
        return 0
    fi
    tg_same "$name" "$expected" "$TG_TMP/out"
}

tg_check_status() {
    local name=$1 want=$2
    shift 2
    tg_run "$@"
    local rc=$?
    if [ "$rc" = "$want" ]; then
        tg_pass "$name"
    else
        tg_fail "$name" "exit status $rc, expected $want ($(head -c 300 "$TG_TMP/err"))"
    fi
}

# tg_said NAME STATUS PATTERN CMD... - CMD exits STATUS and its stderr holds PATTERN
tg_said() {
    local name=$1 want=$2 pattern=$3
    shift 3
    tg_run "$@"
    local rc=$?
    if [ "$rc" != "$want" ]; then
        tg_fail "$name" "exit $rc, expected $want ($(head -c 300 "$TG_TMP/err"))"
    elif ! grep -qF -- "$pattern" "$TG_TMP/err"; then
        tg_fail "$name" "stderr lacks '$pattern': $(head -c 300 "$TG_TMP/err")"
    else
        tg_pass "$name"
    fi
}

tg_done() {
    echo "$tg_checked checks, $tg_failed failed"
    [ "$tg_checked" -gt 0 ] || { echo "FAIL: nothing was checked"; exit 1; }
    [ "$tg_failed" = 0 ] || exit 1
    exit 0
}
