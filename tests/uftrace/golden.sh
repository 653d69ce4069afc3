#!/bin/bash
# golden.sh - traceglot's uftrace-compatible outputs against uftrace's own, byte for byte.
#
# usage: golden.sh DIR...   Every NAME.data directory in each DIR (or each NAME.data given
# itself: the build registers one test per recording) is checked against the
# outputs uftrace printed beside it: NAME.replay.txt (replay), NAME.replay-time.txt
# (replay -f time,tid,duration), NAME.report.txt (report), NAME.graph.txt (graph, where it was
# kept), NAME.info.txt (info: compared with the uftrace part of `traceglot info`, from
# "# system information" on).  The expected files
# were written by the real uftrace, never by traceglot.  Skipped when no DIR holds one.
. "$(dirname "$0")/../lib.sh"

check() { # check NAME EXPECTED COMMAND...: only where uftrace's output was recorded
    [ -f "$2" ] && tg_check "$@"
    return 0
}

info_part() { "$TG" info "$1" | sed -n '/^# system information/,$p'; }

found=0
for dir in "$@"; do
    [ -d "$dir" ] || continue
    datas=("$dir"/*.data)
    [ "${dir%.data}" != "$dir" ] && datas=("$dir")
    for data in "${datas[@]}"; do
        [ -d "$data" ] || continue
        found=$((found + 1))
        base=${data%.data}
        name=$(basename "$base")
        check "$name replay" "$base.replay.txt" "$TG" replay "$data"
        check "$name replay -f time,tid,duration" "$base.replay-time.txt" \
            "$TG" replay -f time,tid,duration "$data"
        check "$name report" "$base.report.txt" "$TG" report "$data"
        check "$name graph" "$base.graph.txt" "$TG" graph "$data"
        check "$name info" "$base.info.txt" info_part "$data"
    done
done
[ "$found" = 0 ] && tg_skip "no uftrace data directory in: $*"
tg_done
