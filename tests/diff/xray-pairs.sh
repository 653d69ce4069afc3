#!/bin/bash
# xray-pairs.sh - the diff fixtures' XRay recordings (the same runs of pair.c as the uftrace
# ones, by clang-14 -fxray-instrument) give the same function rows and changes as uftrace's
# own `report --diff` of the uftrace recordings (compare_pairs.py: calls and rows exactly,
# total times to the recordings' timing), and so does a diff across formats (OTHER an XRay
# log, PATH uftrace data: functions match by name).  --style=xray --diff prints llvm-xray
# account's rows of PATH and OTHER's own rows as llvm-xray account prints them for each log,
# and the change lines are the differences of those (check_account_diff.py).  The instrumented binaries are rebuilt
# (build-pair.sh); when the rebuild differs from the binaries the logs were recorded with,
# the test is skipped.
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/diff
tg_need_dir "$data"
tg_need_cmd clang-14
BUILD_PAIR_XRAY_ONLY=1 bash "$TG_TESTS/diff/build-pair.sh" "$TG_TMP/b" >"$TG_TMP/build.log" 2>&1 ||
    tg_skip "cannot build the XRay workload: $(tail -1 "$TG_TMP/build.log")"
[ "$(cd "$TG_TMP/b" && sha256sum xray-a xray-b)" = "$(cat "$data/xray.sha256")" ] ||
    tg_skip "the rebuilt XRay binaries differ from the ones the logs were recorded with"
cd "$data" || exit 1
fields=(-f total,self,call --diff-policy full)
compare() { # NAME EXPECTED [RUN_PATH RUN_OTHER]
    if /usr/bin/python3 "$TG_TESTS/diff/compare_pairs.py" "$2" "$TG_TMP/out" ${3:-} ${4:-} >"$TG_TMP/why"; then
        tg_pass "$1"
    else
        tg_fail "$1" "$(cat "$TG_TMP/why")"
    fi
}
for p in inputs:a4:a8 builds:a4:b4; do
    IFS=: read -r pair path other <<<"$p"
    bin_path=$TG_TMP/b/xray-${path:0:1} bin_other=$TG_TMP/b/xray-${other:0:1}
    if tg_run "$TG" report --diff "$other.xray" --diff-instr-map "$bin_other" --instr-map "$bin_path" \
        "${fields[@]}" "$path.xray"; then
        compare "$pair: XRay pair against uftrace's diff" "$pair.f-full-all.txt" "$path" "$other"
    else
        tg_fail "$pair: XRay pair" "exit status $?: $(head -3 "$TG_TMP/err")"
    fi
    if tg_run "$TG" report --diff "$other.xray" --diff-instr-map "$bin_other" "${fields[@]}" "$path.data"; then
        compare "$pair: XRay OTHER against uftrace PATH" "$pair.f-full-all.txt"
    else
        tg_fail "$pair: across formats" "exit status $?: $(head -3 "$TG_TMP/err")"
    fi
    # --style=xray: llvm-xray account's rows of PATH, each with its change against OTHER
    if tg_run "$TG" report --style=xray -k --diff "$other.xray" --diff-instr-map "$bin_other" \
        --instr-map "$bin_path" "$path.xray" &&
        /usr/bin/python3 "$TG_TESTS/diff/check_account_diff.py" "$TG_TMP/out" \
            "$pair.account-path.txt" "$pair.account-other.txt" >"$TG_TMP/why"; then
        tg_pass "$pair: --style=xray against llvm-xray account of each log"
    else
        tg_fail "$pair: --style=xray" "$(cat "$TG_TMP/why" "$TG_TMP/err")"
    fi
done
tg_done
