#!/usr/bin/env bash
# json-output.sh - `info --format json`, `stats --format json`, `stats --diff --format json`,
# `report --format json` (uftrace, xray and perf styles), `report --diff --format json` and
# `graph --format json` are one JSON document (read by json_output_check.py, one reader per
# command) that Python's json module parses, carrying the numbers the text prints: per event
# class the count, first and last time (the text's seconds = first_ns/last_ns) and rate, the
# total and lost counts; per trace the path, format and version, stream count, event count
# and classes; per function the report's columns, both runs' and the change under --diff.
# Checked on a uftrace recording, an ftrace trace.dat and a CTF trace (several formats, one
# document each), on two traces merged, and on recorded pairs of runs (tests/data/diff).
. "$(dirname "$0")/../lib.sh"
ex="$TG_TESTS/../examples/fib.uftrace.data"
tg_need_dir "$ex"
traces=("$ex")
for t in "$TG_TEST_DATA/ftrace/all-events-v7.dat" "$TG_TEST_DATA/ctf/cyg"; do
    [ -e "$t" ] && traces+=("$t")
done

check=$TG_TESTS/cli/json_output_check.py
compare() { # NAME KIND TEXT JSON
    local why
    if why=$(/usr/bin/python3 "$check" "$2" "$3" "$4" 2>&1); then tg_pass "$1"; else tg_fail "$1" "$why"; fi
}
# json_agrees NAME KIND TEXT-ARGS... -- JSON-ARGS...: the text and the JSON of a command agree
json_agrees() {
    local name=$1 kind=$2 text=()
    shift 2
    while [ "$1" != "--" ]; do text+=("$1"); shift; done
    shift
    "$TG" "${text[@]}" > "$TG_TMP/text" 2>/dev/null || { tg_fail "$name" "the text run failed"; return; }
    if tg_run "$TG" "$@"; then
        compare "$name" "$kind" "$TG_TMP/text" "$TG_TMP/out"
    else
        tg_fail "$name" "exit $?: $(head -c 300 "$TG_TMP/err")"
    fi
}

for t in "${traces[@]}"; do
    for cmd in stats info; do
        json_agrees "$cmd --format json $(basename "$t"): the text's numbers" $cmd $cmd "$t" \
            -- $cmd --format json "$t"
    done
done
if [ ${#traces[@]} -gt 1 ]; then
    json_agrees "info --format json of two traces" info info "${traces[@]:0:2}" \
        -- info --format json "${traces[@]:0:2}"
fi
tg_check_status "a format that is neither" 2 "$TG" stats --format yaml "$ex"
tg_check_status "sql's csv is not stats's" 2 "$TG" stats --format csv "$ex"
tg_check_status "nor info's" 2 "$TG" info --format table "$ex"
# stats --diff --format json: one document holding the text's numbers
a=$TG_TEST_DATA/ftrace/comm-idle-first-v6.dat b=$TG_TEST_DATA/ftrace/comm-task-first-v6.dat
if [ -f "$a" ] && [ -f "$b" ]; then
    json_agrees "stats --diff --format json: the text's numbers" stats-diff stats --diff "$a" "$b" \
        -- stats --format json --diff "$a" "$b"
fi
# report --format json (uftrace style): the table's rows in its order, each column's number
# in ns, the same as the text prints once formatted as uftrace formats a time
for fields in "" "-f all" "-f call,self-avg -s call"; do
    # shellcheck disable=SC2086
    json_agrees "report --format json $fields: the table's numbers" report report $fields "$ex" \
        -- report --format json $fields "$ex"
done
# report --diff --format json: both runs and the change of each function, in the table's
# order, as the full table (uftrace's own, compared with uftrace by tests/diff) prints them
a=$TG_TEST_DATA/diff/a4.data b=$TG_TEST_DATA/diff/b4.data
if [ -d "$a" ] && [ -d "$b" ]; then
    for policy in full full,percent full,no-abs; do
        for sort in "" "-s call --sort-column 0"; do
            # shellcheck disable=SC2086
            json_agrees "report --diff --format json --diff-policy $policy $sort" report-diff \
                report --diff "$b" --diff-policy $policy $sort "$a" \
                -- report --format json --diff "$b" --diff-policy $policy $sort "$a"
        done
    done
    json_agrees "report --diff --format json, one run lacking functions" report-diff \
        report --diff "$ex" --diff-policy full "$a" -- report --diff "$ex" --format json "$a"
fi
# report --style=xray --format json, with and without --diff: llvm-xray account's rows, the
# change lines of the text's --diff (functions named #ID: no instrumented binary needed)
a=$TG_TEST_DATA/diff/a4.xray b=$TG_TEST_DATA/diff/a8.xray
if [ -f "$a" ] && [ -f "$b" ]; then
    for opt in "" "-sort=count -sortorder=dsc -top=3"; do
        # shellcheck disable=SC2086
        json_agrees "report --style=xray --format json $opt" xray-account \
            report --style=xray $opt "$a" -- report --style=xray --format json $opt "$a"
        # shellcheck disable=SC2086
        json_agrees "report --style=xray --diff --format json $opt" xray-diff \
            report --style=xray --diff "$b" $opt "$a" -- report --style=xray --format json --diff "$b" $opt "$a"
    done
    tg_said "xray --diff is not csv" 2 "text or json, not csv" "$TG" report --style=xray --format csv --diff "$b" "$a"
fi
# report --style=perf --format json: perf report's entries of every event, their periods
# giving the text's percentages (-g none: the document holds no call graph)
for f in cpu-clock cpu-clock-g multi sched; do
    d=$TG_TEST_DATA/perf/$f.data
    [ -f "$d" ] || continue
    for opt in "" "--no-children" "--sort pid,sym" "--sort dso"; do
        # shellcheck disable=SC2086
        json_agrees "report --style=perf --format json $f $opt" perf-report \
            report --style=perf -g none $opt "$d" -- report --style=perf -g none --format json $opt "$d"
    done
done
# graph --format json (uftrace style): the tree and the backtraces of the text, number for
# number, node for node in the text's order
for fn in "" fib; do
    # shellcheck disable=SC2086
    json_agrees "graph --format json $fn: the tree's numbers" graph graph -f total,self,addr "$ex" $fn \
        -- graph --format json "$ex" $fn
done
tg_done
