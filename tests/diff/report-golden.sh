#!/bin/bash
# report-golden.sh - `traceglot report --diff OTHER OPTIONS PATH` against the outputs of
# `uftrace report --diff OTHER OPTIONS -d PATH` that record-pairs.sh stored, for both pairs
# (two inputs, two builds) and every case of cases.txt: diff policies, sort keys, sort
# columns, output fields, averages.  Run in the fixtures' folder with the paths uftrace was
# given, since the header prints them.
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/diff
tg_need_dir "$data"
cd "$data" || exit 1
for p in inputs:a4:a8 builds:a4:b4; do
    IFS=: read -r pair path other <<<"$p"
    while read -r name opts; do
        case "$name" in '' | '#'*) continue ;; esac
        # shellcheck disable=SC2086
        tg_check "$pair $name" "$pair.$name.txt" "$TG" report --diff "$other.data" $opts "$path.data"
    done <"$TG_TESTS/diff/cases.txt"
done
# live: the peer on the same files, when it is installed (the committed outputs say what
# uftrace 0.13 printed; a newer uftrace may differ, so a difference here is only shown)
if command -v uftrace >/dev/null; then
    uftrace report --diff b4.data --diff-policy full,percent -s call -d a4.data >"$TG_TMP/live" 2>/dev/null &&
        tg_check "live builds full,percent -s call" "$TG_TMP/live" \
            "$TG" report --diff b4.data --diff-policy full,percent -s call a4.data
fi
tg_done
