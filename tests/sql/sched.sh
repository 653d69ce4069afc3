#!/bin/bash
# sched.sh - sched_slice on traces with sched_switch (trace.dat, LTTng kernel CTF): per CPU,
# the slices cover the span from the CPU's first event to the trace's last without a gap or
# an overlap (each begins where the one before it ended), one per sched_switch the peer
# prints on that CPU (`trace-cmd report -t`, `babeltrace2 --clock-seconds`), plus the task
# running before the first, the idle task's as utid 0.
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/python3 ] || tg_skip "no /usr/bin/python3"
per_cpu="SELECT cpu, count(*), sum(utid = 0), sum(dur), min(ts), max(ts + dur)
         FROM sched_slice GROUP BY cpu ORDER BY cpu"
gaps="SELECT count(*) FROM (SELECT ts, dur, lead(ts) OVER (PARTITION BY cpu ORDER BY ts) AS next
                          FROM sched_slice) WHERE next IS NOT NULL AND next != ts + dur"
n=0
check() { # NAME TOOL TEXT TRACE
    local name=$1 tool=$2 text=$3 trace=$4
    if ! tg_run "$TG" sql --format csv "$trace" -q "$per_cpu"; then
        tg_fail "$name" "traceglot sql failed: $(head -3 "$TG_TMP/err")"
        return
    fi
    cp "$TG_TMP/out" "$TG_TMP/slices.csv"
    tg_run /usr/bin/python3 "$TG_TESTS/sql/sched-check.py" "$tool" "$text" "$TG_TMP/slices.csv" &&
        tg_pass "$name: $(tail -1 "$TG_TMP/out")" || { tg_fail "$name" "sched_slice"; cat "$TG_TMP/out"; }
    tg_run "$TG" sql --format csv "$trace" -q "$gaps"
    [ "$(tail -1 "$TG_TMP/out")" = 0 ] && tg_pass "$name: no gap, no overlap" ||
        tg_fail "$name: no gap, no overlap" "$(tail -1 "$TG_TMP/out") slices do not begin where the one before ended"
    n=$((n + 1))
}
if command -v trace-cmd >/dev/null; then
    for f in "$TG_CORPUS"/gen/ftrace/*.dat "$TG_CORPUS"/mixed/*.dat "$TG_CORPUS"/ftrace/*.dat \
             "$TG_CORPUS"/ftrace-func/*.dat "$TG_TEST_DATA"/ftrace/*.dat; do
        [ -f "$f" ] || continue
        trace-cmd report -t "$f" >"$TG_TMP/report.txt" 2>/dev/null || continue
        grep -q " sched_switch: " "$TG_TMP/report.txt" || continue
        check "$(basename "$f")" trace-cmd "$TG_TMP/report.txt" "$f"
    done
fi
if command -v babeltrace2 >/dev/null; then
    for t in "$TG_CORPUS"/ctf-classes/* "$TG_CORPUS"/ctf/babeltrace/succeed/* "$TG_TEST_DATA"/ctf/*; do
        [ -d "$t" ] || continue
        babeltrace2 --clock-seconds "$t" >"$TG_TMP/bt.txt" 2>/dev/null || continue
        grep -q " sched_switch: { cpu_id = " "$TG_TMP/bt.txt" || continue
        check "${t#"$TG_CORPUS"/}" babeltrace2 "$TG_TMP/bt.txt" "$t"
    done
fi
[ "$n" -gt 0 ] || tg_skip "no trace with sched_switch (or neither trace-cmd nor babeltrace2)"
tg_done
