#!/bin/bash
# fgraph-uftrace.sh - a function_graph trace.dat converted to uftrace data lasts, in the real
# uftrace's replay and report, what trace-cmd prints for every call.
#
# uftrace times a call from its entry record to its exit record; the kernel writes
# function_graph's records after the times it takes (calltime, rettime), so the converted
# records must carry those times (tg_event_call_times), not the records' own (0.974 us where
# trace-cmd prints 0.892 us on fgraph-lag-le64-2cpu).  For every function_graph fixture
# (fgraph_uftrace.py): `uftrace replay`'s duration of each call and `uftrace report`'s total
# and calls per function against trace-cmd's committed `report -O fgraph:tailprint` output,
# at uftrace's precision; calls begun before the recording too (an entry at their calltime
# is written for each: ksys_read 15.277 us in uftrace where trace-cmd prints 15.690 us on
# fgraph-le32-2cpu without it).
. "$(dirname "$0")/../lib.sh"
tg_need_cmd uftrace
data=$TG_TEST_DATA/ftrace
here=$(cd "$(dirname "$0")" && pwd)
n=0
for want in "$data"/fgraph-*.report-Ofgraph:tailprint.txt; do
    [ -f "$want" ] || continue
    base=${want%.report-Ofgraph:tailprint.txt}
    for dat in "$base"-v*.dat; do
        name=$(basename "$dat")
        n=$((n + 1))
        rm -rf "$TG_TMP/u"
        if ! tg_run "$TG" convert --to uftrace -o "$TG_TMP/u" "$dat"; then
            tg_fail "$name convert" "$(head -c 300 "$TG_TMP/err")"
            continue
        fi
        tg_run uftrace replay -d "$TG_TMP/u" && cp "$TG_TMP/out" "$TG_TMP/replay.txt"
        tg_run uftrace report -d "$TG_TMP/u" && cp "$TG_TMP/out" "$TG_TMP/report.txt"
        if tg_run /usr/bin/python3 "$here/fgraph_uftrace.py" "$want" "$TG_TMP/replay.txt" \
            "$TG_TMP/report.txt"; then
            tg_pass "$name: $(cat "$TG_TMP/out")"
        else
            tg_fail "$name" "$(cat "$TG_TMP/out" "$TG_TMP/err" | head -c 800)"
        fi
    done
done
[ "$n" -gt 0 ] || tg_skip "no function_graph fixtures in $data"
tg_done
