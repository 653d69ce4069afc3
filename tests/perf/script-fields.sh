#!/bin/bash
# script-fields.sh - `cat --style=perf -F LIST` against `perf script -F LIST`: on every
# fixture, the list record-fixtures.sh recorded the output of (comm,pid,tid,time,period,
# event,ip,sym,dso: pid/tid together, period of tracepoints, the ip and the chain without
# symbol offsets); then, where Debian's perf 6.1 is installed, lists run live against it on
# the committed fixtures (fields chosen, the defaults with fields added (+) or removed (-),
# a tracepoint's trace field asked of software events, ignored as perf ignores it), and the
# lists perf refuses: a field the samples lack (cpu of a file without it), symoff without
# sym.  An empty --symfs, as the references: every symbol perf's "[unknown]".
. "$(dirname "$0")/../lib.sh"
D=$TG_TEST_DATA/perf
tg_need_dir "$D"
empty=$TG_TMP/empty-symfs
mkdir -p "$empty"
for f in "$D"/*.data; do
    n=$(basename "$f" .data)
    tg_check "$n: perf script -F (recorded)" "$D/$n.script-F.txt" \
        "$TG" cat --style=perf -F comm,pid,tid,time,period,event,ip,sym,dso --symfs "$empty" "$f"
done
if ! command -v perf >/dev/null || ! perf version 2>/dev/null | grep -q '^perf version 6\.1\.'; then
    echo "SKIP: the live -F lists need Debian's perf 6.1 (linux-perf)"
    tg_done
fi
for list in comm,tid,time,event,trace +pid -dso ip,sym,symoff,dso tid,time,event,ip,dso \
    -sym,-symoff +period -ip time,event,trace; do
    for n in cpu-clock cpu-clock-g multi sched sched-g; do
        perf script -i "$D/$n.data" --symfs="$empty" -F "$list" >"$TG_TMP/want" 2>/dev/null
        tg_check "$n: perf script -F $list (live)" "$TG_TMP/want" \
            "$TG" cat --style=perf -F "$list" --symfs "$empty" "$D/$n.data"
    done
done
for case in "cpu-clock cpu" "cpu-clock -sym" "cpu-clock-g -sym"; do
    set -- $case
    if perf script -i "$D/$1.data" --symfs="$empty" -F "$2" >/dev/null 2>&1; then
        tg_fail "$1: perf script -F $2 refused" "perf 6.1 printed it"
    elif "$TG" cat --style=perf -F "$2" --symfs "$empty" "$D/$1.data" >"$TG_TMP/out" 2>&1; then
        tg_fail "$1: perf script -F $2 refused" "traceglot printed it"
    else
        tg_pass "$1: perf script -F $2 refused, as perf refuses it"
    fi
done
tg_done
