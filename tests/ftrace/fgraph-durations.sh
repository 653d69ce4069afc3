#!/bin/bash
# fgraph-durations.sh - function_graph calls last what the tracer measured, in every consumer
# of the one call-stack builder: `replay`, `report` and SQL's slice.dur against trace-cmd's
# printed durations.
#
# The kernel's function_graph tracer takes a call's times itself (calltime, rettime) and
# writes its entry and exit records after them, so the record times make every call longer;
# trace-cmd prints rettime - calltime.  tests/ftrace/build-func-fixtures.py builds
# fgraph-lag-* from the format's definition with records written some 100-300 ns after the
# times they carry, nested calls and a call interrupted by an IRQ; the real trace-cmd's
# `report -O fgraph:tailprint` output is committed beside it (record-func-fixtures.sh).
# For every function_graph fixture, trace-cmd's calls (fgraph_calls.py: name and duration
# of each leaf line and closing line) must be, as multisets:
#   - SQL `select name, dur from slice`: the same durations to the nanosecond;
#   - `replay`: the same durations as uftrace's time column prints them;
#   - `report`: per function, the calls and the total time (the sum) as printed;
# and `report`'s every row (total, self, calls) is what SQL's slices sum to, for every fixture
# (the command's check for calls once read a trace.dat's streams before its own pass, which
# then began where that read stopped: vfs_read 45.184 us where its calls sum to 60.306 us).
# Calls whose entry precedes the trace (trace-cmd's "}" with no block open) count in all of
# them: the exit holds calltime and rettime (report once counted them, SQL dropped them:
# ksys_read 4 calls against 3 on fgraph-le32-2cpu).  The fixtures whose durations trace-cmd
# prints in whole microseconds (7 digits) compare slice.dur in whole microseconds.
. "$(dirname "$0")/../lib.sh"
data=$TG_TEST_DATA/ftrace
here=$(cd "$(dirname "$0")" && pwd)
n=0
for want in "$data"/fgraph-*.report-Ofgraph:tailprint.txt; do
    [ -f "$want" ] || continue
    base=${want%.report-Ofgraph:tailprint.txt}
    dat=$base-v6.dat
    name=$(basename "$base")
    n=$((n + 1))
    if ! tg_run "$TG" sql --format csv "$dat" -q "select name, dur from slice"; then
        tg_fail "$name sql" "$(head -c 300 "$TG_TMP/err")"
        continue
    fi
    cp "$TG_TMP/out" "$TG_TMP/sql.txt"
    tg_run "$TG" sql --format csv "$dat" -q "select name, count(*) as calls, sum(dur) as total,
        sum(self_dur) as self from slice group by name" && cp "$TG_TMP/out" "$TG_TMP/sums.txt"
    tg_run "$TG" replay "$dat" && cp "$TG_TMP/out" "$TG_TMP/replay.txt"
    tg_run "$TG" report "$dat" && cp "$TG_TMP/out" "$TG_TMP/report.txt"
    if tg_run /usr/bin/python3 "$here/fgraph_calls.py" "$want" "$TG_TMP/sql.txt" \
        "$TG_TMP/replay.txt" "$TG_TMP/report.txt" "$TG_TMP/sums.txt"; then
        tg_pass "$name: $(cat "$TG_TMP/out")"
    else
        tg_fail "$name" "$(cat "$TG_TMP/out" "$TG_TMP/err" | head -c 800)"
    fi
done
[ "$n" -gt 0 ] || { echo "SKIP: no function_graph fixtures in $data"; exit 77; }
tg_done
